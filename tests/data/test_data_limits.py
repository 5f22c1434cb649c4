"""Data tables are held to the same limits as network files (bnstudio.io.limits): columns and distinct values."""
from __future__ import annotations

import pandas as pd
import pytest

from bnstudio.data import from_frame, read_csv
from bnstudio.errors import FormatError, ValidationError

PLAIN = "A,B\n" + "".join(f"v{k},x\n" for k in range(30))  # tokenised by numpy
QUOTED = 'A,B\n' + "".join(f'"v{k}",x\n' for k in range(30))  # through the layout scan and pandas


@pytest.mark.parametrize("text", [PLAIN, QUOTED], ids=["plain", "quoted"])
def test_distinct_values_per_column(tmp_path, monkeypatch, text):
    path = tmp_path / "d.csv"
    path.write_text(text)
    monkeypatch.setenv("BNSTUDIO_MAX_STATES", "29")
    with pytest.raises(FormatError) as info:
        read_csv(path)
    assert str(info.value) == (f"{path}: the number of distinct values of column 'A' is 30, above the limit of 29 "
                               f"(set the environment variable BNSTUDIO_MAX_STATES to raise it)")
    monkeypatch.setenv("BNSTUDIO_MAX_STATES", "30")
    assert len(read_csv(path).column_states("A")) == 30


@pytest.mark.parametrize("text", [PLAIN, QUOTED], ids=["plain", "quoted"])
def test_columns(tmp_path, monkeypatch, text):
    path = tmp_path / "d.csv"
    path.write_text(text)
    monkeypatch.setenv("BNSTUDIO_MAX_VARIABLES", "1")
    with pytest.raises(FormatError, match=r"d\.csv: the number of columns is 2, above the limit of 1 \(set the "
                                          r"environment variable BNSTUDIO_MAX_VARIABLES to raise it\)$"):
        read_csv(path)


def test_frames_too(monkeypatch):
    monkeypatch.setenv("BNSTUDIO_MAX_STATES", "2")
    with pytest.raises(ValidationError, match="^the number of distinct values of column 'k' is 3, above the limit"):
        from_frame(pd.DataFrame({"k": [1, 2, 3]}))
