"""A discrete variable: a name and an ordered tuple of distinct state names."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from bnstudio.errors import UnknownStateError, ValidationError


@dataclass(frozen=True)
class Variable:
    """A discrete random variable with ordered, named states.

    >>> Variable("Smoker", ("yes", "no")).index("no")
    1
    """

    name: str
    states: tuple[str, ...]
    description: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.states, str):
            raise ValidationError(f"states of '{self.name}' must be a list of names, not the string {self.states!r}")
        object.__setattr__(self, "states", tuple(str(s) for s in self.states))
        check_name(self.name, "variable")
        if len(self.states) < 1:
            raise ValidationError(f"variable '{self.name}' needs at least one state")
        seen: set[str] = set()
        for state in self.states:
            check_name(state, f"state of '{self.name}'")
            if state in seen:
                raise ValidationError(f"variable '{self.name}' has the state '{state}' twice")
            seen.add(state)

    @property
    def cardinality(self) -> int:
        return len(self.states)

    def index(self, state: str) -> int:
        """Position of ``state``; raises :class:`UnknownStateError` naming the variable and its states."""
        try:
            return self.states.index(state)
        except ValueError:
            raise UnknownStateError(
                f"variable '{self.name}' has no state '{state}' (states: {', '.join(self.states)})") from None


def check_name(name: object, what: str) -> None:
    """Names are non-empty strings without leading/trailing blanks or line breaks."""
    if not isinstance(name, str) or not name or name != name.strip() or "\n" in name:
        raise ValidationError(f"invalid {what} name {name!r}: use a non-empty single-line name")


TRUE_NAMES = ("true", "1")
FALSE_NAMES = ("false", "0")


def boolean_states(states: tuple[str, ...] | list[str]) -> tuple[int, int] | None:
    """(index of the true state, index of the false state) when exactly one state is named true and one false,
    ignoring case (``TRUE``/``FALSE``, ``True``/``False``, ``true``/``false``) or ``1``/``0``; else None. What a
    boolean cell (pandas reads TRUE/FALSE in a CSV as booleans) means for the variable.

    >>> boolean_states(("TRUE", "FALSE")), boolean_states(("0", "1")), boolean_states(("yes", "no"))
    ((0, 1), (1, 0), None)
    """
    folded = [s.strip().lower() for s in states]
    for true, false in zip(TRUE_NAMES, FALSE_NAMES, strict=True):
        if folded.count(true) == 1 and folded.count(false) == 1:
            return folded.index(true), folded.index(false)
    return None


_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def next_state_name(states: Sequence[str]) -> str:
    """The name of a state added after ``states``, in their own style.

    Numbered states go on from the highest number of the last state's prefix (``s0, s1`` → ``s2``, GeNIe's
    ``State0, State1`` → ``State2``, Netica's ``state0`` → ``state1``, ``Level 3`` → ``Level 4``, ``0, 1`` → ``2``); other names
    get the state's place, counted from 1, in their case (``yes, no`` → ``state3``, ``LOW, HIGH`` → ``STATE3``),
    skipping a name in use.

    >>> next_state_name(["s0", "s1"]), next_state_name(["yes", "no"]), next_state_name(["LOW", "NORMAL", "HIGH"])
    ('s2', 'state3', 'STATE4')
    >>> next_state_name(["Level 1", "Level 3", "other"]), next_state_name(["a", "state3"])
    ('Level 4', 'state4')
    >>> next_state_name(["0", "1"])
    '2'
    """
    numbered = [m for m in map(_NUMBERED.match, states) if m]
    if numbered and (numbered[-1].group(1).strip() or len(numbered) == len(states)):
        prefix = numbered[-1].group(1)
        number = max(int(m.group(2)) for m in numbered if m.group(1) == prefix) + 1
    else:
        prefix, number = "state", len(states) + 1
        if states and all(s.isupper() for s in states):
            prefix = "STATE"
        elif states and all(s[:1].isupper() for s in states):
            prefix = "State"
    while f"{prefix}{number}" in states:
        number += 1
    return f"{prefix}{number}"
