"""docs/architecture.md §4 says a new learner touches one module plus one registry entry. This test does exactly
that to a copy of the package (the worked example, ``ml-shrunk``) and checks the closed form, the Python API, the
command line's `fit --method ml-shrunk --shrinkage` and the registry's validation, with nothing else changed."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MODULE = '''\
"""``ml-shrunk``: maximum likelihood shrunk toward the uniform row (docs/architecture.md §4)."""
from __future__ import annotations

import time

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.learn.params.base import FitResult
from bnstudio.learn.params.checks import check_number
from bnstudio.learn.params.counting import one_shot, training_scores
from bnstudio.learn.params.floor import floor_rows
from bnstudio.learn.params.suffstats import check_codes, family_counts


class ShrunkMaximumLikelihood:
    """``ml-shrunk``: θ = (1 − λ) · ML + λ · uniform, rows of families never observed uniform."""

    name = "ml-shrunk"

    def __init__(self, shrinkage: float = 0.1) -> None:
        self.shrinkage = check_number("shrinkage", shrinkage, low=0.0, high=1.0)

    def fit(self, net, data, weights=None, target=None, validation=None, reporter=None) -> FitResult:
        start = time.perf_counter()
        codes, weights = check_codes(net, data, weights)
        counts = family_counts(net, codes, weights)
        cpts = {v: floor_rows((1 - self.shrinkage) * normalise_rows(c) + self.shrinkage / c.shape[-1])
                for v, c in counts.items()}
        scores = training_scores(net, cpts, counts, codes, weights, target)
        return one_shot(self.name, net, cpts, None, scores, target, validation, reporter,
                        {"shrinkage": self.shrinkage}, start)
'''

ENTRY = '''    LearnerEntry("ml-shrunk", "parameters", _PARAMS + "shrinkage:ShrunkMaximumLikelihood",
                 "maximum likelihood shrunk toward uniform", (SHRINKAGE,)),
)
'''

CHECK = '''
import json, sys, warnings
import numpy as np
from bnstudio.cli.main import main
from bnstudio.errors import ValidationError
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.sampling import forward_sample

warnings.simplefilter("ignore")
source, folder = sys.argv[1], sys.argv[2]
net = read_network(source)
data = forward_sample(net, 300, seed=1)
ml = make_learner("ml").fit(net, data).network(net)
shrunk = make_learner("ml-shrunk", shrinkage=0.2).fit(net, data).network(net)
worst = max(float(np.abs(shrunk.cpt(v) - (0.8 * ml.cpt(v) + 0.2 / net.cardinality(v))).max()) for v in net.variables)
try:
    make_learner("ml-shrunk", shrinkage=2.0)
    refused = False
except ValidationError:
    refused = True
lines = [",".join(net.variables)] + [",".join(net.states(v)[c] for v, c in zip(net.variables, row)) for row in data]
open(folder + "/data.csv", "w").write("\\n".join(lines) + "\\n")
code = main(["fit", source, folder + "/data.csv", "--method", "ml-shrunk", "--shrinkage", "0.2",
             "-o", folder + "/fitted.bif"])
fitted = read_network(folder + "/fitted.bif")
cli_worst = max(float(np.abs(fitted.cpt(v) - shrunk.cpt(v)).max()) for v in net.variables)
print(json.dumps({"worst": worst, "refused": refused, "cli": code, "cli_worst": cli_worst}))
'''


def _patched_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "bnstudio", copy / "bnstudio", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "bnstudio" / "learn" / "params" / "shrinkage.py").write_text(MODULE, encoding="utf-8")
    registry = copy / "bnstudio" / "learn" / "registry.py"
    text = registry.read_text(encoding="utf-8")
    start = text.index("PARAMETER_LEARNERS: tuple[LearnerEntry, ...] = (")
    end = text.index("\n)\n", start) + 1
    text = text[:end] + ENTRY + text[end + 2:]
    text = text.replace('\n_ITERATIVE = (', '\nSHRINKAGE = Option("shrinkage", "float", "weight of the uniform row", '
                        '"Shrinkage", low=0.0, high=1.0)\n_ITERATIVE = (', 1)
    registry.write_text(text, encoding="utf-8")
    return copy


def test_the_worked_example_needs_one_module_and_one_entry(tmp_path):
    copy = _patched_copy(tmp_path)
    out = subprocess.run([sys.executable, "-c", CHECK, str(ROOT / "resources" / "networks" / "asia.bif"),
                          str(tmp_path)], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(copy)},
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.splitlines()[-1])
    assert found["refused"] and found["cli"] == 0
    assert found["worst"] < 1e-8    # θ = 0.8 ML + 0.2 uniform, the closed form (ML floors unseen cells at 1e-9)
    assert found["cli_worst"] < 1e-6       # the command line fits the same (through a BIF file's digits)


def test_the_unmodified_package_has_no_such_method():
    """The check above can fail: without the entry `ml-shrunk` is unknown."""
    from bnstudio.errors import ValidationError
    from bnstudio.learn.params import make_learner

    try:
        make_learner("ml-shrunk")
    except (ValidationError, KeyError, ValueError):
        return
    raise AssertionError("ml-shrunk exists without its registry entry")
