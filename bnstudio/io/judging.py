"""The open path's judge: the one module of :mod:`bnstudio.io` that runs inference (docs/architecture.md §1).

Readers only report what they repaired (:meth:`bnstudio.io.repairs.Repairs.warn`), rows of zeros made uniform
included (:class:`~bnstudio.io.zero_rows.ZeroRows`), and never judge them. :func:`judged_repairs`, which
:func:`bnstudio.io.open_file` wraps every reading in (so :func:`~bnstudio.io.read_network`,
:func:`~bnstudio.io.read_model`, the app and the command line), holds each reader's report and, once the reading
is done, asks :func:`verdict` whether those rows change any probability, then emits the one
:class:`~bnstudio.errors.RepairWarning` with the verdict in it. The maths is in :mod:`bnstudio.io.zero_rows`.

Computed exactly (:mod:`bnstudio.inference`) on one engine: one joint query over the parents of each affected
family, then p(all indicators kept) for the file's total, where each affected family gets a barren binary
indicator child ``1[pa(X) ∉ R_X]`` (its family is X's parents, so the network gets no wider). A network whose
queries do not fit the engine's memory budget gets no verdict (None) instead of an error.
"""
from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Iterator, Sequence

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.io.repairs import held_repairs
from bnstudio.io.zero_rows import SHOWN, Verdict, ZeroRows

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram

VERDICT_MEMORY_BUDGET = 256 * 2**20  # a verdict is a courtesy of reading: it never takes the engine's whole budget


@contextlib.contextmanager
def judged_repairs() -> Iterator[None]:
    """Within the block, every reader's repair report is held; when the block ends (even by an error) each is
    emitted as its one :class:`~bnstudio.errors.RepairWarning`, rows of zeros judged by :func:`verdict`."""
    with held_repairs() as held:
        try:
            yield
        finally:
            for repairs, model in held:
                tables = repairs.zero_rows
                repairs.emit(verdict(model, tables) if tables and model is not None else None,
                             stacklevel=5)  # points at the caller of the function holding the `with`


def verdict(model: Network | InfluenceDiagram, tables: Sequence[ZeroRows], memory_budget: int | None = None
            ) -> Verdict | None:
    """The :class:`Verdict` on ``tables`` for the network (or diagram, decisions uniform) read; None when a
    table has no family, the model lacks it, or the queries do not fit ``memory_budget`` (default:
    :data:`VERDICT_MEMORY_BUDGET`)."""
    from bnstudio.inference import InferenceEngine  # loaded when a file has rows of zeros, not by importing io

    net = _uniform_decisions(model)
    if not tables or any(t.family is None or not _has_family(net, *t.family) for t in tables):
        return None
    families = [t.family for t in tables if t.family is not None]  # all of them (tested above)
    evidence = {}
    for t, (child, parents) in zip(tables, families, strict=True):
        name = _fresh_name(net, f"zero_rows_{child}")
        shape = tuple(net.cardinality(p) for p in parents)
        indicator = np.zeros((int(np.prod(shape, dtype=np.int64)), 2))
        indicator[:, 0] = 1.0
        indicator[t.rows] = (0.0, 1.0)
        net.add_variable(name, ("kept", "repaired"), parents, indicator.reshape(shape + (2,)))
        evidence[name] = "kept"
    engine = InferenceEngine(net, VERDICT_MEMORY_BUDGET if memory_budget is None else memory_budget)
    try:
        probabilities = [engine.joint(list(parents)).reshape(-1)[t.rows] if parents else np.ones(len(t.rows))
                         for t, (_, parents) in zip(_named(tables), families, strict=False)]  # _named: a prefix
        total = engine.probability_of_evidence(evidence)
    except MemoryBudgetExceeded:
        return None
    decides = not isinstance(model, Network) and bool(model.decision_names)
    return Verdict(probabilities, min(max(total, 0.0), 1.0), decides)


def _named(tables: Sequence[ZeroRows]) -> list[ZeroRows]:
    """The first tables, up to the one holding the last row a warning names."""
    out, rows = [], 0
    for t in tables:
        if rows >= SHOWN:
            break
        out.append(t)
        rows += len(t.rows)
    return out


def _uniform_decisions(model: Network | InfluenceDiagram) -> Network:
    """A copy of the network of ``model``, each decision of a diagram with a uniform (placeholder) table."""
    if isinstance(model, Network):
        return model.copy()
    net = model.network
    for d in model.decision_names:
        net.set_cpt(d, np.full(net.cardinality(d), 1.0 / net.cardinality(d)))
    return net


def _has_family(net: Network, child: str, parents: tuple[str, ...]) -> bool:
    return child in net and set(net.parents(child)) == set(parents) and len(parents) == len(net.parents(child))


def _fresh_name(net: Network, base: str) -> str:
    name, k = base, 2
    while name in net:
        name, k = f"{base}_{k}", k + 1
    return name
