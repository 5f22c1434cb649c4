"""Error-message pieces that stay short whatever the input: every error is one line of readable length.

Lists show their first few items and a count; names from a file are shortened and their line breaks escaped.

>>> listing(["a", "b", "c", "d", "e", "f", "g"], limit=3)
"'a', 'b', 'c' and 4 more"
>>> tidy("unknown parent 'x\\ny' of '" + "z" * 100 + "'")
"unknown parent 'x\\\\ny' of 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...'"
"""
from __future__ import annotations

import re
from typing import Iterable

SHOWN = 5  # items a list in a message shows before "and N more"
NAME_CHARS = 60  # longest name shown in full
#: characters that change how the rest of a line shows (controls; right-to-left overrides and other bidi
#: controls, zero-width and format characters): escaped in messages, so a name cannot disguise them
_INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
                        "\u2060-\u206f\ufeff\ufff9-\ufffb]")
_QUOTED = re.compile(r"""(['"])((?:(?!\1).){%d,})\1""" % (NAME_CHARS + 1))  # 'name' or "key" (a JSON path)


def escaped(text: str) -> str:
    """``text`` with line breaks escaped (``\\n``) and the characters of :data:`_INVISIBLE` as ``\\u202e``.

    >>> escaped("abc\u202edef")
    'abc\\\\u202edef'
    """
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    return _INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def shorten(text: str, limit: int = NAME_CHARS) -> str:
    """``text`` escaped (:func:`escaped`), cut to ``limit`` characters (a final ``...`` marks the cut)."""
    text = escaped(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def shown(value: object, limit: int = NAME_CHARS) -> str:
    """``value`` as a message quotes it: its repr, shortened (a list of 100,000 numbers is not echoed)."""
    return shorten(repr(value), limit)


def listing(items: Iterable[object], total: int | None = None, limit: int = SHOWN, quote: bool = True) -> str:
    """The first ``limit`` items, quoted and shortened, then ``and N more`` (``total`` items in all if the
    iterable holds only the first ones)."""
    items = list(items)
    total = len(items) if total is None else total
    shown = [f"'{shorten(str(item))}'" if quote else shorten(str(item)) for item in items[:limit]]
    more = total - len(shown)
    return ", ".join(shown) + (f" and {more:,} more" if more > 0 else "")


def tidy(message: str) -> str:
    """``message`` on one line, with every quoted name (``'...'`` or ``"..."``) longer than :data:`NAME_CHARS`
    shortened."""
    message = escaped(message)
    return _QUOTED.sub(lambda m: f"{m.group(1)}{shorten(m.group(2))}{m.group(1)}", message)
