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
