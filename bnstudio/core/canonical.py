"""Canonical models: a CPT given by a few parameters (leaky noisy-MAX / noisy-OR, deterministic nodes).

The network keeps the expanded CPT (inference uses it) and, beside it, the model it came from
(:attr:`bnstudio.core.network.Network.canonical`), valid while the expansion still equals the CPT
(:func:`canonical_of`): any edit of the table or the family makes it an ordinary CPT again.

Leaky noisy-MAX (Díez 1993; Díez & Druzdzel 2006, "Canonical probabilistic models for knowledge engineering",
§4.1). The child's states are ordered by *severity* as GeNIe orders them: the first state is the most severe,
the **last** is the distinguished ("absent") state. Each parent X_i has a distinguished state d_i. Every parent
produces a hidden Y_i, the leak a hidden Y_L, and Y is the most severe of them. With ``F(j) = P(index(Y) >= j)``
(Y no more severe than state j) the model is, for a parent configuration x::

    F(j | x) = C_L(j) * prod_i C_i(j | x_i),   C(j) = sum_{k >= j} c(k)        (Díez & Druzdzel eq. 26)
    P(Y = j | x) = F(j | x) - F(j + 1 | x),    F(n | x) = 0

with ``c_i(. | x_i)`` the distribution of Y_i (``c_i(. | d_i)`` is the distinguished state: all mass on the
last state) and ``c_L`` the leak distribution. These ``c`` are Díez's ("net") parameters, stored in
:class:`NoisyMax`.

The table's own order of the child's states need not be the severity order (a Hugin Boolean node lists "false",
its absent state, first). :attr:`NoisyMax.child_order` lists the table's state indices in severity order (most
severe first, the distinguished state last; None: the identity, GeNIe's convention): the links, the leak, ``F``
and Henrion's parameters stay in severity order, and :meth:`NoisyMax.expand` puts severity position ``s`` in the
table's column ``child_order[s]``. Henrion's parameters include the leak: ``h_i(. | x_i) = P(Y | X_i = x_i,
every other parent distinguished)``, i.e. ``H_i(j | x_i) = C_L(j) * C_i(j | x_i)`` (cumulatively;
:meth:`NoisyMax.henrion`, :meth:`NoisyMax.from_henrion`). Noisy-OR is the binary case.

Deterministic node: the child's state is a function of its parents' states (one state index per parent
configuration); its CPT is the one-hot table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np

from bnstudio.errors import ValidationError

ATOL = 1e-9  # a model is the CPT's if its expansion matches every entry within this


def tail_sums(dist: np.ndarray) -> np.ndarray:
    """``C(j) = sum_{k >= j} dist(k)`` along the last axis (so ``C(0) = 1``)."""
    return np.flip(np.cumsum(np.flip(dist, -1), -1), -1)


def from_tail_sums(cum: np.ndarray) -> np.ndarray:
    """The distribution whose cumulative (as in :func:`tail_sums`) is ``cum``."""
    return cum - np.concatenate([cum[..., 1:], np.zeros(cum.shape[:-1] + (1,))], -1)


def _check_distributions(rows: np.ndarray, what: str) -> None:
    if not np.all(np.isfinite(rows)) or np.any(rows < -ATOL) or np.any(np.abs(rows.sum(-1) - 1) > 1e-6):
        raise ValidationError(f"{what}: every row must be a probability distribution")


@dataclass(frozen=True, eq=False)
class NoisyMax:
    """A leaky noisy-MAX in Díez's parameters (see the module docstring).

    ``links[i]``: shape (|X_i|, |Y|), row x = c_i(. | X_i = x); the row of ``distinguished[i]`` is
    (0, ..., 0, 1). ``leak``: shape (|Y|,), c_L. Both over the child's states in severity order;
    ``child_order[s]`` is the table's index of the state of severity position ``s`` (None, or the identity,
    which is stored as None: the table lists the states in severity order, the distinguished one last).

    >>> model = NoisyMax.noisy_or([0.8], 0.1, child_order=(1, 0))  # the table lists "absent" first
    >>> model.expand()[0].round(2).tolist(), model.expand()[1].round(2).tolist()  # X present, X absent
    ([0.18, 0.82], [0.9, 0.1])
    """

    links: tuple[np.ndarray, ...]
    leak: np.ndarray
    distinguished: tuple[int, ...]
    child_order: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        card = len(self.leak)
        if card < 2:
            raise ValidationError("a noisy-MAX child needs at least 2 states")
        if self.child_order is not None:
            order = tuple(self.child_order)
            if (len(order) != card or not all(isinstance(k, (int, np.integer)) and not isinstance(k, bool)
                                              for k in order) or sorted(order) != list(range(card))):
                raise ValidationError(f"the child order of a noisy-MAX must list the child's state indices "
                                      f"0..{card - 1} once each, got {list(order)!r:.80}")
            object.__setattr__(self, "child_order", None if order == tuple(range(card)) else
                               tuple(int(k) for k in order))
        if len(self.links) != len(self.distinguished):
            raise ValidationError("one distinguished state per parent")
        _check_distributions(np.asarray(self.leak, dtype=float), "the leak of a noisy-MAX")
        for i, (link, d) in enumerate(zip(self.links, self.distinguished, strict=True)):
            link = np.asarray(link, dtype=float)
            if link.ndim != 2 or link.shape[1] != card or not 0 <= d < link.shape[0]:
                raise ValidationError(f"noisy-MAX parent {i}: parameters of shape (states, {card}) and a "
                                      f"distinguished state among them expected")
            _check_distributions(link, f"noisy-MAX parent {i}")
            if not np.allclose(link[d], np.eye(card)[-1], rtol=0, atol=ATOL):
                raise ValidationError(f"noisy-MAX parent {i}: its distinguished state must give the child's "
                                      f"distinguished (last in severity order) state with probability 1")

    @classmethod
    def noisy_or(cls, strengths: Sequence[float], leak: float,
                 child_order: tuple[int, ...] | None = None) -> "NoisyMax":
        """Binary parents and child, state 0 = present: ``strengths[i]`` = P(Y present | only X_i present, no
        leak) (Díez), ``leak`` = P(Y present | every parent absent). ``child_order=(1, 0)``: the child's table
        lists absent first."""
        links = tuple(np.array([[s, 1 - s], [0.0, 1.0]]) for s in strengths)
        return cls(links, np.array([leak, 1 - leak]), (1,) * len(links), child_order)

    @property
    def order(self) -> np.ndarray:
        """``child_order`` as an index array (the identity when None)."""
        card = len(self.leak)
        return np.arange(card) if self.child_order is None else np.array(self.child_order)

    def to_table(self, values: np.ndarray) -> np.ndarray:
        """``values`` over the child's states in severity order (last axis) put in the table's order."""
        values = np.asarray(values)
        return values if self.child_order is None else values[..., np.argsort(self.order)]

    def to_severity(self, values: np.ndarray) -> np.ndarray:
        """``values`` over the child's states in the table's order (last axis) put in severity order."""
        values = np.asarray(values)
        return values if self.child_order is None else values[..., self.order]

    @property
    def shape(self) -> tuple[int, ...]:
        """The CPT's shape: (|X_1|, ..., |X_k|, |Y|)."""
        return tuple(len(link) for link in self.links) + (len(self.leak),)

    def n_parameters(self) -> int:
        """Free parameters: (|Y| - 1) per non-distinguished parent state, and the leak's."""
        card = len(self.leak)
        return (card - 1) * (1 + sum(len(link) - 1 for link in self.links))

    def cumulative(self) -> np.ndarray:
        """F(j | x) of the module docstring, shape (|X_1|, ..., |X_k|, |Y|), j in severity order."""
        k = len(self.links)
        out = tail_sums(np.asarray(self.leak, dtype=float)).reshape((1,) * k + (-1,))
        for i, link in enumerate(self.links):
            shape = [1] * k + [link.shape[1]]
            shape[i] = link.shape[0]
            out = out * tail_sums(np.asarray(link, dtype=float)).reshape(shape)
        return out

    def severity_table(self) -> np.ndarray:
        """P(Y = j | x) with j in severity order (rows clipped at 0 against rounding, then summing to 1)."""
        cpt = np.clip(from_tail_sums(self.cumulative()), 0.0, None)
        return cpt / cpt.sum(-1, keepdims=True)

    def expand(self) -> np.ndarray:
        """The CPT, shape :attr:`shape`, the child's states in the table's order (:attr:`child_order`)."""
        return self.to_table(self.severity_table())

    def henrion(self) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
        """Henrion's parameters (h_1, ..., h_k) and the leak: h_i(. | x_i) = P(Y | X_i = x_i, others
        distinguished) (so the row of a distinguished state is the leak); the child's states in severity
        order."""
        leak_cum = tail_sums(np.asarray(self.leak, dtype=float))
        return tuple(from_tail_sums(leak_cum * tail_sums(link)) for link in self.links), self.leak.copy()

    @classmethod
    def from_henrion(cls, links: Sequence[np.ndarray], leak: np.ndarray, distinguished: Sequence[int],
                     child_order: tuple[int, ...] | None = None) -> "NoisyMax":
        """The model whose Henrion parameters are ``links`` (C_i = H_i / C_L where C_L > 0, else 1; the rows of
        the distinguished states are not read: theirs is the leak by definition), the child's states in
        severity order as :meth:`henrion` gives them."""
        leak = np.asarray(leak, dtype=float)
        leak_cum = tail_sums(leak)
        safe = np.where(leak_cum > 0, leak_cum, 1.0)
        out = []
        for i, (h, d) in enumerate(zip(links, distinguished, strict=True)):
            h_cum = tail_sums(np.asarray(h, dtype=float))
            active = np.arange(len(h_cum)) != d
            if np.any(h_cum[active] > leak_cum + 1e-9):
                raise ValidationError(f"noisy-MAX parent {i}: Henrion parameters less severe than the leak alone")
            c_cum = np.where(leak_cum > 0, h_cum / safe, 1.0)
            c_cum = np.minimum.accumulate(np.clip(c_cum, 0, 1), axis=-1)  # non-increasing, as a cumulative is
            link = np.clip(from_tail_sums(c_cum), 0, None)
            link[d] = np.eye(len(leak))[-1]
            out.append(link)
        return cls(tuple(out), leak, tuple(distinguished), child_order)

    def to_json(self) -> dict:
        """The JSON form (``child_order`` only when it is not the identity: older files stay as they were)."""
        out = {"kind": "noisy-max", "links": [np.asarray(l).tolist() for l in self.links],
               "leak": np.asarray(self.leak).tolist(), "distinguished": list(self.distinguished)}
        if self.child_order is not None:
            out["child_order"] = list(self.child_order)
        return out


@dataclass(frozen=True, eq=False)
class Deterministic:
    """The child's state index for every parent configuration, shape (|X_1|, ..., |X_k|), and its cardinality."""

    states: np.ndarray
    card: int

    def __post_init__(self) -> None:
        states = np.asarray(self.states)
        if states.size and (not np.issubdtype(states.dtype, np.integer) or states.min() < 0 or
                            states.max() >= self.card):
            raise ValidationError(f"a deterministic node gives state indices in 0..{self.card - 1}")

    @property
    def shape(self) -> tuple[int, ...]:
        return np.shape(self.states) + (self.card,)

    def n_parameters(self) -> int:
        return 0

    def expand(self) -> np.ndarray:
        return np.eye(self.card)[np.asarray(self.states)]

    def to_json(self) -> dict:
        return {"kind": "deterministic", "states": np.asarray(self.states).tolist(), "card": self.card}


Canonical = Union[NoisyMax, Deterministic]


def canonical_from_json(obj: dict) -> Canonical:
    """The inverse of ``to_json`` (a :class:`ValidationError` for anything else)."""
    try:
        if obj["kind"] == "noisy-max":
            order = obj.get("child_order")
            if order is not None and not isinstance(order, list):
                raise ValidationError("not a canonical model: 'child_order' must be a list of state indices")
            return NoisyMax(tuple(np.array(l, dtype=float) for l in obj["links"]),
                            np.array(obj["leak"], dtype=float), tuple(int(d) for d in obj["distinguished"]),
                            None if order is None else tuple(order))
        if obj["kind"] == "deterministic":
            return Deterministic(np.array(obj["states"], dtype=int), int(obj["card"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValidationError(f"not a canonical model: {exc}") from None
    raise ValidationError(f"unknown canonical model kind {obj.get('kind')!r}")


def _numbers(values) -> str:
    return ",".join(repr(float(x)) for x in np.ravel(values))


def canonical_to_text(model: Canonical) -> str:
    """One line without quotes or semicolons (a property value any format keeps)::

        noisy-max distinguished=1,1 leak=0.05,0.95 links=2x2:0.8,0.2,0.0,1.0|2x2:0.6,0.4,0.0,1.0
        deterministic card=2 shape=2,2 states=0,1,1,1

    A noisy-MAX whose :attr:`NoisyMax.child_order` is not the identity ends with ``order=1,0`` (a reader
    without it sees a model that no longer gives the table, hence a plain CPT).
    """
    if isinstance(model, Deterministic):
        return (f"deterministic card={model.card} shape={','.join(map(str, np.shape(model.states)))} "
                f"states={','.join(str(int(k)) for k in np.ravel(model.states))}")
    links = "|".join(f"{l.shape[0]}x{l.shape[1]}:{_numbers(l)}" for l in model.links)
    order = "" if model.child_order is None else f" order={','.join(map(str, model.child_order))}"
    return (f"noisy-max distinguished={','.join(map(str, model.distinguished))} leak={_numbers(model.leak)} "
            f"links={links}{order}")


def canonical_from_text(text: str) -> Canonical:
    """The inverse of :func:`canonical_to_text` (a :class:`ValidationError` for anything else)."""
    kind, *fields = text.split()
    try:
        values = dict(f.split("=", 1) for f in fields)
        if kind == "deterministic":
            shape = tuple(int(k) for k in values["shape"].split(",") if k)
            states = np.array([int(k) for k in values["states"].split(",") if k], dtype=int).reshape(shape)
            return Deterministic(states, int(values["card"]))
        if kind == "noisy-max":
            links = []
            for part in values["links"].split("|") if values["links"] else []:
                dims, numbers = part.split(":", 1)
                rows, cols = (int(k) for k in dims.split("x"))
                links.append(np.array([float(x) for x in numbers.split(",")]).reshape(rows, cols))
            order = values.get("order")
            return NoisyMax(tuple(links), np.array([float(x) for x in values["leak"].split(",")]),
                            tuple(int(k) for k in values["distinguished"].split(",") if k),
                            None if order is None else tuple(int(k) for k in order.split(",")))
    except (KeyError, ValueError) as exc:
        raise ValidationError(f"not a canonical model: {exc}") from None
    raise ValidationError(f"unknown canonical model kind {kind!r}")


def canonical_of(net, var: str) -> Canonical | None:
    """The canonical model of ``var`` if it still gives ``var``'s CPT (shape and every entry within
    :data:`ATOL`), else None."""
    model = net.canonical.get(var)
    if model is None:
        return None
    cpt = net.cpt(var)
    if model.shape != cpt.shape or not np.allclose(model.expand(), cpt, rtol=0, atol=ATOL):
        return None
    return model


def set_canonical(net, var: str, model: Canonical) -> None:
    """Give ``var`` the CPT of ``model`` and remember the model (one CPT edit: undoable like any other)."""
    if model.shape != net.family_shape(var):
        raise ValidationError(f"the model of '{var}' has the shape {model.shape}, its family "
                              f"{net.family_shape(var)}")
    net.canonical[var] = model
    net.set_cpt(var, model.expand())
