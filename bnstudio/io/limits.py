"""Size limits that every reader checks *before* allocating what a file declares.

A file can declare sizes far larger than itself (a 44-byte UAI file may declare a variable with 10^8 states;
a BIF ``default`` row fills every row of a table). Each reader makes one :class:`SizeBudget` per file and asks
it before building anything the file declares: the number of variables (or data columns), the states of each
variable (or distinct values of a data column), the parents of each variable, and the entries of each table
(the product of the cardinalities of the variable and its parents) plus their total over the file.

The defaults are far above every published network (the largest tables of pigs, link, munin and pathfinder
hold a few million entries); a user raises a limit with an environment variable, which every message names:

==========================  ===================  =============================================
environment variable        default              what it bounds
==========================  ===================  =============================================
BNSTUDIO_MAX_VARIABLES      100,000              variables of a network, columns of a data file
BNSTUDIO_MAX_STATES         1,000,000            states of a variable, distinct values of a column
BNSTUDIO_MAX_PARENTS        30                   parents of a variable (at most 63: numpy's axes)
BNSTUDIO_MAX_TABLE_ENTRIES  100,000,000          entries of one table (8 bytes each)
BNSTUDIO_MAX_TOTAL_ENTRIES  200,000,000          entries of all the tables of one file
BNSTUDIO_MAX_GUNZIP_BYTES   268,435,456          bytes of a gzip-compressed file once expanded
==========================  ===================  =============================================

>>> budget = SizeBudget()
>>> budget.table("X", 10, lambda m: ValueError(m))
>>> budget.total
10
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Callable

import numpy as np

from bnstudio.errors import ValidationError

#: ``fail(message)`` builds the error (with the reader's location) that a check raises.
Fail = Callable[[str], Exception]

#: The most axes a numpy array may have (a CPT has one per parent plus the child's).
MAX_AXES = 64 if int(np.__version__.split(".")[0]) >= 2 else 32


@dataclass(frozen=True)
class Limit:
    """A size limit: its default and the environment variable that overrides it."""

    env: str
    default: int
    ceiling: int | None = None  # a hard bound no setting can lift (and the reason is given in messages)

    def value(self) -> int:
        """The limit in force: the environment variable if set (a positive integer, ``1e9`` allowed)."""
        text = os.environ.get(self.env, "").strip().replace("_", "")
        if not text:
            return self.default
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and number >= 1 and number.is_integer()):
            raise ValidationError(f"the environment variable {self.env} must be a positive integer, got {text!r}")
        return int(number) if self.ceiling is None else min(int(number), self.ceiling)

    def message(self, what: str, size: int, limit: int) -> str:
        """``what`` (e.g. "the number of states of variable 'X' is") ``size``, above ``limit``, and how to raise
        the limit."""
        return f"{what} {size:,}, above the limit of {limit:,} ({self.how(limit)})"

    def how(self, limit: int) -> str:
        """How to raise the limit (or why it cannot be raised)."""
        if self.ceiling is not None and limit == self.ceiling:
            return f"numpy arrays have at most {MAX_AXES} axes"
        return f"set the environment variable {self.env} to raise it"


VARIABLES = Limit("BNSTUDIO_MAX_VARIABLES", 100_000)
STATES = Limit("BNSTUDIO_MAX_STATES", 1_000_000)
PARENTS = Limit("BNSTUDIO_MAX_PARENTS", 30, ceiling=MAX_AXES - 1)
TABLE_ENTRIES = Limit("BNSTUDIO_MAX_TABLE_ENTRIES", 100_000_000)
TOTAL_ENTRIES = Limit("BNSTUDIO_MAX_TOTAL_ENTRIES", 200_000_000)
GUNZIP_BYTES = Limit("BNSTUDIO_MAX_GUNZIP_BYTES", 256 << 20)


class SizeBudget:
    """The limits in force for one file (read from the environment once), and the table entries used so far.

    Each check raises ``fail(message)`` when a declared size is over its limit; nothing is allocated here.
    """

    def __init__(self) -> None:
        self.max_variables, self.max_states = VARIABLES.value(), STATES.value()
        self.max_parents = PARENTS.value()
        self.max_table, self.max_total = TABLE_ENTRIES.value(), TOTAL_ENTRIES.value()
        self.total = 0

    def variables(self, count: int, fail: Fail, noun: str = "variables") -> None:
        """``count`` variables (or data columns: ``noun="columns"``)."""
        if count > self.max_variables:
            raise fail(VARIABLES.message(f"the number of {noun} is", count, self.max_variables))

    def states(self, var: str, count: int, fail: Fail, noun: str = "variable") -> None:
        """``count`` states of variable (or data column: ``noun="column"``) ``var``."""
        if count > self.max_states:
            what = "distinct values" if noun == "column" else "states"
            raise fail(STATES.message(f"the number of {what} of {noun} '{var}' is", count, self.max_states))

    def parents(self, var: str, count: int, fail: Fail) -> None:
        if count > self.max_parents:
            raise fail(PARENTS.message(f"the number of parents of '{var}' is", count, self.max_parents))

    def table(self, var: str, entries: int, fail: Fail) -> None:
        """A table of ``entries`` numbers for ``var``; also counted against the file's total."""
        if entries > self.max_table:
            raise fail(TABLE_ENTRIES.message(f"the number of entries of the table of '{var}' is", entries,
                                             self.max_table))
        self.total += entries
        if self.total > self.max_total:
            raise fail(TOTAL_ENTRIES.message(f"with the table of '{var}', the number of table entries in the "
                                             f"file is", self.total, self.max_total))

    def family(self, var: str, cards: list[int] | tuple[int, ...], fail: Fail) -> int:
        """Check the parents (``cards`` = parents' cardinalities then the child's) and the table of ``var``;
        return the number of entries."""
        self.parents(var, len(cards) - 1, fail)
        entries = math.prod(cards)
        self.table(var, entries, fail)
        return entries
