"""AUC and ECE in studies: each task's stored AUC and ECE are :func:`bnstudio.evaluate.evaluate`'s on the same
fold (and scikit-learn's AUC on the same posteriors); the calibration bins pooled over folds are the reliability
of the concatenated posteriors; the report tabulates AUC and ECE, says n/a (and counts) where a fold has no AUC,
reads a study file written before ECE was stored, and draws one calibration figure per data set, each data set
with its own file."""
from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from bnstudio.evaluate import curves
from bnstudio.evaluate.crossval import pooled
from bnstudio.evaluate.metrics import evaluate_scored
from bnstudio.experiment import summary
from bnstudio.experiment.calibration import pooled_reliability
from bnstudio.experiment.evaluation import split_rows
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.html import cell_text, missing_note, page
from bnstudio.experiment.report import Report, compose_report
from bnstudio.experiment.runner import plan, run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from tests.experiment.helpers import write_study

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"
CHILD = f"""
name = "child"
folds = 3
structures = ["nb"]
methods = ["mp", "clgd"]

[[datasets]]
network = "{(NETWORKS / 'child.bif').as_posix()}"
target = "Disease"
rows = 240
seed = 5

[[datasets]]
network = "{(NETWORKS / 'asia.bif').as_posix()}"
target = "bronc"
rows = 120
seed = 3
"""


@pytest.fixture(scope="module")
def child(tmp_path_factory):
    path = write_study(tmp_path_factory.mktemp("calibration"), CHILD, "child")
    run_study(load_study(path), SerialExecutor())
    return path


def _fold_scores(path: Path, dataset: str, method: str) -> list[tuple[dict, object, object]]:
    """(stored metrics, evaluate's Metrics, evaluate's Scored) of every fold of (data set, nb, method): the
    stored fitted network scored again on the fold's test rows."""
    study = load_study(path)
    context, tasks = plan(study)
    data = context.datasets[dataset]
    out = []
    with StudyStore(path.with_suffix(".sqlite"), create=False) as store:
        rows = {r["key"]: r for r in store.rows()}
        for task in tasks:
            if (task.dataset, task.method) != (dataset, method):
                continue
            _, test = split_rows(len(data.codes), task.spec["split"], task.fold, task.seed)
            metrics, scored = evaluate_scored(store.network(task.key), data.codes[test], data.target)
            out.append((rows[task.key]["metrics"], metrics, scored))
    return out


def test_a_tasks_auc_and_ece_are_evaluates_on_the_same_fold_and_scikit_learns(child):
    roc_auc_score = pytest.importorskip("sklearn.metrics").roc_auc_score
    for dataset in ("child-Disease", "asia-bronc"):
        for method in ("mp", "clgd"):
            found = _fold_scores(child, dataset, method)
            assert len(found) == 3
            for stored, metrics, _ in found:
                assert stored["ece"] == pytest.approx(metrics.ece, rel=1e-9, abs=1e-12)
                assert stored["auc"] is not None and stored["auc"] == pytest.approx(metrics.auc, rel=1e-9)
                assert stored["error"] == pytest.approx(metrics.error_rate)
    stored, _, scored = _fold_scores(child, "child-Disease", "clgd")[0]
    present = np.unique(scored.y)            # scikit-learn scores the classes present in the fold
    if len(present) == scored.post.shape[1]:
        expected = roc_auc_score(scored.y, scored.post, multi_class="ovr", average="macro")
    else:
        expected = np.mean([roc_auc_score(scored.y == k, scored.post[:, k]) for k in present])
    assert stored["auc"] == pytest.approx(expected, rel=1e-9)


def test_the_bins_pooled_over_folds_are_the_reliability_of_the_concatenated_posteriors(child):
    found = _fold_scores(child, "child-Disease", "mp")
    together = pooled([scored for _, _, scored in found])
    expected = curves.reliability(together.post, together.y)
    got = pooled_reliability([stored["calibration"] for stored, _, _ in found])
    assert got["ece"] == pytest.approx(expected.ece, rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(got["weight"], expected.weight, rtol=1e-12)
    np.testing.assert_array_equal(got["edges"], expected.edges)
    for key, values in (("confidence", expected.confidence), ("accuracy", expected.accuracy)):
        np.testing.assert_allclose(np.array(got[key], dtype=float), values, rtol=1e-9, equal_nan=True)
    # the mean of the folds' ECEs is not the pooled one: pooling needs the sums
    assert np.mean([s["ece"] for s, _, _ in found]) != pytest.approx(expected.ece, rel=1e-6)


def test_the_report_tabulates_auc_and_ece_and_draws_a_calibration_figure_per_data_set(child, tmp_path):
    from bnstudio.figures.plots import draw

    report = compose_report(child.with_suffix(".sqlite"), tmp_path / "report")
    document = report.document
    assert {"auc", "ece"} <= set(document["tables"])
    assert {"table_auc.csv", "cells_auc.csv", "table_ece.csv", "cells_ece.csv"} <= {p.name for p in report.tables}
    assert {(c["metric"], c["method"]) for c in document["comparisons"]} >= {("auc", "clgd"), ("ece", "clgd")}
    with StudyStore(child.with_suffix(".sqlite"), create=False) as store:
        rows = store.rows()
    ece = summary.cells(rows, "ece", 3)
    cell = document["tables"]["ece"]["cells"]["child-Disease|nb|clgd"]
    assert cell["mean"] == pytest.approx(ece["child-Disease", "nb", "clgd"].mean) and cell["n"] == 3
    jobs = [j for j in report.jobs if j.kind == "reliability"]
    assert [j.title for j in jobs] == ["calibration: child-Disease, 3 folds pooled",
                                       "calibration: asia-bronc, 3 folds pooled"]
    [series] = jobs[0].args
    assert [s["label"] for s in series] == ["nb+mp", "nb+clgd"]
    assert sum(series[0]["weight"]) == 240          # every row held out once
    assert document["calibration"] == {"figures": 2, "without_bins": 0} and document["older_tasks"] == 0
    png, svg = draw(jobs[0])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = page(document, [], report.folder)
    assert "<h3>ece: mean ± sd" in html and "<h3>auc: mean ± sd" in html and "older BN Studio" not in html
    assert "The ECE in their legends is that of the pooled rows" in html


RARE = "A,B,Class\n" + "".join(f"{i % 2},{i % 3},{'rare' if i == 4 else 'common'}\n" for i in range(30))


def test_a_fold_without_auc_is_counted_and_said_never_nan(tmp_path):
    """30 rows, the class 'rare' in one: two of the three folds test rows of one class, where AUC is undefined."""
    (tmp_path / "rare.csv").write_text(RARE, encoding="utf-8")
    path = write_study(tmp_path, 'name = "rare"\nfolds = 3\nstructures = ["nb"]\nmethods = ["mp", "ml"]\n'
                                 '[[datasets]]\ncsv = "rare.csv"\ntarget = "Class"\n', "rare")
    run_study(load_study(path), SerialExecutor())
    report = compose_report(path.with_suffix(".sqlite"), tmp_path / "report")
    cell = report.document["tables"]["auc"]["cells"]["rare-Class|nb|mp"]
    assert (cell["runs"], cell["n"], cell["missing"], cell["partial"]) == (3, 1, 2, False)
    assert cell_text(cell, "auc").endswith(" ‡")
    note = missing_note("auc", report.document["tables"]["auc"])
    assert note.startswith("‡ n/a (AUC is undefined") and "2/3 folds of rare-Class nb+mp" in note
    with open(report.folder / "tables" / "table_auc.csv", newline="") as handle:
        wide = list(csv.reader(handle))
    assert wide[1][1].endswith("‡ n/a 2/3")
    html = page(report.document, [], report.folder)
    texts = [p.read_text(encoding="utf-8") for p in report.tables] + [html, report.json.read_text()]
    assert not any("nan" in text.lower().replace("n/a", "") for text in texts)


def test_a_cell_without_any_value_is_n_a_and_left_out_of_the_comparisons():
    rows = [{"status": "done", "dataset": d, "structure": "nb", "method": m, "fold": f,
             "metrics": {"auc": None if d == "d0" else 0.5 + 0.1 * f + (0.05 if m == "clgd" else 0)}}
            for d in ("d0", "d1", "d2") for m in ("mp", "clgd") for f in range(2)]
    table = summary.cells(rows, "auc", 2)
    assert (table["d0", "nb", "mp"].n, table["d0", "nb", "mp"].missing) == (0, 2)
    assert cell_text({"mean": None, "sd": 0.0, "n": 0, "missing": 2}, "auc") == "n/a"
    [found] = summary.comparisons(rows, "auc", ["nb"], ["mp", "clgd"], "mp", 2)
    assert (found.n, found.wins, found.left_out) == (2, 2, 0)


def _drop_new_scores(store: Path, study_metrics: list[str] | None) -> None:
    """Make ``store`` look written before AUC/ECE for every target: no ece, no bins, no multi-class AUC."""
    with sqlite3.connect(store) as db:
        for key, text in db.execute("SELECT key, metrics FROM tasks WHERE metrics IS NOT NULL").fetchall():
            metrics = json.loads(text)
            metrics.pop("ece"), metrics.pop("calibration")
            db.execute("UPDATE tasks SET metrics = ? WHERE key = ?", (json.dumps(metrics), key))
        if study_metrics is not None:
            study = json.loads(db.execute("SELECT value FROM meta WHERE name = 'study'").fetchone()[0])
            study["metrics"] = study_metrics
            db.execute("UPDATE meta SET value = ? WHERE name = 'study'", (json.dumps(study),))


@pytest.mark.parametrize("study_metrics", [None, ["error", "cll", "brier", "auc", "time", "iterations"]])
def test_a_study_file_written_before_ece_reports_without_it_and_says_so(child, tmp_path, study_metrics):
    old = tmp_path / "old.sqlite"
    with StudyStore(child.with_suffix(".sqlite"), create=False) as store:
        store.db.execute(f"VACUUM INTO '{old}'")
    _drop_new_scores(old, study_metrics)
    report = compose_report(old, tmp_path / "report")
    document = report.document
    assert "ece" not in document["tables"] and "error" in document["tables"]
    assert document["not_stored"] == ([] if study_metrics else ["ece"])
    assert document["older_tasks"] == 12 and document["calibration"]["figures"] == 0
    assert not [j for j in report.jobs if j.kind == "reliability"]
    html = page(document, [], report.folder)
    assert "12 finished task(s) were computed by an older BN Studio" in html
    assert ("No run stored ece" in html) == (study_metrics is None)


def test_data_sets_whose_names_differ_only_in_unsafe_characters_get_their_own_figures(tmp_path):
    """Issue 42 item 4: `x/y` and `x_y` shared one figure file, the report showing one plot under both captions."""
    text = ('name = "names"\nfolds = 2\nstructures = ["nb"]\nmethods = ["mp", "clgd"]\n' +
            "".join(f'[[datasets]]\nname = "{n}"\ngenerator = "corral"\nrows = 24\nseed = {s}\n'
                    for n, s in (("x/y", 1), ("x_y", 2), ("X_Y", 3))))
    path = write_study(tmp_path, text, "names")
    run_study(load_study(path), SerialExecutor())
    report = compose_report(path.with_suffix(".sqlite"), tmp_path / "report")
    stems = [j.stem.name.casefold() for j in report.jobs]
    assert len(stems) == len(set(stems))
    for kind in ("convergence", "calibration"):
        titles = [j.title for j in report.jobs if j.stem.name.startswith(kind)]
        assert len(titles) == 3, titles


def test_figure_stems_are_unique_and_stable():
    report = Report(Path("out"), Path("out/index.html"), Path("out/report.json"))
    a = report.figure_stem("convergence", "a_b", "c")
    b = report.figure_stem("convergence", "a", "b_c")
    assert a.name == "convergence_a_b_c" and b.name.startswith("convergence_a_b_c-") and a != b
    assert report.figure_stem("convergence", "a_b", "c") == a                 # the same figure, the same file
    assert report.figure_stem("cd", "error", "nb").name == "cd_error_nb"
    assert report.figure_stem("cd", "error", "NB").name.startswith("cd_error_NB-")   # one file on macOS
    assert report.figure_stem("calibration", "x/y").name.startswith("calibration_x_y-")


def test_more_than_six_lines_make_a_calibration_figure_per_structure(tmp_path):
    from bnstudio.experiment.report import CALIBRATION_LINES, _calibration

    bins = {"weight": [0.0] * 8 + [3.0, 5.0], "confidence": [0.0] * 8 + [2.6, 4.8], "right": [0.0] * 8 + [2.0, 5.0]}
    methods = ["ml", "mp", "clgd", "wanbia"]
    rows = [{"status": "done", "dataset": "d", "structure": s, "method": m, "metrics": {"ece": 0.1, "calibration": bins}}
            for s in ("nb", "tan") for m in methods]
    study = {"folds": 2, "seeds": [0], "datasets": [{"name": "d"}]}
    report = Report(tmp_path, tmp_path / "index.html", tmp_path / "report.json")
    assert 2 * len(methods) > CALIBRATION_LINES
    assert _calibration(report, rows, study, ["nb", "tan"], methods) == {"figures": 2, "without_bins": 0}
    assert [j.title for j in report.jobs] == ["calibration: d, nb, 2 folds pooled", "calibration: d, tan, 2 folds pooled"]
    assert [s["label"] for s in report.jobs[1].args[0]] == [f"tan+{m} (partial: 1/2)" for m in methods]
    got = report.jobs[0].args[0][0]
    assert got["confidence"][-2:] == pytest.approx([2.6 / 3, 4.8 / 5]) and got["ece"] == pytest.approx(
        (3 * abs(2 / 3 - 2.6 / 3) + 5 * abs(1 - 4.8 / 5)) / 8)
