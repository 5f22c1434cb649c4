"""docs/python.md runs as written (from the repository root, its blocks in order) and its GridSearchCV picks the
penalty a loop of cross_val_score picks."""
from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def test_the_python_page_runs_as_written(capsys):
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    cwd = os.getcwd()
    namespace: dict = {}
    try:
        os.chdir(ROOT)
        exec(compile("\n".join(blocks), "docs/python.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "Posterior(lung | smoke=yes, xray=yes: " in out and "<Network 'unknown': 8 variables" in out
    from sklearn.model_selection import cross_val_score

    grid, folds = namespace["grid"], namespace["folds"]
    means = [cross_val_score(namespace["BNClassifier"](structure="tan", method="clgd", l2=l2), namespace["numbers"],
                             namespace["label"], cv=folds, scoring="neg_log_loss").mean()
             for l2 in grid.param_grid["l2"]]
    assert grid.best_params_["l2"] == grid.param_grid["l2"][int(np.argmax(means))]


def test_help_of_the_package_opens_with_a_quickstart_that_runs():
    import bnstudio
    from bnstudio.resources import bundled_example

    doc = bnstudio.__doc__ or ""
    assert doc.splitlines()[2] == "Quickstart::"
    for place in ("bnstudio.learn", "bnstudio.uncertainty", "bnstudio.evaluate", "error_bars", "cross-validation"):
        assert place in " ".join(doc.split())
    code = re.search(r"Quickstart::\n\n((?:    .*\n)+)", doc)
    assert code
    source = "\n".join(line[4:] for line in code.group(1).splitlines())
    namespace: dict = {}
    exec(source.replace('"asia.bif"', repr(str(bundled_example("asia.bif")))), namespace)
    assert namespace["rows"].shape == (1000, 8)
