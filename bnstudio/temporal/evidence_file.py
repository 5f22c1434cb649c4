"""The evidence CSV of a 2TBN (docs/temporal.md): one row per slice, one column per variable (its radical name),
each cell a state name, a blank cell unobserved.

:func:`read_evidence_csv` is what ``bnstudio query --filter/--smooth`` and the app's Time panel read (only a
blank cell is unobserved: a state named ``NA`` or ``None`` stays a state); :func:`write_evidence_csv` writes
codes back in that form, so that reading the file gives the same codes (the Time panel's "Save evidence CSV…").
Matching the columns to the variables is :func:`bnstudio.temporal.evidence.evidence_codes`'s.
"""
from __future__ import annotations

import csv
import io
from typing import Any

import numpy as np

from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.temporal.evidence import check_codes
from bnstudio.temporal.model import TwoSliceNetwork


def read_evidence_csv(path: PathLike) -> Any:
    """The evidence CSV at ``path`` as a DataFrame of text columns (blank cells NaN); an unreadable file is a
    :class:`~bnstudio.errors.FormatError` naming it."""
    import pandas as pd

    try:
        return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])
    except FileNotFoundError:
        raise FormatError("no such file", str(path)) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read the evidence table: {' '.join(str(exc).split())}", str(path)) from None


def evidence_csv_text(tbn: TwoSliceNetwork, codes: np.ndarray) -> str:
    """The CSV text of ``codes`` (a (T, n) array, columns in ``tbn.radicals`` order, -1 unobserved): a header of
    the radicals, then one row of state names per slice (blank: unobserved; a row of one blank cell is written
    ``""`` so that it is not an empty line)."""
    codes = check_codes(tbn, np.asarray(codes, dtype=np.int64).reshape(-1, len(tbn.radicals)))
    states = [tbn.states(r) for r in tbn.radicals]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(tbn.radicals)
    for row in codes:
        writer.writerow([states[j][int(c)] if c >= 0 else "" for j, c in enumerate(row)])
    return out.getvalue()


def write_evidence_csv(tbn: TwoSliceNetwork, codes: np.ndarray, path: PathLike) -> None:
    """Write ``codes`` to ``path`` (atomically) as an evidence CSV (:func:`evidence_csv_text`)."""
    atomic_write_text(path, evidence_csv_text(tbn, codes))
