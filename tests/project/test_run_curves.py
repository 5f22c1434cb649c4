"""A run's ROC and reliability curves in the project file (bnstudio/io/project/curves_json.py): written with the
run, read back exactly, absent from older files (which open as they are), and damaged curves dropped with one
repair report (a strict reading refuses them in one line)."""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from bnstudio.app.training.run_curves import curves_from_json, curves_to_json, thinned
from bnstudio.app.training.runs import RunRecord
from bnstudio.core import network_from_dsl
from bnstudio.errors import RepairWarning
from bnstudio.evaluate.curves import validation
from bnstudio.io.project import ProjectFormatError, load_project, project_from_network, save_project
from bnstudio.io.project.curves_json import MAX_CURVE_POINTS
from tests.project.conftest import DATA


def run_curves(seed: int, n: int = 5000, k: int = 3) -> dict:
    """A run's curves on two parts from random posteriors (n distinct scores: more points than are kept)."""
    rng = np.random.default_rng(seed)
    post = rng.dirichlet(np.ones(k), size=n)
    y = np.array([rng.choice(k, p=0.5 * p + 0.5 / k) for p in post])
    states = [f"s{i}" for i in range(k)]
    return {"test": thinned(validation(post, y, states)), "train": thinned(validation(post[:40], y[:40], states))}


def project_with_runs(*curves: dict):
    project = project_from_network(network_from_dsl("A->B"))
    project.runs = [{"method": "ml", "label": f"{k + 1}. ml", "history": [], "metrics": {},
                     "curves": curves_to_json(c)} for k, c in enumerate(curves)]
    return project


def assert_same_curves(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for part in a:
        x, y = a[part], b[part]
        assert x.states == y.states and x.auc == y.auc and len(x.rocs) == len(y.rocs)
        for cx, cy in zip(x.rocs, y.rocs, strict=True):
            assert cx.state == cy.state and cx.auc == cy.auc
            np.testing.assert_array_equal(cx.fpr, cy.fpr)
            np.testing.assert_array_equal(cx.tpr, cy.tpr)
        for field in ("edges", "weight", "confidence", "accuracy", "ece"):
            np.testing.assert_array_equal(getattr(x.reliability, field), getattr(y.reliability, field))


def test_the_curves_of_two_runs_come_back_exactly_and_within_the_cap(tmp_path):
    curves = [run_curves(1), run_curves(2)]
    assert all(400 < len(c.fpr) <= MAX_CURVE_POINTS for c in curves[0]["test"].rocs)   # 5,000 cases: thinned
    save_project(project_with_runs(*curves), tmp_path / "p.bnsproj")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RepairWarning)
        runs = load_project(tmp_path / "p.bnsproj", strict=True).runs
    for stored, original in zip(runs, curves, strict=True):
        assert_same_curves(RunRecord.from_json(stored, 1).validation, original)
    doc = json.loads((tmp_path / "p.bnsproj").read_text(encoding="utf-8"))
    assert doc["schema_version"] == 1       # runs are free-form: a build that knows no curves reads them as they are
    assert doc["runs"][0]["curves"]["test"]["reliability"]["confidence"].count(None) >= 1   # empty bins: null


def test_a_run_keeps_its_curves_through_the_record_and_a_relabel():
    curves = run_curves(3, n=300)
    record = RunRecord.from_json(project_with_runs(curves).runs[0], 1)
    assert_same_curves(record.validation, curves)
    record.label = "renamed"
    assert_same_curves(curves_from_json(record.to_json()["curves"]), curves)


@pytest.mark.parametrize("name", ["v1_asia.bnsproj", "v2_asia.bnsproj", "v3_asia.bnsproj"])
def test_runs_of_older_files_open_without_curves(name):
    runs = load_project(DATA / name, strict=True).runs
    assert runs and all("curves" not in r for r in runs)
    assert all(RunRecord.from_json(r, k + 1).validation == {} for k, r in enumerate(runs))


def damaged(doc: dict, how: str) -> None:
    part = doc["runs"][0]["curves"]["test"]
    roc, bins = part["roc"][0], part["reliability"]
    if how == "nan":
        roc["tpr"][3] = float("nan")
    elif how == "short":
        roc["tpr"] = roc["tpr"][:-1]
    elif how == "huge":
        roc["fpr"] = roc["tpr"] = [0.0] * 100_000 + [1.0]
    elif how == "falling":
        roc["fpr"][5], roc["fpr"][6] = roc["fpr"][6], roc["fpr"][5] + 1e-9
    elif how == "bins":
        bins["weight"] = bins["weight"][:-1]
    elif how == "filled-null":
        bins["accuracy"][int(np.argmax(bins["weight"]))] = None
    elif how == "state":
        roc["state"] = "nowhere"
    elif how == "part":
        doc["runs"][0]["curves"]["holdout"] = doc["runs"][0]["curves"].pop("test")
    elif how == "type":
        doc["runs"][0]["curves"] = [1, 2]


WHERE = {"nan": "runs[0].curves.test.roc[0].tpr[3]: expected a finite number, got nan",
         "short": "runs[0].curves.test.roc[0].tpr: expected ",     # ... N rates (one per false positive rate)
         "huge": "runs[0].curves.test.roc[0].fpr: expected at most 512 points, got 100,001",
         "falling": "runs[0].curves.test.roc[0].fpr[6]: expected non-decreasing values",
         "bins": "runs[0].curves.test.reliability.weight: expected 10 entries (one per bin), got 9",
         "filled-null": "runs[0].curves.test.reliability.accuracy[",
         "state": "runs[0].curves.test.roc[0].state: expected one of the states",
         "part": "runs[0].curves.holdout: unknown key",
         "type": "runs[0].curves: expected an object, got an array"}


@pytest.mark.parametrize("how", sorted(WHERE))
def test_damaged_curves_are_dropped_with_one_report_or_refused_when_strict(tmp_path, how):
    path = tmp_path / "hostile.bnsproj"
    save_project(project_with_runs(run_curves(4), run_curves(5, n=200)), path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    damaged(doc, how)
    path.write_text(json.dumps(doc), encoding="utf-8")      # NaN written as JSON's non-standard NaN literal
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        project = load_project(path)
    reports = [str(w.message) for w in caught if issubclass(w.category, RepairWarning)]
    assert len(reports) == 1 and "\n" not in reports[0], reports
    assert reports[0].startswith(f"{path}: dropped the damaged ROC and reliability curves of 1 run ")
    assert WHERE[how] in reports[0]
    first, second = project.runs
    assert "curves" not in first and first["label"] == "1. ml"          # the run stays, its curves go
    assert_same_curves(RunRecord.from_json(second, 2).validation, run_curves(5, n=200))
    with pytest.raises(ProjectFormatError) as refused:
        load_project(path, strict=True)
    assert str(refused.value).startswith(f"{path}: {WHERE[how]}") and "\n" not in str(refused.value)
    assert refused.value.json_path.startswith("runs[0].curves")


def test_the_repairs_of_the_network_and_the_curves_are_one_report(tmp_path):
    path = tmp_path / "both.bnsproj"
    save_project(project_with_runs(run_curves(6, n=100), run_curves(7, n=100)), path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["network"]["variables"][0]["cpt"] = [0.5, 0.4996]                 # rescaled, said
    for run in doc["runs"]:
        run["curves"]["test"]["auc"] = 2.0
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.warns(RepairWarning) as caught:
        load_project(path)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "rescaled 1 row" in message and "curves of 2 runs" in message and "(and 1 more)" in message


def test_a_project_whose_curves_would_need_a_repair_is_not_saved(tmp_path):
    from bnstudio.errors import ValidationError

    project = project_with_runs(run_curves(8, n=100))
    project.runs[0]["curves"]["test"]["roc"][0]["fpr"][1] = 2.0
    with pytest.raises(ValidationError, match=r"cannot save the project: runs\[0\]\.curves\.test\.roc\[0\]\.fpr"):
        save_project(project, tmp_path / "p.bnsproj")
    assert not (tmp_path / "p.bnsproj").exists()
