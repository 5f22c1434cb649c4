"""Fits from data read a piece at a time (issue 28, "data beyond memory"): a CSV in blocks, a Parquet file's row
groups and a folder of CSV and Parquet parts give the in-memory fit — ml and mp exactly (integer counts), em to
1e-9 — with errors naming the file and line, cancellation between pieces, and the same on a Dask LocalCluster."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.data import align, read_csv
from bnstudio.data.errors import UnknownDataStates
from bnstudio.data.parts import open_parts, with_runner
from bnstudio.errors import Cancelled, FormatError
from bnstudio.io import read_network
from bnstudio.jobs import NullReporter
from bnstudio.learn.params import make_learner
from bnstudio.sampling import codes_to_frame, forward_sample, write_samples_csv
from tests.data.conftest import NETWORKS

ROWS = 3000


@pytest.fixture(scope="module")
def alarm(tmp_path_factory):
    """ALARM, 3,000 rows with 10% of cells missing: one CSV, a Parquet file of 4 row groups and a folder of
    two CSV parts and two Parquet parts (rows in that order: file names sort so)."""
    net = read_network(NETWORKS / "alarm.bif")
    codes = forward_sample(net, ROWS, seed=11)
    codes[np.random.default_rng(12).random(codes.shape) < 0.1] = -1
    folder = tmp_path_factory.mktemp("alarm")
    write_samples_csv(net, codes, folder / "all.csv")
    frame = codes_to_frame(net, codes)
    frame.to_parquet(folder / "all.parquet", row_group_size=800)
    parts = folder / "parts"
    parts.mkdir()
    bounds = [0, 700, 1500, 2200, ROWS]
    for k, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        if k < 2:
            write_samples_csv(net, codes[a:b], parts / f"part-{k}.csv")
        else:
            frame.iloc[a:b].astype(str).where(frame.iloc[a:b].notna(), None).to_parquet(parts / f"part-{k}.parquet")
    (parts / "_SUCCESS").write_text("")             # written by Spark; skipped
    return net, codes, folder


def sources(folder):
    return {"csv in blocks": open_parts(folder / "all.csv", chunk_bytes=50_000),
            "parquet row groups": open_parts(folder / "all.parquet", chunk_rows=300),
            "folder of parts": open_parts(folder / "parts", chunk_bytes=40_000)}


def assert_same_fit(ours, reference, net, tol=0.0):
    for v in net.variables:
        np.testing.assert_allclose(ours.cpts[v], reference.cpts[v], rtol=0, atol=tol, err_msg=v)
    if reference.alpha is not None:
        for v in net.variables:
            np.testing.assert_allclose(ours.alpha[v], reference.alpha[v], rtol=tol, err_msg=v)
    assert len(ours.history) == len(reference.history)
    for mine, theirs in zip(ours.history, reference.history, strict=True):
        for key in theirs:
            if key != "seconds":
                assert mine[key] == pytest.approx(theirs[key], rel=1e-12, nan_ok=True), key


def test_pieces_are_the_rows_of_the_whole_table(alarm):
    net, codes, folder = alarm
    for name, parts in sources(folder).items():
        assert len(parts.pieces) > 2, name
        assert np.array_equal(parts.load(net).codes, codes), name


@pytest.mark.parametrize("method, options, target", [
    ("ml", {}, None), ("ml", {}, "HYPOVOLEMIA"), ("mp", {"prior": "bdeu", "ess": 5.0}, None),
    ("em", {"max_iter": 3, "tol": 0}, None), ("em", {"max_iter": 2, "tol": 0, "m_step": "mp"}, "HYPOVOLEMIA")])
def test_streamed_fit_equals_the_in_memory_fit(alarm, method, options, target):
    net, codes, folder = alarm
    reference = make_learner(method, **options).fit(net, codes, target=target)
    for parts in sources(folder).values():
        ours = make_learner(method, **options).fit(net, parts, target=target)
        assert_same_fit(ours, reference, net, tol=0.0 if method != "em" else 1e-9)


def test_complete_rows_score_from_counts(alarm):
    net, codes, folder = alarm
    complete = codes[(codes >= 0).all(axis=1)]
    path = folder / "complete.csv"
    write_samples_csv(net, complete, path)
    reference = make_learner("ml").fit(net, complete)
    assert_same_fit(make_learner("ml").fit(net, open_parts(path, chunk_bytes=10_000)), reference, net)


def test_never_observed_variable_marginalised_as_in_memory(alarm, tmp_path):
    net, codes, folder = alarm
    frame = codes_to_frame(net, codes).drop(columns=["HYPOVOLEMIA"])   # a latent variable with children
    frame.to_parquet(tmp_path / "latent.parquet", row_group_size=1000)
    in_memory = codes.copy()
    in_memory[:, net.variables.index("HYPOVOLEMIA")] = -1
    with pytest.warns(UserWarning, match="HYPOVOLEMIA"):
        reference = make_learner("ml").fit(net, in_memory)
    with pytest.warns(UserWarning, match="HYPOVOLEMIA"):
        ours = make_learner("ml").fit(net, open_parts(tmp_path / "latent.parquet"))
    assert_same_fit(ours, reference, net)


def test_unknown_value_in_a_later_piece_names_its_file_line(alarm, tmp_path):
    net, codes, folder = alarm
    lines = (folder / "all.csv").read_text().splitlines()
    column = lines[0].split(",").index("KINKEDTUBE")
    cells = lines[2500].split(",")
    cells[column] = "BENT"
    lines[2500] = ",".join(cells)
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines) + "\n")
    assert align(read_csv(path), net, extend_states=True).added_states == {"KINKEDTUBE": ["BENT"]}
    with pytest.raises(UnknownDataStates, match=r"column 'KINKEDTUBE' value 'BENT' \(1 row: line 2501\)"):
        make_learner("ml").fit(net, open_parts(path, chunk_bytes=20_000))


def test_ragged_row_in_a_later_piece_names_its_line(alarm, tmp_path):
    net, codes, folder = alarm
    lines = (folder / "all.csv").read_text().splitlines()
    lines[2000] += ",extra"
    path = tmp_path / "ragged.csv"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(FormatError, match=r"ragged\.csv:2001: row has 38 fields but the header has 37"):
        make_learner("ml").fit(net, open_parts(path, chunk_bytes=20_000))


def test_unknown_value_in_parquet_names_its_row(alarm, tmp_path):
    net, codes, folder = alarm
    frame = codes_to_frame(net, codes).astype(object)
    frame.iloc[2345, frame.columns.get_loc("KINKEDTUBE")] = "BENT"
    frame.to_parquet(tmp_path / "bad.parquet", row_group_size=1000)
    with pytest.raises(UnknownDataStates, match=r"value 'BENT' \(1 row: row 2346\)"):
        make_learner("mp").fit(net, open_parts(tmp_path / "bad.parquet", chunk_rows=400))


def test_quoted_csv_is_streamed_with_the_same_fit(alarm, tmp_path):
    """A quoted header no longer makes the file one piece (issue 42, item 7): blocks end outside quotes."""
    net, codes, folder = alarm
    text = (folder / "all.csv").read_text()
    header, _, body = text.partition("\n")
    path = tmp_path / "quoted.csv"
    path.write_text(",".join(f'"{n}"' for n in header.split(",")) + "\n" + body + "\n\n")
    parts = open_parts(path, chunk_bytes=10_000)
    assert len(parts.pieces) > 1
    assert_same_fit(make_learner("ml").fit(net, parts), make_learner("ml").fit(net, codes), net)


def test_paths_that_are_not_tables(tmp_path):
    with pytest.raises(FormatError, match=r"absent\.parquet: no such file$"):
        open_parts(tmp_path / "absent.parquet")
    with pytest.raises(FormatError, match=r"parts/: no such folder$"):
        open_parts(f"{tmp_path}/parts/")
    (tmp_path / "notes.md").write_text("x")
    with pytest.raises(FormatError, match="the folder has no data parts"):
        open_parts(tmp_path)
    with pytest.raises(FormatError, match="unknown table type"):
        open_parts(tmp_path / "notes.md")
    (tmp_path / "broken.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(FormatError, match=r"broken\.parquet: cannot read the parquet file"):
        open_parts(tmp_path / "broken.parquet")


def test_cancel_between_pieces(alarm):
    net, codes, folder = alarm
    reporter = NullReporter()
    reporter.cancel()
    with pytest.raises(Cancelled):
        make_learner("ml").fit(net, open_parts(folder / "all.csv", chunk_bytes=50_000), reporter=reporter)
    with pytest.raises(Cancelled):
        make_learner("em", max_iter=2).fit(net, open_parts(folder / "parts"), reporter=reporter)


def test_local_dask_cluster_gives_the_in_memory_fit(alarm):
    pytest.importorskip("distributed")
    from bnstudio.data.cluster import DaskRunner

    net, codes, folder = alarm
    with DaskRunner(local_workers=2) as runner:
        parts = with_runner(open_parts(folder / "parts", chunk_bytes=40_000), runner)
        for method, options in (("ml", {}), ("em", {"max_iter": 2, "tol": 0})):
            reference = make_learner(method, **options).fit(net, codes)
            ours = make_learner(method, **options).fit(net, parts)
            assert_same_fit(ours, reference, net, tol=1e-9)


@pytest.mark.parametrize("score", ["bic", "bdeu", "k2", "ll"])
def test_structure_score_from_pieces_equals_the_score_cache(alarm, score):
    from bnstudio.learn.params.streamed import structure_score
    from bnstudio.learn.structure.scores import ScoreCache

    net, codes, folder = alarm
    cache = ScoreCache(codes, [net.cardinality(v) for v in net.variables], score, ess=3.0)
    column = {v: j for j, v in enumerate(net.variables)}
    expected = cache.total([[column[p] for p in net.parents(v)] for v in net.variables])
    for name, parts in sources(folder).items():
        assert structure_score(net, parts, score, ess=3.0) == pytest.approx(expected, rel=1e-12), name


@pytest.mark.parametrize("method", ["ml", "mp", "em"])
def test_validation_scores_as_in_memory(alarm, method):
    net, codes, folder = alarm
    options = {"max_iter": 2, "tol": 0} if method == "em" else {}
    validation = codes[:300]
    reference = make_learner(method, **options).fit(net, codes, target="HYPOVOLEMIA", validation=validation)
    assert {"val_nll", "val_cnll"} <= set(reference.history[-1])
    ours = make_learner(method, **options).fit(net, open_parts(folder / "parts"), target="HYPOVOLEMIA",
                                               validation=validation)
    assert_same_fit(ours, reference, net, tol=0.0 if method != "em" else 1e-9)
