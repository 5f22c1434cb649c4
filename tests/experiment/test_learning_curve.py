"""The ng-jordan suite (Ng & Jordan 2001's learning curve) in a tiny version: it runs, and its report holds the
curve (held-out error against training rows, replicates averaged) and draws it."""
from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.generators import wide_binary
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.suite import ng_jordan_suite, suite
from bnstudio.figures.report import write_report


def test_the_suite_plans_sizes_by_replicates_by_three_methods():
    study = suite("ng-jordan")
    assert [m.label for m in study.methods] == ["mp", "clgd", "lr"]
    assert study.methods[2].options == {"init": "uniform"} and study.baseline == "mp"
    assert sorted({d.rows for d in study.datasets}) == [50, 100, 200, 400, 800, 1600, 3200]
    assert len({d.seed for d in study.datasets}) == len(study.datasets) == 28


def test_every_size_samples_one_distribution():
    """The concept (p_{i,y}, which bits are copied) is fixed; only the rows change with the seed."""
    a, _, _ = wide_binary(20000, seed=1)
    b, _, _ = wide_binary(20000, seed=2)
    assert not np.array_equal(a[:50], b[:50])
    for codes in (a, b):
        assert abs(codes[:, -1].mean() - 0.5) < 0.02
    means = [np.array([c[c[:, -1] == k, :-1].mean(axis=0) for k in (0, 1)]) for c in (a, b)]
    np.testing.assert_allclose(means[0], means[1], atol=0.04)


def test_a_tiny_study_reports_and_draws_the_learning_curve(tmp_path):
    study = ng_jordan_suite(sizes=(30, 60), replicates=2, folds=2)
    store = run_study(study, SerialExecutor(), store_path=tmp_path / "ngj.sqlite").store
    report = write_report(store, tmp_path / "out")
    curves = json.loads(report.json.read_text(encoding="utf-8"))["learning_curves"]
    assert [c["generator"] for c in curves] == ["wide-binary"]
    series = curves[0]["series"]
    assert [s["label"] for s in series] == ["nb+mp", "nb+clgd", "nb+lr"]
    with open(report.folder / "tables" / "cells_error.csv", encoding="utf-8") as handle:
        cells = {(r["dataset"], r["method"]): float(r["mean"]) for r in csv.DictReader(handle)}
    for s in series:
        assert s["rows"] == [15.0, 30.0]                    # 2 folds: half the rows train
        method = s["label"].split("+")[1]
        for rows, mean in zip((30, 60), s["mean"], strict=True):         # replicates averaged, in percent
            expected = np.mean([cells[f"wide-binary-n{rows}#{r}", method] for r in (1, 2)])
            assert mean == pytest.approx(100 * expected)
    titles = [t for t, _, _ in report.figures]
    assert "learning curve: wide-binary, held-out error" in titles
    png = next(p for t, p, _ in report.figures if t.startswith("learning curve"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
