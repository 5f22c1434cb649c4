"""The bulk BIF reader: probability tables read with one regular expression and one float conversion each.

Most of a bnlearn BIF file is numbers in probability blocks. :class:`FastParser` tokenizes everything else as
:mod:`bnstudio.io.bif.reader` does (same offsets, so its errors are located the same), but a probability block whose
body is plain -- only ``(names) numbers;`` rows, or one ``table numbers;`` entry, bare names, unsigned numbers,
no comments, quotes or properties -- is matched as a whole and read in bulk: no token per number, no row label
or message built unless something is wrong.

Anything unusual is left to the exact reader (:class:`bnstudio.io.bif.reader._Parser`, the reference): a body that is
not plain is tokenized as usual and read by the exact code; a plain table with a wrong count, an unknown or
repeated row, a missing row or a row the repairs refuse makes :func:`parse_fast` read the whole file again with
the exact reader, so errors, repairs and warnings are those of the exact reader
(``tests/io/test_bif_fast.py`` compares both on every BIF file at hand).
"""
from __future__ import annotations

import itertools
import re
from typing import Callable, cast

import numpy as np

from bnstudio.core.network import Network
from bnstudio.core.variable import Variable
from bnstudio.io.bif.reader import _TOKEN, _UNESCAPE, _Originals, _Parser, _ProbBlock
from bnstudio.io.common import row_label
from bnstudio.io.limits import SizeBudget
from bnstudio.io.repairs import Repairs, untouched

_SEP = r"[\s,|]"  # what the tokenizer skips between tokens (comments excepted: they make a body not plain)
_NAME = r'[^\s{}()\[\];,|"/]++'  # a bare word without '/'
# an unsigned decimal (a subset of common.NUMBER) ending a word
_NUM = r"(?>\d+(?:\.\d*+)?|\.\d++)(?:[eE][+-]?\d++)?+(?=[\s,|;])"
_ROW = rf"\((?:{_SEP}*+{_NAME})*+{_SEP}*+\)(?:{_SEP}*+{_NUM})++{_SEP}*+;"
_PLAIN = re.compile(rf"(?P<rows>(?:{_SEP}*+{_ROW})++)(?:{_SEP}*+(?=\}}))"
                    rf"|{_SEP}*+(?P<table>table(?:{_SEP}++{_NUM})++{_SEP}*+;){_SEP}*+(?=\}})")
_ROW_PARTS = re.compile(r"\(([^)]*)\)([^;]*);")
_SPLIT = str.maketrans(",|;", "   ")


class _Fallback(Exception):
    """The plain body needs the exact reader (a wrong count, a repeated or missing row, a refused row)."""


def _words(text: str) -> list[str]:
    return text.translate(_SPLIT).split()


class FastParser(_Parser):
    """:class:`bnstudio.io.bif.reader._Parser` with plain probability bodies read in bulk (see the module docstring)."""

    def __init__(self, text: str, path: str, strict: bool = False) -> None:
        # not super().__init__, which tokenizes every number: the same tokens, plain bodies as one 'fast' token
        self.text, self.path, self.strict = text, path, strict
        self.toks: list[tuple] = []
        toks = self.toks
        self.bodies = 0  # plain bodies found; each must end in a probability block
        # _TOKEN matches at every position (all of it is optional): never None
        match = cast("Callable[[str, int], re.Match[str]]", _TOKEN.match)
        append, plain, pos, end = toks.append, _PLAIN.match, 0, len(text)
        while pos < end:
            m = match(text, pos)
            kind = m.lastgroup
            if kind is None:  # trailing blanks and comments
                break
            value, start, pos = m.group(kind), m.start(kind), m.end(kind)
            if kind == "bad":
                raise self.error(f"unterminated {'comment' if value == '/' else 'quoted name'}", start)
            if kind == "str":
                value = _UNESCAPE.sub(r"\1", value[1:-1])
            append((value if kind == "punct" else kind, value, start, pos))
            if kind == "punct" and value == "{" and self._after_header():
                body = plain(text, pos)
                if body is not None:
                    append(("fast", "rows" if body.group("rows") else "table", pos, body.end()))
                    self.bodies += 1
                    pos = body.end()
        toks.append(("eof", "", end, end))
        self.i = 0
        self.consumed = 0

    def _after_header(self) -> bool:
        """Whether the tokens end with ``probability ( NAME {NAME} ) {``."""
        toks, j = self.toks, len(self.toks) - 2
        if j < 0 or toks[j][0] != ")":
            return False
        j -= 1
        while j >= 0 and toks[j][0] in ("word", "str"):
            j -= 1
        return j >= 1 and toks[j][0] == "(" and toks[j - 1][:2] == ("word", "probability")

    def probability(self) -> _ProbBlock:
        start = self.i
        self.expect("(", "after 'probability'")
        child = self.name("the variable name")
        parents = self.names_until(")", "a parent name")
        if self.peek()[0] == "{" and self.toks[self.i + 1][0] == "fast":
            self.next()
            block = _ProbBlock(child, parents, fast=self.next())
            self.consumed += 1
            self.expect("}", f"to close the probability block of '{child[1]}'")
            return block
        self.i = start
        return super().probability()

    def parse(self) -> tuple:
        out = super().parse()
        if self.consumed != self.bodies:  # a plain body taken into something else (a property's text)
            raise _Fallback
        return out

    def table(self, block: _ProbBlock, variables: dict[str, Variable], budget: SizeBudget,
              repairs: Repairs, names: _Originals) -> np.ndarray:
        if block.fast is None:
            return super().table(block, variables, budget, repairs, names)
        child, parents = self._family(block, variables, budget)
        pshape = tuple(p.cardinality for p in parents)
        card = child.cardinality
        n_rows = 1
        for size in pshape:
            n_rows *= size
        _, kind, start, end = block.fast
        body = self.text[start:end]
        if kind == "table":
            numbers = _words(body)[1:]  # after 'table'
            if len(numbers) != n_rows * card:
                raise _Fallback
            cpt = np.array(list(map(float, numbers))).reshape(card, n_rows).T.copy()
        else:
            rows = _ROW_PARTS.findall(body)
            if len(rows) != n_rows:
                raise _Fallback
            where = dict(zip(itertools.product(*(p.states for p in parents)), range(n_rows), strict=True))
            try:
                index = [where[tuple(_words(states))] for states, _ in rows]
            except KeyError:  # an unknown state or a wrong count of states
                raise _Fallback from None
            if len(set(index)) != n_rows:
                raise _Fallback
            row_numbers = [_words(values) for _, values in rows]
            if any(len(row) != card for row in row_numbers):
                raise _Fallback
            cpt = np.empty((n_rows, card))
            cpt[index] = np.array(list(map(float, itertools.chain.from_iterable(row_numbers)))).reshape(n_rows, card)
        if untouched(cpt):
            return cpt.reshape(pshape + (card,))
        labels = [(p.name, p.states) for p in parents]
        if repairs.rows(cpt, lambda r: f"row {row_label(labels, r)} of '{child.name}'",
                        (names.var(child.name), [names.var(p.name) for p in parents])) is not None:
            raise _Fallback
        return cpt.reshape(pshape + (card,))


def parse_exact(text: str, path: str = "<string>", strict: bool = False) -> Network:
    """BIF ``text`` read by the exact, token-by-token reader (the reference for :func:`parse_fast`)."""
    return _Parser(text, path, strict).build()


def parse_fast(text: str, path: str = "<string>", strict: bool = False) -> Network:
    """BIF ``text`` read with plain probability bodies in bulk; on any problem the exact reader reads it again
    and raises its error (or warns its repairs)."""
    try:
        return FastParser(text, path, strict).build()
    except Exception:  # the exact reader is the reference: it decides what the problem is
        pass
    return parse_exact(text, path, strict)
