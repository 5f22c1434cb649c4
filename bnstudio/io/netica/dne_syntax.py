"""The syntax of Netica's DNE text files: tokens and the generic tree of ``key = value;`` statements.

Netica's "DNET-1" format (Norsys, "DNET file format"; Netica writes it as ``.dne``) is a nest of blocks::

    // ~->[DNET-1]->~
    bnet Name { autoupdate = TRUE; visual V1 { ... }; node X { kind = NATURE; states = (a, b); ... }; ... };

* a *block* ``{ ... }`` holds statements: ``key = value;`` or a named sub-block ``kind NAME { ... };``
  (``node X``, ``visual V1``, ``NodeSet Name``, ``user U1``, ...);
* a *value* is a word, a string, a typed block (``font {shape= "Arial"; size= 9;}``) or a list ``( ... )`` of
  values, nested to any depth (``probs`` nests one level per parent); an empty entry (``(, B)``) is kept as None;
* words are identifiers, numbers (``0.25``, ``1e-5``, ``-INFINITY``, ``0x00FFFFB4``) and Netica's markers
  (``@imposs``, ``#2``, ``*``); strings are ``"..."`` with C escapes, and a backslash at the end of a line
  continues the string on the next one (the next line's indentation dropped); comments are ``// ...`` to the end
  of the line (the file's first line ``// ~->[DNET-1]->~`` is one) and ``/* ... */``.

This module knows nothing of networks: :mod:`bnstudio.io.netica.dne` reads them from the tree. Every syntax error is one
:class:`~bnstudio.errors.FormatError` with the line and column of the offending token; nesting deeper than
:data:`MAX_DEPTH` is refused (no recursion error on ``((((...``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from bnstudio.io.genie.dsl_syntax import BULK_NESTING, BulkNumbers, FieldIndex, SyntaxBase, Token, _unescape
from bnstudio.io.messages import shorten

MAX_DEPTH = 80  # a table nests one list per parent (at most 63) inside 2 blocks

# blanks and comments (skipped), then one token -- or nothing, at the end of the text
_TOKEN = re.compile(r"""(?:\s+|//[^\n]*|/\*.*?\*/)*
                        (?:(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<punct>[(){}=;,:])|(?P<word>[^\s(){}=;,:"/]+)
                        |(?P<bad>.))?""", re.VERBOSE | re.DOTALL)
_CONTINUATION = re.compile(r"\\\r?\n[ \t]*")


@dataclass
class Items:
    """A parenthesised list ``(a, b, ...)``: its entries (None for an empty entry such as the first of ``(, B)``) and its offset."""

    offset: int
    items: list["Value | None"]


@dataclass
class Block(FieldIndex):
    """``{ ... }``: its ``key = value`` statements and its named sub-blocks, in file order, and its offset."""

    offset: int
    fields: list[tuple[Token, "Value"]] = field(default_factory=list)
    subs: list[tuple[Token, Token, "Block"]] = field(default_factory=list)
    _index: dict[str, list[tuple[Token, "Value"]]] = field(default_factory=dict, repr=False, compare=False)
    _indexed: int = field(default=-1, repr=False, compare=False)

    def blocks(self, kind: str) -> list[tuple[Token, "Block"]]:
        """The sub-blocks ``kind NAME { ... }`` of this block: (NAME, block)."""
        return [(name, block) for k, name, block in self.subs if k.value == kind]


@dataclass
class Typed:
    """A typed block value such as ``font {shape= "Arial"; size= 9;}``."""

    kind: Token
    block: Block

    @property
    def offset(self) -> int:
        return self.kind.offset


Value = Token | Items | Typed


class NumberItems(BulkNumbers, Items):
    """A DNE ``probs`` list of plain numbers, nested to any depth, read in bulk (see :class:`BulkNumbers`)."""


class Syntax(SyntaxBase[Block, Value]):
    """The tokens of one DNE text and its tree; errors located by line and column (as in GeNIe's DSL, whose
    tokenizer and file head this shares)."""

    TOKEN = _TOKEN
    PUNCT = "(){}=;,:"
    BULK_KEYS = {"probs"}
    BULK_NESTING = BULK_NESTING
    BULK = NumberItems
    HEAD = "bnet"
    FILE = "a Netica DNE file"
    NAME = "network name"

    @staticmethod
    def unescape(body: str) -> str:
        return unescape(body)

    def block(self, depth: int, context: str) -> Block:
        opening = self.expect("{", context)
        if depth > MAX_DEPTH:
            raise self.error(f"blocks and lists nested more than {MAX_DEPTH} deep", opening.offset)
        out = Block(opening.offset)
        toks, fields, labels = self.toks, out.fields, self._labels
        # toks[self.i] is always a token (the walk stops at the final eof), toks[self.i + 1] unless it is eof
        while True:
            key = toks[self.i]
            if key.kind != "word":
                if key.kind == "}":
                    break
                self.next()
                raise self.error(f"expected a field name {context}, found {self.show(key)}", key.offset)
            self.i += 1
            after = toks[self.i]
            if after.kind in ("word", "str"):
                if self.peek(1).kind == "{":
                    self.i += 1
                    out.subs.append((key, after, self.block(depth + 1, f"in {key.value} '{shorten(after.value)}'")))
                    if toks[self.i].kind == ";":  # Netica ends every block with '};'
                        self.i += 1
                    continue
                if self.peek(1).kind == ":":
                    self._inheritance(key, self.peek(1))
            elif after.kind == ":":
                self._inheritance(key, after)
            if key.value not in labels:  # what messages call the statement, made once per key
                labels[key.value] = shorten(key.value, 40)
            if after.kind == "=":
                self.i += 1
            else:
                self.expect("=", f"after '{labels[key.value]}'")
            fields.append((key, self.value(depth + 1, f"in {labels[key.value]}")))
            if toks[self.i].kind == ";":
                self.i += 1
            else:
                self.end_statement(key)
        self.next()
        return out

    def _inheritance(self, key: Token, colon: Token) -> None:
        raise self.error(f"'{shorten(key.value, 40)} ... :' (inheritance from a defined node) is not supported",
                         colon.offset)

    def value(self, depth: int, context: str) -> Value:
        toks = self.toks
        tok = toks[self.i]
        kind = tok.kind
        if kind == "numbers":
            return self.bulk_value(depth, context)
        if kind == "word" or kind == "str":
            self.i += 1
            if kind == "word" and toks[self.i].kind == "{":
                return Typed(tok, self.block(depth, context))
            return tok
        if kind != "(":
            raise self.error(f"expected a value {context}, found {self.show(tok)}", tok.offset)
        if depth > MAX_DEPTH:
            raise self.error(f"blocks and lists nested more than {MAX_DEPTH} deep", tok.offset)
        self.i += 1
        items: list[Value | None] = []
        while True:
            item = toks[self.i]
            if item.kind in (",", ")"):
                items.append(None)  # an empty entry; '()' and a trailing ',' are dropped below
            elif item.kind == "str" or (item.kind == "word" and toks[self.i + 1].kind != "{"):
                self.i += 1  # a plain word or string: what value() gives, without the call
                items.append(item)
            else:
                items.append(self.value(depth + 1, context))
            sep = self.next()
            if sep.kind == ")":
                break
            if sep.kind != ",":
                raise self.error(f"expected ',' or ')' in a list {context}, found {self.show(sep)}", sep.offset)
        if items and items[-1] is None:
            items.pop()
        return Items(tok.offset, items)


def unescape(body: str) -> str:
    """A C string body: backslash-newline continues the line (the next line's indentation dropped), ``\\n``,
    ``\\t``, ``\\r``, and ``\\x`` for any other ``x`` (the inverse of DSL's ``escape``)."""
    return _unescape(_CONTINUATION.sub("", body)) if "\\" in body else body


def flatten(value: Value | None) -> list[Token | None]:
    """The words and strings of a nested list in reading order (its nesting ignored), None for empty entries and
    typed blocks (the caller names them)."""
    if not isinstance(value, Items):
        return [value if isinstance(value, Token) else None]
    out: list[Token | None] = []
    stack: list[Value | None] = list(reversed(value.items))
    while stack:
        item = stack.pop()
        if isinstance(item, Items):
            stack.extend(reversed(item.items))
        else:
            out.append(item if isinstance(item, Token) else None)
    return out
