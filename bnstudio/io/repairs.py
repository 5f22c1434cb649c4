"""The tolerance policy of every reader (:mod:`bnstudio.io.project` included), and the report of what was repaired.

A file is read the way the tool that wrote it reads it, and every repair is said: the reader collects them in
one :class:`Repairs` per file and emits one :class:`~bnstudio.errors.RepairWarning` naming which node, which
rows and how much. Reading *strictly* (``read_network(path, strict=True)``, ``bnstudio ... --strict``) repairs
nothing: the first repair that would be needed is a :class:`~bnstudio.errors.FormatError` instead.

Entries of a table must be finite numbers; each table is then judged row by row. Lenient reading (the default):

* a row summing to 1 within :data:`EXACT_TOLERANCE` (float rounding) is kept bit for bit, so a file written at
  full precision reads back identically;
* a row off 1 by at most :data:`QUIET_TOLERANCE` is rescaled without a word: numbers printed with 6 or more
  significant digits leave rows a few 1e-6 off 1 (bnlearn's alarm has rows summing to 0.9999999);
* a row off 1 by at most :data:`SUM_TOLERANCE` is rescaled and reported (published tables are rounded:
  0.333, 0.333, 0.333);
* an entry in [-:data:`NEGATIVE_TOLERANCE`, 0) is set to 0 and reported (single-precision noise such as the
  ``-1.1920929E-7`` of UnBBayes' Pathfinder);
* a table of counts (every entry a whole number, some row summing to more than 1) has each row divided by its
  sum, reported;
* in a Hugin NET or GeNIe XDSL file, a row further off 1 is divided by its sum, reported: those tools
  normalise what they read (a Hugin potential ``(10 90)`` means 0.1, 0.9; GeNIe opens a row summing to
  0.99808);
* a row of zeros (no positive entry: the file gives no distribution there) becomes uniform, reported in every
  format, as aGrUM opens such files (it leaves the row at 0); opened through :func:`bnstudio.io.open_file`
  (so :func:`~bnstudio.io.read_network`, the app, the command line), the report says whether this changes
  anything: when no such row's parent configuration is possible the file's joint and the network's are the
  same, else how much mass the file left unassigned (:mod:`bnstudio.io.zero_rows`). The reader only reports
  the rows; the open path's judge (:mod:`bnstudio.io.judging`) runs the inference, so a reader or parser
  called on its own (``parse_bif(text)``) names the rows without that verdict unless called within
  :func:`bnstudio.io.judging.judged_repairs`;
* anything else is refused, naming the row: a row further off 1 in another format, an entry below
  -:data:`NEGATIVE_TOLERANCE`, NaN or infinity.

Strict reading keeps the first two cases (rounding is not a repair) and refuses every other one.

Other repairs (blanks before ``<?xml``, a quoted NET string running over two lines) are reported the same
way through :meth:`Repairs.note`.

``with strict_reading():`` makes every :func:`bnstudio.io.read_network` in the block strict unless the call says
otherwise (the command line's ``--strict`` wraps a whole subcommand in it, so no reading path can forget it).
"""
from __future__ import annotations

import contextlib
import warnings
from contextvars import ContextVar
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

import numpy as np

from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io.messages import tidy
from bnstudio.io.zero_rows import Verdict, ZeroRows, describe

if TYPE_CHECKING:
    from bnstudio.core.network import Network
    from bnstudio.decision.model import InfluenceDiagram

SUM_TOLERANCE = 1e-3  # rows further than this from 1 are errors (or weights); rows within it are rescaled ...
QUIET_TOLERANCE = 1e-5  # ... with a RepairWarning when they are further than this from 1 ...
EXACT_TOLERANCE = 1e-12  # ... unless they already sum to 1 up to float rounding: those are kept bit for bit
NEGATIVE_TOLERANCE = 1e-5  # entries in [-1e-5, 0) are noise, set to 0; below: an error

_STRICT: ContextVar[bool] = ContextVar("bnstudio_strict_reading", default=False)
#: The reports held by :func:`held_repairs` (None: none is held, a reader's report is emitted at once).
_HELD: ContextVar[list[tuple[Repairs, Network | InfluenceDiagram | None]] | None] = ContextVar(
    "bnstudio_held_repairs", default=None)


@contextlib.contextmanager
def strict_reading(strict: bool = True) -> Iterator[None]:
    """Within the block, :func:`bnstudio.io.read_network` reads strictly (``strict``) unless told otherwise."""
    token = _STRICT.set(strict)
    try:
        yield
    finally:
        _STRICT.reset(token)


def reading_strictly() -> bool:
    """Whether the enclosing :func:`strict_reading` block (if any) asks for strict reading."""
    return _STRICT.get()


@contextlib.contextmanager
def held_repairs() -> Iterator[list[tuple[Repairs, Network | InfluenceDiagram | None]]]:
    """Within the block, :meth:`Repairs.warn` emits nothing: it appends (repairs, model read) to the list
    yielded, for the caller to judge and emit (:func:`bnstudio.io.judging.judged_repairs`)."""
    held: list[tuple[Repairs, Network | InfluenceDiagram | None]] = []
    token = _HELD.set(held)
    try:
        yield held
    finally:
        _HELD.reset(token)


#: ``fail(message)`` builds the :class:`FormatError` (with the reader's location) that a check raises.
Fail = Callable[[str], FormatError]


def entry_problem(value: float) -> str | None:
    """Why ``value`` cannot be a probability in any reading (None if it can: tiny negatives are repaired)."""
    if not np.isfinite(value):
        return "non-finite probability"
    if value < -NEGATIVE_TOLERANCE:
        return "negative probability"
    return None


class _Kind:
    """One kind of repair: how many rows it touched and the first few, described."""

    SHOWN = 3  # rows named in the warning; the count covers the rest

    def __init__(self, text: str, unit: tuple[str, str]) -> None:
        self.text, self.unit = text, unit
        self.count = 0
        self.shown: list[str] = []

    def add(self, items: list[str], total: int) -> None:
        self.shown += [tidy(item) for item in items[:max(self.SHOWN - len(self.shown), 0)]]
        self.count += total

    def message(self) -> str:
        more = f" and {self.count - len(self.shown):,} more" if self.count > len(self.shown) else ""
        unit = self.unit[self.count != 1]
        return f"{self.text.format(n=f'{self.count:,}', unit=unit)}: {', '.join(self.shown)}{more}"


class Repairs:
    """The repairs made while reading one file (see the module docstring); :meth:`warn` reports them once.

    ``strict``: refuse instead of repairing. ``normaliser``: the authoring tool that reads any row as weights
    (``"Hugin"``, ``"GeNIe"``), or None.

    >>> repairs = Repairs("n.bif")
    >>> rows = np.array([[0.3, 0.6995], [0.5, 0.5]])
    >>> repairs.rows(rows, lambda r: f"row {r}") is None, float(rows[0].sum())
    (True, 1.0)
    >>> print(repairs.message())
    n.bif: rescaled 1 row whose sum was off 1 by more than 1e-05 (at most 0.001): row 0 sums to 0.9995
    """

    def __init__(self, path: str, strict: bool = False, normaliser: str | None = None) -> None:
        self.path, self.strict, self.normaliser = path, strict, normaliser
        self._kinds: dict[str, _Kind] = {}
        self._notes: list[str] = []
        self._zeros: list[ZeroRows] = []
        self._refusal = ""

    def _kind(self, key: str, text: str, unit: tuple[str, str]) -> _Kind:
        if key not in self._kinds:
            self._kinds[key] = _Kind(text, unit)
        return self._kinds[key]

    @property
    def count(self) -> int:
        """How many repairs were reported so far (rows and notes)."""
        return sum(k.count for k in self._kinds.values()) + sum(len(z.rows) for z in self._zeros) + len(self._notes)

    # ------------------------------------------------------------------ tables
    def rows(self, rows: np.ndarray, describe: Callable[[int], str],
             family: tuple[str, Sequence[str]] | None = None) -> int | None:
        """Repair the rows of a 2-d float array in place and record what was done (``describe(r)`` names row
        ``r``); return the index of the first row that cannot be read (then nothing is changed and
        :meth:`refusal` says why), else None.

        ``family``: (child, parents) as named in the network read, when the rows are that CPT's rows (the first
        parent slowest); then :meth:`warn` can say whether a row of zeros made uniform changes anything."""
        sums = _row_sums(rows)
        negative = rows < 0
        counts = self.normaliser is None and _whole_numbers(rows)
        weights = counts or self.normaliser is not None
        bad = self._refused(rows, sums, negative, weights)
        if bad is not None:
            return bad
        if negative.any():
            hit = np.flatnonzero(negative.any(axis=1))
            self._kind("negative", "set {n} tiny negative {unit} to 0 (at least -" + f"{NEGATIVE_TOLERANCE:g})",
                       ("probability", "probabilities")).add(
                [f"{describe(int(r))} had {rows[r][negative[r]].min():.6g}" for r in hit[:_Kind.SHOWN]],
                int(negative.sum()))
            rows[negative] = 0.0
            sums = rows.sum(axis=1)
        off = np.abs(sums - 1.0)
        empty = sums <= 0  # a row of zeros (tiny negatives cleared): no distribution to scale
        far = (off > SUM_TOLERANCE) & ~empty
        if empty.any():
            hit = np.flatnonzero(empty)
            room = max(_Kind.SHOWN - sum(len(z.labels) for z in self._zeros), 0)
            self._zeros.append(ZeroRows(None if family is None else (family[0], tuple(family[1])), hit,
                                        [describe(int(r)) for r in hit[:room]]))
        if far.any():
            key, text, unit = ("counts", "normalised {n} {unit} (read as counts: whole numbers)", ("row", "rows")) \
                if counts else ("weights", "normalised {n} {unit} far from 1 (read as weights, as " +
                                f"{self.normaliser} does)", ("row whose sum was", "rows whose sums were"))
            self._kind(key, text, unit).add(
                [f"{describe(int(r))} sums to {sums[r]:.6g}" for r in np.flatnonzero(far)[:_Kind.SHOWN]],
                int(far.sum()))
        noticed = np.flatnonzero((off > QUIET_TOLERANCE) & ~far & ~empty)
        if noticed.size:
            self._kind("rescaled", "rescaled {n} {unit} off 1 by more than " +
                       f"{QUIET_TOLERANCE:g} (at most {SUM_TOLERANCE:g})",
                       ("row whose sum was", "rows whose sums were")).add(
                [f"{describe(int(r))} sums to {sums[r]:.6g}" for r in noticed[:_Kind.SHOWN]], int(noticed.size))
        rows[empty] = 1.0 / rows.shape[1]
        rescale = (off > EXACT_TOLERANCE) & ~empty
        rows[rescale] /= sums[rescale, None]
        return None

    def _refused(self, rows: np.ndarray, sums: np.ndarray, negative: np.ndarray, weights: bool) -> int | None:
        """The first row this reading cannot take (the reason kept for :meth:`refusal`), or None."""
        off = np.abs(sums - 1.0)
        finite = np.isfinite(rows).all(axis=1)
        reasons = [((rows < -NEGATIVE_TOLERANCE).any(axis=1) | ~finite, "has an entry that is not a probability"),
                   (finite & ~np.isfinite(sums), "sums beyond the float range (1.8e308)")]
        if self.strict:
            reasons += [(negative.any(axis=1), "has the negative probability {min} (strict reading repairs "
                                               "nothing)"),
                        (off > QUIET_TOLERANCE, "sums to {sum}, not 1 (tolerance " + f"{QUIET_TOLERANCE:g}; "
                                                "strict reading repairs nothing)")]
        elif not weights:  # a row with no positive entry is a row of zeros (made uniform)
            reasons += [((off > SUM_TOLERANCE) & (rows > 0).any(axis=1),
                         "sums to {sum}, not 1 (tolerance " + f"{SUM_TOLERANCE:g})")]
        first = None
        for mask, text in reasons:
            hit = np.flatnonzero(mask)
            if hit.size and (first is None or hit[0] < first):
                first = int(hit[0])
                self._refusal = text.format(sum=f"{sums[first]:.6g}", min=f"{rows[first].min():.6g}")
        return first

    def refusal(self, label: str) -> str:
        """The message for the row :meth:`rows` refused, named ``label`` (e.g. ``row (A=a) of 'B'``)."""
        return f"{label} {self._refusal}"

    # ------------------------------------------------------------------ other repairs
    def note(self, message: str, fail: Fail) -> None:
        """Record a repair other than a table's (said as ``message``); a strict reading raises ``fail`` instead."""
        if self.strict:
            raise fail(f"{message} (strict reading repairs nothing)")
        self._notes.append(tidy(message))

    @property
    def zero_rows(self) -> list[ZeroRows]:
        """The rows of zeros made uniform so far, table by table (for the open path's verdict)."""
        return list(self._zeros)

    def message(self, found: Verdict | None = None) -> str | None:
        """The one-line warning text, or None when nothing needed saying; with the verdict ``found`` on
        :attr:`zero_rows` (:func:`bnstudio.io.judging.verdict`), rows of zeros made uniform are said to change
        nothing or how much mass the file left unassigned (see :mod:`bnstudio.io.zero_rows`)."""
        parts = [self._kinds[k].message() for k in _ORDER if k in self._kinds]
        if self._zeros:
            parts.append(describe(self._zeros, found))
        parts += self._notes
        path = self.path.replace("\r", "\\r").replace("\n", "\\n")
        return f"{path}: {'; '.join(parts)}" if parts else None  # names shortened item by item (tidy)

    def warn(self, model: Network | InfluenceDiagram | None = None) -> None:
        """Report the repairs once the ``model`` (network or influence diagram) is read: within
        :func:`held_repairs` (the open path) the report is held for the rows of zeros to be judged, else one
        :class:`RepairWarning` is emitted at once, naming those rows without a verdict (a reader judges
        nothing: docs/architecture.md §1)."""
        held = _HELD.get()
        if held is None:
            self.emit(None, stacklevel=4)
        else:
            held.append((self, model))

    def emit(self, found: Verdict | None = None, stacklevel: int = 2) -> None:
        """Emit one :class:`RepairWarning` if anything was repaired, with the verdict ``found`` on the rows of
        zeros (see :meth:`message`)."""
        message = self.message(found)
        if message is not None:
            warnings.warn(message, RepairWarning, stacklevel=stacklevel)


_ORDER = ("negative", "rescaled", "weights", "counts")  # the order of the parts of a message (then rows of zeros)


def untouched(rows: np.ndarray) -> bool:
    """Whether :meth:`Repairs.rows` would neither change nor report anything in any reading: every entry
    non-negative and every row summing to 1 within ``EXACT_TOLERANCE`` (so finite). A quick test first: entries
    in [0, 1] (NaN fails both) cannot overflow a row sum, so no floating-point error state is needed."""
    return bool(rows.size and rows.min() >= 0 and rows.max() <= 1
                and np.abs(rows.sum(axis=-1) - 1.0).max() <= EXACT_TOLERANCE)


def _whole_numbers(rows: np.ndarray) -> bool:
    """A table of counts: every entry a non-negative whole number and some row summing to more than 1."""
    return bool(rows.size and np.all(rows >= 0) and np.all(rows == np.round(rows))
                and np.any(_row_sums(rows) > 1 + SUM_TOLERANCE))


def _row_sums(rows: np.ndarray) -> np.ndarray:
    """The sums of the rows; a sum beyond the float range is inf, without numpy's overflow warning (the row is
    then refused in one line)."""
    with np.errstate(over="ignore"):
        return rows.sum(axis=1)
