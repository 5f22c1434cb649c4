"""Read and write GeNIe's DSL text files (``.dsl``: the format GeNIe used before XDSL and still opens)::

    net Unnamed
    {
        node Smoker
        {
            TYPE = CPT;
            HEADER = { ID = Smoker; NAME = "Smoker"; };
            PARENTS = (Age, Sex);
            DEFINITION = { NAMESTATES = (yes, no); PROBABILITIES = (0.3, 0.7, ...); };
        };
    };

The syntax (blocks, lists, strings, comments) is in :mod:`bnstudio.io.genie.dsl_syntax`.

Conventions
-----------
* ``PROBABILITIES`` lists, for each configuration of the parents in the order of ``PARENTS`` (the first
  slowest), the child's distribution: **the child varies fastest**. This is SMILE's matrix layout (the first
  coordinate most significant, the node's own coordinate last), the same as XDSL's ``<probabilities>``, and the
  row-major order of our CPT layout. pyAgrum 3.3.1 reads DSL in this order too (unlike its XDSL and UAI) and
  writes it by listing the parents reversed; its DSL reader parses numbers in single precision. Some older
  aGrUM-written test files do not follow it: in aGrUM's ``insurance.dsl`` the ``GoodStudent`` table matches
  the published insurance network only when read with the first parent fastest. Such files read here (and in
  GeNIe and pyAgrum 3.3.1) with the parent axes permuted: nothing in the file tells them apart.
* ``TYPE = CPT`` chance nodes are read; every other node type (``LIST`` decisions, ``TABLE`` utilities,
  ``TRUTHTABLE`` deterministic nodes, ``NOISY_MAX``, ``MAU``, ...) is refused with the node and its type. A
  node's parents may be defined after it. Fields the reader does not use (``SCREEN`` colours,
  ``EXTRA_DEFINITION``, ``OBSERVATION_COST``, ``USER_PROPERTIES`` ...) are skipped.
* ``HEADER``: ``COMMENT`` becomes the node's description, else ``NAME`` when it does not just repeat the id.
  ``SCREEN``'s ``POSITION`` ``CENTER_X``/``CENTER_Y`` is the node's position. The network name is the ``net``
  id. Rows are checked and repaired as GeNIe reads them (:mod:`bnstudio.io.repairs`, ``normaliser="GeNIe"``).
* The writer lists nodes in a topological order; node and state ids must be identifiers in GeNIe (a letter,
  then letters, digits, ``_``): other names are replaced (see ``common.identifiers``), the original name going
  to ``NAME``; the description goes to ``COMMENT``. Positions are written as 80 x 40 ``SCREEN`` rectangles.
  Properties, Dirichlet counts and canonical models (written as their expanded tables) are not stored.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Hashable, Literal, TypeVar, overload

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, atomic_write_text, read_text
from bnstudio.io.bulk import probabilities, tables_text, untouched_tables
from bnstudio.io.common import NUMBER, assemble, checked_name, first_duplicate, identifiers, make_cpt, probability
from bnstudio.io.genie.dsl_syntax import Block, NumberList, Syntax, Token, Value, ValueList, escape
from bnstudio.io.limits import SizeBudget
from bnstudio.io.messages import shorten
from bnstudio.io.repairs import Repairs

if TYPE_CHECKING:
    import numpy as np

NODE_WIDTH, NODE_HEIGHT = 80, 40
_TYPES = {"LIST": "a decision node", "TABLE": "a utility node", "TRUTHTABLE": "a deterministic node",
          "NOISY_MAX": "a noisy-MAX node", "NOISY_ADDER": "a noisy-adder node", "MAU": "a multi-attribute utility "
          "node", "EQUATION": "a continuous equation node"}
_V = TypeVar("_V", bound=Value)  # the kind of value a statement must have


class _Reader:
    def __init__(self, text: str, path: str, strict: bool) -> None:
        self.syntax = Syntax(text, path)
        self.repairs = Repairs(path, strict, normaliser="GeNIe")
        self.budget = SizeBudget()
        self.untouched: dict[Hashable, np.ndarray] = {}  # tables read at once (see read_untouched)

    def error(self, message: str, where: Token | Block | ValueList | int) -> FormatError:
        return self.syntax.error(message, where if isinstance(where, int) else where.offset)

    @overload
    def one(self, block: Block, key: str, kind: type[_V], where: str, required: Literal[True] = True) -> _V: ...
    @overload
    def one(self, block: Block, key: str, kind: type[_V], where: str, required: bool) -> _V | None: ...

    def one(self, block: Block, key: str, kind: type[_V], where: str, required: bool = True) -> _V | None:
        """The value of the single ``key = value`` of ``block``, of type ``kind``; None if absent and optional."""
        found = block.get(key)
        if len(found) > 1:
            raise self.error(f"{where} has {key} twice", found[1][0])
        if not found:
            if required:
                raise self.error(f"{where} has no {key}", block)
            return None
        tok, value = found[0]
        if not isinstance(value, kind) or (isinstance(value, Token) and value.kind not in ("word", "str")):
            shape = {Block: "a { ... } block", ValueList: "a ( ... ) list", Token: "a single value"}[kind]
            raise self.error(f"{where}: {key} must be {shape}", tok)
        return value

    def read(self) -> Network:
        name, top = self.syntax.network()
        self.budget.variables(len(top.nodes), lambda m: self.error(m, top))
        nodes: dict[str, tuple[Token, Block, tuple[str, ...]]] = {}
        for ident, block in top.nodes:
            # the ignore: mypy infers no type for a lambda with a default argument
            var = checked_name(ident.value, "node id", lambda m, t=ident: self.error(m, t))  # type: ignore[misc]
            if var in nodes:
                first = self.syntax.error("", nodes[var][0].offset).line
                raise self.error(f"node '{var}' is defined twice (first on line {first})", ident)
            nodes[var] = (ident, block, self.states(var, ident, block))
        self.untouched = self.read_untouched(nodes)
        families = [(var, states, *self.family(var, block, nodes)) for var, (_, block, states) in nodes.items()]
        net = assemble(families, name.value.strip() or "network",
                       lambda v, m: self.error(m, nodes[v][0] if v in nodes else top))
        for var, (_, block, _) in nodes.items():
            self.header(net, var, block)
        self.repairs.warn(net)
        return net

    def states(self, var: str, ident: Token, block: Block) -> tuple[str, ...]:
        where = f"node '{shorten(var)}'"
        kind = self.one(block, "TYPE", Token, where)
        if kind.value != "CPT":
            what = _TYPES.get(kind.value.upper(), f"type '{shorten(kind.value, 40)}'")
            raise self.error(f"node '{var}' has TYPE = {shorten(kind.value, 40)} ({what}), which is not supported: "
                             f"only TYPE = CPT chance nodes are read (GeNIe saves the other node types in .xdsl "
                             f"files, which BN Studio reads)", kind)
        definition = self.one(block, "DEFINITION", Block, where)
        names = self.one(definition, "NAMESTATES", ValueList, f"the DEFINITION of {where}")
        self.budget.states(var, len(names.items), lambda m: self.error(m, names))
        # the ignore: mypy infers no type for a lambda with a default argument
        states = tuple(checked_name(t.value, f"state of '{var}'", lambda m, t=t: self.error(m, t))  # type: ignore[misc]
                       for t in names.items)
        if not states:
            raise self.error(f"node '{var}' has no states (NAMESTATES is empty)", names)
        twice = first_duplicate(states)
        if twice is not None:
            raise self.error(f"node '{var}' lists the state '{twice}' twice", names)
        return states

    @staticmethod
    def read_untouched(nodes: dict[str, tuple[Token, Block, tuple[str, ...]]]) -> dict[Hashable, np.ndarray]:
        """The tables of the nodes whose parents and ``PROBABILITIES`` are plain and need no repair, all read at
        once (:func:`~bnstudio.io.bulk.untouched_tables`); nothing is judged here (:meth:`family` reads and
        judges every node in order, taking these tables as they are)."""
        tables = []
        for var, (_, block, states) in nodes.items():
            listed = block.get("PARENTS")
            parents = [t.value for t in listed[0][1].items] if len(listed) == 1 and isinstance(
                listed[0][1], ValueList) else [] if not listed else None
            definition = block.get("DEFINITION")
            if parents is None or len(definition) != 1 or not isinstance(definition[0][1], Block) \
                    or len(set(parents)) != len(parents) or var in parents or not all(p in nodes for p in parents):
                continue
            table = definition[0][1].get("PROBABILITIES")
            if len(table) == 1 and isinstance(table[0][1], NumberList):
                tables.append((var, table[0][1].words, tuple(len(nodes[p][2]) for p in parents) + (len(states),)))
        return untouched_tables(tables)

    def family(self, var: str, block: Block, nodes: dict) -> tuple[list[str], np.ndarray]:
        where = f"node '{shorten(var)}'"
        listed = self.one(block, "PARENTS", ValueList, where, required=False)
        parents: list[str] = []
        for tok in listed.items if listed is not None else []:
            if tok.value not in nodes:
                raise self.error(f"unknown parent '{tok.value}' of '{var}'", tok)
            if tok.value == var:
                raise self.error(f"cycle {var} -> {var} ('{var}' is its own parent)", tok)
            if tok.value in parents:
                raise self.error(f"parent '{tok.value}' of '{var}' is listed twice", tok)
            parents.append(tok.value)
        definition = self.one(block, "DEFINITION", Block, where)
        table = self.one(definition, "PROBABILITIES", ValueList, f"the DEFINITION of {where}")
        fail = lambda m: self.error(m, table)  # noqa: E731
        families = [(p, nodes[p][2]) for p in parents]
        self.budget.family(var, tuple(len(s) for _, s in families) + (len(nodes[var][2]),), fail)
        # the ignore: mypy infers no type for a lambda with a default argument
        exact = lambda: [probability(t.value, lambda m, t=t: self.error(m, t))  # type: ignore[misc]  # noqa: E731
                         for t in table.items]
        if isinstance(table, NumberList) and var in self.untouched:
            return parents, self.untouched[var]
        values = probabilities(table.words, exact) if isinstance(table, NumberList) else exact()
        return parents, make_cpt(values, var, len(nodes[var][2]), families, fail, None, self.repairs)

    def header(self, net: Network, var: str, block: Block) -> None:
        header = self.one(block, "HEADER", Block, f"node '{shorten(var)}'", required=False)
        if header is not None:
            texts = {key: self.one(header, key, Token, f"the HEADER of node '{shorten(var)}'", required=False)
                     for key in ("NAME", "COMMENT")}
            comment, label = (t.value.strip() if t is not None else "" for t in (texts["COMMENT"], texts["NAME"]))
            if comment or (label and label != var):
                net.set_description(var, comment or label)
        screen = self.one(block, "SCREEN", Block, f"node '{shorten(var)}'", required=False)
        position = None if screen is None else self.one(screen, "POSITION", Block, "SCREEN", required=False)
        if position is not None:
            centre = [self.one(position, key, Token, "POSITION", required=False) for key in ("CENTER_X", "CENTER_Y")]
            if all(t is not None and NUMBER.fullmatch(t.value) for t in centre):
                x, y = (float(t.value) for t in centre if t is not None)  # none is None (tested above)
                if math.isfinite(x) and math.isfinite(y):
                    net.positions[var] = (x, y)


def parse_dsl(text: str, path: str = "<string>", strict: bool = False) -> Network:
    """Parse DSL ``text`` (see the module docstring); every problem is a :class:`FormatError` with its line and
    column; ``strict`` refuses what would need a repair (see :mod:`bnstudio.io.repairs`)."""
    return _Reader(text, str(path), strict).read()


def read_dsl(path: PathLike, strict: bool = False) -> Network:
    """Read a GeNIe ``.dsl`` file; every failure is a :class:`FormatError`."""
    return parse_dsl(read_text(path), str(path), strict)


def format_dsl(net: Network) -> str:
    """The DSL text of ``net`` (nodes in topological order, floats at full precision)."""
    ids = identifiers(list(net.variables))
    lines = [f"net {identifiers([net.name])[net.name]}", "{"]
    order = net.topological_order()
    tables = dict(zip(order, tables_text([net.cpt(v) for v in order], ", "), strict=True))
    for var in order:
        states = identifiers(list(net.states(var)))
        lines += [f"\tnode {ids[var]}", "\t{", "\t\tTYPE = CPT;", "\t\tHEADER =", "\t\t{", f"\t\t\tID = {ids[var]};",
                  f'\t\t\tNAME = "{escape(var)}";']
        if net.variable(var).description:
            lines.append(f'\t\t\tCOMMENT = "{escape(net.variable(var).description)}";')
        lines.append("\t\t};")
        if var in net.positions and all(map(math.isfinite, net.positions[var])):
            x, y = (round(c) for c in net.positions[var])
            lines += ["\t\tSCREEN =", "\t\t{", "\t\t\tPOSITION =", "\t\t\t{", f"\t\t\t\tCENTER_X = {x};",
                      f"\t\t\t\tCENTER_Y = {y};", f"\t\t\t\tWIDTH = {NODE_WIDTH};", f"\t\t\t\tHEIGHT = {NODE_HEIGHT};",
                      "\t\t\t};", "\t\t};"]
        lines += [f"\t\tPARENTS = ({', '.join(ids[p] for p in net.parents(var))});", "\t\tDEFINITION =", "\t\t{",
                  f"\t\t\tNAMESTATES = ({', '.join(states[s] for s in net.states(var))});",
                  f"\t\t\tPROBABILITIES = ({tables[var]});", "\t\t};", "\t};", ""]
    lines.append("};")
    return "\n".join(lines) + "\n"


def write_dsl(net: Network, path: PathLike) -> None:
    """Write ``net`` as a GeNIe ``.dsl`` file to ``path`` atomically."""
    atomic_write_text(path, format_dsl(net))
