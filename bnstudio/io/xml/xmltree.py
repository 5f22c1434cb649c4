"""Parse an XML file into :mod:`xml.etree.ElementTree` elements that remember their line and column.

The stdlib expat parser (the one ElementTree uses) drives an ElementTree ``TreeBuilder``; the position of each
start tag is recorded so that readers can say *where* a bad element is. Malformed XML becomes a
:class:`~bnstudio.errors.FormatError` with expat's line and column. The encoding named in the ``<?xml ...?>``
declaration is honoured (UTF-8 by default): expat decodes UTF-8, UTF-16, ISO-8859-1 and US-ASCII itself; any
other encoding is decoded by Python first, and one Python does not know (or cannot decode the file with) is a
:class:`~bnstudio.errors.FormatError` naming it.
"""
from __future__ import annotations

import codecs
import re
import warnings
import xml.etree.ElementTree as ET
from xml.parsers import expat

from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, read_bytes  # noqa: F401 (re-exported to the XML readers)
from bnstudio.io.messages import shorten, tidy
from bnstudio.io.repairs import Repairs


class XmlDocument:
    """A parsed document: ``root``, plus :meth:`line` and :meth:`error` to locate elements."""

    def __init__(self, root: ET.Element, where: dict[ET.Element, tuple[int, int]], path: str) -> None:
        self.root, self._where, self.path = root, where, path

    def line(self, element: ET.Element | None) -> int | None:
        return self._where[element][0] if element is not None and element in self._where else None

    def error(self, message: str, element: ET.Element | None = None, label: str | None = None) -> FormatError:
        """A FormatError at ``element``'s start tag; the message starts with ``label`` (default: the tag)."""
        if element is None:
            return FormatError(tidy(message), path=self.path)
        line, column = self._where.get(element, (None, None))
        return FormatError(tidy(f"{label or describe(element)}: {message}"), path=self.path, line=line,
                           column=column)


def describe(element: ET.Element) -> str:
    """``<tag id='X'>`` (the id attribute only when there is one)."""
    ident = element.get("id")
    return f"<{element.tag} id='{ident}'>" if ident is not None else f"<{element.tag}>"


_DECLARATION = re.compile(rb"""\s*<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([^"'>]*)\1""")
_EXPAT_ENCODINGS = {"utf-8", "utf8", "utf-16", "utf16", "iso-8859-1", "us-ascii"}
_PYTHON_ONLY = {"unicode-escape", "raw-unicode-escape", "undefined"}  # Python codecs, not text encodings


def _decoded(data: bytes, path: str) -> bytes | str:
    """``data`` as it is if expat decodes it itself, else decoded with the declared encoding."""
    declared = _DECLARATION.match(data[:4096])
    if declared is None:
        return data
    encoding = declared.group(2).decode("ascii", "replace").strip()
    shown = shorten(encoding, 40)
    if encoding.lower() in _EXPAT_ENCODINGS:
        return data
    try:
        if codecs.lookup(encoding).name in _PYTHON_ONLY:
            raise LookupError(encoding)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a codec that warns (unicode_escape) has failed
            return data.decode(encoding)
    except LookupError:  # unknown, or not a text encoding (rot13, zlib...)
        raise FormatError(f"the XML declaration names the encoding '{shown}', which is not a known text "
                          f"encoding (save the file as UTF-8)", path=path, line=1) from None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FormatError(f"not valid {shown} text (byte 0x{data[exc.start]:02x}), the encoding the XML "
                          f"declaration names", path=path, line=line) from None
    except (UnicodeError, ValueError, Warning) as exc:  # codecs with odd failures (idna, punycode...)
        raise FormatError(f"cannot decode the file as {shown}, the encoding the XML declaration names "
                          f"({shorten(str(exc), 200)})", path=path, line=1) from None


_LEADING_BLANKS = re.compile(r"[ \t\r\n]+(?=<\?xml[ \t\r\n])")
_LEADING_BLANK_BYTES = re.compile(rb"[ \t\r\n]+(?=<\?xml[ \t\r\n])")


def parse_xml(data: bytes | str, path: str, repairs: Repairs, upper_tags: bool = False) -> XmlDocument:
    """Parse ``data``; ``upper_tags`` folds tag names to upper case (XMLBIF readers accept either case).

    Blanks before the ``<?xml ...?>`` declaration (which XML forbids, and which hand-edited and some generated
    files have) are skipped and reported to ``repairs`` (a strict reading refuses them).
    """
    blanks = _LEADING_BLANK_BYTES.match(data) if isinstance(data, bytes) else _LEADING_BLANKS.match(data)
    if blanks is not None:
        message = f"skipped {blanks.end():,} blank character{'s' if blanks.end() != 1 else ''} before the XML " \
                  f"declaration"
        repairs.note(message, lambda m: FormatError(m, path=path, line=1))
        data = data[blanks.end():]
    if isinstance(data, bytes):
        data = _decoded(data, path)
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    where: dict[ET.Element, tuple[int, int]] = {}
    fold = str.upper if upper_tags else (lambda tag: tag)

    def start(tag: str, attrs: dict[str, str]) -> None:
        where[builder.start(fold(tag), attrs)] = (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: builder.end(fold(tag))
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(data, True)
        root = builder.close()
    except expat.ExpatError as exc:
        raise FormatError(f"malformed XML: {expat.ErrorString(exc.code)}", path=path, line=exc.lineno,
                          column=exc.offset + 1) from None
    except (ValueError, UnicodeError) as exc:  # e.g. bytes that do not decode in the declared encoding
        raise FormatError(f"malformed XML: {shorten(str(exc), 200)}", path=path) from None
    except LookupError as exc:  # an encoding declaration _decoded did not see (not at the start of the file)
        raise FormatError(f"malformed XML: {shorten(str(exc), 200)}", path=path) from None
    return XmlDocument(root, where, path)


def text(element: ET.Element | None) -> str:
    """The stripped text of ``element`` ('' for None or no text)."""
    return "" if element is None else (element.text or "").strip()
