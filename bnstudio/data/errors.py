"""Errors and warnings of the data layer.

Reading problems are :class:`~bnstudio.errors.FormatError` (file, line, what is wrong); data that does not fit a
network is :class:`UnknownDataStates`; a recoverable oddity (a data column the network lacks) is a
:class:`BNStudioDataWarning`.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

from bnstudio.errors import FormatError, ValidationError
from bnstudio.io.messages import SHOWN, listing, shorten, tidy

BOOLEAN_LABELS = ("True", "False")  # how a boolean cell is named (bnstudio.data.states.label_text)


class BNStudioDataWarning(UserWarning):
    """Something in the data was skipped or reinterpreted; the message names what and why."""


class StateProblem(NamedTuple):
    """One data value a network variable has no state for: where it occurs and how often."""

    column: str
    value: str
    count: int  # type: ignore[assignment]  # shadows tuple.count; a public field, so it keeps its name
    where: str  # e.g. "lines 3, 7, 12, ..." (file lines) or "rows 1, 5" (1-based row positions)


class UnknownDataStates(ValidationError):
    """Data values that are not states of the matching network variable; ``problems`` lists each one, the
    message the first :data:`~bnstudio.io.messages.SHOWN` and how many there are."""

    def __init__(self, problems: Sequence[StateProblem]) -> None:
        self.problems = list(problems)
        parts = [f"column '{shorten(p.column)}' value '{shorten(p.value)}' ({p.count:,} "
                 f"row{'s' if p.count != 1 else ''}: {p.where})" for p in self.problems[:SHOWN]]
        more = len(self.problems) - len(parts)
        if more:
            columns = list(dict.fromkeys(p.column for p in self.problems))
            parts.append(f"and {more:,} more ({len(self.problems):,} values in all, in "
                         f"column{'s' if len(columns) != 1 else ''} {listing(columns)})")
        super().__init__("data values that are not states of the network: " + "; ".join(parts) + self._remedy())

    def _remedy(self) -> str:
        """How to go on: booleans (pandas read TRUE/FALSE as True/False) are read again as text; other values
        can be added as states."""
        booleans = [p.value in BOOLEAN_LABELS for p in self.problems]
        remedies = (["pandas read TRUE/FALSE as booleans: read the CSV with dtype=str"] * any(booleans)
                    + ["align with extend_states=True to add them"] * (not all(booleans)))
        return f" ({'; '.join(remedies)})"


def fail(message: str, source: str | None, line: int | None = None) -> FormatError | ValidationError:
    """A :class:`FormatError` naming the file when the data came from one, else a :class:`ValidationError`
    (on one line, long names shortened)."""
    if source is None:
        return ValidationError(tidy(message))
    return FormatError(tidy(message), path=source, line=line)
