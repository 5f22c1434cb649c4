"""Read and write UAI files for Bayesian networks (the "UAI model format" of the UAI inference competitions)::

    BAYES            preamble (a MARKOV network is refused)
    3                number of variables
    2 2 3            their cardinalities
    3                number of functions (one CPT per variable)
    1 0              scope of each function: its size, then variable indices -- the parents, then the child LAST
    2 0 1
    3 0 1 2
    2                then each table, in the order of the scopes: its number of entries,
     0.4 0.6         then the entries, the LAST variable of the scope varying fastest
    ...

Conventions
-----------
* The scope lists the parents then the child, and the table varies the last scope variable (the child)
  fastest: exactly the row-major order of our CPT layout, with the parents in scope order.
* The format has no names: on read, variables are ``V0 .. Vn-1`` (in index order) and states ``s0 .. sk-1``,
  the network is named after the file and ``net.properties["note"]`` says so. On write, variable i is
  ``net.variables[i]``; names, states' names, positions, descriptions and properties are not stored.
* Tokens are separated by any blanks. Lines starting with ``c`` are comments (UAI 2016) and so is
  anything from ``#`` to the end of the line (pyAgrum writes those). Rows are checked as described in
  :mod:`bnstudio.io.common`; numbers are written with ``repr``.
* pyAgrum (3.3.1) writes multi-parent tables with the *first* parent varying fastest after the child,
  against the format's rule; such files read here with the parent axes permuted.
* Old aGrUM versions wrote each scope child first (``2 2 0``: variable 2 given variable 0) with the first scope
  variable fastest -- the format's layout of the reversed scope. A file that only reads that way (the
  child-last reading gives some variable two CPTs, the child-first one gives each variable one) is read so,
  and the repair is reported (pyAgrum 3.3.1 refuses such files: "Parents already defined").
"""
from __future__ import annotations

import math
import re
from functools import partial
from pathlib import Path

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, atomic_write_text, read_text
from bnstudio.io.bulk import bulk_enabled, probabilities, tables_rows
from bnstudio.io.common import assemble, make_cpt, probability
from bnstudio.io.limits import SizeBudget
from bnstudio.io.repairs import Repairs
from bnstudio.io.source import SourceText

NOTE = ("UAI files store no names: variables are named V0..Vn-1 in file order and their states s0..sk-1")
_TOKEN = re.compile(r"^[ \t]*c(?:[ \t][^\n]*)?$|#[^\n]*|[^\s#]+", re.MULTILINE)  # comments, then a token
_DIGITS = 18  # integers with more digits are beyond every limit (and int() refuses 4,300+ digits)


class _StateNames:
    """``s0 .. s{n-1}`` without making them (they are made once every table has been read)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k: int) -> str:
        return f"s{k}"


class _Fallback(Exception):
    """The bulk reading met a problem: the exact reader reads the file again and names it."""


class _Reader(SourceText):
    """The reader; ``bulk=True`` splits the text with ``str.split`` (only for a text without '#' or 'c', where
    that gives the exact tokens) and keeps no offsets: any error then raises :class:`_Fallback` instead."""

    def __init__(self, text: str, path: str, strict: bool = False, bulk: bool = False) -> None:
        self.path, self.strict, self.text = path, strict, text
        if bulk:
            self.words, self.offsets = text.split(), None
        else:
            toks = [(m.group(), m.start()) for m in _TOKEN.finditer(text)
                    if not m.group().startswith("#") and not m.group().lstrip(" \t").startswith("c")]
            self.words, self.offsets = [t for t, _ in toks], [o for _, o in toks]
        self.i, self.end = 0, len(text)

    def offset(self, i: int) -> int:
        """Where token ``i`` starts (0 when reading in bulk: only errors use it, and they fall back)."""
        return 0 if self.offsets is None else self.offsets[i]

    def error(self, message: str, offset: int | None = None) -> FormatError:
        if self.offsets is None:
            raise _Fallback
        if offset is None:
            offset = self.offsets[self.i - 1] if self.i else 0
        return self.located(message, offset)

    def next(self, what: str) -> str:
        if self.i >= len(self.words):
            raise self.error(f"unexpected end of file, expected {what}", self.end)
        self.i += 1
        return self.words[self.i - 1]

    def integer(self, what: str, low: int = 0, high: int | None = None) -> int:
        tok = self.next(what)
        if not (tok.isascii() and tok.isdigit()):
            raise self.error(f"expected {what} (a non-negative integer), found '{tok[:40]}'")
        digits = tok.lstrip("0") or "0"
        if len(digits) > _DIGITS:
            raise self.error(f"{what} is {digits[:20]}... ({len(digits)} digits), far too large")
        value = int(digits)
        if value < low or (high is not None and value > high):
            bound = f"{low}..{high}" if high is not None else f">= {low}"
            raise self.error(f"{what} is {value}, expected {bound}")
        return value

    def read(self) -> Network:
        preamble = self.next("the preamble 'BAYES'")
        if preamble.upper() == "MARKOV":
            raise self.error("this is a MARKOV network (a product of factors), not a Bayesian network: only "
                             "'BAYES' UAI files can be read")
        if preamble.upper() != "BAYES":
            raise self.error(f"expected the preamble 'BAYES', found '{preamble[:40]}'")
        budget, repairs = SizeBudget(), Repairs(self.path, self.strict)
        n = self.integer("the number of variables")
        budget.variables(n, self.error)
        cards = []
        for i in range(n):
            cards.append(self.integer(f"the cardinality of variable {i}", 1))
            budget.states(f"V{i}", cards[-1], self.error)
        n_functions = self.integer("the number of functions")
        if n_functions != n:
            raise self.error(f"a BAYES file needs one function per variable: {n_functions} functions for "
                             f"{n} variables")
        scopes, starts = self.scopes(n, repairs), {}
        names = [f"V{i}" for i in range(n)]
        for scope in scopes:  # every size, before any table is read
            budget.family(names[scope[-1]], [cards[v] for v in scope], self.error)
        states = [_StateNames(c) for c in cards]
        tables: dict[int, tuple[list[str], np.ndarray]] = {}
        for f, scope in enumerate(scopes):
            *parents, child = scope
            expected = math.prod(cards[v] for v in scope)
            size = self.integer(f"the number of entries of function {f}")
            start = self.offset(self.i - 1)
            if size != expected:
                raise self.error(f"function {f} (the CPT of V{child}) has {size} entries, expected {expected} "
                                 f"(the product of the cardinalities of its scope {scope})")
            at = self.i
            chunk = self.words[at:at + expected]
            values = probabilities(chunk, partial(self.entries, at, expected, f)) if len(chunk) == expected \
                else self.entries(at, expected, f)
            self.i = at + expected
            # the ignore: mypy infers no type for a lambda with a default argument
            cpt = make_cpt(values, names[child], cards[child], [(names[p], states[p]) for p in parents],
                           lambda m, s=start, f=f: self.error(f"function {f}: {m}", s),  # type: ignore[misc]
                           None, repairs)
            tables[child], starts[child] = ([names[p] for p in parents], cpt), start
        if self.i < len(self.words):
            raise self.error(f"unexpected data after the last table: '{self.words[self.i][:40]}'",
                             self.offset(self.i))
        families = [(names[v], tuple(states[v][k] for k in range(cards[v]))) + tables[v] for v in range(n)]
        stem = Path(self.path).name.split(".")[0] if self.path != "<string>" else ""
        net = assemble(families, stem or "network",
                       lambda v, m: self.error(m, starts[int(v[1:])] if v else 0))
        net.properties["note"] = NOTE
        repairs.warn(net)
        return net

    def entries(self, at: int, expected: int, f: int) -> list[float]:
        """The ``expected`` entries of function ``f`` from token ``at``, one by one (located errors)."""
        self.i = at
        return [probability(self.next(f"{expected} entries for function {f}"), self.error) for _ in range(expected)]

    def scopes(self, n: int, repairs: Repairs) -> list[list[int]]:
        """The scope of each of the ``n`` functions (parents, then the child), checked.

        Old aGrUM versions wrote each scope with the child *first* (and the table with the first scope variable
        fastest, which is the format's order on the reversed scope). When the child-last reading would give a
        variable two CPTs but the child-first one gives every variable exactly one, the scopes are read reversed
        and the repair is reported."""
        scopes: list[list[int]] = []
        starts: list[int] = []
        for f in range(n):
            size = self.integer(f"the scope size of function {f}", 1, n)
            starts.append(self.offset(self.i - 1))
            scope = [self.integer(f"a variable index in the scope of function {f}", 0, n - 1) for _ in range(size)]
            if len(set(scope)) != size:
                raise self.error(f"the scope of function {f} lists a variable twice: {scope}")
            scopes.append(scope)
        twice = _second_function_of_a_variable(scopes, -1)
        if twice is None:
            return scopes
        if _second_function_of_a_variable(scopes, 0) is None:
            repairs.note("read every scope with the child first, then its parents (the layout of old aGrUM "
                         "versions; the UAI format puts the child last)", lambda m: self.error(m, starts[twice]))
            return [scope[::-1] for scope in scopes]
        child = scopes[twice][-1]
        first = next(f for f, scope in enumerate(scopes) if scope[-1] == child)
        raise self.error(f"variables can have only one CPT: functions {first} and {twice} both end with variable "
                         f"{child}", starts[twice])


def _second_function_of_a_variable(scopes: list[list[int]], position: int) -> int | None:
    """The first function whose variable at ``position`` (-1: last, 0: first) an earlier function has there
    too, or None when that position names every variable once."""
    seen: set[int] = set()
    for f, scope in enumerate(scopes):
        if scope[position] in seen:
            return f
        seen.add(scope[position])
    return None


def parse_uai(text: str, path: str = "<string>", strict: bool = False) -> Network:
    """Parse UAI ``text`` (a BAYES model; see the module docstring); every problem is a :class:`FormatError`;
    ``strict`` refuses what would need a repair (see :mod:`bnstudio.io.repairs`)."""
    if bulk_enabled() and "#" not in text and "c" not in text:  # no comments: the tokens are text.split()
        try:
            return _Reader(text, str(path), strict, bulk=True).read()
        except _Fallback:
            pass
    return _Reader(text, str(path), strict).read()


def read_uai(path: PathLike, strict: bool = False) -> Network:
    """Read a ``.uai`` Bayesian network; every failure is a :class:`FormatError`."""
    return parse_uai(read_text(path), str(path), strict)


def format_uai(net: Network) -> str:
    """The UAI text of ``net`` (variable i is ``net.variables[i]``; function i is its CPT)."""
    index = {v: i for i, v in enumerate(net.variables)}
    lines = ["BAYES", str(len(net)), " ".join(str(net.cardinality(v)) for v in net.variables), str(len(net))]
    for v in net.variables:
        scope = [index[p] for p in net.parents(v)] + [index[v]]
        lines.append(" ".join(map(str, [len(scope)] + scope)))
    for v, rows in zip(net.variables, tables_rows([net.cpt(v) for v in net.variables]), strict=True):
        lines += ["", str(net.cpt(v).size)]
        lines += [" " + row for row in rows]
    return "\n".join(lines) + "\n"


def write_uai(net: Network, path: PathLike) -> None:
    """Write ``net`` as a UAI BAYES file to ``path`` atomically (names and layout are not stored)."""
    atomic_write_text(path, format_uai(net))
