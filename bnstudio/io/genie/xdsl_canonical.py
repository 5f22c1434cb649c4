"""GeNIe's canonical nodes in XDSL: ``<noisymax>`` and ``<deterministic>`` (see :mod:`bnstudio.core.canonical`)::

    <noisymax id="C"> <state id="present"/> <state id="absent"/> <parents>A B</parents>
        <strengths>0 1 0 1</strengths>
        <parameters>0.8 0.2 0 1   0.6 0.4 0 1   0.05 0.95</parameters> </noisymax>
    <deterministic id="D"> <state id="x"/> <state id="y"/> <parents>A B</parents>
        <resultingstates>x y y y</resultingstates> </deterministic>

* The child's states are ordered from the most severe to the distinguished one (the last), as GeNIe orders them.
  SMILE keeps a strength order for each parent only (``parentOutcomeStrengths`` in ``defnoisymax.h``; XDSL's
  ``<strengths>`` lists parents' states): nothing reorders the child's. So a noisy-MAX whose table lists the
  distinguished state elsewhere (:attr:`~bnstudio.core.canonical.NoisyMax.child_order`, e.g. from a Hugin
  Boolean node listing "false" first) is written as a plain ``<cpt>`` of its expanded table
  (:func:`canonical_tag`): GeNIe reads the same table, the model is not kept (``bnstudio convert`` lists
  "canonical models" as not kept, as for any format without them). Reordering the node's states instead would
  change the network.
* ``<strengths>``: for each parent in ``<parents>`` order, its state indices from the strongest to the weakest;
  the weakest (last) is the parent's distinguished state. Optional in GeNIe's schema: without it every parent
  keeps its declared order (its last state distinguished).
* ``<parameters>``: SMILE's table of "conditionally independent" weights (``DSL_noisyMAX::GetCiWeights``): for
  each parent, for each of its states in strength order, a distribution over the child's states; then the leak
  distribution. These are Díez's parameters (SMILE's native ones, which exclude the leak: P(child | only this
  parent acts, in this state)), not Henrion's (SMILE converts to those on request,
  ``GetHenrionProbabilities``). The row of a distinguished state
  is ``0 ... 0 1`` (SMILE constrains it so). Rows are checked and repaired like any table
  (:mod:`bnstudio.io.repairs`). Sources: SMILE's ``defnoisymax.h`` ("As native parametrization we use weight[i]
  = P(Y|Xi), called 'Diez' [...] We DON'T use P(Y|~X1,...,Xi,...,Xn)") and BayesFusion's SMILE manual, section
  "Noisy-MAX" (the table has one row per parent state plus one for the leak, ordered by the parent strengths).
* ``<resultingstates>``: the child's state id for each configuration of the parents (the first parent slowest).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Callable, Sequence

import numpy as np

from bnstudio.core.canonical import Canonical, Deterministic, NoisyMax
from bnstudio.errors import BNStudioError, FormatError
from bnstudio.io.bulk import number_text
from bnstudio.io.common import probability
from bnstudio.io.repairs import Repairs
from bnstudio.io.xml.xmltree import text

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
    found = node.findall("strengths")
    if len(found) > 1:
        raise fail(f"expected at most one <strengths>, found {len(found)}")
    strengths = (text(found[0]).split() if found else
                 [str(k) for _, pstates in parents for k in range(len(pstates))])
    orders: list[list[int]] = []
    at = 0
    for name, pstates in parents:
        listed = strengths[at:at + len(pstates)]
        at += len(pstates)
        if sorted(listed) != [str(k) for k in range(len(pstates))]:
            raise fail(f"<strengths> of '{var}' must list the state indices of '{name}' (0..{len(pstates) - 1}) "
                       f"once each")
        orders.append([int(k) for k in listed])
    if at != len(strengths):
        raise fail(f"<strengths> of '{var}' has {len(strengths)} numbers, expected {at}")
    values = [probability(tok, fail) for tok in text(_one(node, "parameters", fail)).split()]
    expected = card * (sum(len(s) for _, s in parents) + 1)
    if len(values) != expected:
        raise fail(f"<parameters> of '{var}' has {len(values)} numbers, expected {expected}")
    rows = np.array(values, dtype=float).reshape(-1, card)
    labels = [f"the parameters of '{var}' for {name}={pstates[k]}"
              for (name, pstates), order in zip(parents, orders, strict=True) for k in order] + [f"the leak of '{var}'"]
    bad = repairs.rows(rows, lambda r: labels[r])
    if bad is not None:
        raise fail(repairs.refusal(labels[bad]))
    links, at = [], 0
    for (name, pstates), order in zip(parents, orders, strict=True):
        if not np.allclose(rows[at + len(pstates) - 1], np.eye(card)[-1], rtol=0, atol=1e-9):
            raise fail(f"<parameters> of '{var}': the row of {name}={pstates[order[-1]]} (distinguished) must be "
                       f"0 ... 0 1")
        link = np.empty((len(pstates), card))
        link[order] = rows[at:at + len(pstates)]
        links.append(link)
        at += len(pstates)
    try:
        return NoisyMax(tuple(links), rows[-1], tuple(order[-1] for order in orders))
    except BNStudioError as exc:
        raise fail(f"the noisy-MAX of '{var}': {exc}") from None


def format_canonical(model: Canonical, var_id: str, state_ids: Sequence[str], parent_ids: Sequence[str]) -> list[str]:
    """The lines of the element for ``model`` after its ``<state>`` and ``<parents>`` lines (see
    :func:`canonical_tag`)."""
    if canonical_tag(model) == "cpt":
        raise ValueError("a noisy-MAX whose distinguished state is not the last is written as a <cpt>")
    if isinstance(model, Deterministic):
        return [f"      <resultingstates>{' '.join(state_ids[k] for k in np.ravel(model.states))}"
                f"</resultingstates>"]
    orders, rows = [], []
    for link, d in zip(model.links, model.distinguished, strict=True):
        order = [k for k in range(len(link)) if k != d] + [d]
        orders += order
        rows += [link[k] for k in order]
    rows.append(model.leak)
    return [f"      <strengths>{' '.join(map(str, orders))}</strengths>",
            f"      <parameters>{number_text(rows)}</parameters>"]


def canonical_tag(model: Canonical) -> str:
    """The XDSL element of ``model``: ``deterministic``, ``noisymax``, or ``cpt`` (its expanded table) for a
    noisy-MAX whose table does not list its distinguished state last (GeNIe cannot say so: module docstring)."""
    if isinstance(model, Deterministic):
        return "deterministic"
    return "noisymax" if model.child_order is None else "cpt"
