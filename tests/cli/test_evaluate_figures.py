"""``bnstudio evaluate --figures`` and the AUC/ECE rows: files named by target, a bad folder refused before any
fitting, AUC n/a when the data show one target state; the notebook's ``show(fit, data=...)``."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from bnstudio.cli import main
from bnstudio.display.notebook import compare, show
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner

ROOT = Path(__file__).resolve().parents[2]
ASIA, ASIA_CSV = ROOT / "resources/networks/asia.bif", ROOT / "resources/data/asia.csv"


def test_figures_are_written_and_named(tmp_path, capsys):
    assert main(["evaluate", str(ASIA), str(ASIA_CSV), "--target", "lung", "--figures", str(tmp_path / "a" / "b")]) == 0
    out = capsys.readouterr().out
    assert "auc" in out and "ece" in out and "wrote" in out
    assert {p.name for p in (tmp_path / "a" / "b").iterdir()} == {
        "roc-lung.png", "roc-lung.svg", "reliability-lung.png", "reliability-lung.svg"}
    assert (tmp_path / "a" / "b" / "roc-lung.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_figures_path_that_is_a_file_is_refused_before_fitting(tmp_path, capsys, monkeypatch):
    import bnstudio.evaluate.crossval as crossval

    monkeypatch.setattr(crossval, "cross_validate_scored", lambda *a, **k: pytest.fail("fitted before refusing"))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status = main(["evaluate", str(ASIA), str(ASIA_CSV), "--target", "lung", "--folds", "3", "--method", "mp",
                   "--figures", str(blocker)])
    err = capsys.readouterr().err
    assert status == 2 and "cannot make the figures folder" in err and len(err.strip().splitlines()) == 1


def test_one_target_state_gives_auc_not_available(tmp_path, capsys):
    rows = pd.read_csv(ASIA_CSV, dtype=str)
    rows = rows[rows["lung"] == "no"]
    path = tmp_path / "no_lung.csv"
    rows.to_csv(path, index=False)
    assert main(["evaluate", str(ASIA), str(path), "--target", "lung", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["auc"] is None and 0 <= payload["ece"] <= 1
    assert main(["evaluate", str(ASIA), str(path), "--target", "lung"]) == 0
    assert "n/a (one target state in the data)" in capsys.readouterr().out


def test_show_of_a_fit_on_data_draws_roc_and_reliability():
    net = read_network(ASIA)
    rows = pd.read_csv(ASIA_CSV, dtype=str)
    fit = make_learner("mp").fit(net, rows.iloc[:2000], target="lung")
    shown = show(fit, data=rows.iloc[2000:], net=net, target="lung")
    assert "ROC of lung" in shown.html and "Reliability of lung" in shown.html and "ECE" in shown.html
    with pytest.raises(TypeError, match="net="):
        show(fit, data=rows.iloc[2000:])
    both = compare({"a": fit, "b": fit}, rows.iloc[2000:], net, "lung", state="no")
    assert both.html.count("a (AUC") == 1 and "ROC of lung = no" in both.html
