"""GeNIe's canonical nodes in XDSL: ``<noisymax>`` and ``<deterministic>`` (see :mod:`bnstudio.core.canonical`)::

    <noisymax id="C"> <state id="present"/> <state id="absent"/> <parents>A B</parents>
        <strengths>0 1 0 1</strengths>
        <parameters>0.8 0.2 0 1   0.6 0.4 0 1   0.05 0.95</parameters> </noisymax>
    <deterministic id="D"> <state id="x"/> <state id="y"/> <parents>A B</parents>
        <resultingstates>x y y y</resultingstates> </deterministic>

* The child's states are ordered from the most severe to the distinguished one (the last), as GeNIe orders them.
* ``<strengths>``: for each parent in ``<parents>`` order, its state indices from the strongest to the weakest;
  the weakest (last) is the parent's distinguished state.
* ``<parameters>``: for each parent, for each of its states in strength order, a distribution over the child's
  states; then the leak distribution. They are read as Henrion's parameters (each includes the leak: P(child |
  this parent in this state, every other parent distinguished); GeNIe's default view of a noisy-MAX), and the row
  of a distinguished state is written ``0 ... 0 1``. Rows are checked and repaired like any table
  (:mod:`bnstudio.io.repairs`).
* ``<resultingstates>``: the child's state id for each configuration of the parents (the first parent slowest).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Callable, Sequence

import numpy as np

from bnstudio.core.canonical import Canonical, Deterministic, NoisyMax
from bnstudio.errors import BNStudioError, FormatError
from bnstudio.io.common import fmt, probability
from bnstudio.io.repairs import Repairs
from bnstudio.io.xmltree import text

TAGS = ("noisymax", "deterministic")


def _one(node: ET.Element, tag: str, fail: Callable[[str], FormatError]) -> ET.Element:
    found = node.findall(tag)
    if len(found) != 1:
        raise fail(f"expected one <{tag}>, found {len(found)}")
    return found[0]


def read_canonical(node: ET.Element, var: str, states: Sequence[str], parents: Sequence[tuple[str, Sequence[str]]],
                   repairs: Repairs, fail: Callable[[str], FormatError]) -> Canonical:
    """The model of a ``<noisymax>`` or ``<deterministic>`` node (``parents``: (id, state ids) in order)."""
    if node.tag == "deterministic":
        ids = text(_one(node, "resultingstates", fail)).split()
        expected = int(np.prod([len(s) for _, s in parents]))
        if len(ids) != expected:
            raise fail(f"<resultingstates> of '{var}' has {len(ids)} states, expected {expected}")
        unknown = next((s for s in ids if s not in states), None)
        if unknown is not None:
            raise fail(f"<resultingstates> of '{var}' names the unknown state '{unknown}'")
        index = np.array([list(states).index(s) for s in ids], dtype=int)
        return Deterministic(index.reshape(tuple(len(s) for _, s in parents)), len(states))
    card = len(states)
    strengths = text(_one(node, "strengths", fail)).split()
    orders, at = [], 0
    for name, pstates in parents:
        order = strengths[at:at + len(pstates)]
        at += len(pstates)
        if sorted(order) != [str(k) for k in range(len(pstates))]:
            raise fail(f"<strengths> of '{var}' must list the state indices of '{name}' (0..{len(pstates) - 1}) "
                       f"once each")
        orders.append([int(k) for k in order])
    if at != len(strengths):
        raise fail(f"<strengths> of '{var}' has {len(strengths)} numbers, expected {at}")
    values = [probability(tok, fail) for tok in text(_one(node, "parameters", fail)).split()]
    expected = card * (sum(len(s) for _, s in parents) + 1)
    if len(values) != expected:
        raise fail(f"<parameters> of '{var}' has {len(values)} numbers, expected {expected}")
    rows = np.array(values, dtype=float).reshape(-1, card)
    labels = [f"the parameters of '{var}' for {name}={pstates[k]}" for (name, pstates), order in zip(parents, orders)
              for k in order] + [f"the leak of '{var}'"]
    bad = repairs.rows(rows, lambda r: labels[r])
    if bad is not None:
        raise fail(repairs.refusal(labels[bad]))
    links, at = [], 0
    for (_, pstates), order in zip(parents, orders):
        link = np.empty((len(pstates), card))
        link[order] = rows[at:at + len(pstates)]
        links.append(link)
        at += len(pstates)
    try:
        return NoisyMax.from_henrion(links, rows[-1], tuple(order[-1] for order in orders))
    except BNStudioError as exc:
        raise fail(f"the noisy-MAX of '{var}': {exc}") from None


def format_canonical(model: Canonical, var_id: str, state_ids: Sequence[str], parent_ids: Sequence[str]) -> list[str]:
    """The lines of the element for ``model`` after its ``<state>`` and ``<parents>`` lines (see
    :func:`canonical_tag`)."""
    if isinstance(model, Deterministic):
        return [f"      <resultingstates>{' '.join(state_ids[k] for k in np.ravel(model.states))}"
                f"</resultingstates>"]
    henrion, leak = model.henrion()
    orders, rows = [], []
    for h, d in zip(henrion, model.distinguished):
        order = [k for k in range(len(h)) if k != d] + [d]
        orders += order
        rows += [h[k] if k != d else np.eye(len(leak))[-1] for k in order]
    rows.append(leak)
    return [f"      <strengths>{' '.join(map(str, orders))}</strengths>",
            f"      <parameters>{' '.join(fmt(x) for x in np.ravel(rows))}</parameters>"]


def canonical_tag(model: Canonical) -> str:
    return "deterministic" if isinstance(model, Deterministic) else "noisymax"
