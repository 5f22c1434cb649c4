"""Rows of zeros that lenient reading made uniform, and whether that changes the distribution the file describes.

A CPT row of zeros gives no distribution of the child X for one configuration c of its parents; reading makes
it uniform (:mod:`bnstudio.io.repairs`). Let N be the network read and R_X the configurations of X's rows made
uniform. The file's tables F differ from N's only in those rows (0 instead of 1/|X|), so for every joint
configuration x

    Π_v F(x_v | x_pa(v)) = p_N(x) · Π_X 1[x_pa(X) ∉ R_X],

and the file's "joint" sums to p_N(no repaired configuration occurs) = 1 - p_N(∪_X {pa(X) ∈ R_X}). When
p_N(pa(X) = c) = 0 for every repaired row the two are the same distribution: the repair changes no probability
(aGrUM, which leaves such rows at 0, gives the same answers). Otherwise the file left mass unassigned.

p_N(pa(X) = c) does not depend on X's own table (a parent is no descendant of X). In an influence diagram the
decisions get a uniform policy: its support is maximal, so a configuration impossible under it is impossible
under every policy.

This module only describes: a reader records its rows of zeros (:class:`ZeroRows`) and reports them without
judging; the verdict (:class:`Verdict`) is computed with exact inference by :mod:`bnstudio.io.judging`, which the
one open path (:func:`bnstudio.io.open_file`) calls (docs/architecture.md §1: a file reader runs no inference).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from bnstudio.io.messages import tidy

SHOWN = 3  # rows named in a warning, as for the other kinds of repair
IMPOSSIBLE_TOLERANCE = 1e-12  # a file total within this of 1: every repaired configuration is impossible


@dataclass
class ZeroRows:
    """The rows of one table made uniform: ``rows`` (indices, the first parent slowest), the first few
    ``labels`` and the ``family`` (child, parents) in the network, or None when the rows are not a CPT's (a
    canonical model's parameters): then nothing is said about their parent configurations."""

    family: tuple[str, tuple[str, ...]] | None
    rows: np.ndarray
    labels: list[str]


class Verdict(NamedTuple):
    """p_N of the parent configuration of each repaired row a warning names (one array per table, for the first
    tables up to :data:`SHOWN` rows: one query each, so a file with a thousand such tables is not a thousand
    queries) and the file's total (one query for all)."""

    probabilities: list[np.ndarray]
    file_total: float
    uniform_policy: bool = False   # a diagram's: the probabilities and the total are under a uniform policy


def describe(tables: Sequence[ZeroRows], found: Verdict | None) -> str:
    """The warning's part for these rows: how many, the first few, and (with a verdict) whether any probability
    changes: "impossible parent configuration: no probability changes", or the probability of each shown
    row's parent configuration and what the file's joint summed to."""
    count = sum(len(t.rows) for t in tables)
    unit = "row of zeros" if count == 1 else "rows of zeros"
    shown: list[str] = []
    possible = found is not None and found.file_total < 1.0 - IMPOSSIBLE_TOLERANCE
    for k, t in enumerate(tables):
        for label, row in zip(t.labels, range(len(t.rows)), strict=False):
            if len(shown) == SHOWN:
                break
            note = ""
            if possible and count > 1:
                assert found is not None  # possible says so
                p = float(found.probabilities[k][row])
                note = f" (parent configuration has probability {p:.3g})" if p > 0 else \
                    " (impossible parent configuration)"
            shown.append(tidy(label) + note)
    more = f" and {count - len(shown):,} more" if count > len(shown) else ""
    text = f"made {count:,} {unit} uniform: {', '.join(shown)}{more}"
    if found is None:
        return text
    if not possible:
        return text + (" (impossible parent configuration: no probability changes)" if count == 1 else
                       " (impossible parent configurations: no probability changes)")
    total = _total(found.file_total) + (" with the decisions under a uniform policy" if found.uniform_policy else "")
    if count == 1:
        p = float(found.probabilities[0][0])
        return text + f" (parent configuration has probability {p:.3g}: the file's joint summed to {total})"
    return text + f": the file's joint summed to {total}"


def _total(total: float) -> str:
    """The file's total mass, short; a total that rounds to 1 shows what it misses (``1 - 2e-09``)."""
    return f"{total:.3g}" if 1.0 - total >= 5e-4 else f"1 - {1.0 - total:.3g}"


def __getattr__(name: str) -> object:
    """Deprecated names: ``verdict`` and ``VERDICT_MEMORY_BUDGET`` moved to :mod:`bnstudio.io.judging`."""
    if name in ("verdict", "VERDICT_MEMORY_BUDGET"):
        import warnings

        from bnstudio.io import judging

        warnings.warn(f"bnstudio.io.zero_rows.{name} is deprecated; use bnstudio.io.judging.{name}",
                      DeprecationWarning, stacklevel=2)
        return getattr(judging, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
