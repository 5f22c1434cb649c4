"""The two-slice temporal Bayesian network (2TBN) of a first-order dynamic Bayesian network.

A DBN over the variables Z = (X^1, ..., X^n) is a pair (B_0, B_→) (Murphy 2002, §2.2): B_0 is a Bayesian
network over slice 0, p(Z_0) = Π_i p(X^i_0 | Pa(X^i_0)), and B_→ gives each variable of slice t > 0 a CPT
p(X^i_t | Pa(X^i_t)) whose parents lie in slice t (arcs inside the slice) or slice t-1 (temporal arcs), the same
for every t (parameters tied across slices). Unrolled for T slices it is the joint
p(Z_0, ..., Z_{T-1}) = p(Z_0) Π_{t≥1} Π_i p(X^i_t | Pa(X^i_t)).

The model is held as one :class:`~bnstudio.core.network.Network` in pyAgrum's naming convention, which any
format the project reads can carry: ``X0`` is X in slice 0 (with B_0's parents, all in slice 0) and ``Xt`` is X
in slice t (parents ``Yt`` in slice t, ``Y0`` in slice t-1). Every variable has both copies, with the same
states. The network's own checks refuse cycles (inside slice 0 or inside slice t), unknown parents and CPTs of
the wrong shape; :class:`TwoSliceNetwork` adds the naming checks and the view by radical name (``X``).

>>> import numpy as np
>>> tbn = two_slice_network({"Rain": ["yes", "no"]},
...                         initial={"Rain": ((), [0.5, 0.5])},
...                         transition={"Rain": ((("Rain", 1),), [[0.7, 0.3], [0.3, 0.7]])})
>>> tbn.network.variables, tbn.transition_parents("Rain"), tbn.interface
(['Rain0', 'Raint'], (('Rain', 1),), ('Rain',))
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.errors import ValidationError

FIRST, TRANSITION = "0", "t"
CONVENTION = "X0 for slice 0 and Xt for the transition (pyAgrum's 2TBN names)"


def split_name(name: str) -> tuple[str, str] | None:
    """(radical, ``"0"`` or ``"t"``) of a 2TBN variable name, or None for a name outside the convention."""
    if len(name) > 1 and name[-1] in (FIRST, TRANSITION):
        return name[:-1], name[-1]
    return None


class TwoSliceNetwork:
    """A 2TBN (Murphy 2002, §2.2) over a Network named by the convention (module docstring).

    ``radicals`` are the variable names without their slice suffix, in the order of the slice-0 variables;
    ``interface`` the radicals whose slice t-1 copy is a parent in slice t (Murphy 2002, §3.3: the forward
    interface, which d-separates the past from the future).
    """

    def __init__(self, net: Network) -> None:
        self.network = net.copy()
        self.name = net.name
        self.radicals = self._check_names(net)
        used = {p[:-1] for r in self.radicals for p in net.parents(r + TRANSITION) if p.endswith(FIRST)}
        self.interface = tuple(r for r in self.radicals if r in used)

    @staticmethod
    def _check_names(net: Network) -> tuple[str, ...]:
        if not len(net):
            raise ValidationError(f"the 2TBN '{net.name}' has no variables")
        parts: dict[str, set[str]] = {}
        for var in net.variables:
            split = split_name(var)
            if split is None:
                raise ValidationError(f"variable '{var}' does not follow the 2TBN naming convention: {CONVENTION}")
            parts.setdefault(split[0], set()).add(split[1])
        for radical, slices in parts.items():
            missing = ({FIRST, TRANSITION} - slices).pop() if len(slices) < 2 else None
            if missing is not None:
                have = radical + slices.pop()
                raise ValidationError(f"2TBN variable '{have}' has no {'slice-0' if missing == FIRST else 'transition'}"
                                      f" copy '{radical + missing}' (every variable needs both)")
            first, step = radical + FIRST, radical + TRANSITION
            if net.states(first) != net.states(step):
                raise ValidationError(f"2TBN variables '{first}' and '{step}' have different states: "
                                      f"{list(net.states(first))} and {list(net.states(step))}")
            late = [p for p in net.parents(first) if p.endswith(TRANSITION)]
            if late:
                raise ValidationError(f"arc {late[0]} -> {first} goes from the transition slice back to slice 0")
        return tuple(dict.fromkeys(split_name(v)[0] for v in net.variables if v.endswith(FIRST)))  # type: ignore[index]

    def states(self, radical: str) -> tuple[str, ...]:
        return self.network.states(self._known(radical) + FIRST)

    def cardinality(self, radical: str) -> int:
        return len(self.states(radical))

    def initial_parents(self, radical: str) -> tuple[str, ...]:
        """Parents of X in slice 0 (radicals, all in slice 0), in the CPT's order."""
        return tuple(p[:-1] for p in self.network.parents(self._known(radical) + FIRST))

    def transition_parents(self, radical: str) -> tuple[tuple[str, int], ...]:
        """Parents of X_t as (radical, lag): lag 0 in slice t, lag 1 in slice t-1, in the CPT's order."""
        return tuple((p[:-1], 1 if p.endswith(FIRST) else 0)
                     for p in self.network.parents(self._known(radical) + TRANSITION))

    def initial_cpt(self, radical: str) -> np.ndarray:
        return self.network.cpt(self._known(radical) + FIRST)

    def transition_cpt(self, radical: str) -> np.ndarray:
        return self.network.cpt(self._known(radical) + TRANSITION)

    def _known(self, radical: str) -> str:
        if radical not in self.radicals:
            raise ValidationError(f"'{radical}' is not a variable of the 2TBN '{self.name}' "
                                  f"(variables: {', '.join(self.radicals)})")
        return radical

    def to_network(self) -> Network:
        """The 2TBN as a plain Network in the naming convention (a copy), to write in any format."""
        return self.network.copy()

    def __repr__(self) -> str:
        return f"TwoSliceNetwork({self.name!r}, {len(self.radicals)} variables, interface {list(self.interface)})"


def from_network(net: Network) -> TwoSliceNetwork:
    """The 2TBN a Network in pyAgrum's naming convention describes (one-line error otherwise)."""
    return TwoSliceNetwork(net)


def two_slice_network(states: Mapping[str, Sequence[str]],
                      initial: Mapping[str, tuple[Sequence[str], np.ndarray | Sequence | None]],
                      transition: Mapping[str, tuple[Sequence[tuple[str, int]], np.ndarray | Sequence | None]],
                      name: str = "dbn") -> TwoSliceNetwork:
    """A 2TBN from its families by radical name.

    ``initial[X] = (parents in slice 0, cpt)``; ``transition[X] = (((Y, lag), ...), cpt)`` with lag 0 for Y in
    slice t and 1 for Y in slice t-1. CPTs follow the project's layout (parents first, in the order given, the
    child last); None is uniform. A variable without a family gets no parents and a uniform CPT.
    """
    for kind, table in (("initial", initial), ("transition", transition)):
        for radical in table:
            if radical not in states:
                raise ValidationError(f"{kind} family of '{radical}': '{radical}' is not among the 2TBN's states")
    families: list[tuple[str, list[str], list[str], Any]] = []
    for radical, values in states.items():
        parents, cpt = initial.get(radical, ((), None))
        for p in parents:
            if p not in states:
                raise ValidationError(f"slice-0 parent '{p}' of '{radical}' is not a variable of the 2TBN")
        families.append((radical + FIRST, list(values), [p + FIRST for p in parents], cpt))
    for radical, values in states.items():
        lagged, step_cpt = transition.get(radical, ((), None))
        named: list[str] = []
        for pair in lagged:
            if not (isinstance(pair, tuple) and len(pair) == 2 and pair[1] in (0, 1)):
                raise ValidationError(f"transition parent {pair!r} of '{radical}' must be a pair (name, lag) with "
                                      f"lag 0 (same slice) or 1 (previous slice)")
            if pair[0] not in states:
                raise ValidationError(f"transition parent '{pair[0]}' of '{radical}' is not a variable of the 2TBN")
            named.append(pair[0] + (FIRST if pair[1] == 1 else TRANSITION))
        families.append((radical + TRANSITION, list(values), named, step_cpt))
    return TwoSliceNetwork(build_network(families, name))
