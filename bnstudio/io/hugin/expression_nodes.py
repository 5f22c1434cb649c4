"""The sub-types of Hugin's discrete nodes, which give a node's value inside a table-generator expression.

Hugin classifies discrete chance and decision nodes (Hugin GUI help, "Table Generator Tutorial" and "Node
Type"; NET attributes ``subtype`` and ``state_values``):

* ``label`` (the default): each state has a label; the node's value is its state's label.
* ``boolean``: two states, false and true; the value is a Boolean. The states are told apart by their labels
  when they are ``"false"`` and ``"true"``, else the first is false.
* ``number``: each state has a number (``state_values = (0 1 2 5)``, increasing); the value is that number.
* ``interval``: state i is the interval [v_i, v_(i+1)) of ``state_values = (v_0 ... v_n)`` (``infinity`` and
  ``-infinity`` allowed at the ends).

>>> NodeKind.build("N", ("a", "b", "c"), "number", ["0", "1", "2.5"]).values.tolist()
[0.0, 1.0, 2.5]
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from bnstudio.io.common import NUMBER
from bnstudio.io.hugin.expressions import ExpressionError
from bnstudio.io.messages import shorten

SUBTYPES = ("label", "boolean", "number", "interval")
_INFINITE = {"infinity": math.inf, "+infinity": math.inf, "-infinity": -math.inf}


@dataclass(frozen=True, eq=False)
class NodeKind:
    """A node as expressions see it: ``values`` holds the state values of a numbered node, the n+1 bounds of an
    interval node, None otherwise."""

    name: str
    states: tuple[str, ...]
    subtype: str = "label"
    values: np.ndarray | None = None

    @classmethod
    def build(cls, name: str, states: Sequence[str], subtype: str | None = None,
              values: Sequence[str] | None = None) -> "NodeKind":
        """Check a node's ``subtype`` and ``state_values`` (as written in the file) against its states."""
        subtype = subtype or "label"
        if subtype not in SUBTYPES:
            raise ExpressionError(f"node '{name}' has the unknown subtype '{shorten(subtype)}' (expected "
                                  f"{', '.join(SUBTYPES)})")
        states = tuple(states)
        if subtype == "boolean" and len(states) != 2:
            raise ExpressionError(f"the Boolean node '{name}' has {len(states)} states, not 2")
        if subtype not in ("number", "interval"):
            return cls(name, states, subtype)
        expected = len(states) + (subtype == "interval")
        noun = "numbered" if subtype == "number" else subtype
        if values is None:
            raise ExpressionError(f"the {noun} node '{name}' has no state_values")
        if len(values) != expected:
            raise ExpressionError(f"the {noun} node '{name}' has {len(values)} state_values, expected {expected}")
        numbers = np.array([_number(v, name) for v in values], dtype=float)
        if not np.all(np.diff(numbers) > 0):
            raise ExpressionError(f"the state_values of '{name}' must increase")
        if subtype == "number" and not np.all(np.isfinite(numbers)):
            raise ExpressionError(f"the state_values of the numbered node '{name}' must be finite")
        if subtype == "interval" and not np.all(np.isfinite(numbers[1:-1])):
            raise ExpressionError(f"only the first and last state_values of '{name}' may be infinite")
        return cls(name, states, subtype, numbers)

    @property
    def card(self) -> int:
        return len(self.states)

    @property
    def true_index(self) -> int:
        """The state of a Boolean node that means true."""
        lowered = [s.lower() for s in self.states]
        return lowered.index("true") if sorted(lowered) == ["false", "true"] else 1

    def counts_from_zero(self) -> bool:
        """A numbered node whose states are 0, 1, ..., n (what Binomial and Poisson need)."""
        return (self.subtype == "number" and self.values is not None
                and np.array_equal(self.values, np.arange(self.card, dtype=float)))

    def describe(self) -> str:
        """``a labelled node``, ``a Boolean node``, ``a numbered node`` or ``an interval node``."""
        return {"label": "a labelled", "boolean": "a Boolean", "number": "a numbered",
                "interval": "an interval"}[self.subtype] + " node"


def _number(text: str, name: str) -> float:
    if text.lower() in _INFINITE:
        return _INFINITE[text.lower()]
    if not NUMBER.fullmatch(text):
        raise ExpressionError(f"expected a number in the state_values of '{name}', found '{shorten(text, 40)}'")
    value = float(text)
    if not math.isfinite(value):
        raise ExpressionError(f"the state value {shorten(text, 40)} of '{name}' is too large")
    return value
