"""What a Hugin model (``model_nodes`` / ``model_data``) gives a node's table: generated, checked against the
``data`` Hugin saved beside it, and recognised as a canonical model (:mod:`bnstudio.core.canonical`).

* :func:`from_expressions`: the table generated from the expressions (a potential without ``data``).
* :func:`against_table`: the table Hugin saved, compared with the expressions where they can be evaluated
  (``NoisyOR`` both ways its probabilities can be read; the table decides).
* A node whose every expression gives one state is :class:`~bnstudio.core.canonical.Deterministic`.
* ``NoisyOR(X1, p1, ..., Xk, pk [, true, p0])`` naming each parent once (Boolean parents and node, constant
  probabilities, the optional ``true`` pair being the leak) is a noisy-OR, :class:`~bnstudio.core.canonical.
  NoisyMax` in Díez's parameters: c_i = 1 - q_i, leak 1 - q_0, where q is the inhibitor probability (p itself,
  or 1 - p when the saved table shows the p are causal strengths). The present state ("true") is the most
  severe, "false" the distinguished one, whichever the node lists first (a Hugin Boolean node lists "false"
  first: the model's ``child_order`` is then (1, 0)); the same for each parent.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, cast

import numpy as np

from bnstudio.core.canonical import ATOL, Canonical, Deterministic, NoisyMax
from bnstudio.errors import ValidationError
from bnstudio.io.hugin.expression_eval import Generated, generate
from bnstudio.io.hugin.expression_nodes import NodeKind
from bnstudio.io.hugin.expressions import Bool, Call, Expr, Num, Ref, walk
from bnstudio.io.repairs import QUIET_TOLERANCE

READINGS = ("inhibitor", "strength")  # how NoisyOR's probabilities may be read (see hugin_expression_eval)


@dataclass
class ModelTable:
    """``table``: the CPT to use; ``canonical``: its model, or None; ``differs``: when the saved table disagrees
    with the expressions, (largest difference, first row that differs), else None."""

    table: np.ndarray
    canonical: Canonical | None
    differs: tuple[float, int] | None = None


def from_expressions(child: NodeKind, parents: Sequence[NodeKind], model_nodes: Sequence[str],
                     expressions: Sequence[Expr]) -> ModelTable:
    """The table generated from the expressions (an :class:`ExpressionError` if they cannot be evaluated)."""
    generated = generate(child, parents, model_nodes, expressions)
    return ModelTable(generated.table, _deterministic(generated, child))


def against_table(child: NodeKind, parents: Sequence[NodeKind], model_nodes: Sequence[str],
                  expressions: Sequence[Expr], table: np.ndarray) -> ModelTable:
    """The saved ``table``, checked: where it equals the expressions' table within
    :data:`~bnstudio.io.repairs.QUIET_TOLERANCE` (print rounding), the exact generated table and its canonical
    model; else ``table`` with ``differs`` set. An :class:`ExpressionError` if the expressions cannot be
    evaluated (then nothing can be said)."""
    uses_noisy_or = any(isinstance(e, Call) and e.name == "NoisyOR" for x in expressions for e in walk(x))
    best: tuple[float, int, Generated | None, str | None] = (np.inf, 0, None, None)
    for reading in READINGS if uses_noisy_or else (None,):
        generated = generate(child, parents, model_nodes, expressions, noisy_or=reading)
        sums = generated.table.sum(axis=-1, keepdims=True)
        generated.table = generated.table / np.where(sums > 0, sums, 1.0)  # Hugin normalises weights
        diff = np.abs(generated.table - table).reshape(-1, child.card).max(axis=1)
        if diff.max() < best[0]:
            best = (float(diff.max()), int(np.argmax(diff > QUIET_TOLERANCE)), generated, reading)
    largest, row, closest, reading = best
    if largest > QUIET_TOLERANCE:
        return ModelTable(table, None, (largest, row))
    assert closest is not None  # within the tolerance: some reading was kept
    model = _deterministic(closest, child) or _noisy_or(child, parents, model_nodes, expressions, reading)
    return ModelTable(closest.table if model is None else model.expand(), model)


def _deterministic(generated: Generated, child: NodeKind) -> Deterministic | None:
    return None if generated.states is None else Deterministic(generated.states, child.card)


def _noisy_or(child: NodeKind, parents: Sequence[NodeKind], model_nodes: Sequence[str], expressions: Sequence[Expr],
              reading: str | None) -> NoisyMax | None:
    """The noisy-OR of ``NoisyOR(X1, p1, ..., Xk, pk [, true, p0])`` over exactly the parents, else None."""
    if reading is None or model_nodes or len(expressions) != 1 or child.subtype != "boolean":
        return None
    call = expressions[0]
    if not isinstance(call, Call) or call.name != "NoisyOR":
        return None
    if len(call.args) % 2:  # not (X, p) pairs: the evaluator refuses it in one line
        return None
    pairs = list(zip(call.args[0::2], call.args[1::2], strict=True))
    if not all(isinstance(p, Num) and 0 <= p.value <= 1 for _, p in pairs):
        return None
    weighted = cast("list[tuple[Expr, Num]]", pairs)  # every weight is a Num (tested above)
    q = {}
    leak = 1.0  # q_0: the inhibitor probability of the leak (1: no leak)
    for cause, weight in weighted:
        value = weight.value if reading == "inhibitor" else 1 - weight.value
        if isinstance(cause, Bool) and cause.value and "true" not in q:
            leak, q["true"] = value, value
        elif isinstance(cause, Ref) and cause.name not in q:
            q[cause.name] = value
        else:
            return None
    names = [p.name for p in parents]
    if sorted(set(q) - {"true"}) != sorted(names) or any(p.subtype != "boolean" for p in parents):
        return None
    links = []
    for p in parents:
        link = np.zeros((2, 2))
        link[p.true_index] = [1 - q[p.name], q[p.name]]
        link[1 - p.true_index] = [0.0, 1.0]
        links.append(link)
    try:
        model = NoisyMax(tuple(links), np.array([1 - leak, leak]), tuple(1 - p.true_index for p in parents),
                         (child.true_index, 1 - child.true_index))  # severity order: true, then false
    except ValidationError:
        return None
    expected = generate(child, parents, model_nodes, expressions, noisy_or=reading).table
    return model if np.allclose(model.expand(), expected, rtol=0, atol=ATOL) else None
