"""Issue 35: a study's supervised preprocessing never sees its test rows by default (cut points per fold; whole-file
cuts only with ``per_fold = false``, then said in the report's header), a few-valued integer column stays
categorical, and a column that ends with a single state is named in one warning line and in the report."""
from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from bnstudio.data import BNStudioDataWarning
from bnstudio.experiment.datasets import prepare
from bnstudio.experiment.evaluation import task_rows
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.html import page
from bnstudio.experiment.report import compose_report
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import DatasetSpec, load_study
from bnstudio.experiment.suite import suite_data_folder
from bnstudio.experiment.summary import split_description

IRIS = suite_data_folder() / "iris.csv"
SPLIT = {"folds": 5, "test_fraction": None, "evaluation": "classification"}
WHOLE_FILE = "cut points learnt on the whole file (test rows' classes included)"


def study_file(tmp_path, csv, discretise: str, name: str = "s"):
    path = tmp_path / f"{name}.toml"
    path.write_text(f"folds = 3\nstructures = ['nb']\nmethods = ['mp']\nmetrics = ['error']\n\n[[datasets]]\n"
                    f"name = 'd'\ncsv = '{csv.as_posix()}'\ntarget = 'Class'\ndiscretise = {discretise}\n")
    return load_study(path)


def test_a_study_cuts_per_fold_unless_asked_and_no_test_label_moves_a_cut(tmp_path):
    spec = study_file(tmp_path, IRIS, "{method = 'mdl'}").datasets[0]
    assert spec.per_fold and spec.discretise["per_fold"] is True
    view, train, test = task_rows(prepare(spec), SPLIT, 0, 0)
    frame = pd.read_csv(IRIS)
    classes = sorted(frame["Class"].unique())
    frame.loc[test, "Class"] = [classes[(classes.index(c) + 1) % 3] for c in frame.loc[test, "Class"]]
    frame.to_csv(tmp_path / "relabelled.csv", index=False)
    moved = study_file(tmp_path, tmp_path / "relabelled.csv", "{method = 'mdl'}", "t").datasets[0]
    other, train2, test2 = task_rows(prepare(moved), SPLIT, 0, 0)
    assert np.array_equal(test, test2)
    assert view.states[:4] == other.states[:4]
    np.testing.assert_array_equal(view.codes[:, :4], other.codes[:, :4])


def test_whole_file_cuts_only_when_asked_and_then_the_header_says_so(tmp_path):
    default = study_file(tmp_path, IRIS, "{method = 'mdl'}")
    whole = study_file(tmp_path, IRIS, "{method = 'mdl', per_fold = false}", "w")
    assert not whole.datasets[0].per_fold
    assert WHOLE_FILE not in split_description(default.to_json())
    assert split_description(whole.to_json()) == f"3-fold cross-validation; d: {WHOLE_FILE}"
    unsupervised = study_file(tmp_path, IRIS, "{method = 'equal-width', per_fold = false}", "u")
    assert "(test rows' values included)" in split_description(unsupervised.to_json())
    # a store of whole-file cuts (written before per-fold became the default) never shares a key with them
    assert prepare(default.datasets[0]).fingerprint != prepare(whole.datasets[0]).fingerprint
    old_whole_file = {"method": "mdl"}          # how whole-file cuts were written until issue 35
    assert DatasetSpec("d", "csv", str(IRIS), "Class", discretise=old_whole_file).to_json()["discretise"] \
        != old_whole_file


def flags_csv(tmp_path, n: int = 200):
    """A 0/1 flag barely related to the class (MDL finds no cut in it), a noise column (no cut either) and an
    informative measurement."""
    rng = np.random.default_rng(0)
    cls = rng.integers(0, 2, n)
    frame = pd.DataFrame({"smoker": rng.integers(0, 2, n), "noise": np.round(rng.normal(0, 1, n), 4),
                          "size": np.round(cls * 2 + rng.normal(0, 0.5, n), 3), "Class": np.where(cls, "y", "n")})
    path = tmp_path / "flags.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_a_zero_one_column_stays_two_states_unless_the_study_says_otherwise(tmp_path):
    from bnstudio.data import columns_to_cut

    path, frame = flags_csv(tmp_path)
    assert columns_to_cut(frame, ["Class"]) == ["noise", "size"]
    for per_fold in ("true", "false"):
        spec = study_file(tmp_path, path, f"{{method = 'mdl', per_fold = {per_fold}}}").datasets[0]
        data = prepare(spec)
        view = task_rows(data, SPLIT, 0, 0)[0] if spec.per_fold else data
        assert view.states[view.names.index("smoker")] == ("0", "1")
    cut_all = study_file(tmp_path, path, "{method = 'mdl', categorical_max_distinct = 0}").datasets[0]
    assert len(task_rows(prepare(cut_all), SPLIT, 0, 0)[0].states[0]) == 1       # MDL merged the flag away


def test_a_column_ending_with_one_state_is_named_in_one_warning_and_in_the_report(tmp_path):
    path, _ = flags_csv(tmp_path)
    study = study_file(tmp_path, path, "{method = 'mdl'}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run_study(study, SerialExecutor(), store_path=tmp_path / "s.sqlite")
    said = [str(w.message) for w in caught if issubclass(w.category, BNStudioDataWarning)]
    assert len(said) == 1 and "\n" not in said[0] and "d: noise" in said[0]
    assert "smoker" not in said[0] and "size" not in said[0]
    report = compose_report(tmp_path / "s.sqlite", tmp_path / "report")
    assert json.loads(report.json.read_text())["study"]["single_state"] == {"d": ["noise"]}
    assert "which carry no information: d: noise." in page(report.document, [], report.folder)


def test_a_study_without_such_columns_says_nothing(tmp_path):
    study = study_file(tmp_path, IRIS, "{method = 'mdl'}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_study(study, SerialExecutor(), store_path=tmp_path / "s.sqlite")
    report = compose_report(tmp_path / "s.sqlite", tmp_path / "report")
    assert "single_state" not in report.document["study"]


@pytest.mark.parametrize("value", ["1", "'yes'"])
def test_per_fold_must_be_a_boolean(tmp_path, value):
    from bnstudio.errors import FormatError

    with pytest.raises(FormatError, match=r"discretise\.per_fold: must be true or false \(true, the default"):
        study_file(tmp_path, IRIS, f"{{method = 'mdl', per_fold = {value}}}")
