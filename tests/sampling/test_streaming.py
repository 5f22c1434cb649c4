"""``sample_csv`` streams any number of cases chunk by chunk: bounded memory, the documented random streams,
up-front refusal of what cannot be written, and no partial file on failure. In-memory samples are bounded."""
from __future__ import annotations

import tracemalloc
from collections import namedtuple
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import bnstudio.sampling as sampling
from bnstudio.core import Network
from bnstudio.errors import MemoryBudgetExceeded, ValidationError
from bnstudio.io import read_network
from bnstudio.sampling import forward_sample, hide_at_random, sample_csv

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"


def read(path: Path) -> np.ndarray:
    return pd.read_csv(path, dtype=str, keep_default_na=False).to_numpy()


def names(net: Network, codes: np.ndarray) -> np.ndarray:
    return np.array([[net.states(v)[c] if c >= 0 else "" for v, c in zip(net.variables, row, strict=True)]
                     for row in codes])


def test_chunks_follow_the_documented_streams(tmp_path, monkeypatch):
    net = read_network(ASIA)
    monkeypatch.setattr(sampling, "CHUNK_CELLS", 5 * len(net))  # 5 rows per chunk
    summary = sample_csv(net, 23, tmp_path / "s.csv", seed=11, missing=0.3, hide=["lung"])
    got = read(tmp_path / "s.csv")
    assert got.shape == (23, 8) and (summary.rows, summary.columns) == (23, 8)
    assert summary.missing_fraction == pytest.approx((got == "").mean())
    # chunk 0: forward_sample then hide_at_random on the stream of the seed; chunk k: the k-th child stream
    first = np.random.default_rng(11)
    expected = []
    for k, rows in enumerate([5, 5, 5, 5, 3]):
        rng = first if k == 0 else first.spawn(1)[0]
        codes = forward_sample(net, rows, rng)
        codes[:, net.variables.index("lung")] = -1
        expected.append(names(net, hide_at_random(codes, 0.3, rng)))
    np.testing.assert_array_equal(got, np.vstack(expected))


def test_the_same_seed_gives_the_same_complete_cases_with_or_without_missing_cells(tmp_path, monkeypatch):
    net = read_network(ASIA)
    monkeypatch.setattr(sampling, "CHUNK_CELLS", 7 * len(net))
    sample_csv(net, 40, tmp_path / "full.csv", seed=5)
    sample_csv(net, 40, tmp_path / "holes.csv", seed=5, missing=0.4)
    full, holes = read(tmp_path / "full.csv"), read(tmp_path / "holes.csv")
    observed = holes != ""
    assert 0.25 < 1 - observed.mean() < 0.55 and np.array_equal(holes[observed], full[observed])


def test_memory_stays_bounded_whatever_the_number_of_cases(tmp_path, monkeypatch):
    net = read_network(ASIA)
    monkeypatch.setattr(sampling, "CHUNK_CELLS", 8 * 2000)
    tracemalloc.start()
    try:
        sample_csv(net, 100_000, tmp_path / "big.csv", seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size = (tmp_path / "big.csv").stat().st_size
    assert size > 2e6 and peak < 2e6   # about 0.8 MB; all codes at once alone would take 6.4 MB


def test_what_cannot_fit_the_free_space_is_refused_before_any_work(tmp_path, monkeypatch):
    net = read_network(ASIA)
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(sampling.shutil, "disk_usage", lambda path: usage(10**6, 0, 10**6))
    # each row needs at least 8 separators and 8 two-letter states: 24 bytes, so 50,000 rows cannot fit 1 MB
    with pytest.raises(ValidationError, match=r"need at least 1.2\d* MB .* has 1.00 MB free"):
        sample_csv(net, 50_000, tmp_path / "s.csv")
    sample_csv(net, 30_000, tmp_path / "s.csv", missing=0.1)  # blank cells may be shorter: only 8 bytes a row
    assert list(tmp_path.iterdir()) == [tmp_path / "s.csv"]
    with pytest.raises(ValidationError, match="need at least"):
        sample_csv(net, 200_000, tmp_path / "t.csv", missing=0.1)
    assert list(tmp_path.iterdir()) == [tmp_path / "s.csv"]


def test_a_failure_half_way_leaves_neither_a_partial_file_nor_a_temporary_one(tmp_path, monkeypatch):
    net = read_network(ASIA)
    target = tmp_path / "s.csv"
    target.write_text("old\n")
    monkeypatch.setattr(sampling, "CHUNK_CELLS", 5 * len(net))
    calls = []

    def failing(net, codes):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return original(net, codes)

    original = sampling.codes_to_frame
    monkeypatch.setattr(sampling, "codes_to_frame", failing)
    with pytest.raises(OSError):
        sample_csv(net, 20, target, seed=1)
    assert target.read_text() == "old\n" and list(tmp_path.iterdir()) == [target]


def test_refusals(tmp_path):
    with pytest.raises(ValidationError, match="no variables"):
        sample_csv(Network("empty"), 3, tmp_path / "s.csv")
    net = read_network(ASIA)
    for missing in (1.0, -0.1, float("nan")):
        with pytest.raises(ValidationError, match="missing fraction"):
            sample_csv(net, 3, tmp_path / "s.csv", missing=missing)
    with pytest.raises(MemoryBudgetExceeded, match="stream them to a file"):
        forward_sample(net, 10**11)   # refused before numpy is asked for 6 TB
    assert not list(tmp_path.iterdir())
