"""The built-in studies: what ``--suite papers`` and ``--suite singh-bagging`` plan, and that the papers suite's
data are fresh samples of the declared size (never the bundled CSV files the defaults were chosen on)."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import ValidationError
from bnstudio.experiment.datasets import prepare
from bnstudio.experiment.runner import plan
from bnstudio.experiment.suite import ALARM_DIAGNOSES, ALARM_FINDINGS, papers_suite, singh_bagging_suite, suite


def test_the_papers_suite_is_eight_data_sets_by_three_structures_by_four_methods_by_five_folds() -> None:
    study = suite("papers")
    assert [d.name for d in study.datasets] == [
        "mofn-3-7-10", "corral", "insurance-PropCost", "insurance-Accident", "alarm-BP", "child-Disease",
        "asia-lung", "sachs-Akt"]
    assert [s.label for s in study.structures] == ["nb", "tan", "kdb-1"]
    assert [m.label for m in study.methods] == ["ml", "mp", "clgd", "wanbia"]
    assert study.folds == 5 and study.baseline == "mp"
    # Zhou's sizes for the two generators; the network samples at the suite's size
    assert [d.rows for d in study.datasets] == [300, 128] + [5000] * 6


def test_the_papers_suite_samples_the_networks_afresh_with_the_declared_target() -> None:
    study = papers_suite(rows=40)
    context, tasks = plan(study)
    assert len(tasks) == 8 * 3 * 4 * 5
    for spec in study.datasets[2:]:
        data = context.datasets[spec.name]
        assert data.codes.shape == (40, len(data.names))
        assert data.target == spec.target and data.network is not None
        again = prepare(spec)
        np.testing.assert_array_equal(again.codes, data.codes)          # seeded: the same sample every time
    seeds = [d.seed for d in study.datasets[2:]]
    assert len(set(seeds)) == len(seeds)                                  # and a different one per network


def test_the_singh_suite_is_75_alarm_data_sets_of_100_rows_and_three_methods() -> None:
    study = singh_bagging_suite()
    assert len(study.datasets) == 75 and {d.rows for d in study.datasets} == {100}
    assert [m.label for m in study.methods] == ["mp", "bagged-mp", "m-bagged-mp"]
    assert study.methods[2].options == {"bags": 30, "m_bagging": True}
    assert study.queries.count == 100 and study.queries.evidence_size == (3, 5)
    assert set(study.queries.query) == set(ALARM_DIAGNOSES)
    assert set(study.queries.evidence) == set(ALARM_FINDINGS)


def test_an_unknown_suite_names_the_ones_there_are() -> None:
    with pytest.raises(ValidationError, match="unknown suite 'nope'; use papers, singh-bagging, ng-jordan, "
                                              "defaults, defaults-seeds, path, zhou"):
        suite("nope")
