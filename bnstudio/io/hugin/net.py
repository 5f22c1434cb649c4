"""Read Hugin NET files (the "NET language" of the Hugin API Reference Manual, classic syntax; the writer is
:mod:`bnstudio.io.hugin.net_writer`)::

    net { node_size = (80 40); }
    node X { label = "Some label"; position = (100 50); states = ("a" "b"); }
    potential ( X | P1 P2 ) { data = ((( 0.1 0.9 ) ( 0.3 0.7 )) (( 0.5 0.5 ) ( 0.2 0.8 ))); }

Conventions
-----------
* ``data`` is nested by the parents in the listed order (P1 outermost) with the child innermost: flattened,
  **the child varies fastest** and the last parent next -- the row-major order of our CPT layout (the same
  reading as pgmpy's NET reader and pyAgrum's writer, whose ``% P1=.. P2=..`` comments label the rows).
  Only the count of numbers matters on read, so a flat ``data = ( ... );`` list is accepted too.
* Accepted variations: ``%`` comments, ``node`` or ``discrete node``, attributes in any order, bare words
  as well as "strings" for states and values, a ``class NAME { ... }`` wrapper. Unknown attributes are
  ignored, except string-valued ones, kept as properties (``key`` of ``net`` -> ``net.properties[key]``, of
  node V -> ``net.properties["V.key"]``) and written back. ``continuous`` and ``function`` nodes and joint
  potentials ``( X Y | ... )`` are refused.
* Table-generator models (``model_nodes`` / ``model_data``): with ``data``, the saved table is read and checked
  against the expressions; without, the table is generated from them as Hugin does (see
  :mod:`bnstudio.io.hugin.expression_net`, which also reads the nodes' ``subtype`` and ``state_values``).
* Influence diagrams (:func:`read_net_model`, see :mod:`bnstudio.io.influence`): ``decision D { states = ...; }``
  with ``potential (D | P1 P2) { }`` listing its informational parents (a ``data`` there is not read), and
  ``utility U { }`` with ``potential (U | A B) { data = ((u11 u12) (u21 u22)); }`` nested like a CPT without
  the child's level (the last parent fastest). :func:`read_net` refuses them in one line.
* ``position = (x y)`` goes to ``net.positions`` as is; the writer rounds positions to whole numbers (Hugin
  wants integers). ``label`` becomes the variable's description unless it just repeats the node name; the
  writer puts the description (else the name) in ``label``. ``name`` in ``net`` is the network name.
* Hugin node names must be identifiers: the writer replaces other names (see ``common.identifiers``).
  Strings use ``\\"``, ``\\n`` and ``\\\\`` escapes on read; the writer puts ``'`` for ``"`` (pyAgrum's
  reader refuses ``\\"``). Rows are checked as described in :mod:`bnstudio.io.common`.
"""
from __future__ import annotations

import re
from itertools import compress
from typing import TYPE_CHECKING, Callable, Hashable, cast

import numpy as np

from bnstudio.core.network import Network
from bnstudio.io.atomic import PathLike, read_text
from bnstudio.io.bulk import bulk_enabled, probabilities, untouched_tables
from bnstudio.io.common import Family, assemble, checked_name, make_cpt, parse_position, probability
from bnstudio.io.hugin.expression_net import ModelTables, NetModel
from bnstudio.io.hugin.expressions import unquote
from bnstudio.io.influence import diagram_with, not_a_network, utility_table
from bnstudio.io.limits import SizeBudget
from bnstudio.io.repairs import Repairs
from bnstudio.io.source import TokenStream, scan

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram

# a string runs over several lines only as a whole attribute value (``label = "two\nlines";``, as UnBBayes writes
# long labels): elsewhere a quote without its end on the same line is an error
_TOKEN = re.compile(r"""(?:\s+|%[^\n]*)*(?:(?P<str>"(?:[^"\\\n]|\\.)*")
                        |(?P<lines>"(?:[^"\\]|\\.)*"(?=[ \t\r\n]*;))|(?P<punct>[(){}=;|])
                        |(?P<word>[^\s(){}=;|"%]+)|(?P<bad>.))?""", re.VERBOSE | re.DOTALL)
# a ``data`` value that is only numbers, blanks and parentheses (no comment, string or name) up to its ';'
_PLAIN_DATA = re.compile(r"[\s()0-9.eE+\-]*+(?=;)")
# the fast tokenizer (_Parser.fast_tokens): blanks and comments, then a ``data = plain numbers`` head (with bulk)
# or one token or the end; a token's kind by its first character
_FAST_TOKEN = r"((?>(?:\s+|%[^\n]*)*))(?:({})|(\"(?:[^\"\\\n]|\\.)*\"|[(){{}}=;|]|[^\s(){{}}=;|\"%]+|.|\Z))"
_FAST_BULK = re.compile(_FAST_TOKEN.format(r"data\s*=[\s()0-9.eE+\-]*+(?=;)"), re.DOTALL)
_FAST = re.compile(_FAST_TOKEN.format("(?!)"), re.DOTALL)
_KINDS = {c: c for c in "(){}=;|"} | {'"': "str", "": "eof"}
_PARENS_TO_BLANKS = str.maketrans("()", "  ")
_NOT_PARENS = re.compile(r"[^()]+")
_ROUNDS = 8  # levels removed pair by pair before the depth is computed with numpy


def _balanced(body: str) -> bool:
    """Whether the parentheses of ``body`` balance, never closing more than they opened (as the exact
    tokens are checked in :meth:`_Parser.attribute`): the parentheses alone, each innermost pair ``()`` removed
    round by round (one round per level), leave nothing; beyond a few levels the running depth is computed at
    once (so that a deep nest costs linear time)."""
    if body.count("(") <= 1:  # a flat list (or none)
        return body.count(")") == body.count("(") and body.find(")") >= body.find("(")
    parens = _NOT_PARENS.sub("", body)
    for _ in range(_ROUNDS):
        if "()" not in parens:
            return not parens
        parens = parens.replace("()", "")
    steps = np.frombuffer(parens.encode(), np.uint8)
    depth = np.cumsum(np.where(steps == ord("("), 1, -1))
    return depth.size == 0 or (depth.min() >= 0 and depth[-1] == 0)


#: node and net attributes read as such, not kept as properties (the writer writes them itself)
NODE_RESERVED = {"states", "label", "position", "subtype", "state_values"}
NET_RESERVED = {"node_size", "name"}
_Token = tuple  # (kind, value, offset): kind is 'str', 'word', a punctuation character or 'eof'


class _Parser(TokenStream):
    def __init__(self, text: str, path: str, strict: bool = False) -> None:
        self.text, self.path, self.i = text, path, 0
        self.budget, self.repairs = SizeBudget(), Repairs(path, strict, normaliser="Hugin")
        self.toks = self.fast_tokens(bulk_enabled()) or self.tokens(0, len(text), bulk=bulk_enabled())
        self.toks.append(("eof", "", len(text)))
        self.name = "network"
        self.props: dict[str, str] = {}
        self.nodes: dict[str, dict] = {}  # name -> {'tok', 'states', 'label', 'position'}
        # child -> (tok, parents, data or None)
        self.potentials: dict[str, tuple[_Token, list[_Token], list[_Token] | None]] = {}
        self.tables = ModelTables(self.path, self.error, self.repairs, self.budget)  # model_nodes / model_data
        self.raw: tuple[str, int] = ("", 0)  # the text of the last attribute's value and its offset
        self.untouched: dict[Hashable, np.ndarray] = {}  # tables read at once (see read_untouched)

    def fast_tokens(self, bulk: bool) -> list[_Token] | None:
        """The tokens of the whole text as :meth:`tokens` makes them, from one ``findall`` (each match: the
        blanks and comments skipped, then a ``data = plain numbers`` head or one token): offsets are the running
        sums of the matched lengths, kinds looked up by first character. None on a string that does not end on
        its line (a multi-line value, reported as a repair, or an unterminated string): the exact loop then
        reads."""
        kinds, toks, starts, hits = scan(_FAST_BULK if bulk else _FAST, self.text, _KINDS)
        out = list(zip(kinds, toks, starts, strict=True))
        for i in compress(range(len(kinds)), map("str".__eq__, kinds)):
            if len(toks[i]) < 2:  # a lone '"': the exact loop says what it is
                return None
            out[i] = ("str", unquote(toks[i]), starts[i])
        if hits:
            spliced: list[_Token] = []
            last = 0
            for i, head in hits:
                start = starts[i]
                equals = head.index("=")
                spliced += out[last:i]
                spliced += [("word", "data", start), ("=", "=", start + equals)]
                body = head[equals + 1:]
                if body.strip() and _balanced(body):
                    spliced.append(("numbers", body, start + equals + 1))
                else:
                    spliced += self.tokens(start + equals + 1, start + len(head), bulk=False)
                last = i + 1
            out = spliced + out[last:]
        return out

    def tokens(self, pos: int, end: int, bulk: bool) -> list[_Token]:
        """The tokens of ``text[pos:end]``; ``bulk``: the value of a ``data`` attribute made only of numbers and
        balanced parentheses is one ``("numbers", text, offset)`` token (read in bulk by :meth:`table`)."""
        text = self.text
        toks: list[_Token] = []
        append = toks.append
        # _TOKEN matches at every position (all of it is optional): never None
        match = cast("Callable[[str, int, int], re.Match[str]]", _TOKEN.match)
        while pos < end:
            m = match(text, pos, end)
            kind = m.lastgroup
            if kind is None:  # trailing blanks and comments
                break
            value, start, pos = m.group(kind), m.start(kind), m.end(kind)
            if kind == "bad":
                raise self.error("unterminated string", start)
            if kind == "lines":
                value, kind = self.joined(value, start), "str"
            if kind == "str":
                value = unquote(value)
            append((value if kind == "punct" else kind, value, start))
            if bulk and value == "=" and kind == "punct" and len(toks) > 1 and toks[-2][:2] == ("word", "data"):
                body = _PLAIN_DATA.match(text, pos)
                if body is not None and body.group().strip() and _balanced(body.group()):
                    append(("numbers", body.group(), pos))
                    pos = body.end()
        return toks

    def joined(self, quoted: str, start: int) -> str:
        """A quoted attribute value running over several lines, on one line (each line break and the blanks
        around it become one space), reported as a repair."""
        first = self.line_column(start)[0]
        last = first + quoted.count("\n")
        self.repairs.note(f"read the string on lines {first}-{last} as one line (a quoted attribute value runs "
                          f"over {last - first + 1} lines)", lambda m: self.error(m, start))
        return re.sub(r"[ \t\r]*\n[ \t\r]*", " ", quoted)

    def word(self, what: str) -> _Token:
        tok = self.next()
        if tok[0] != "word":
            raise self.error(f"expected {what}, found {self.show(tok)}", tok)
        return tok

    # ---------------------------------------------------------------- grammar
    def parse(self) -> None:
        self.items(top=True)

    def items(self, top: bool) -> None:
        """Top level (until end of file) or a class body (until '}')."""
        while True:
            tok = self.next()
            if tok[0] == "eof":
                if top:
                    return
                raise self.error("unexpected end of file, expected '}' to close the class", tok)
            if tok[0] == "}" and not top:
                return
            if tok[0] != "word":
                raise self.error(f"expected 'net', 'node' or 'potential', found {self.show(tok)}", tok)
            if tok[1] == "net" and top:
                self.expect("{", "after 'net'")
                self.network_attributes()
            elif tok[1] == "class" and top:
                self.name = self.word("a class name")[1]
                self.expect("{", "after the class name")
                self.items(top=False)
            elif tok[1] == "potential":
                self.potential(tok)
            elif tok[1] in ("node", "discrete", "decision", "utility"):
                kind = "chance" if tok[1] in ("node", "discrete") else tok[1]
                if tok[1] == "discrete":
                    word = self.word("'node' or 'decision'")
                    if word[1] not in ("node", "decision"):
                        raise self.error(f"{word[1]} nodes are not supported (only discrete chance, decision "
                                         f"and utility nodes)", word)
                    kind = "chance" if word[1] == "node" else "decision"
                self.node(kind)
            elif tok[1] in ("continuous", "function"):
                name = self.toks[min(self.i + (tok[1] == "continuous"), len(self.toks) - 1)][1]
                raise self.error(f"{tok[1]} node '{name}' is not supported (only discrete chance, decision and "
                                 f"utility nodes)", tok)
            elif self.peek()[0] == "=" and not top:
                self.i -= 1
                self.attribute()  # class attributes (inputs, outputs, node_size, ...) are ignored
            else:
                raise self.error(f"expected 'net', 'node' or 'potential', found {self.show(tok)}", tok)

    def attribute(self) -> tuple[_Token, list[_Token]]:
        """``NAME = value ;`` -> (name token, value tokens); parentheses in the value must balance. The text of
        the value is kept in ``self.raw`` (text, offset): ``model_data`` expressions may hold ``=``."""
        key = self.word("an attribute name or '}'")
        equals = self.expect("=", f"after '{key[1]}'")
        value: list[_Token] = []
        depth = 0
        while True:
            tok = self.next()
            if tok[0] in ("eof", "{", "}", ";") or (tok[0] == "=" and key[1] != "model_data"):
                if tok[0] != ";":
                    raise self.error(f"expected ';' to end the attribute '{key[1]}', found {self.show(tok)}", tok)
                if depth:
                    raise self.error(f"unbalanced parentheses in '{key[1]}'", key)
                self.raw = (self.text[equals[2] + 1:tok[2]], equals[2] + 1)
                return key, value
            depth += (tok[0] == "(") - (tok[0] == ")")
            if depth < 0:
                raise self.error(f"unbalanced ')' in '{key[1]}'", tok)
            value.append(tok)

    def attributes(self):
        """The attributes of a block, up to its closing '}'."""
        while self.peek()[0] != "}":
            yield self.attribute()
        self.next()

    @staticmethod
    def string(value: list[_Token]) -> str | None:
        """A single string, or bare words (joined by blanks); None for lists and numbers."""
        if len(value) == 1 and value[0][0] == "str":
            return value[0][1]
        return " ".join(t[1] for t in value) if value and all(t[0] == "word" for t in value) else None

    def network_attributes(self) -> None:
        for key, value in self.attributes():
            string = self.string(value)
            if key[1] == "name" and string:
                self.name = string
            elif key[1] not in NET_RESERVED and string is not None and value[0][0] == "str":
                self.props[key[1]] = string

    def node(self, kind: str) -> None:
        name = self.word("a node name")
        if name[1] in self.nodes:
            first = self.error("", self.nodes[name[1]]["tok"]).line
            raise self.error(f"node '{name[1]}' is declared twice (first on line {first})", name)
        self.budget.variables(len(self.nodes) + 1, lambda m: self.error(m, name))
        self.expect("{", f"after the node name '{name[1]}'")
        node: dict = {"tok": name, "kind": kind, "states": None, "label": "", "position": None, "props": {}}
        for key, value in self.attributes():
            if key[1] == "states":
                node["states"] = self.states(name[1], key, value)
            elif key[1] == "label":
                node["label"] = self.string(value) or ""
            elif key[1] == "position":
                node["position"] = parse_position("(" + " ".join(t[1] for t in value[1:-1]) + ")") \
                    if len(value) == 4 and value[0][0] == "(" and value[-1][0] == ")" else None
                if node["position"] is None:
                    raise self.error(f"the position of '{name[1]}' must be '(x y)'", key)
            elif key[1] == "subtype":
                node["subtype"] = self.string(value)
            elif key[1] == "state_values":  # checked when an expression needs them
                node["state_values"] = [t[1] for t in value if t[0] not in ("(", ")")]
            elif key[1] not in NODE_RESERVED and len(value) == 1 and value[0][0] == "str":
                node["props"][key[1]] = value[0][1]
        if kind == "utility":
            node["states"] = None  # a utility node has no states (Hugin writes none)
        elif node["states"] is None:
            raise self.error(f"node '{name[1]}' has no 'states' attribute", name)
        self.nodes[name[1]] = node

    def states(self, var: str, key: _Token, value: list[_Token]) -> tuple[str, ...]:
        if len(value) < 2 or value[0][0] != "(" or value[-1][0] != ")":
            raise self.error(f"the states of '{var}' must be a list '(\"a\" \"b\" ...)'", key)
        self.budget.states(var, len(value) - 2, lambda m: self.error(m, key))
        out: dict[str, None] = {}
        for tok in value[1:-1]:
            if tok[0] not in ("str", "word"):
                raise self.error(f"expected a state name of '{var}', found {self.show(tok)}", tok)
            # the ignore: mypy infers no type for a lambda with a default argument
            state = checked_name(tok[1], f"state of '{var}'", lambda m, t=tok: self.error(m, t))  # type: ignore[misc]
            if state in out:
                raise self.error(f"node '{var}' lists the state '{state}' twice", tok)
            out[state] = None
        if not out:
            raise self.error(f"node '{var}' has no states", key)
        return tuple(out)

    def potential(self, head: _Token) -> None:
        self.expect("(", "after 'potential'")
        children: list[_Token] = []
        parents: list[_Token] = []
        bar = False
        while (tok := self.next())[0] != ")":
            if tok[0] == "|" and not bar:
                bar = True
            elif tok[0] == "word":
                (parents if bar else children).append(tok)
            else:
                raise self.error(f"expected a node name, '|' or ')' in the potential, found {self.show(tok)}", tok)
        if len(children) != 1:
            raise self.error("a potential must have exactly one child before '|' (joint potentials are not "
                             "supported)" if children else "empty potential", children[1] if children else head)
        child = children[0]
        if child[1] in self.potentials:
            first = self.error("", self.potentials[child[1]][0]).line
            raise self.error(f"second potential for '{child[1]}' (first on line {first})", child)
        self.expect("{", f"to open the potential of '{child[1]}'")
        data: list[_Token] | None = None
        nodes: list[_Token] | None = []  # no model_nodes: none
        model: tuple | None = None
        for key, value in self.attributes():
            if key[1] == "data":
                data = value
            elif key[1] == "model_nodes":
                nodes = self.model_nodes(value)
            elif key[1] == "model_data":  # Hugin's table-generator expressions
                model = (key, *self.raw)
        if model is not None:
            self.tables.models[child[1]] = NetModel(model[0], nodes, *model[1:])
        self.potentials[child[1]] = (child, parents, data)

    @staticmethod
    def model_nodes(value: list[_Token]) -> list[_Token] | None:
        """The names of ``model_nodes = (A B)`` (commas allowed), None if it is not such a list."""
        if len(value) < 2 or value[0][0] != "(" or value[-1][0] != ")":
            return None
        names = [(t[0], name, t[2]) for t in value[1:-1] if t[0] == "word" for name in t[1].split(",") if name]
        ok = all(t[0] == "word" for t in value[1:-1])
        return names if ok else None

    # ---------------------------------------------------------------- semantics
    def build(self) -> Network:
        """The network of a file without decision and utility nodes."""
        self.parse()
        decisions = [v for v, node in self.nodes.items() if node["kind"] == "decision"]
        utilities = [v for v, node in self.nodes.items() if node["kind"] == "utility"]
        if decisions or utilities:
            raise self.error(not_a_network(decisions, utilities), self.nodes[(decisions + utilities)[0]]["tok"])
        net = self.assemble()
        assert isinstance(net, Network)  # decision and utility nodes were refused above
        return net

    def build_model(self) -> Network | InfluenceDiagram:
        """The network, or the influence diagram when there are decision or utility nodes."""
        self.parse()
        return self.assemble()

    def assemble(self) -> Network | InfluenceDiagram:
        for child, (tok, _, _) in self.potentials.items():
            if child not in self.nodes:
                raise self.error(f"potential for undeclared node '{child}'", tok)
        families: list[Family] = []
        decisions: list[tuple[str, list[str]]] = []
        utilities: list[tuple[str, list[str], np.ndarray]] = []
        self.read_untouched()
        for var, node in self.nodes.items():
            kind = node["kind"]
            if var not in self.potentials and kind != "decision":
                raise self.error(f"node '{var}' has no potential", node["tok"])
            if kind == "decision":
                families.append((var, node["states"], (), None))
                decisions.append((var, self.parents(var) if var in self.potentials else []))
            elif kind == "utility":
                utilities.append((var, *self.utility(var)))
            else:
                families.append((var, node["states"]) + self.table(var))
        fail_at = lambda v, m: self.error(m, self.potentials[v][0] if v in self.potentials else 0)  # noqa: E731
        net = assemble(families, self.name, fail_at)
        for var, node in self.nodes.items():
            if node["kind"] == "utility":
                continue  # not a variable of the network: its label and position are not kept
            if node["position"] is not None:
                net.positions[var] = node["position"]
            if node["label"] and node["label"] != var:
                net.set_description(var, node["label"])
            net.properties.update({f"{var}.{k}": v for k, v in node["props"].items()})
        net.properties.update(self.props)
        net.canonical.update(self.tables.canonical)
        model = diagram_with(net, decisions, utilities, fail_at) if decisions or utilities else net
        self.tables.report()
        self.repairs.warn(model)
        return model

    def parents(self, var: str) -> list[str]:
        """The parents of ``var``'s potential, checked (a utility node is nobody's parent)."""
        child, parent_toks, _ = self.potentials[var]
        parents: list[str] = []
        self.budget.parents(var, len(parent_toks), lambda m: self.error(m, child))
        for tok in parent_toks:
            if tok[1] not in self.nodes:
                raise self.error(f"unknown parent '{tok[1]}' in the potential of '{var}'", tok)
            if tok[1] == var:
                raise self.error(f"cycle {var} -> {var} ('{var}' is its own parent)", tok)
            if tok[1] in parents:
                raise self.error(f"parent '{tok[1]}' is listed twice for '{var}'", tok)
            if self.nodes[tok[1]]["kind"] == "utility":
                raise self.error(f"utility node '{tok[1]}' has a child '{var}'; utility nodes cannot have "
                                 f"children", tok)
            parents.append(tok[1])
        return parents

    def data(self, var: str) -> list[_Token]:
        """The number tokens of ``var``'s ``data`` (a bulk ``numbers`` token split into its exact tokens)."""
        child, _, data = self.potentials[var]
        if data is None:
            raise self.error(f"the potential of '{var}' has no 'data'", child)
        toks = [t for tok in data for t in (self.tokens(tok[2], tok[2] + len(tok[1]), bulk=False)
                                            if tok[0] == "numbers" else [tok])]
        return [t for t in toks if t[0] not in ("(", ")")]

    def values(self, var: str) -> np.ndarray:
        """The numbers of ``var``'s ``data``: a bulk ``numbers`` token converted at once (see
        :func:`~bnstudio.io.common.probabilities`), else, or on any doubt, token by token (located errors)."""
        data = self.potentials[var][2]
        # the ignore: mypy infers no type for a lambda with a default argument
        exact = lambda: [probability(t[1],  # noqa: E731
                                     lambda m, t=t: self.error(f"{m} in the data of '{var}'", t))  # type: ignore[misc]
                         for t in self.data(var)]
        if data is not None and len(data) == 1 and data[0][0] == "numbers":
            return probabilities(data[0][1].translate(_PARENS_TO_BLANKS).split(), exact)
        return np.asarray(exact(), dtype=float)

    def read_untouched(self) -> None:
        """The tables of the chance nodes whose parents and ``data`` are plain and need no repair, all read at
        once (:func:`~bnstudio.io.bulk.untouched_tables`); nothing is judged here (:meth:`table` reads and
        judges every node in order, taking these tables as they are)."""
        tables = []
        for var, node in self.nodes.items():
            _, parent_toks, data = self.potentials.get(var, (None, [], None))
            if node["kind"] in ("decision", "utility") or var in self.tables.models or data is None \
                    or len(data) != 1 or data[0][0] != "numbers":
                continue
            parents = [t[1] for t in parent_toks]
            if len(set(parents)) != len(parents) or var in parents or not all(
                    p in self.nodes and self.nodes[p]["states"] is not None for p in parents + [var]):
                continue
            shape = tuple(len(self.nodes[p]["states"]) for p in parents) + (len(node["states"]),)
            tables.append((var, data[0][1].translate(_PARENS_TO_BLANKS).split(), shape))
        self.untouched = untouched_tables(tables)

    def utility(self, var: str) -> tuple[list[str], np.ndarray]:
        """(parents, table of shape (|P1|, ..., |Pk|)) of utility node ``var``: ``data`` nested like a CPT
        without the child's level, the last parent fastest."""
        parents = self.parents(var)
        child = self.potentials[var][0]
        if self.potentials[var][2] is None and var in self.tables.models:
            return parents, self.tables.utility_table(var, self.nodes, parents)
        table = utility_table([t[1] for t in self.data(var)], var, [(p, self.nodes[p]["states"]) for p in parents],
                              lambda m: self.error(m, child), self.budget)
        return parents, table

    def table(self, var: str) -> tuple[list[str], np.ndarray]:
        child = self.potentials[var][0]
        parents = self.parents(var)
        modelled = var in self.tables.models
        if modelled and self.potentials[var][2] is None:
            return parents, self.tables.generated_cpt(var, self.nodes, parents)
        if not modelled and var in self.untouched:
            cpt = self.untouched[var]
            self.budget.family(var, cpt.shape, lambda m: self.error(m, child))  # as make_cpt does first
            return parents, cpt
        cpt = make_cpt(self.values(var), var, len(self.nodes[var]["states"]),
                       [(p, self.nodes[p]["states"]) for p in parents], lambda m: self.error(m, child),
                       self.budget, self.repairs)
        return parents, self.tables.checked_cpt(var, self.nodes, parents, cpt) if modelled else cpt


def parse_net(text: str, path: str = "<string>", strict: bool = False) -> Network:
    """Parse Hugin NET ``text`` (see the module docstring); every problem is a :class:`FormatError`;
    ``strict`` refuses what would need a repair (see :mod:`bnstudio.io.repairs`). A file with decision or
    utility nodes is refused (see :func:`parse_net_model`)."""
    return _Parser(text, str(path), strict).build()


def parse_net_model(text: str, path: str = "<string>", strict: bool = False) -> Network | InfluenceDiagram:
    """As :func:`parse_net`, but a file with decision or utility nodes gives an influence diagram."""
    return _Parser(text, str(path), strict).build_model()


def read_net(path: PathLike, strict: bool = False) -> Network:
    """Read a Hugin ``.net`` file; every failure is a :class:`FormatError`."""
    return parse_net(read_text(path), str(path), strict)


def read_net_model(path: PathLike, strict: bool = False) -> Network | InfluenceDiagram:
    """Read a Hugin ``.net`` file into a network or an influence diagram."""
    return parse_net_model(read_text(path), str(path), strict)


def net_parts(text: str, path: str = "<string>") -> tuple[str, dict[str, tuple[str, tuple[str, ...] | None]],
                                                        dict[str, list[str]]]:
    """The network name, every node (name -> (kind, states)) in file order and every potential's parents of NET
    ``text``, parsed without reading a table: what :mod:`bnstudio.io.hugin.net_outline` sizes. Every problem is
    a :class:`FormatError`."""
    parser = _Parser(text, str(path))
    parser.parse()
    return (parser.name, {v: (node["kind"], node["states"]) for v, node in parser.nodes.items()},
            {child: [t[1] for t in parents] for child, (_, parents, _) in parser.potentials.items()})
