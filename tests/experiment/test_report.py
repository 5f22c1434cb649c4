"""`bnstudio report`: Table 4-2 tables (CSV, JSON), paired tests, scatter and convergence figures (PNG, SVG) and
one HTML page; matplotlib is loaded only to draw."""
from __future__ import annotations

import csv
import json
import subprocess
import sys

import numpy as np
import pytest

from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from bnstudio.figures.report import write_report
from tests.experiment.helpers import write_study


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    return run_study(load_study(write_study(folder)), SerialExecutor()).store


def test_the_report_writes_every_table_figure_and_one_page(store, tmp_path):
    report = write_report(store, tmp_path / "out")
    names = {p.name for p in report.tables}
    assert {"table_error.csv", "cells_error.csv", "table_cll.csv", "comparisons.csv", "failures.csv"} <= names
    assert report.html.is_file() and report.json.is_file()
    titles = [t for t, _, _ in report.figures]
    assert any(t.startswith("error: nb+clgd vs nb+mp") for t in titles)
    assert any(t.startswith("convergence: corral, tan") for t in titles)
    for _, png, svg in report.figures:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and b"<svg" in svg.read_bytes()[:2000]
    page = report.html.read_text(encoding="utf-8")
    assert page.count("<img") == len(report.figures) and "Comparisons with the baseline" in page


def test_table_cells_are_the_mean_and_sd_over_folds(store, tmp_path):
    report = write_report(store, tmp_path / "out")
    with StudyStore(store, create=False) as s:
        rows = s.rows()
    errors = [r["metrics"]["error"] for r in rows if (r["dataset"], r["structure"], r["method"]) ==
              ("asia-lung", "tan", "clgd")]
    with open(report.folder / "tables" / "cells_error.csv", newline="") as handle:
        found = [r for r in csv.DictReader(handle) if (r["dataset"], r["structure"], r["method"]) ==
                 ("asia-lung", "tan", "clgd")]
    assert len(errors) == 3 and float(found[0]["mean"]) == pytest.approx(np.mean(errors))
    assert float(found[0]["sd"]) == pytest.approx(np.std(errors, ddof=1)) and found[0]["n"] == "3"
    with open(report.folder / "tables" / "table_error.csv", newline="") as handle:
        wide = list(csv.reader(handle))
    assert wide[0] == ["dataset"] + [f"{s}+{m}" for s in ("nb", "tan") for m in ("mp", "clgd", "bag")]
    assert [r[0] for r in wide[1:]] == ["corral", "asia-lung"] and " ± " in wide[2][5]
    document = json.loads(report.json.read_text())
    compared = [c for c in document["comparisons"] if c["metric"] == "error"]
    assert {(c["structure"], c["method"]) for c in compared} == {(s, m) for s in ("nb", "tan")
                                                                 for m in ("clgd", "bag")}
    assert all(c["wins"] + c["draws"] + c["losses"] == 2 for c in compared)


def test_importing_the_experiment_package_loads_no_plotting_library():
    code = ("import sys, bnstudio.experiment.report, bnstudio.experiment.runner, bnstudio.figures.plots, bnstudio.figures.report, "
            "bnstudio.experiment.dask_executor, bnstudio.cli.experiment, bnstudio.cli.report\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'distributed', 'dask', "
            "'PySide6')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_report_of_a_missing_or_foreign_file_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "x.sqlite"
    bad.write_bytes(b"junk" * 500)
    for target in (tmp_path / "none.sqlite", bad):
        done = subprocess.run([sys.executable, "-m", "bnstudio", "report", str(target)], capture_output=True,
                              text=True)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("bnstudio: error:"), done.stderr


def test_the_report_has_friedman_over_all_methods_with_a_critical_difference_diagram(store, tmp_path):
    from scipy.stats import friedmanchisquare

    from bnstudio.experiment.html import page
    from bnstudio.experiment.report import compose_report
    from bnstudio.experiment.summary import cells
    from bnstudio.figures.plots import draw

    report = compose_report(store, tmp_path / "report")
    tests = {(t["structure"], t["metric"]): t for t in report.document["friedman"]}
    assert {("nb", "error"), ("tan", "error"), ("nb", "cll")} <= set(tests)
    with StudyStore(store, create=False) as opened:
        table = cells(opened.rows(), "error", 3)
    values = np.array([[table[d, "nb", m].mean for m in ("mp", "clgd", "bag")] for d in ("corral", "asia-lung")])
    t = tests["nb", "error"]
    assert (t["n"], t["methods"], t["left_out"]) == (2, ["mp", "clgd", "bag"], 0)
    if len(set(values[0])) == 3 and len(set(values[1])) == 3:
        assert t["chi2"] == pytest.approx(friedmanchisquare(*values.T).statistic)
    [job] = [j for j in report.jobs if j.kind == "cd" and j.stem.name == "cd_error_nb"]
    assert [p.suffix for p in draw(job)] == [".png", ".svg"]
    html = page(report.document, [], report.folder)
    assert "Friedman, Nemenyi, Holm" in html and "Demšar" in html
    with open(tmp_path / "report" / "tables" / "friedman.csv", encoding="utf-8") as handle:
        assert len(list(csv.DictReader(handle))) == len(tests)


def test_error_is_in_percent_in_the_figures_as_in_the_tables(store, tmp_path):
    """Seen in the study view: the tables gave the error in %, the scatter figures' axes as fractions."""
    from bnstudio.experiment.report import compose_report

    report = compose_report(store, tmp_path / "out")
    job = next(j for j in report.jobs if j.kind == "scatter" and j.title.startswith("error: nb+clgd vs nb+mp"))
    assert job.options["xlabel"] == "mp error (%)" and job.options["ylabel"] == "clgd error (%)"
    with open(report.folder / "tables" / "cells_error.csv", newline="") as handle:
        means = {(r["dataset"], r["structure"], r["method"]): float(r["mean"]) for r in csv.DictReader(handle)}
    datasets = job.options["labels"]
    assert job.args[0] == pytest.approx([100 * means[d, "nb", "mp"] for d in datasets])
    assert job.args[1] == pytest.approx([100 * means[d, "nb", "clgd"] for d in datasets])


def test_the_report_says_how_the_last_run_used_its_workers(store, tmp_path):
    """The run's CPU accounting (bnstudio.experiment.accounting) reaches the report's JSON and its status line."""
    from bnstudio.experiment.html import status_line
    from bnstudio.experiment.report import compose_report

    report = compose_report(store, tmp_path / "accounted")
    document = json.loads(report.json.read_text(encoding="utf-8"))
    line = document["runs"][-1]["accounting"]
    assert line and "wall" in line and "task CPU" in line
    assert f"Last run: {line}." in status_line(document)
