"""The syntax of GeNIe's DSL text format: tokens and the generic tree of ``KEY = value;`` statements.

The format (GeNIe's "DSL file format", kept by GeNIe and SMILE for backward compatibility) is a nest of blocks::

    net Name { HEADER = { ... }; node X { TYPE = CPT; PARENTS = (A, B); DEFINITION = { ... }; }; ... };

* a *block* ``{ ... }`` holds statements, each ended by ``;``: ``KEY = value`` or ``node ID { ... }``;
* a *value* is a block, a list ``( item, item, ... )`` of words or strings, or a single word or string;
* words are identifiers and numbers (``State1``, ``0``, ``1e-06``); strings are ``"..."`` with backslash
  escapes; comments are ``// ...`` to the end of the line, ``/* ... */`` and the nesting ``/# ... #/``.

This module knows nothing of networks: :mod:`bnstudio.io.genie.dsl` reads them from the tree. Every syntax error is
one :class:`~bnstudio.errors.FormatError` with the line and column of the offending token; nesting deeper than
:data:`MAX_DEPTH` is refused (no recursion error on ``{{{{...``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from itertools import compress
from typing import Any, Callable, Generic, NamedTuple, TypeVar, cast

import numpy as np

from bnstudio.errors import FormatError
from bnstudio.io.bulk import bulk_enabled
from bnstudio.io.messages import shorten
from bnstudio.io.source import SourceText, scan

MAX_DEPTH = 64  # GeNIe's own files nest 4 deep (net, node, SCREEN, POSITION)

# blanks and comments (skipped), then one token -- or nothing, at the end of the text
_TOKEN = re.compile(r"""(?:\s+|//[^\n]*|/\*.*?\*/)*
                        (?:(?P<nest>/\#)|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<punct>[(){}=;,])|(?P<word>[^\s(){}=;,"/]+)
                        |(?P<bad>.))?""", re.VERBOSE | re.DOTALL)
_NEST = re.compile(r"/\#|\#/")
# a value made only of numbers, blanks, commas and parentheses (no comment, string or name) up to its ';'
_PLAIN_NUMBERS = re.compile(r"[\s(),0-9.eE+\-]*+(?=;)")
_SEPARATORS = str.maketrans("(),", "   ")
_FLAT_LIST = re.compile(r"\s*\(\s*[0-9.eE+\-]+(?:\s*,\s*[0-9.eE+\-]+)*+\s*\)\s*")
BULK_NESTING = 16  # deeper plain lists are read token by token (far below every MAX_DEPTH)
_PLAIN_BODY = re.compile(r"[\s(),0-9.eE+\-]*")
# an innermost list: numbers or '#' (a list already reduced), single commas between them
_INNERMOST = re.compile(r"\(\s*(?:[0-9.eE+\-]+|\#)(?:\s*,\s*(?:[0-9.eE+\-]+|\#))*\s*\)")
_REDUCED = re.compile(r"\s*\#\s*")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
# the fast tokenizer's patterns and kinds (SyntaxBase._fast_tokens), by syntax and bulk reading
_FAST: dict[tuple[type, bool], tuple[re.Pattern[str], dict[str, str]]] = {}


class Token(NamedTuple):
    """One token: ``kind`` is 'word', 'str', 'numbers' (a bulk list), a punctuation character, or 'eof'. A tuple,
    so that :meth:`SyntaxBase._fast_tokens` makes all of a file's tokens with one ``map``."""

    kind: str
    value: str
    offset: int


class FieldIndex:
    """What a block of the DSL family answers of its ``key = value`` statements (``fields``, in file order):
    :meth:`get` looks a key up in an index made in one pass over them, not in one pass per key asked."""

    fields: list[tuple[Token, Any]]
    _index: dict[str, list[tuple[Token, Any]]]
    _indexed: int  # how many fields _index holds (-1: none yet)

    def get(self, key: str) -> list[tuple[Token, Any]]:
        """The statements ``key = value`` of this block (case-sensitive, as GeNIe and Netica write them)."""
        if self._indexed != len(self.fields):
            self._index = {}
            for k, v in self.fields:
                self._index.setdefault(k.value, []).append((k, v))
            self._indexed = len(self.fields)
        return self._index.get(key, [])  # the index's own list: read it, do not change it


@dataclass
class Block(FieldIndex):
    """``{ ... }``: its statements in file order (a key may repeat), and where it starts."""

    offset: int
    fields: list[tuple[Token, "Value"]] = field(default_factory=list)
    nodes: list[tuple[Token, "Block"]] = field(default_factory=list)
    _index: dict[str, list[tuple[Token, "Value"]]] = field(default_factory=dict, repr=False, compare=False)
    _indexed: int = field(default=-1, repr=False, compare=False)


@dataclass
class ValueList:
    """``( a, b, ... )``: its items (words and strings) and where it starts."""

    offset: int
    items: list[Token]


Value = Block | ValueList | Token
_NEW_TOKEN = partial(tuple.__new__, Token)  # Token((kind, value, offset)) without a Python call


class BulkNumbers:
    """A list value of plain numbers (nested lists in DNE), kept as its text: :attr:`words` are its numbers in
    reading order; :attr:`items` parses it token by token (exact offsets) only when something asks, such as the
    located error of a number that is not a probability. Mixed into each format's list class."""

    def __init__(self, syntax: "SyntaxBase[Any, Any]", offset: int, end: int, depth: int, context: str) -> None:
        self.offset, self.end = offset, end
        self._syntax, self._where = syntax, (depth, context)
        self._items: list | None = None

    @property
    def words(self) -> list[str]:
        return self._syntax.text[self.offset:self.end].translate(_SEPARATORS).split()

    @property
    def items(self) -> list:
        if self._items is None:
            self._items = self._syntax.exact_value(self.offset, self.end, *self._where).items
        return self._items

    @items.setter
    def items(self, items: list) -> None:  # as the list classes it is mixed into (their items are writable)
        self._items = items


class NumberList(BulkNumbers, ValueList):
    """A DSL ``( n, n, ... )`` of plain numbers read in bulk (see :class:`BulkNumbers`)."""


def nesting(body: str) -> int | None:
    """How deep the list ``body`` (numbers, commas, blanks and parentheses only) nests, if it is well formed:
    every list non-empty, its entries numbers or lists separated by single commas; else None (also beyond
    :data:`BULK_NESTING`). A flat list is one regular expression; a nested one is reduced level by level, each
    innermost list (numbers only) replaced by a ``#`` standing for an entry, until one ``#`` is left (the
    number of rounds is the depth) or nothing changes (malformed). A body with other characters (outside the
    contract) is judged by :func:`nesting_by_classes`, which counts them as blanks."""
    if body.count("(") == 1:  # a flat list (most tables): one regular expression
        return 1 if _FLAT_LIST.fullmatch(body) else None
    if not _PLAIN_BODY.fullmatch(body):
        return nesting_by_classes(body)
    depth = 0
    while depth <= BULK_NESTING:
        body, found = _INNERMOST.subn("#", body)
        if not found:
            return depth if depth and _REDUCED.fullmatch(body) else None
        depth += 1
    return None


def nesting_by_classes(body: str) -> int | None:
    """:func:`nesting` judged on the characters at once: the tokens' classes (a number is a run of number
    characters; any character other than numbers, commas and parentheses is a blank), each token allowed after
    the one before it, and the depth of the parentheses."""
    chars = _CHAR_CLASS[np.frombuffer(body.encode("ascii", "replace"), np.uint8)]  # other blanks: "?"
    after_number = np.concatenate(([False], chars[:-1] == _NUM))
    tokens = chars[(chars != _BLANK) & ~((chars == _NUM) & after_number)]
    if tokens.size < 3 or tokens[0] != _OPEN or tokens[-1] != _CLOSE:
        return None
    if not _FOLLOWS[tokens[:-1], tokens[1:]].all():
        return None
    depth = np.cumsum((tokens == _OPEN).astype(np.int64) - (tokens == _CLOSE))
    if depth[-1] != 0 or depth[:-1].min() < 1 or depth.max() > BULK_NESTING:
        return None
    return int(depth.max())


_NUM, _OPEN, _CLOSE, _COMMA, _BLANK = range(5)
_CHAR_CLASS = np.full(256, _BLANK, np.int8)  # _PLAIN_NUMBERS lets only blanks through besides these
_CHAR_CLASS[np.frombuffer(b"0123456789.eE+-", np.uint8)] = _NUM
_CHAR_CLASS[ord("(")], _CHAR_CLASS[ord(")")], _CHAR_CLASS[ord(",")] = _OPEN, _CLOSE, _COMMA
_FOLLOWS = np.zeros((5, 5), bool)  # _FOLLOWS[a, b]: token b may follow token a
_FOLLOWS[_OPEN, [_OPEN, _NUM]] = _FOLLOWS[_COMMA, [_OPEN, _NUM]] = True
_FOLLOWS[_NUM, [_COMMA, _CLOSE]] = _FOLLOWS[_CLOSE, [_COMMA, _CLOSE]] = True


def _fast_pattern(syntax: type["SyntaxBase[Any, Any]"], bulk: bool) -> tuple[re.Pattern[str], dict[str, str]]:
    """The pattern :meth:`SyntaxBase._fast_tokens` finds all of (groups: blanks and comments, a ``KEY = plain
    numbers`` statement of ``BULK_KEYS`` when ``bulk``, a token or the end) and the kind of a token by its first
    character, for ``syntax``'s punctuation (its ``TOKEN`` pattern's, cached)."""
    key = (syntax, bulk)
    if key not in _FAST:
        punct = re.escape(syntax.PUNCT)
        keys = "|".join(map(re.escape, sorted(syntax.BULK_KEYS))) if bulk else "(?!)"
        pattern = (r"((?>(?:\s+|//[^\n]*|/\*.*?\*/)*))"
                   r"(?:((?:" + keys + r")\s*=[\s(),0-9.eE+\-]*+(?=;))"
                   r"|(\"(?:[^\"\\\n]|\\.)*\"|[" + punct + r"]|[^\s" + punct + r"\"/]+|.|\Z))")
        kinds = {c: c for c in syntax.PUNCT} | {'"': "str", "/": "/", "": "eof"}
        _FAST[key] = re.compile(pattern, re.DOTALL), kinds
    return _FAST[key]


BlockT = TypeVar("BlockT")  # a format's block ...
ValueT = TypeVar("ValueT")  # ... and value classes


class SyntaxBase(SourceText, Generic[BlockT, ValueT]):
    """The tokens of one text of the DSL family, the file head and errors located by line and column. Each format
    (GeNIe's DSL, :class:`Syntax`; Netica's DNE, :mod:`bnstudio.io.netica.dne_syntax`) sets the class attributes
    and its tree rules (:meth:`block`, :meth:`value`)."""

    TOKEN: re.Pattern[str]                              # the token pattern
    PUNCT: str                                          # its punctuation characters (each a token)
    BULK_KEYS: set[str]                                 # ``KEY = (...)`` whose plain number lists are read in bulk
    BULK_NESTING: int                                   # ... when they nest at most this deep ...
    BULK: Callable[["SyntaxBase[Any, Any]", int, int, int, str], ValueT]  # ... as this value (a BulkNumbers)
    HEAD: str                                           # the word opening the file: ``net ID { ... };``
    FILE: str                                           # how errors name the file and its network's name
    NAME: str

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path
        self.toks = self._tokens()
        self.i = 0
        self._labels: dict[str, str] = {}  # a statement's key -> how messages show it (made once per key)

    def error(self, message: str, offset: int) -> FormatError:
        return self.located(message, offset)

    def _tokens(self, pos: int = 0, end: int | None = None, bulk: bool | None = None) -> list[Token]:
        """The tokens of ``text[pos:end]`` then ``eof``; ``bulk``: the plain number list of a ``BULK_KEYS``
        statement is one ``numbers`` token (see :class:`BulkNumbers`); None: unless inside
        :func:`~bnstudio.io.bulk.exact_reading`. The whole text is tokenized by :meth:`_fast_tokens`; the loop
        here, a match per token, is the exact path: it runs when that one finds something unusual."""
        text, out = self.text, []
        bulk = bulk_enabled() if bulk is None else bulk
        if pos == 0 and end is None:
            fast = self._fast_tokens(bulk)
            if fast is not None:
                return fast
        end = len(text) if end is None else end
        # TOKEN matches at every position (all of it is optional): never None
        match = cast("Callable[[str, int, int], re.Match[str]]", self.TOKEN.match)
        while pos < end:
            m = match(text, pos, end)
            kind = m.lastgroup
            if kind is None:  # trailing blanks and comments
                break
            pos, value = m.start(kind), m.group(kind)
            if kind == "nest":
                pos = self._skip_nested(pos)
                continue
            if kind == "bad":
                if text.startswith("/*", pos):
                    raise self.error("unterminated /* comment", pos)
                what = "unterminated string" if text[pos] == '"' else f"unexpected character {text[pos]!r}"
                raise self.error(what, pos)
            if kind == "str":
                out.append(Token("str", self.unescape(value[1:-1]), pos))
            else:
                out.append(Token(value if kind == "punct" else "word", value, pos))
            pos = m.end()
            if bulk and kind == "punct" and value == "=" and len(out) > 1 and out[-2].value in self.BULK_KEYS:
                pos = self._bulk_numbers(pos, out)
        out.append(Token("eof", "", end))
        return out

    def _fast_tokens(self, bulk: bool) -> list[Token] | None:
        """The tokens of the whole text as :meth:`_tokens` makes them, from one ``findall`` (each match: the
        blanks and comments skipped, then a ``KEY = plain numbers`` statement or one token): offsets are the
        running sums of the matched lengths, kinds looked up by first character. None on a ``/`` (a nesting
        comment or a bad character) or an unterminated string: the exact loop then reads (and locates the
        error)."""
        opened = self.text.rfind("/*")
        if opened >= 0 and self.text.find("*/", opened + 2) < 0:
            # an unterminated /* (the loop stops at the first): findall would scan to the end from each one
            return None
        pattern, kind_of = _fast_pattern(type(self), bulk)
        kinds, toks, starts, hits = scan(pattern, self.text, kind_of)
        if "/" in kinds:
            return None
        out = list(map(_NEW_TOKEN, zip(kinds, toks, starts, strict=True)))
        texts: dict[str, str] = {}  # a file repeats the same few strings (state titles, user fields)
        for i in compress(range(len(kinds)), map("str".__eq__, kinds)):
            if len(toks[i]) < 2:  # a lone '"': unterminated
                return None
            if toks[i] not in texts:
                texts[toks[i]] = self.unescape(toks[i][1:-1])
            out[i] = _NEW_TOKEN(("str", texts[toks[i]], starts[i]))
        if hits:
            out = self._keyed_numbers(out, [(i, head, starts[i]) for i, head in hits])
        out.append(Token("eof", "", len(self.text)))
        return out

    def _keyed_numbers(self, out: list[Token], hits: list[tuple[int, str, int]]) -> list[Token]:
        """``out`` with the placeholder of each ``KEY = plain numbers`` match ``(index, text, offset)`` replaced
        by the tokens :meth:`_tokens` makes of it: the key, ``=`` and what :meth:`_bulk_numbers` makes of the
        list (one ``numbers`` token, or the list's own tokens)."""
        tokens: list[Token] = []
        last = 0
        for i, head, start in hits:
            equals = head.index("=")  # the key has none, nor the blanks before it
            tokens += out[last:i]
            tokens.append(Token("word", head[:equals].rstrip(), start))
            tokens.append(Token("=", "=", start + equals))
            end = start + len(head)
            if self._bulk_numbers(start + equals + 1, tokens) != end:
                tokens += self._tokens(start + equals + 1, end, bulk=False)[:-1]
            last = i + 1
        tokens += out[last:]
        return tokens

    def _bulk_numbers(self, pos: int, out: list[Token]) -> int:
        """After ``KEY =``: a plain number list appended as one ``numbers`` token, and where it ends; else
        ``pos`` (the list is tokenized as usual)."""
        body = _PLAIN_NUMBERS.match(self.text, pos)
        if body is None:
            return pos
        text = body.group()
        depth = nesting(text) if "(" in text else None
        if depth is None or depth > self.BULK_NESTING:
            return pos
        start = pos + len(text) - len(text.lstrip())
        out.append(Token("numbers", self.text[start:body.end()], start))
        return body.end()

    def exact_value(self, start: int, end: int, depth: int, context: str) -> ValueT:
        """The value in ``text[start:end]`` tokenized and parsed token by token (see :class:`BulkNumbers`)."""
        saved = self.toks, self.i
        self.toks, self.i = self._tokens(start, end, bulk=False), 0
        try:
            return self.value(depth, context)
        finally:
            self.toks, self.i = saved

    def bulk_value(self, depth: int, context: str) -> ValueT:
        """The ``numbers`` token at hand as the format's :class:`BulkNumbers` value."""
        tok = self.next()
        return self.BULK(self, tok.offset, tok.offset + len(tok.value), depth, context)

    @staticmethod
    def unescape(body: str) -> str:
        """A string token's body as text."""
        return _unescape(body)

    def _skip_nested(self, start: int) -> int:
        """The offset just after the ``/# ... #/`` comment starting at ``start`` (these comments nest)."""
        depth, pos = 0, start
        for m in _NEST.finditer(self.text, start):
            depth += 1 if m.group() == "/#" else -1
            pos = m.end()
            if depth == 0:
                return pos
        raise self.error("unterminated /# comment", start)

    # ------------------------------------------------------------------ the tree
    def next(self) -> Token:
        tok = self.toks[self.i]
        self.i += tok.kind != "eof"
        return tok

    def peek(self, ahead: int = 0) -> Token:
        at = self.i + ahead
        return self.toks[at] if at < len(self.toks) else self.toks[-1]

    @staticmethod
    def show(tok: Token) -> str:
        return "the end of the file" if tok.kind == "eof" else f"'{shorten(tok.value, 40)}'"

    def expect(self, kind: str, context: str) -> Token:
        tok = self.next()
        if tok.kind != kind:
            raise self.error(f"expected '{kind}' {context}, found {self.show(tok)}", tok.offset)
        return tok

    def network(self) -> tuple[Token, BlockT]:
        """``net ID { ... };`` (``HEAD``): the id and the block (the final ``;`` may be missing)."""
        head = self.next()
        if head.kind != "word" or head.value != self.HEAD:
            raise self.error(f"expected '{self.HEAD}' at the start of {self.FILE}, found {self.show(head)}",
                             head.offset)
        name = self.next()
        if name.kind not in ("word", "str"):
            raise self.error(f"expected the {self.NAME} after '{self.HEAD}', found {self.show(name)}", name.offset)
        block = self.block(1, f"of network '{shorten(name.value)}'")
        if self.peek().kind == ";":
            self.next()
        tail = self.next()
        if tail.kind != "eof":
            raise self.error(f"unexpected {self.show(tail)} after the end of the network", tail.offset)
        return name, block

    def end_statement(self, key: Token) -> None:
        """The ';' ending the statement of ``key`` (its message is made only when the ';' is missing)."""
        if self.peek().kind == ";":
            self.next()
        else:
            self.expect(";", f"after the value of '{shorten(key.value, 40)}'")

    def block(self, depth: int, context: str) -> BlockT:
        """``{ ... }``: the format's block."""
        raise NotImplementedError

    def value(self, depth: int, context: str) -> ValueT:
        """The value after ``KEY =``: the format's value."""
        raise NotImplementedError


class Syntax(SyntaxBase[Block, Value]):
    """The tokens of one DSL text and its tree, errors located by line and column."""

    TOKEN = _TOKEN
    PUNCT = "(){}=;,"
    BULK_KEYS = {"PROBABILITIES"}
    BULK_NESTING = 1
    BULK = NumberList
    HEAD = "net"
    FILE = "a DSL file"
    NAME = "network id"

    def block(self, depth: int, context: str) -> Block:
        opening = self.expect("{", context)
        if depth > MAX_DEPTH:
            raise self.error(f"blocks nested more than {MAX_DEPTH} deep", opening.offset)
        out = Block(opening.offset)
        while self.peek().kind != "}":
            key = self.next()
            if key.kind != "word":
                raise self.error(f"expected a field name or 'node' {context}, found {self.show(key)}", key.offset)
            if key.value == "node" and self.peek().kind in ("word", "str") and self.peek(1).kind == "{":
                ident = self.next()
                out.nodes.append((ident, self.block(depth + 1, f"in node '{shorten(ident.value)}'")))
            else:
                self.expect("=", f"after '{shorten(key.value, 40)}'")
                out.fields.append((key, self.value(depth + 1, f"in {key.value}")))
            self.end_statement(key)
        self.next()
        return out

    def value(self, depth: int, context: str) -> Value:
        tok = self.peek()
        if tok.kind == "numbers":
            return self.bulk_value(depth, context)
        if tok.kind == "{":
            return self.block(depth, context)
        if tok.kind in ("word", "str"):
            return self.next()
        if tok.kind != "(":
            raise self.error(f"expected a value {context}, found {self.show(tok)}", tok.offset)
        self.next()
        items: list[Token] = []
        while self.peek().kind != ")":
            if items:
                self.expect(",", f"between the items of a list {context}")
            item = self.next()
            if item.kind not in ("word", "str"):
                raise self.error(f"expected a list item {context}, found {self.show(item)}", item.offset)
            items.append(item)
        self.next()
        return ValueList(tok.offset, items)


def _unescape(body: str) -> str:
    """A C++-style string body: ``\\n``, ``\\t``, ``\\r`` and ``\\x`` for any other ``x``."""
    if "\\" not in body:  # most strings: nothing to replace
        return body
    return _ESCAPE.sub(_escaped, body)


def _escaped(m: re.Match[str]) -> str:
    return _ESCAPES.get(m[1], m[1])


def escape(text: str) -> str:
    """``text`` as the body of a DSL string (the inverse of the reader's unescaping)."""
    return (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
            .replace("\t", "\\t"))
