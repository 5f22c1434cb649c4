"""Where in a file: the one offset -> line/column rule of every text reader, and the token stream the BIF and
Hugin NET parsers walk.

A reader keeps the whole text and an offset per token; only an error needs the line and column, so the offsets
of the line breaks are found on the first error (none on a file that reads). Line and column count from 1, the
column in characters: the offset ``o`` lies on line ``1 + #{line breaks before o}``, at column
``o - (offset of the last line break before o)``.

>>> source = SourceText("net {\\n  node A\\n", "f.net")
>>> source.line_column(9), source.line_column(0)
((2, 4), (1, 1))
>>> str(source.located("unexpected 'A'", 13))
"f.net:2:8: unexpected 'A'"
"""
from __future__ import annotations

import operator
import re
from bisect import bisect_right
from itertools import accumulate, compress, repeat

from bnstudio.errors import FormatError
from bnstudio.io.messages import tidy

_NEWLINE = re.compile("\n")
_FIRST = operator.itemgetter(slice(0, 1))


def scan(pattern: re.Pattern[str], text: str, kind_of: dict[str, str]
         ) -> tuple[list[str], tuple[str, ...], list[int], list[tuple[int, str]]]:
    """All tokens of ``text`` at once, for the fast tokenizers of the DSL family and of Hugin NET: ``pattern``
    has three groups -- blanks and comments, a ``KEY = plain numbers`` statement head, a token (or ``\\Z``, the
    end) -- and matches at every position, so ``findall`` walks the whole text without a gap. The result:
    each token's kind (``kind_of`` its first character, ``word`` when absent, ``numbers`` for a statement head),
    text and offset (the running sum of the lengths matched before it, plus its blanks), up to the end, and the
    statement heads ``(index, text)``."""
    found = pattern.findall(text)
    skips, keyed, toks = zip(*found, strict=True)  # never empty: the end matches
    ends = accumulate(map(len, map("".join, found)), initial=0)
    starts = list(map(operator.add, ends, map(len, skips)))
    kinds = list(map(kind_of.get, map(_FIRST, toks), repeat("word")))
    hits = list(compress(range(len(keyed)), keyed))
    for i in hits:
        kinds[i] = "numbers"
    n = kinds.index("eof")
    return kinds[:n], toks[:n], starts[:n], [(i, keyed[i]) for i in hits if i < n]


class SourceText:
    """A text and its path; :meth:`located` makes the one-line :class:`FormatError` at an offset."""

    text: str
    path: str
    _newlines: list[int] | None = None  # offsets of the line breaks, found on the first error

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path

    def line_column(self, offset: int) -> tuple[int, int]:
        """(line, column) of ``offset``, both from 1."""
        if self._newlines is None:
            self._newlines = [m.start() for m in _NEWLINE.finditer(self.text)]
        line = bisect_right(self._newlines, offset - 1)
        return line + 1, offset - (self._newlines[line - 1] + 1 if line else 0) + 1

    def located(self, message: str, offset: int) -> FormatError:
        """``message`` on one line (long names shortened, see :func:`~bnstudio.io.messages.tidy`), at ``offset``."""
        line, column = self.line_column(offset)
        return FormatError(tidy(message), path=self.path, line=line, column=column)


class TokenStream(SourceText):
    """Tokens ``(kind, value, offset, ...)`` ending in one ``("eof", "", len(text), ...)``, walked one at a time.

    ``kind`` is a word class (``word``, ``str``...) or the punctuation character itself. :attr:`SHOWN` characters
    of a token are quoted in a message; :attr:`MARK_CUT` adds ``...`` where the value was cut."""

    SHOWN = 40
    MARK_CUT = False
    toks: list[tuple]
    i: int = 0

    def error(self, message: str, where: int | tuple) -> FormatError:
        """:meth:`located` at an offset or at a token."""
        return self.located(message, where if isinstance(where, int) else where[2])

    def next(self) -> tuple:
        """The next token (the end of file again and again at the end)."""
        tok = self.toks[self.i]
        self.i += tok[0] != "eof"
        return tok

    def peek(self) -> tuple:
        return self.toks[self.i]

    @classmethod
    def show(cls, tok: tuple) -> str:
        """The token as a message quotes it."""
        if tok[0] == "eof":
            return "end of file"
        value = tok[1]
        if cls.MARK_CUT and len(value) > cls.SHOWN:
            return f"'{value[:cls.SHOWN - 3]}...'"
        return f"'{value[:cls.SHOWN]}'"

    def expect(self, kind: str, context: str) -> tuple:
        """The next token, which must be of ``kind``; else a located error naming what was found."""
        tok = self.next()
        if tok[0] != kind:
            raise self.error(f"expected '{kind}' {context}, found {self.show(tok)}", tok)
        return tok
