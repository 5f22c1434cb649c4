"""Data as people hold it (issue 28): the same rows as CSV, pandas DataFrame (plain and categorical columns) and
Parquet give the same codes, so every learner, evaluate and structure learning give identical results; the
optional pyarrow is named in a one-line error when missing."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bnstudio.data import align, read_csv, read_table
from bnstudio.data import read as read_module
from bnstudio.data.errors import UnknownDataStates
from bnstudio.data.tables import as_codes
from bnstudio.errors import FormatError, ValidationError
from bnstudio.evaluate import evaluate
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.learn.structure import learn_structure
from bnstudio.sampling import codes_to_frame, forward_sample, write_samples_csv
from tests.data.conftest import NETWORKS


@pytest.fixture(scope="module")
def asia_rows(tmp_path_factory):
    """ASIA, 600 sampled rows with 10% of cells missing, as CSV, Parquet and DataFrames (columns shuffled)."""
    net = read_network(NETWORKS / "asia.bif")
    codes = forward_sample(net, 600, seed=3)
    codes[np.random.default_rng(4).random(codes.shape) < 0.1] = -1
    folder = tmp_path_factory.mktemp("asia")
    write_samples_csv(net, codes, folder / "asia.csv")
    frame = codes_to_frame(net, codes)[list(reversed(net.variables))]    # another column order
    plain = frame.astype(object).where(frame.notna(), None)              # strings and None
    categorical = frame.astype("category")
    for column in categorical:                                            # categories in reverse network order
        categorical[column] = categorical[column].cat.set_categories(list(reversed(net.states(column))))
    categorical.to_parquet(folder / "asia.parquet")
    categorical.reset_index(drop=True).to_feather(folder / "asia.arrow")
    return net, codes, folder, plain, categorical


def test_every_form_gives_the_same_codes(asia_rows):
    net, codes, folder, plain, categorical = asia_rows
    from_csv = align(read_csv(folder / "asia.csv"), net).codes
    assert np.array_equal(from_csv, codes)
    for data in (plain, categorical, folder / "asia.parquet", folder / "asia.arrow", str(folder / "asia.csv")):
        assert np.array_equal(as_codes(net, data)[0], codes), data if isinstance(data, (str, Path)) else type(data)


@pytest.mark.parametrize("method, options", [("ml", {}), ("mp", {"prior": "bdeu", "ess": 2.0}),
                                             ("em", {"max_iter": 3}), ("clgd", {"max_iter": 3}),
                                             ("bagged-mp", {"bags": 3, "seed": 1})])
def test_learners_fit_identically_from_every_form(asia_rows, method, options):
    net, codes, folder, plain, categorical = asia_rows
    target = "dysp" if method == "clgd" else None
    reference = make_learner(method, **options).fit(net, codes, target=target).cpts
    for data in (plain, categorical, folder / "asia.parquet", folder / "asia.arrow", folder / "asia.csv"):
        fitted = make_learner(method, **options).fit(net, data, target=target).cpts
        for v in net.variables:
            np.testing.assert_array_equal(fitted[v], reference[v], err_msg=f"{method} {type(data)} {v}")


def test_wanbia_fits_identically_from_frames_and_parquet(asia_rows, tmp_path):
    net, codes, *_ = asia_rows
    complete = codes[(codes >= 0).all(axis=1)]       # wanbia needs complete attribute values
    frame = codes_to_frame(net, complete)
    nb = learn_structure("nb", frame, target="dysp").network     # a class-rooted naive Bayes
    reference = make_learner("wanbia", max_iter=3).fit(nb, complete[:, [net.variables.index(v)
                                                                         for v in nb.variables]], target="dysp")
    frame.to_parquet(tmp_path / "complete.parquet")
    for data in (frame, frame.astype(str), tmp_path / "complete.parquet"):
        fitted = make_learner("wanbia", max_iter=3).fit(nb, data, target="dysp")
        for v in nb.variables:
            np.testing.assert_array_equal(fitted.cpts[v], reference.cpts[v])


def test_evaluate_and_structure_learning_take_frames(asia_rows):
    net, codes, folder, plain, categorical = asia_rows
    reference = evaluate(net, codes, "dysp").to_json()
    assert evaluate(net, categorical, "dysp").to_json() == reference
    assert evaluate(net, folder / "asia.parquet", "dysp").to_json() == reference
    complete = codes[(codes >= 0).all(axis=1)]
    frame = codes_to_frame(net, complete)
    from_codes = learn_structure("hill-climb", complete, net.variables, [net.states(v) for v in net.variables])
    from_frame = learn_structure("hill-climb", frame)
    assert sorted(from_frame.arcs) == sorted(from_codes.arcs)
    assert from_frame.score == pytest.approx(from_codes.score, rel=1e-12)


def test_weights_of_aligned_data_are_used(asia_rows):
    net, codes, *_ = asia_rows
    aligned = align(read_csv(asia_rows[2] / "asia.csv"), net)
    aligned.weights = np.linspace(0.5, 2.0, len(codes))
    ours = make_learner("ml").fit(net, aligned).cpts
    reference = make_learner("ml").fit(net, codes, aligned.weights).cpts
    for v in net.variables:
        np.testing.assert_array_equal(ours[v], reference[v])


def test_frame_values_the_network_lacks_are_named(asia_rows):
    net, codes, folder, plain, categorical = asia_rows
    bad = plain.copy()
    bad.loc[7, "smoke"] = "sometimes"
    with pytest.raises(UnknownDataStates, match=r"column 'smoke' value 'sometimes' \(1 row: row 8\)"):
        make_learner("ml").fit(net, bad)


def test_missing_pyarrow_is_one_line_naming_the_extra(asia_rows, monkeypatch):
    folder = asia_rows[2]
    monkeypatch.setattr(read_module, "has_package", lambda name: name != "pyarrow")
    with pytest.raises(FormatError) as info:
        read_table(folder / "asia.parquet")
    message = str(info.value)
    assert "\n" not in message and "pyarrow" in message and "bnstudio[parquet]" in message


def test_damaged_arrow_file_is_one_line(tmp_path):
    path = tmp_path / "broken.arrow"
    path.write_bytes(b"not an arrow file")
    with pytest.raises(FormatError, match=r"broken\.arrow: cannot read the Arrow file") as info:
        read_table(path)
    assert "\n" not in str(info.value)


def test_not_a_table_is_one_line():
    net = read_network(NETWORKS / "asia.bif")
    with pytest.raises(ValidationError, match=r"^data must have one column per network variable \(8\)"):
        make_learner("ml").fit(net, {"asia": [1, 2]})


def test_validation_may_be_a_frame(asia_rows):
    net, codes, folder, plain, categorical = asia_rows
    reference = make_learner("mp").fit(net, codes[:400], target="dysp", validation=codes[400:])
    ours = make_learner("mp").fit(net, categorical.iloc[:400], target="dysp", validation=categorical.iloc[400:])
    assert ours.history[0]["val_cnll"] == pytest.approx(reference.history[0]["val_cnll"], rel=1e-12)
    assert ours.history[0]["val_nll"] == pytest.approx(reference.history[0]["val_nll"], rel=1e-12)
