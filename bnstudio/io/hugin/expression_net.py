"""The tables a Hugin NET file's models give its nodes, for :mod:`bnstudio.io.hugin.net`.

A potential may hold a model -- ``model_nodes = (A B);`` and ``model_data = ( e1, e2, ... );`` -- beside or
instead of ``data``. Hugin generates the table from the model, and saves it in ``data``:

* with ``data``: that table is read, and checked against the expressions where they can be evaluated
  (:func:`~bnstudio.io.hugin.expression_models.against_table`). A difference beyond print rounding is reported
  as a repair (strict reading refuses the file: it contradicts itself); when they agree, the exact generated
  values are used and a deterministic or noisy-OR model is kept as the node's canonical model. Expressions
  that cannot be evaluated (outside the supported subset) are not checked, and the file is read as before.
* without ``data``: the table is generated, as Hugin does, after the table's size is checked against the
  file's :class:`~bnstudio.io.limits.SizeBudget`; its rows are then judged like any Hugin table. That the
  table was generated is said in the file's one repair warning. It is not a repair of damage but what the file
  means, so strict reading does not refuse it (the same sentence comes as its own
  :class:`~bnstudio.errors.RepairWarning`). Expressions outside the subset are a one-line
  :class:`~bnstudio.errors.FormatError` at the place in the file, naming the node.

Utility potentials (influence diagrams) work the same way without the check: a numeric expression per
configuration of the model nodes gives the utility table.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from bnstudio.core.canonical import Canonical
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io.common import make_cpt, row_label
from bnstudio.io.hugin.expression_eval import generate
from bnstudio.io.hugin.expression_models import against_table, from_expressions
from bnstudio.io.hugin.expression_nodes import NodeKind
from bnstudio.io.hugin.expressions import Expr, ExpressionError, parse_model_data
from bnstudio.io.limits import SizeBudget
from bnstudio.io.messages import listing
from bnstudio.io.repairs import Repairs

Token = tuple  # the NET reader's (kind, value, offset)
Locate = Callable[[str, "int | Token"], FormatError]  # message and offset (or token) -> the error at that place


@dataclass(frozen=True)
class NetModel:
    """A potential's model as written: the ``model_data`` key token, the ``model_nodes`` name tokens (None if
    malformed) and the text of ``model_data`` with its offset in the file."""

    key: Token
    nodes: list[Token] | None
    text: str
    offset: int


class ModelTables:
    """Generate, check and recognise the tables of one file's models (see the module docstring)."""

    def __init__(self, path: str, error: Locate, repairs: Repairs, budget: SizeBudget) -> None:
        self.path, self.error, self.repairs, self.budget = path, error, repairs, budget
        self.models: dict[str, NetModel] = {}
        self.canonical: dict[str, Canonical] = {}
        self.generated: list[str] = []

    def located(self, var: str, model: NetModel, exc: ExpressionError) -> FormatError:
        where = model.key if exc.offset is None else model.offset + exc.offset
        return self.error(f"'{var}': {exc.detail}", where)

    def parsed(self, var: str, model: NetModel, nodes: dict[str, dict],
               parents: Sequence[str]) -> tuple[list[Expr], list[NodeKind], list[str]]:
        """(expressions, kinds of the parents, model node names); an :class:`ExpressionError` if malformed."""
        if model.nodes is None:
            raise ExpressionError("model_nodes must be a list of node names '(A B ...)'")
        kinds = [kind(p, nodes[p]) for p in parents]
        return parse_model_data(model.text), kinds, [t[1] for t in model.nodes]

    def generated_cpt(self, var: str, nodes: dict[str, dict], parents: Sequence[str]) -> np.ndarray:
        """The CPT of ``var`` from its model alone."""
        model = self.models[var]
        states = nodes[var]["states"]
        fail = lambda m: self.error(m, model.key)  # noqa: E731
        self.budget.family(var, [len(nodes[p]["states"]) for p in parents] + [len(states)], fail)
        try:
            expressions, kinds, names = self.parsed(var, model, nodes, parents)
            result = from_expressions(kind(var, nodes[var]), kinds, names, expressions)
        except ExpressionError as exc:
            raise self.located(var, model, exc) from None
        cpt = make_cpt(result.table.reshape(-1), var, len(states), [(p, nodes[p]["states"]) for p in parents], fail,
                       None, self.repairs)
        self.generated.append(var)
        if result.canonical is not None:
            self.canonical[var] = result.canonical
        return cpt

    def checked_cpt(self, var: str, nodes: dict[str, dict], parents: Sequence[str], cpt: np.ndarray) -> np.ndarray:
        """The saved CPT of ``var``, compared with its model (see the module docstring)."""
        model = self.models[var]
        try:
            expressions, kinds, names = self.parsed(var, model, nodes, parents)
            result = against_table(kind(var, nodes[var]), kinds, names, expressions, cpt)
        except ExpressionError:
            return cpt  # outside what we evaluate: the saved table is all we have
        if result.differs is not None:
            largest, row = result.differs
            label = row_label([(p, nodes[p]["states"]) for p in parents], row)
            self.repairs.note(f"the table of '{var}' differs from its Hugin expressions (model_data) by up to "
                              f"{largest:.3g} (row {label} first); the table was read",
                              lambda m: self.error(m, model.key))
            return cpt
        if result.canonical is not None:
            self.canonical[var] = result.canonical
        return result.table

    def utility_table(self, var: str, nodes: dict[str, dict], parents: Sequence[str]) -> np.ndarray:
        """The utility table of ``var`` from its model (numbers, shape (|P1|, ..., |Pk|))."""
        model = self.models[var]
        fail = lambda m: self.error(m, model.key)  # noqa: E731
        shape = [len(nodes[p]["states"]) for p in parents]
        self.budget.parents(var, len(shape), fail)
        self.budget.table(var, math.prod(shape), fail)
        try:
            expressions, kinds, names = self.parsed(var, model, nodes, parents)
            table = generate(None, kinds, names, expressions).table
        except ExpressionError as exc:
            raise self.located(var, model, exc) from None
        self.generated.append(var)
        return table

    def report(self) -> None:
        """Say which tables were generated (a repair note; its own warning when reading strictly)."""
        if not self.generated:
            return
        noun = "table" if len(self.generated) == 1 else "tables"
        message = (f"generated the {noun} of {listing(self.generated)} from Hugin expressions (model_data), as "
                   f"Hugin does")
        if self.repairs.strict:
            warnings.warn(f"{self.path}: {message}", RepairWarning, stacklevel=4)
        else:
            self.repairs.note(message, lambda m: self.error(m, 0))


def kind(name: str, node: dict) -> NodeKind:
    """The :class:`NodeKind` of a parsed NET node (its ``subtype`` and ``state_values``)."""
    return NodeKind.build(name, node["states"] or (), node.get("subtype"), node.get("state_values"))
