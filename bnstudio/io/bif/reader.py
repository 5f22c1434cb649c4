"""Read and write BIF, the Bayesian network Interchange Format (as used by the bnlearn repository).

Accepted grammar. Keywords are lower case; blanks, ``// ...`` and ``/* ... */`` comments and -- as the original
interchange-format proposal says -- the separators ``,`` and ``|`` are ignored between tokens; a NAME is a bare
word or a "quoted string" (with ``\\"`` and ``\\\\`` escapes)::

    file        := { network | variable | probability }
    network     := 'network' [NAME] '{' { property } '}'
    variable    := 'variable' NAME '{' { 'type' 'discrete' '[' INT ']' '{' NAME {NAME} '}' ';' | property } '}'
    probability := 'probability' '(' NAME {NAME} ')' '{' { entry } '}'       -- child first, then the parents
    entry       := '(' {NAME} ')' values | 'table' values | 'default' values | property
    values      := NUMBER {NUMBER} ';'
    property    := 'property' <tokens up to ';'> ';'

Conventions
-----------
* ``probability ( X | P1, P2 )``: X is the child, the parents keep the listed order (our CPT axes).
* A ``(p1, p2) v1, v2, ...;`` row gives p(X | P1=p1, P2=p2) over X's states. ``default`` fills every row not
  given; a row given twice, or a missing row without ``default``, is an error. A lone ``default`` listing a
  whole table's numbers is read as ``table`` (as pgmpy reads it), reported as a repair.
* ``table`` lists the numbers in header order (X, P1, ..., Pk) in row-major order: the **child varies
  slowest** and the last parent fastest, i.e. all of p(X=x1 | .) over the parent configurations, then X=x2...
  (checked against JavaBayes' ``dog-problem.bif``, which gives the same CPT both ways, and pgmpy).
* Entries and rows are checked and repaired as described in :mod:`bnstudio.io.repairs` (off 1 by more
  than 1e-3: an error; published tables are rounded: 0.999, 0.9999999), so a file written by
  :func:`write_bif` reads back identically as long as the network's rows sum to 1 up to float rounding.
* ``property key = value;`` in the network block goes to ``net.properties[key]``; in the block of variable V
  it goes to ``net.properties["V.key"]``, except ``position = (x, y)`` which goes to ``net.positions[V]``.
  Properties in probability blocks are ignored. The writer (:mod:`bnstudio.io.bif.writer`, re-exported here)
  puts ``"V.key"`` properties back into V's block. A quoted value is the string (``\\n``, ``\\t``, ``\\r``,
  ``\\xHH`` decoded as the writer escapes them).
* ``property bnstudio_name = "...";`` (network or variable block) and ``property bnstudio_states = "[...]";``
  (a JSON list) give the original spelling of names the writer had to make legal for other readers; they
  rename the network, variable or states back (unless they do not fit: then they stay properties).

Every problem raises :class:`~bnstudio.errors.FormatError` with path, line and column; nothing is built
until the whole file has been checked, so a failed read never yields a partial network.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.core.variable import Variable, check_name
from bnstudio.errors import BNStudioError, CycleError, FormatError
from bnstudio.io.atomic import PathLike, read_text
from bnstudio.io.bif.writer import NAME_KEY, PROPERTY_KEY, STATES_KEY, format_bif, write_bif  # noqa: F401  (re-exported: bnstudio.io.bif.reader.format_bif)
from bnstudio.io.bulk import bulk_enabled
from bnstudio.io.common import NUMBER, row_label
from bnstudio.io.limits import SizeBudget
from bnstudio.io.messages import listing, shorten, tidy
from bnstudio.io.repairs import Repairs, entry_problem
from bnstudio.io.source import TokenStream

# blanks, comments and the separators ',' and '|' (ignored between tokens, as the original format says), then
# one token -- or nothing, at the end of the text
_TOKEN = re.compile(r"""(?:[\s,|]+|//[^\n]*|/\*.*?\*/)*
    (?: (?P<word>[^\s{}()\[\];,|"/]+(?:/(?![/*])[^\s{}()\[\];,|"/]*)*
               |/(?![/*])[^\s{}()\[\];,|"/]*(?:/(?![/*])[^\s{}()\[\];,|"/]*)*)
      | (?P<punct>[{}()\[\];]) | (?P<str>"(?:[^"\\]|\\.)*") | (?P<bad>.) )?""", re.VERBOSE | re.DOTALL)

_UNESCAPE = re.compile(r'\\(["\\])')
_PROPERTY_ESCAPE = re.compile(r'\\(["\\nrt]|x[0-9A-Fa-f]{2})')  # in property strings (see bif_writer)
_ESCAPED = {"n": "\n", "r": "\r", "t": "\t"}


def _unescape_property(raw: str) -> str:
    return _PROPERTY_ESCAPE.sub(lambda m: _ESCAPED.get(m.group(1)) or (
        chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "x" else m.group(1)), raw)

_Token = tuple  # (kind, value, start, end); kind is 'word', 'str', a punctuation character or 'eof'


@dataclass
class _VarDecl:
    name: _Token
    type_tok: _Token | None = None
    states: list = field(default_factory=list)  # name tokens
    props: list = field(default_factory=list)  # (key, value)


@dataclass
class _ProbBlock:
    child: _Token
    parents: list  # name tokens
    entries: list = field(default_factory=list)  # (kind, token, parent-state tokens, values)
    fast: _Token | None = None  # the body read in bulk (bnstudio.io.bif.fast), then ``entries`` is empty


class _Parser(TokenStream):
    MARK_CUT = True  # a long name is quoted cut, with '...'

    def __init__(self, text: str, path: str, strict: bool = False) -> None:
        self.text, self.path, self.strict = text, path, strict
        self.toks: list[_Token] = []
        append = self.toks.append
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            if kind is None:  # trailing blanks and comments
                continue
            value, start = m.group(kind), m.start(kind)
            if kind == "bad":  # only an opening '"' or '/*' without its end gets here
                raise self.error(f"unterminated {'comment' if value == '/' else 'quoted name'}", start)
            if kind == "str":
                value = _UNESCAPE.sub(r"\1", value[1:-1])
            append((value if kind == "punct" else kind, value, start, m.end(kind)))
        self.toks.append(("eof", "", len(text), len(text)))
        self.i = 0

    # ---------------------------------------------------------------- low level (error, next, peek, show and
    # expect: bnstudio.io.source.TokenStream)
    def line(self, tok: _Token) -> int:
        return self.line_column(tok[2])[0]

    def name(self, what: str) -> _Token:
        tok = self.next()
        if tok[0] not in ("word", "str"):
            raise self.error(f"expected {what}, found {self.show(tok)}", tok)
        return tok

    def names_until(self, close: str, what: str) -> list[_Token]:
        """NAME {NAME} up to (and consuming) ``close``."""
        out: list[_Token] = []
        while self.peek()[0] != close:
            out.append(self.name(f"{what} or '{close}'"))
        self.next()
        return out

    def values(self, what: str) -> list[float]:
        """NUMBER {NUMBER} ';' -- finite and non-negative."""
        out: list[float] = []
        toks, i, number = self.toks, self.i, NUMBER.fullmatch
        while True:
            tok = toks[i]
            if tok[0] == ";" and out:
                self.i = i + 1
                return out
            if tok[0] != "word" or not number(tok[1]):
                expected = "a number or ';'" if out else "a number"
                raise self.error(f"expected {expected} in {what}, found {self.show(tok)}", tok)
            value = float(tok[1])
            problem = entry_problem(value)
            if problem is not None:
                raise self.error(f"{problem} {shorten(tok[1], 40)} in {what}", tok)
            out.append(value + 0.0)  # no -0.0
            i += 1

    def property(self) -> tuple[str, str]:
        """The text after 'property' up to ';' as (key, value); key '' for an empty property."""
        toks: list[_Token] = []
        while self.peek()[0] not in (";", "}", "eof"):
            toks.append(self.next())
        self.expect(";", "after the property")
        if not toks:
            return "", ""
        if len(toks) == 3 and toks[0][0] == toks[2][0] == "str" and toks[1][1] == "=":
            return toks[0][1], self.property_string(toks[2])
        if len(toks) >= 2 and toks[-1][0] == "str":  # key = "value" (a one-line string, escapes decoded)
            key = self.text[toks[0][2]:toks[-2][3]].strip()
            if key.endswith("=") and key[:-1].strip():
                return key[:-1].strip(), self.property_string(toks[-1])
        text = toks[0][1] if len(toks) == 1 and toks[0][0] == "str" else \
            self.text[toks[0][2]:toks[-1][3]]
        key, sep, value = text.partition("=")
        if not sep:
            key, value = (text.split(None, 1) + [""])[:2]
        return key.strip(), value.strip()

    def property_string(self, tok: _Token) -> str:
        """The text of a quoted property value, with the writer's escapes (``\\n``, ``\\x3b``...) decoded."""
        return _unescape_property(self.text[tok[2] + 1:tok[3] - 1])

    # ---------------------------------------------------------------- blocks
    def parse(self) -> tuple[str, dict[str, str], list[_VarDecl], list[_ProbBlock]]:
        name, props, decls, blocks = "network", {}, [], []
        seen_network: _Token | None = None
        while self.peek()[0] != "eof":
            tok = self.next()
            keyword = tok[1] if tok[0] == "word" else None
            if keyword == "network":
                if seen_network is not None:
                    raise self.error("a second 'network' block", tok)
                seen_network = tok
                if self.peek()[0] in ("word", "str"):
                    name = self.next()[1]
                self.expect("{", "after the network name")
                while not self._block_end("the network block"):
                    key, value = self._property_in("the network block")
                    if key:
                        props[key] = value
            elif keyword == "variable":
                decls.append(self.variable())
            elif keyword == "probability":
                blocks.append(self.probability())
            else:
                raise self.error(f"expected 'network', 'variable' or 'probability', found {self.show(tok)}", tok)
        return name, props, decls, blocks

    def _block_end(self, what: str) -> bool:
        tok = self.peek()
        if tok[0] == "eof":
            raise self.error(f"unexpected end of file, expected '}}' to close {what}", tok)
        if tok[0] == "}":
            self.next()
            return True
        return False

    def _property_in(self, what: str, also: str = "") -> tuple[str, str]:
        tok = self.next()
        if tok[:2] != ("word", "property"):
            raise self.error(f"expected {also}'property' or '}}' in {what}, found {self.show(tok)}", tok)
        return self.property()

    def variable(self) -> _VarDecl:
        decl = _VarDecl(self.name("a variable name"))
        what = f"the block of variable '{decl.name[1]}'"
        self.expect("{", f"after the variable name '{decl.name[1]}'")
        while not self._block_end(what):
            tok = self.peek()
            if tok[:2] != ("word", "type"):
                decl.props.append(self._property_in(what, "'type', "))
                continue
            self.next()
            if decl.type_tok is not None:
                raise self.error(f"variable '{decl.name[1]}' has a second 'type' line", tok)
            decl.type_tok = tok
            kind = self.name("'discrete'")
            if kind[1] != "discrete":
                raise self.error(f"only discrete variables are supported, found type '{kind[1]}'", kind)
            self.expect("[", "before the number of states")
            count = self.next()
            if count[0] != "word" or not (count[1].isascii() and count[1].isdigit()):
                raise self.error(f"expected the number of states, found {self.show(count)}", count)
            self.expect("]", "after the number of states")
            self.expect("{", "before the state list")
            decl.states = self.names_until("}", "a state name")
            self.expect(";", "after the state list")
            declared = count[1].lstrip("0") or "0"  # compared as text: int() refuses 4,300+ digits
            if declared != str(len(decl.states)):
                raise self.error(f"variable '{decl.name[1]}' declares {shorten(declared, 40)} states but lists "
                                 f"{len(decl.states)}", tok)
        if decl.type_tok is None:
            raise self.error(f"variable '{decl.name[1]}' has no 'type discrete [n] {{...}};' line", decl.name)
        return decl

    def probability(self) -> _ProbBlock:
        self.expect("(", "after 'probability'")
        child = self.name("the variable name")
        block = _ProbBlock(child, self.names_until(")", "a parent name"))
        what = f"the probability block of '{child[1]}'"
        self.expect("{", f"to open {what}")
        while not self._block_end(what):
            tok = self.next()
            if tok[0] == "(":
                states = self.names_until(")", "a parent state")
                block.entries.append(("row", tok, states, self.values(f"a row of '{child[1]}'")))
            elif tok[:2] in (("word", "table"), ("word", "default")):
                block.entries.append((tok[1], tok, [], self.values(f"the {tok[1]} of '{child[1]}'")))
            elif tok[:2] == ("word", "property"):
                self.property()
            else:
                raise self.error(f"expected '(', 'table', 'default', 'property' or '}}' in {what}, "
                                 f"found {self.show(tok)}", tok)
        return block

    # ---------------------------------------------------------------- semantics
    def build(self) -> Network:
        name, props, decls, blocks = self.parse()
        budget, repairs = SizeBudget(), Repairs(self.path, self.strict)
        if len(decls) > budget.max_variables:
            budget.variables(len(decls), lambda m: self.error(m, decls[budget.max_variables].name))
        variables: dict[str, Variable] = {}
        decl_of: dict[str, _VarDecl] = {}
        positions: dict[str, tuple[float, float]] = {}
        for decl in decls:
            var = decl.name[1]
            if var in variables:
                line = self.line(decl_of[var].name)
                raise self.error(f"variable '{var}' is declared twice (first on line {line})", decl.name)
            seen: set[str] = set()
            budget.states(var, len(decl.states), partial(self.error, where=decl.name))
            for tok in decl.states:
                if tok[1] in seen:
                    raise self.error(f"variable '{var}' lists the state '{tok[1]}' twice", tok)
                seen.add(tok[1])
            try:
                variables[var] = Variable(var, tuple(t[1] for t in decl.states))
            except BNStudioError as exc:
                raise self.error(str(exc), decl.name) from None
            decl_of[var] = decl
            for key, value in decl.props:
                pos = _position(value) if key == "position" else None
                if pos is not None:
                    positions[var] = pos
                elif key:
                    props[f"{var}.{key}"] = value
        block_of: dict[str, _ProbBlock] = {}
        for block in blocks:
            child = block.child[1]
            if child not in variables:
                raise self.error(f"probability block for undeclared variable '{child}'", block.child)
            if child in block_of:
                line = self.line(block_of[child].child)
                raise self.error(f"second probability block for '{child}' (first on line {line})", block.child)
            block_of[child] = block
        families = []
        names = _Originals(name, props, decls)
        for var in variables:
            if var not in block_of:
                raise self.error(f"missing probability block for '{var}'", decl_of[var].name)
            block = block_of[var]
            families.append((var, variables[var].states, [p[1] for p in block.parents],
                             self.table(block, variables, budget, repairs, names)))
        try:
            net = build_network([names.family(*f) for f in families], names.network)
        except CycleError as exc:
            raise self.error(f"cycle {' -> '.join(exc.cycle)}", block_of[exc.cycle[0]].child
                             if exc.cycle and exc.cycle[0] in block_of else 0) from None
        except BNStudioError as exc:
            raise FormatError(tidy(str(exc)), path=self.path) from None
        net.properties = names.properties(props)
        net.positions = {names.var(v): p for v, p in positions.items()}
        repairs.warn(net)
        return net

    def _family(self, block: _ProbBlock, variables: dict[str, Variable],
                budget: SizeBudget) -> tuple[Variable, list[Variable]]:
        """The child and parents of a probability block, checked (declared, distinct, within the budget)."""
        child = variables[block.child[1]]
        parents: list[Variable] = []
        budget.parents(child.name, len(block.parents), lambda m: self.error(m, block.child))
        for tok in block.parents:
            if tok[1] not in variables:
                raise self.error(f"unknown parent '{tok[1]}' in probability block of '{child.name}'", tok)
            if tok[1] == child.name:
                raise self.error(f"cycle {child.name} -> {child.name} ('{child.name}' is its own parent)", tok)
            if tok[1] in (p.name for p in parents):
                raise self.error(f"parent '{tok[1]}' is listed twice for '{child.name}'", tok)
            parents.append(variables[tok[1]])
        shape = tuple(p.cardinality for p in parents) + (child.cardinality,)
        budget.family(child.name, shape, lambda m: self.error(m, block.child))
        return child, parents

    def table(self, block: _ProbBlock, variables: dict[str, Variable], budget: SizeBudget,
              repairs: Repairs, names: _Originals) -> np.ndarray:
        """The CPT of a probability block, shape (|P1|, ..., |Pk|, |X|), with rows checked and repaired
        (``names``: the variables' names in the network, for the repair report)."""
        child, parents = self._family(block, variables, budget)
        pshape = tuple(p.cardinality for p in parents)
        labels = [(p.name, p.states) for p in parents]
        positions = [{state: i for i, state in enumerate(p.states)} for p in parents]
        card = child.cardinality
        n_rows = math.prod(pshape)
        cpt = np.zeros((n_rows, card))
        source = np.full(n_rows, -1, dtype=np.int64)  # the entry that gave each row
        default = None
        for e, (kind, tok, states, values) in enumerate(block.entries):
            if kind == "default" and len(block.entries) == 1 and n_rows > 1 and len(values) == n_rows * card:
                repairs.note(f"read the 'default' of '{child.name}' as its whole table ({len(values)} values, as "
                             f"pgmpy does)", partial(self.error, where=tok))
                kind = "table"
            if kind == "default":
                if default is not None:
                    raise self.error(f"second 'default' entry for '{child.name}'", tok)
                default = e
                self._check_count(values, card, tok, f"the default of '{child.name}'")
                continue
            if kind == "table":
                rows: np.ndarray | slice = slice(None)
                self._check_count(values, n_rows * card, tok, f"the table of '{child.name}'",
                                  f" ({card} states x {n_rows} parent configurations)" if parents else "")
                matrix = np.array(values).reshape(card, n_rows).T
            else:
                if len(states) != len(parents):
                    raise self.error(f"a row of '{child.name}' names {len(states)} parent state(s), expected "
                                     f"{len(parents)} ({', '.join(p.name for p in parents) or 'no parents'})", tok)
                index = []
                for p, position, s in zip(parents, positions, states, strict=True):
                    if s[1] not in position:
                        raise self.error(f"unknown state '{s[1]}' of parent '{p.name}' (states: "
                                         f"{listing(p.states, quote=False)})", s)
                    index.append(position[s[1]])
                rows = np.array([np.ravel_multi_index(index, pshape) if parents else 0])
                self._check_count(values, card, tok, f"the row {row_label(labels, int(rows[0]))} of '{child.name}'")
                matrix = np.array([values])
            twice = np.flatnonzero(source[rows] >= 0)
            if twice.size:
                r = int(np.arange(n_rows)[rows][twice[0]])
                line = self.line(block.entries[source[r]][1])
                raise self.error(f"row {row_label(labels, r)} of '{child.name}' is given twice "
                                 f"(first on line {line})", tok)
            source[rows] = e
            cpt[rows] = matrix
        missing = np.flatnonzero(source < 0)
        if missing.size:
            if default is None:
                where = f"row {row_label(labels, int(missing[0]))}" if parents else "values"
                raise self.error(f"the probability block of '{child.name}' gives no {where} "
                                 f"and has no 'default'", block.child)
            source[missing] = default
            cpt[missing] = block.entries[default][3]
        bad = repairs.rows(cpt, lambda r: f"row {row_label(labels, r)} of '{child.name}'",
                           (names.var(child.name), [names.var(p.name) for p in parents]))
        if bad is not None:
            raise self.error(repairs.refusal(f"row {row_label(labels, bad)} of '{child.name}'"),
                             block.entries[source[bad]][1])
        return cpt.reshape(pshape + (card,))

    def _check_count(self, values: list, expected: int, tok: _Token, what: str, detail: str = "") -> None:
        if len(values) != expected:
            raise self.error(f"{what} has {len(values)} values, expected {expected}{detail}", tok)


class _Originals:
    """The names the writer had to respell (``bnstudio_name``/``bnstudio_states`` properties, see
    :mod:`bnstudio.io.bif.writer`), taken out of the properties and put back; an original that does not fit (a
    clash, a wrong count of states, not a name) is left as a property."""

    def __init__(self, name: str, props: dict[str, str], decls: list[_VarDecl]) -> None:
        self.network = name
        if NAME_KEY in props:
            self.network = props.pop(NAME_KEY)
        self.names: dict[str, str] = {}
        self.states: dict[str, tuple[str, ...]] = {}
        for decl in decls:
            var = decl.name[1]
            original = props.get(f"{var}.{NAME_KEY}")
            if original is not None and _valid([original]):
                self.names[var] = original
            states = _json_names(props.get(f"{var}.{STATES_KEY}"), len(decl.states))
            if states is not None:
                self.states[var] = states
                del props[f"{var}.{STATES_KEY}"]
        final = [self.names.get(d.name[1], d.name[1]) for d in decls]
        if len(set(final)) == len(final):
            for var in self.names:
                del props[f"{var}.{NAME_KEY}"]
        else:
            self.names = {}

    def var(self, name: str) -> str:
        return self.names.get(name, name)

    def properties(self, props: dict[str, str]) -> dict[str, str]:
        """``props`` with variables' keys renamed and ``bnstudio_property_<n>`` pairs put back."""
        out = {}
        for key, value in props.items():
            var, dot, rest = key.rpartition(".")
            pair = _json_names(value, 2, distinct=False) if rest.startswith(PROPERTY_KEY) else None
            if pair is not None and pair[0]:
                key = f"{var}.{pair[0]}" if dot else pair[0]
                value = pair[1]
            out[self.key(key)] = value
        return out

    def key(self, key: str) -> str:
        """A property key ``V.rest`` with V's original name."""
        var, dot, rest = key.partition(".")
        return f"{self.var(var)}.{rest}" if dot and var in self.names else key

    def family(self, var: str, states: tuple[str, ...], parents: list[str], cpt: np.ndarray) -> tuple:
        return self.var(var), self.states.get(var, states), [self.var(p) for p in parents], cpt


def _valid(names: list[str]) -> bool:
    try:
        for n in names:
            check_name(n, "")
    except BNStudioError:
        return False
    return len(set(names)) == len(names)


def _json_names(text: str | None, count: int, distinct: bool = True) -> tuple[str, ...] | None:
    """The JSON list of ``count`` strings in ``text`` (``distinct``: distinct valid names), else None."""
    if text is None:
        return None
    try:
        names = json.loads(text)
    except (ValueError, RecursionError):
        return None
    ok = isinstance(names, list) and len(names) == count and all(isinstance(n, str) for n in names)
    return tuple(names) if ok and (not distinct or _valid(names)) else None


def _position(value: str) -> tuple[float, float] | None:
    """``(x, y)`` as two finite floats, else None."""
    inner = value.strip()
    if not (inner.startswith("(") and inner.endswith(")")):
        return None
    parts = inner[1:-1].split(",")
    if len(parts) != 2 or not all(NUMBER.fullmatch(p.strip()) for p in parts):
        return None
    x, y = (float(p) for p in parts)
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


def parse_bif(text: str, path: str = "<string>", strict: bool = False) -> Network:
    """Parse BIF ``text`` (see the module docstring); ``path`` is only used in error messages; ``strict``
    refuses what would need a repair (see :mod:`bnstudio.io.repairs`).

    Raises
    ------
    FormatError
        For any problem, with path, line and column.
    """
    from bnstudio.io.bif.fast import parse_exact, parse_fast  # the bulk reader falls back here on any anomaly
    return (parse_fast if bulk_enabled() else parse_exact)(text, str(path), strict)


def read_bif(path: PathLike, strict: bool = False) -> Network:
    """Read a ``.bif`` (or gzip-compressed ``.bif.gz``) file; every failure is a :class:`FormatError`."""
    return parse_bif(read_text(path), str(path), strict)
