"""Zhou's (Friedman et al. 1997's) test protocols inside a study: cut points learnt on each fold's training rows
(``discretise = {per_fold = true}``) and a fixed test set in place of cross-validation (``test_set``)."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from bnstudio.data.discretise import mdl
from bnstudio.errors import FormatError
from bnstudio.experiment.datasets import prepare
from bnstudio.experiment.evaluation import Context, run_task, task_rows
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import DatasetSpec, MethodSpec, StructureSpec, Study, load_study
from bnstudio.experiment.store import StudyStore
from bnstudio.experiment.suite import suite_data_folder, zhou_mofn_holdout
from bnstudio.experiment.summary import cells, expected_by_dataset
from bnstudio.experiment.tasks import expand
from tests.experiment.helpers import write_study

IRIS = suite_data_folder() / "iris.csv"
SPLIT = {"folds": 5, "test_fraction": None, "evaluation": "classification"}


def iris_spec(path, per_fold=True) -> DatasetSpec:
    return DatasetSpec("iris", "csv", str(path), "Class", discretise={"method": "mdl", "per_fold": per_fold})


def relabelled_test_rows(tmp_path, test: np.ndarray):
    """iris.csv with the class of every ``test`` row moved to the next class."""
    frame = pd.read_csv(IRIS)
    classes = sorted(frame["Class"].unique())
    frame.loc[test, "Class"] = [classes[(classes.index(c) + 1) % len(classes)] for c in frame.loc[test, "Class"]]
    path = tmp_path / "iris-relabelled.csv"
    frame.to_csv(path, index=False)
    return path


def test_no_test_row_label_moves_a_cut_point(tmp_path):
    data = prepare(iris_spec(IRIS))
    view, train, test = task_rows(data, SPLIT, 0, 0)
    changed = prepare(iris_spec(relabelled_test_rows(tmp_path, test)))
    other, train2, test2 = task_rows(changed, SPLIT, 0, 0)
    assert np.array_equal(train, train2) and np.array_equal(test, test2)
    # whole-file cuts do move with those labels: the check below can fail
    whole = [prepare(iris_spec(p, per_fold=False)).states for p in (IRIS, tmp_path / "iris-relabelled.csv")]
    assert whole[0][:4] != whole[1][:4]
    assert view.states[:4] == other.states[:4]                       # the fold's cut points
    np.testing.assert_array_equal(view.codes[:, :4], other.codes[:, :4])    # and every row's interval


def test_the_folds_cuts_are_mdl_on_its_training_rows_applied_to_its_test_rows():
    data = prepare(iris_spec(IRIS))
    frame = pd.read_csv(IRIS)
    for fold in range(5):
        view, train, test = task_rows(data, SPLIT, fold, 3)
        for k, column in enumerate(frame.columns[:4]):
            cuts = mdl(frame[column].to_numpy()[train], frame["Class"].to_numpy()[train])
            assert view.states[k] == cuts.labels
            np.testing.assert_array_equal(view.codes[test, k], cuts.apply(frame[column].to_numpy()[test]))
        assert view.fingerprint != data.fingerprint and view.fold_cuts is None


def test_a_per_fold_study_runs_and_its_keys_differ_from_whole_file_cuts(tmp_path):
    study = Study("pf", [iris_spec(IRIS)], [StructureSpec("nb", "nb")], [MethodSpec("mp", "mp")], folds=3,
                  seeds=[0], metrics=["error"], baseline="mp")
    run_study(study, SerialExecutor(), store_path=tmp_path / "pf.sqlite")
    with StudyStore(tmp_path / "pf.sqlite", create=False) as store:
        rows = store.rows(status="done")
    assert len(rows) == 3 and all(0.0 <= r["metrics"]["error"] < 0.2 for r in rows)
    whole = prepare(iris_spec(IRIS, per_fold=False))
    assert prepare(iris_spec(IRIS)).fingerprint != whole.fingerprint


def mofn_spec() -> DatasetSpec:
    return DatasetSpec("mofn-3-7-10", "generator", "mofn-3-7-10", "Class", 300, 1, test_set="mofn-3-7-10-patterns")


def test_a_fixed_test_set_is_one_task_per_seed_trained_on_every_row():
    study = Study("fixed", [mofn_spec(), DatasetSpec("corral", "generator", "corral", "Class", 64, 2)],
                  [StructureSpec("nb", "nb"), StructureSpec("tan", "tan")],
                  [MethodSpec("lm", "mp")], folds=5, seeds=[0, 1], metrics=["error"], baseline="lm")
    data = {d.name: prepare(d) for d in study.datasets}
    tasks = expand(study, {n: d.fingerprint for n, d in data.items()})
    fixed = [t for t in tasks if t.dataset == "mofn-3-7-10"]
    assert len(fixed) == 2 * 2 and {t.fold for t in fixed} == {0}        # structures × seeds, one "fold"
    assert len(tasks) - len(fixed) == 2 * 2 * 5                          # corral: cross-validated
    assert fixed[0].spec["split"]["test_set"] == "mofn-3-7-10-patterns"
    assert expected_by_dataset(study.to_json()) == {"mofn-3-7-10": 2, "corral": 10}
    # the error on the 1,024 patterns is zhou_mofn_holdout's, computed on its own path
    holdout = zhou_mofn_holdout(seed=1)
    for task in fixed:
        if task.seed == 0:
            got = run_task(Context(data), task)["metrics"]["error"]
            assert got == pytest.approx(holdout[task.structure, "lm"])
    view, train, test = task_rows(data["mofn-3-7-10"], fixed[0].spec["split"], 0, 0)
    assert (len(train), len(test)) == (300, 1024) and len(view.codes) == 1324


def test_the_report_counts_one_run_per_seed_for_a_fixed_test_set(tmp_path):
    study = Study("fixed", [mofn_spec()], [StructureSpec("nb", "nb")], [MethodSpec("lm", "mp")], folds=5,
                  seeds=[0], metrics=["error"], baseline="lm")
    run_study(study, SerialExecutor(), store_path=tmp_path / "f.sqlite")
    with StudyStore(tmp_path / "f.sqlite", create=False) as store:
        rows = store.rows(status="done")
    cell = cells(rows, "error", expected_by_dataset(study.to_json()))["mofn-3-7-10", "nb", "lm"]
    assert (cell.runs, cell.expected, cell.partial) == (1, 1, False)
    assert cell.mean == pytest.approx(zhou_mofn_holdout(seed=1)["nb", "lm"])


def test_the_study_file_takes_both_options(tmp_path):
    text = (f"[[datasets]]\ncsv = '{IRIS.as_posix()}'\ntarget = 'Class'\n"
            "discretise = {method = 'mdl', per_fold = true}\n\n"
            "[[datasets]]\ngenerator = 'mofn-3-7-10'\nrows = 300\nseed = 1\ntest_set = 'mofn-3-7-10-patterns'\n")
    study = load_study(write_study(tmp_path, text))
    assert study.datasets[0].per_fold and study.datasets[0].discretise["per_fold"] is True
    assert study.datasets[1].test_set == "mofn-3-7-10-patterns" and not study.datasets[1].per_fold
    assert "test_set" not in DatasetSpec("x", "generator", "corral", "Class", 5, 1).to_json()


@pytest.mark.parametrize("dataset, where", [
    ("generator = 'corral'\nrows = 5\ntest_set = 'mofn-3-7-10-patterns'",
     "datasets[0].test_set: test set 'mofn-3-7-10-patterns' tests generator 'mofn-3-7-10' data"),
    ("generator = 'mofn-3-7-10'\nrows = 5\ntest_set = 'all'", "datasets[0].test_set: unknown test set 'all'"),
    (f"csv = '{IRIS.as_posix()}'\ntarget = 'Class'\ndiscretise = {{method = 'mdl', per_fold = 1}}",
     "datasets[0].discretise.per_fold: must be true or false"),
])
def test_mistakes_in_the_new_options_name_their_key(tmp_path, dataset, where):
    with pytest.raises(FormatError, match=re.escape(where)):
        load_study(write_study(tmp_path, f"[[datasets]]\n{dataset}\n"))


def test_headers_and_learning_curves_say_which_data_sets_have_a_fixed_test_set():
    from bnstudio.experiment.learning_curves import curve_groups
    from bnstudio.experiment.summary import split_description

    cross = DatasetSpec("mofn-3-7-10-cv", "generator", "mofn-3-7-10", "Class", 200, 1)
    small = DatasetSpec("mofn-3-7-10-200", "generator", "mofn-3-7-10", "Class", 200, 1,
                        test_set="mofn-3-7-10-patterns")
    study = Study("fixed", [cross, small, mofn_spec()], [StructureSpec("nb", "nb")], [MethodSpec("lm", "mp")],
                  folds=5, seeds=[0], metrics=["error"], baseline="lm").to_json()
    assert split_description(study) == "5-fold cross-validation (mofn-3-7-10-200, mofn-3-7-10: a fixed test set)"
    only_fixed = {**study, "datasets": study["datasets"][1:]}
    assert split_description(only_fixed) == "a fixed test set per data set"
    # a fixed test set trains on every row; 5-fold cross-validation on 4/5 of them
    assert curve_groups(only_fixed) == {"mofn-3-7-10": [(200.0, ["mofn-3-7-10-200"]), (300.0, ["mofn-3-7-10"])]}
    assert [x for x, _ in curve_groups(study)["mofn-3-7-10"]] == [160.0, 200.0, 300.0]


def test_a_single_run_cell_is_shown_without_a_spread(tmp_path):
    from bnstudio.experiment.html import cell_text

    study = Study("fixed", [mofn_spec()], [StructureSpec("nb", "nb")], [MethodSpec("lm", "mp")], folds=5,
                  seeds=[0], metrics=["error"], baseline="lm")
    from bnstudio.experiment.report import compose_report

    summary = run_study(study, SerialExecutor(), store_path=tmp_path / "f.sqlite")
    compose_report(tmp_path / "f.sqlite", tmp_path / "r")
    with StudyStore(tmp_path / "f.sqlite", create=False) as store:
        cell = cells(store.rows(status="done"), "error", expected_by_dataset(study.to_json()))["mofn-3-7-10", "nb",
                                                                                                 "lm"]
    assert "±" not in cell_text({"mean": cell.mean, "sd": cell.sd, "n": cell.n}, "error")   # one test set: no sd
    assert "±" in cell_text({"mean": cell.mean, "sd": cell.sd, "n": 5}, "error")
    wide = (tmp_path / "r" / "tables" / "table_error.csv").read_text()
    assert "mofn-3-7-10" in wide and "±" not in wide
    assert summary.done == 1
