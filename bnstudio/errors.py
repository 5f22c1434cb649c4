"""Typed errors shared by every layer of BN Studio.

Each error carries a one-line, human-readable message naming *what* is wrong and *where*; the CLI prints it
as is (exit status 2) and the GUI shows it in a message bar, never a traceback.
"""
from __future__ import annotations


class BNStudioError(Exception):
    """Base class of every error BN Studio raises on purpose."""


class ValidationError(BNStudioError, ValueError):
    """A network, CPT, state or name that breaks an invariant (shape, sums, duplicates...)."""


class CycleError(ValidationError):
    """An arc (or a set of arcs) that would create a directed cycle; ``cycle`` lists the nodes in order."""

    def __init__(self, message: str, cycle: list[str] | None = None) -> None:
        super().__init__(message)
        self.cycle = list(cycle or [])


class UnknownVariableError(BNStudioError, KeyError):
    """A variable name the network does not have."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class UnknownStateError(BNStudioError, KeyError):
    """A state name a variable does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class EvidenceError(BNStudioError, ValueError):
    """Evidence that cannot be applied (malformed, wrong length, negative likelihoods...)."""


class ImpossibleEvidence(EvidenceError):
    """Evidence with probability zero under the network: p(e) = 0."""


class FormatError(BNStudioError, ValueError):
    """A malformed file: the message names the file, the line/column (or element) and what was expected."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        where = ""
        if path is not None:
            where = str(path)
            if line is not None:
                where += f":{line}"
                if column is not None:
                    where += f":{column}"
            where += ": "
        super().__init__(where + message)
        self.path, self.line, self.column = path, line, column


class MemoryBudgetExceeded(BNStudioError, MemoryError):
    """A computation that would allocate more than the configured memory budget (checked before allocating)."""


class TimeBudgetExceeded(BNStudioError):
    """A computation stopped at its time budget (a bounded-time promise, like the memory budget's)."""


class StudyFileError(FormatError):
    """A study file that cannot be read or written: damaged, on a full disk, in a read-only place."""


class StudyBusy(BNStudioError):
    """A study file that another live process is running (one driver per study file at a time)."""


class Cancelled(BNStudioError):
    """A job stopped on request; a cancelled job changes nothing."""


class RepairWarning(UserWarning):
    """A file was read after a repair (e.g. rows rescaled to sum to 1); the message names what was repaired."""
