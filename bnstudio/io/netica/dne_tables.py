"""The values and tables of Netica DNE nodes (``probs``, ``functable``, utility tables), for :mod:`bnstudio.io.netica.dne`
(see its docstring for the conventions): the base of its reader, holding what one file's reading shares (the
syntax tree, the repairs, the size budget)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Hashable, TypeVar, cast, overload

import numpy as np

from bnstudio.core.canonical import Deterministic
from bnstudio.errors import FormatError
from bnstudio.io.bulk import probabilities, untouched_tables
from bnstudio.io.common import NUMBER, make_cpt, probability, row_label
from bnstudio.io.influence import utility_table
from bnstudio.io.limits import SizeBudget
from bnstudio.io.messages import shorten
from bnstudio.io.netica.dne_syntax import Block, Items, NumberItems, Syntax, Token, Value, flatten
from bnstudio.io.repairs import Fail, Repairs

_UNSPECIFIED = ("@imposs", "*")  # an impossible parent configuration; no value
_SHAPES = {Items: "a ( ... ) list", Token: "a single value", Block: "a { ... } block"}
_A = TypeVar("_A", bound=Value)  # the kinds of value a statement may have
_B = TypeVar("_B", bound=Value)


@dataclass
class Node:
    """A node of the file: its name token, block, kind, states (none for utilities), levels and parents."""

    ident: Token
    block: Block
    kind: str
    states: tuple[str, ...] = ()
    levels: list[float] | None = None  # the thresholds of a discretised node, the values of a discrete one
    discretised: bool = False
    parents: list[str] = field(default_factory=list)
    file_states: tuple[str, ...] = ()  # the states as the file spells them, when a user field restored others


class TableReader:
    """Reads the fields, values and tables of one DNE text (:class:`bnstudio.io.netica.dne._Reader` reads the nodes)."""

    def __init__(self, text: str, path: str, strict: bool) -> None:
        self.syntax = Syntax(text, path)
        self.repairs = Repairs(path, strict)
        self.budget = SizeBudget()
        self.pending: dict[str, list[str]] = {}  # repairs said once per kind (see repair)
        self.models: dict[str, Deterministic] = {}  # functable nodes
        self.untouched: dict[Hashable, np.ndarray] = {}  # tables read at once (see untouched_tables)
        self.parsed: dict[str, Any] = {}  # the JSON texts of user fields, parsed (None: not JSON)

    def read_untouched(self, nodes: dict[str, Node]) -> None:
        """The tables of the nature nodes whose ``probs`` are plain numbers and need no repair, all read at once
        (:func:`~bnstudio.io.bulk.untouched_tables`): :meth:`table` then takes them as they are."""
        tables = []
        for var, node in nodes.items():
            found = node.block.get("probs") if node.kind == "NATURE" else ()
            if len(found) == 1 and isinstance(found[0][1], NumberItems):
                shape = tuple(len(nodes[p].states) for p in node.parents) + (len(node.states),)
                tables.append((var, found[0][1].words, shape))
        self.untouched = untouched_tables(tables)

    def error(self, message: str, where: Token | Block | Items | int) -> FormatError:
        return self.syntax.error(message, where if isinstance(where, int) else where.offset)

    @overload
    def one(self, block: Block, key: str, kinds: tuple[type[_A]], where: str) -> _A | None: ...
    @overload
    def one(self, block: Block, key: str, kinds: tuple[type[_A], type[_B]], where: str) -> _A | _B | None: ...

    def one(self, block: Block, key: str, kinds: tuple[type, ...], where: str) -> Value | None:
        """The value of the single ``key = value`` of ``block`` (of one of ``kinds``), or None if absent."""
        found = block.get(key)
        if len(found) == 1 and isinstance(found[0][1], kinds):  # the usual case, in one test
            return cast("Value", found[0][1])
        if len(found) > 1:
            raise self.error(f"{where} has {key} twice", found[1][0])
        if not found:
            return None
        tok, value = found[0]
        if not isinstance(value, kinds):
            raise self.error(f"{where}: {key} must be {' or '.join(_SHAPES[k] for k in kinds)}", tok)
        return cast("Value", value)

    def word(self, block: Block, key: str, where: str, choices: tuple[str, ...]) -> str | None:
        value = self.one(block, key, (Token,), where)
        if value is None:
            return None
        if value.value.upper() not in choices:
            raise self.error(f"{where}: {key} = {shorten(value.value, 40)} (expected {' or '.join(choices)})", value)
        return value.value.upper()


    def repair(self, text: str, item: str, fail: Fail) -> None:
        """Record a repair of kind ``text`` (said once for every ``item`` of that kind); strict reading refuses here."""
        if self.repairs.strict:
            self.repairs.note(f"{text}: {item}", fail)
        self.pending.setdefault(text, []).append(item)
    def table(self, var: str, node: Node, nodes: dict[str, Node]) -> np.ndarray:
        where = f"node '{shorten(var)}'"
        parents = [(p, nodes[p].states) for p in node.parents]
        probs = self.one(node.block, "probs", (Items, Token), where)
        functable = self.one(node.block, "functable", (Items, Token), where)
        source = probs if probs is not None else functable
        fail = lambda m: self.error(m, source if source is not None else node.ident)  # noqa: E731
        card = len(node.states)
        self.budget.family(var, [len(s) for _, s in parents] + [card], fail)
        if source is None:
            if node.block.get("equation"):
                raise self.error(f"node '{var}' is defined by an equation without a table, which is not "
                                 f"supported (in Netica: Table > Equation to Table, then save)", node.ident)
            self.repair("gave a uniform table to nodes without one", f"'{shorten(var)}'", fail)
            return np.full(tuple(len(s) for _, s in parents) + (card,), 1.0 / card)
        if isinstance(probs, NumberItems):  # plain numbers: in bulk, token by token only on doubt
            if var in self.untouched:
                return self.untouched[var]
            values: np.ndarray | list[float] = probabilities(
                probs.words, lambda: self.probabilities(var, flatten(probs), card, parents, fail))
            return make_cpt(values, var, card, parents, fail, None, self.repairs)
        tokens = flatten(source)
        if probs is None:
            return self.deterministic(var, node, tokens, parents, fail)
        values = self.probabilities(var, tokens, card, parents, fail)
        return make_cpt(values, var, card, parents, fail, None, self.repairs)

    def probabilities(self, var: str, tokens: list[Token | None], card: int, parents: list, fail: Fail
                      ) -> list[float]:
        """The numbers of ``probs``; a row of ``@imposs`` or ``*`` becomes uniform (reported)."""
        if any(t is None for t in tokens):
            raise fail(f"the table of '{var}' has an empty entry")
        present = cast("list[Token]", tokens)  # no None (tested above)
        if len(present) % card:
            return [0.0] * len(present)  # make_cpt names the wrong count
        values: list[float] = []
        for r in range(len(present) // card):
            row = present[r * card:(r + 1) * card]
            marks = {t.value for t in row} & set(_UNSPECIFIED)
            # the ignores: mypy infers no type for a lambda with a default argument
            if marks and all(t.value in _UNSPECIFIED for t in row):
                self.repair("made uniform rows of @imposs or * (impossible or unspecified)",
                            f"row {row_label(parents, r)} of '{shorten(var)}'",
                            lambda m, t=row[0]: self.error(m, t))  # type: ignore[misc]
                values += [1.0 / card] * card
                continue
            if "*" in marks:
                raise self.error(f"the table of '{var}' has a '*' (no value) among numbers", row[0])
            values += [0.0 if t.value == "@imposs" else
                       probability(t.value, lambda m, t=t: self.error(m, t))  # type: ignore[misc]
                       for t in row]
        return values

    def deterministic(self, var: str, node: Node, tokens: list[Token | None], parents: list,
                      fail: Fail) -> np.ndarray:
        """The one-hot CPT of a ``functable`` (kept as the node's canonical model)."""
        expected = math.prod(len(s) for _, s in parents)
        if len(tokens) != expected:
            raise fail(f"the functable of '{var}' has {len(tokens)} entries, expected {expected}")
        index = np.array([self.state_index(var, node, t, fail) for t in tokens], dtype=int)
        model = Deterministic(index.reshape(tuple(len(s) for _, s in parents)), len(node.states))
        self.models[var] = model
        return model.expand()

    def state_index(self, var: str, node: Node, tok: Token | None, fail: Fail) -> int:
        if tok is None:
            raise fail(f"the functable of '{var}' has an empty entry")
        text = tok.value
        if text in node.states:
            return node.states.index(text)
        if text in node.file_states:   # BN Studio's writer spells a renamed state as the file's legal name
            return node.file_states.index(text)
        digits = text[1:]
        if text.startswith("#") and digits.isascii() and digits.isdigit() and len(digits) <= 9 \
                and int(digits) < len(node.states):
            return int(digits)
        if node.levels is not None and NUMBER.fullmatch(text):
            value = float(text)
            if node.discretised and node.levels[0] <= value < node.levels[-1]:
                return int(np.searchsorted(node.levels, value, side="right")) - 1
            if not node.discretised and value in node.levels:
                return node.levels.index(value)
        raise self.error(f"the functable of '{var}' gives '{shorten(text, 40)}', not a state of '{var}'", tok)

    def utilities(self, var: str, node: Node, nodes: dict[str, Node]) -> np.ndarray:
        values = self.one(node.block, "functable", (Items, Token), f"utility node '{shorten(var)}'")
        if values is None:
            raise self.error(f"utility node '{var}' has no functable (its utility table)", node.ident)
        tokens = flatten(values)
        if any(t is None for t in tokens):
            raise self.error(f"the utility table of '{var}' has an empty entry", values)
        present = cast("list[Token]", tokens)  # no None (tested above)
        return utility_table([t.value for t in present], var, [(p, nodes[p].states) for p in node.parents],
                             lambda m: self.error(m, values), self.budget)
