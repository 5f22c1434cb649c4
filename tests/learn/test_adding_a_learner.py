"""docs/architecture.md §4 says a new learner touches one module plus one registry entry. This test takes both
from that page (the worked examples: the parameter learner ``ml-shrunk`` and the structure learner
``independent``), makes exactly those changes to a copy of the repository, checks the closed form, the Python API,
the command line and the registry's validation, and runs the copy's own registry-wide tests (every learner
through the conformance checks, the never-broken property and the one learner shape, the training form's
defaults, the structure form's fields) so that a recipe that breaks them — a hard-coded list, a dispatch on the
name falling through — fails here."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.recipes import ROOT, patched_copy, run_python, run_suite, summary

PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
SECTION = PAGE[PAGE.index("## 4. Adding a learner"):PAGE.index("## 5. House tools")]


def block(first_line: str) -> str:
    """The page's fenced Python block that starts with ``first_line``."""
    found = re.search(r"```python\n(" + re.escape(first_line) + r".*?)```", SECTION, re.S)
    assert found is not None, f"docs/architecture.md §4 has no block starting {first_line!r}"
    return found.group(1)


def module(path: str) -> str:
    return block(f"# {path}\n").split("\n", 1)[1]


def add_entries(text: str) -> str:
    """registry.py with the page's option before the entries and each entry last of its tuple."""
    parameters = block("# bnstudio/learn/registry.py: an option")
    structure = block("# bnstudio/learn/registry.py: the entry, last of STRUCTURE_LEARNERS")
    option = re.search(r"^SHRINKAGE = .*$", parameters, re.M)
    entries = [re.search(r"^    LearnerEntry\(.*?\),\n", b, re.M | re.S) for b in (parameters, structure)]
    assert option is not None and all(entries)
    for tuple_start, entry in zip(("PARAMETER_LEARNERS: tuple[LearnerEntry, ...] = (",
                                   "STRUCTURE_LEARNERS: tuple[LearnerEntry, ...] = ("), entries, strict=True):
        start = text.index(tuple_start)
        end = text.index("\n)\n", start) + 1
        text = text[:end] + entry.group(0) + text[end:]
    at = text.index("\n_ITERATIVE = (")
    return text[:at] + "\n" + option.group(0) + text[at:]


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
from bnstudio.learn.structure.learners import make_structure_learner
import pandas as pd
arcs = make_structure_learner("independent").fit(pd.read_csv(folder + "/data.csv", dtype=str)).arcs
learn = main(["learn", folder + "/data.csv", "-a", "independent", "-o", folder + "/independent.bif"])
learned_arcs = len(read_network(folder + "/independent.bif").arcs())
print(json.dumps({"worst": worst, "refused": refused, "cli": code, "cli_worst": cli_worst, "arcs": arcs,
                  "learn": learn, "learned_arcs": learned_arcs}))
'''


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return patched_copy(tmp_path_factory.mktemp("learner"), {
        "bnstudio/learn/params/shrinkage.py": module("bnstudio/learn/params/shrinkage.py"),
        "bnstudio/learn/structure/independence.py": module("bnstudio/learn/structure/independence.py")},
        {"bnstudio/learn/registry.py": add_entries})


def test_the_worked_examples_need_one_module_and_one_entry_each(copy, tmp_path):
    out = run_python(copy, CHECK, str(ROOT / "resources" / "networks" / "asia.bif"), str(tmp_path), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.splitlines()[-1])
    assert found["refused"] and found["cli"] == 0 and found["learn"] == 0
    assert found["worst"] < 1e-8    # θ = 0.8 ML + 0.2 uniform, the closed form (ML floors unseen cells at 1e-9)
    assert found["cli_worst"] < 1e-6       # the command line fits the same (through a BIF file's digits)
    assert found["arcs"] == [] and found["learned_arcs"] == 0


@pytest.mark.alone          # a pytest run of its own on the copy: after the parallel run (pyproject.toml)
def test_the_copy_passes_its_own_registry_wide_tests(copy):
    result = run_suite(copy, "tests/learn/test_conformance.py", "tests/learn/test_never_broken.py",
                       "tests/learn/test_learner_shape.py",
                       "tests/gui_panels/training/test_validation_views.py::"
                       "test_the_forms_start_at_the_learners_defaults_as_the_command_line",
                       "tests/gui_panels/query/test_structure_panel.py::"
                       "test_the_form_offers_what_the_registry_says_each_algorithm_takes")
    assert result.returncode == 0, summary(result)
    listed = run_suite(copy, "tests/learn/test_conformance.py", "tests/learn/test_learner_shape.py",
                       "--collect-only").stdout
    assert "ml-shrunk" in listed and "independent" in listed
    assert "test_learner_shape.py::test_sklearn_clone_gives_equal_params[ml-shrunk]" in listed


def test_the_unmodified_package_has_no_such_learners():
    """The checks above can fail: without the entries both names are unknown."""
    from bnstudio.errors import ValidationError
    from bnstudio.learn.params import make_learner
    from bnstudio.learn.structure.learners import make_structure_learner

    with pytest.raises(ValidationError):
        make_learner("ml-shrunk")
    with pytest.raises(ValidationError):
        make_structure_learner("independent")
