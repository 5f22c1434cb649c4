"""Hugin table-generator expressions (the ``model_data`` of a NET potential): tokens, grammar and syntax tree.

A Hugin *model* is a list of model nodes and one expression per configuration of their states (Hugin GUI
help, "Table Generator Tutorial"); in a NET file ``model_data = ( e1, e2, ... );`` lists them, the first model
node varying slowest (the order of ``data``). The grammar read here (Hugin's operator names are those of the
HUGIN API's ``h_operator_t``)::

    expression  := sum [ compare sum ]          compare: == = != <> < <= > >=
    sum         := term { ( + | - ) term }
    term        := power { ( * | / ) power }
    power       := ( + | - ) power | factor [ ^ power ]      (-2^2 = -(2^2); 2^3^2 = 2^(3^2))
    factor      := number | "label" | true | false | NAME | NAME ( expression { , expression } )
                 | ( expression )

Logical operators are functions (``and(b1, ..., bn)``, ``or(...)``, ``not(b)``, ``if(c, x, y)``), as are the
distributions (``Distribution(p1, ..., pn)``, ``Binomial(n, p)``, ``NoisyOR(b1, p1, ..., bn, pn)``, ...).
Function names are matched without regard to case; ``true`` and ``false`` are lower case. ``%`` starts a
comment to the end of the line, as everywhere in a NET file.

Every problem is an :class:`ExpressionError` (a :class:`~bnstudio.errors.FormatError`) carrying the offset in
the text where it was found, so the NET reader can point at the file's line and column.

>>> [type(e).__name__ for e in parse_model_data('( if (A == "yes", Distribution (0.9, 0.1), "no"), 1 + 2 ^ 3 )')]
['Call', 'Binary']
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Union

from bnstudio.errors import FormatError
from bnstudio.io.messages import shorten

MAX_DEPTH = 100  # levels of the syntax tree (parentheses, calls, each operator of a chain); deeper is refused

#: Hugin's operators written as functions (``h_operator_t`` of the HUGIN API header), by lower-case name.
FUNCTIONS = {name.lower(): name for name in (
    "Normal", "LogNormal", "Beta", "Gamma", "Exponential", "Weibull", "Uniform", "Triangular", "PERT",
    "Binomial", "Poisson", "NegativeBinomial", "Geometric", "Distribution", "NoisyOR", "truncate",
    "min", "max", "log", "log2", "log10", "exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "sqrt", "abs",
    "floor", "ceil", "mod", "if", "and", "or", "not")}
COMPARISONS = {"==": "==", "=": "==", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

_TOKEN = re.compile(r"""(?:\s+|%[^\n]*)*(?:
      (?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
    | (?P<str>"(?:[^"\\]|\\.)*")
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>==|!=|<>|<=|>=|[=<>+\-*/^(),])
    | (?P<bad>.))?""", re.VERBOSE | re.DOTALL)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


class ExpressionError(FormatError):
    """A malformed or unsupported expression; ``detail`` is the message, ``offset`` where in the text (or None)."""

    def __init__(self, detail: str, offset: int | None = None) -> None:
        super().__init__(detail)
        self.detail, self.offset = detail, offset


@dataclass(frozen=True)
class Num:
    value: float
    pos: int


@dataclass(frozen=True)
class Str:
    value: str
    pos: int


@dataclass(frozen=True)
class Bool:
    value: bool
    pos: int


@dataclass(frozen=True)
class Ref:
    """A node named in an expression: its value in the configuration at hand."""

    name: str
    pos: int


@dataclass(frozen=True)
class Call:
    """``name(args)``; ``name`` is Hugin's spelling from :data:`FUNCTIONS`."""

    name: str
    args: tuple["Expr", ...]
    pos: int


@dataclass(frozen=True)
class Unary:
    op: str  # "-" or "+"
    operand: "Expr"
    pos: int


@dataclass(frozen=True)
class Binary:
    op: str  # + - * / ^ or a comparison (== != < <= > >=)
    left: "Expr"
    right: "Expr"
    pos: int


Expr = Union[Num, Str, Bool, Ref, Call, Unary, Binary]


def scan(pattern: re.Pattern, text: str) -> Iterator[tuple[str, str, int]]:
    """(group name, matched text, offset) for each match of ``pattern`` in ``text`` that matched a named group
    (the Hugin NET reader's tokens too)."""
    for m in pattern.finditer(text):
        kind = m.lastgroup
        if kind is not None:
            yield kind, m.group(kind), m.start(kind)


def unquote(quoted: str) -> str:
    """The text of a NET string ``"..."``: ``\\n`` is a line break, ``\\x`` is ``x``."""
    return _ESCAPE.sub(lambda e: "\n" if e.group(1) == "n" else e.group(1), quoted[1:-1])


def tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, offset) for each token of ``text`` (kinds: num, str, name, op; then one ``("eof", "", n)``)."""
    out = []
    for kind, value, start in scan(_TOKEN, text):
        if kind == "bad":
            what = "unterminated string" if value == '"' else f"unexpected character '{shorten(value)}'"
            raise ExpressionError(f"{what} in the expression", start)
        out.append((kind, unquote(value) if kind == "str" else value, start))
    out.append(("eof", "", len(text)))
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def next(self) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        self.i += tok[0] != "eof"
        return tok

    def at(self, *ops: str) -> bool:
        kind, value, _ = self.peek()
        return kind == "op" and value in ops

    def expect(self, op: str, context: str) -> None:
        tok = self.next()
        if tok[0] != "op" or tok[1] != op:
            raise ExpressionError(f"expected '{op}' {context}, found {self.show(tok)}", tok[2])

    @staticmethod
    def show(tok: tuple[str, str, int]) -> str:
        if tok[0] == "eof":
            return "the end of the expressions"
        return f'"{shorten(tok[1], 40)}"' if tok[0] == "str" else f"'{shorten(tok[1], 40)}'"

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExpressionError(f"the expression is nested more than {MAX_DEPTH} levels deep", pos)

    # ---------------------------------------------------------------- grammar
    def model_data(self) -> list[Expr]:
        """``( e1, e2, ... )`` (or the expressions without the enclosing parentheses)."""
        if self.at("("):
            close = self._matching(self.i)
            if close == len(self.toks) - 2:  # the parentheses enclose everything: a list
                self.next()
                exprs = self.sequence(")")
                self.expect(")", "to close the list of expressions")
                self._end()
                return exprs
        exprs = self.sequence(None)
        self._end()
        return exprs

    def _matching(self, start: int) -> int | None:
        depth = 0
        for j in range(start, len(self.toks)):
            kind, value, _ = self.toks[j]
            if kind == "op" and value in "()":
                depth += 1 if value == "(" else -1
                if depth == 0:
                    return j
        return None

    def _end(self) -> None:
        tok = self.peek()
        if tok[0] != "eof":
            raise ExpressionError(f"unexpected {self.show(tok)} after the expressions", tok[2])

    def sequence(self, close: str | None) -> list[Expr]:
        if close is not None and self.at(close):
            return []
        if close is None and self.peek()[0] == "eof":
            return []
        exprs = [self.expression()]
        while self.at(","):
            self.next()
            exprs.append(self.expression())
        return exprs

    def expression(self) -> Expr:
        start = self.depth
        self.enter(self.peek()[2])
        left = self.sum()
        if self.peek()[0] == "op" and self.peek()[1] in COMPARISONS:
            tok = self.next()
            left = Binary(COMPARISONS[tok[1]], left, self.sum(), tok[2])
            if self.peek()[0] == "op" and self.peek()[1] in COMPARISONS:
                raise ExpressionError("comparisons cannot be chained (use and(...))", self.peek()[2])
        self.depth = start
        return left

    def sum(self) -> Expr:
        start = self.depth
        left = self.term()
        while self.at("+", "-"):
            tok = self.next()  # a flat chain is no nesting: the evaluator folds it without recursion
            left = Binary(tok[1], left, self.term(), tok[2])
        self.depth = start
        return left

    def term(self) -> Expr:
        start = self.depth
        left = self.power()
        while self.at("*", "/"):
            tok = self.next()
            left = Binary(tok[1], left, self.power(), tok[2])
        self.depth = start
        return left

    def power(self) -> Expr:
        if self.at("+", "-"):  # a sign applies to what follows it: -2^2 = -(2^2)
            tok = self.next()
            self.enter(tok[2])
            operand = self.power()
            self.depth -= 1
            return Unary(tok[1], operand, tok[2])
        base = self.factor()
        if self.at("^"):
            pos = self.next()[2]
            self.enter(pos)
            exponent = self.power()
            self.depth -= 1
            return Binary("^", base, exponent, pos)
        return base

    def factor(self) -> Expr:
        kind, value, pos = self.next()
        if kind == "num":
            return Num(float(value), pos)
        if kind == "str":
            return Str(value, pos)
        if kind == "name":
            if self.at("("):
                return self.call(value, pos)
            if value in ("true", "false"):
                return Bool(value == "true", pos)
            return Ref(value, pos)
        if kind == "op" and value == "(":
            inner = self.expression()
            self.expect(")", "to close '('")
            return inner
        raise ExpressionError(f"expected a number, a \"label\", a node or a function, found "
                              f"{self.show((kind, value, pos))}", pos)

    def call(self, name: str, pos: int) -> Call:
        canonical = FUNCTIONS.get(name.lower())
        if canonical is None:
            raise ExpressionError(f"'{shorten(name)}' is not a Hugin function (not supported)", pos)
        self.enter(pos)
        self.expect("(", f"after '{canonical}'")
        args = self.sequence(")")
        self.expect(")", f"to close the arguments of '{canonical}'")
        self.depth -= 1
        return Call(canonical, tuple(args), pos)


def parse_model_data(text: str) -> list[Expr]:
    """The expressions of a ``model_data`` value (the text between ``=`` and ``;``)."""
    return _Parser(text).model_data()


def parse_expression(text: str) -> Expr:
    """One expression (the whole of ``text``)."""
    parser = _Parser(text)
    expr = parser.expression()
    parser._end()
    return expr


def walk(expr: Expr):
    """``expr`` and every expression inside it (depth first)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Call):
            stack.extend(reversed(node.args))
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Binary):
            stack.extend((node.right, node.left))
