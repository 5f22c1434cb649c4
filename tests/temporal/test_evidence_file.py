"""The evidence CSV of a 2TBN (bnstudio/temporal/evidence_file.py): written codes read back to the same codes,
blank cells unobserved, state names that look like pandas' missing values kept."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import EvidenceError, FormatError
from bnstudio.temporal import two_slice_network
from bnstudio.temporal.evidence import evidence_codes
from bnstudio.temporal.evidence_file import evidence_csv_text, read_evidence_csv, write_evidence_csv
from tests.temporal.random_tbn import random_tbn


def markov_chain(states):
    """One variable per slice: a single column, so an unobserved slice is one blank cell."""
    k = len(states)
    return two_slice_network({"X": states}, initial={"X": ((), np.full(k, 1 / k))},
                             transition={"X": ((("X", 1),), np.full((k, k), 1 / k))})


@pytest.mark.parametrize("seed", range(3))
def test_written_codes_read_back_the_same(tmp_path, seed):
    tbn = random_tbn(seed, n=3)
    rng = np.random.default_rng(seed)
    cards = np.array([tbn.cardinality(r) for r in tbn.radicals])
    codes = (rng.integers(0, 100, size=(9, 3)) % cards).astype(np.int64)
    codes[rng.random(codes.shape) < 0.4] = -1
    codes[4] = -1                                  # a slice with nothing observed
    path = tmp_path / "evidence.csv"
    write_evidence_csv(tbn, codes, path)
    frame = read_evidence_csv(path)
    assert list(frame.columns) == list(tbn.radicals) and len(frame) == 9
    np.testing.assert_array_equal(evidence_codes(tbn, frame), codes)


def test_one_column_blank_slices_and_missing_value_names_survive(tmp_path):
    tbn = markov_chain(["NA", "None", "a,b", """ say "hi" """.strip()])
    codes = np.array([[-1], [0], [1], [-1], [2], [3], [-1]])
    text = evidence_csv_text(tbn, codes)
    assert text.splitlines()[:3] == ["X", '""', "NA"]          # a blank slice is not an empty line
    path = tmp_path / "chain.csv"
    write_evidence_csv(tbn, codes, path)
    np.testing.assert_array_equal(evidence_codes(tbn, read_evidence_csv(path)), codes)


def test_bad_codes_and_bad_files_are_refused_in_one_line(tmp_path):
    tbn = markov_chain(["a", "b"])
    with pytest.raises(EvidenceError, match="slice 1"):
        evidence_csv_text(tbn, np.array([[0], [2]]))
    with pytest.raises(FormatError, match="no such file"):
        read_evidence_csv(tmp_path / "missing.csv")
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(FormatError, match="cannot read the evidence table"):
        read_evidence_csv(tmp_path / "empty.csv")
