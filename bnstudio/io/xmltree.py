"""Parse an XML file into :mod:`xml.etree.ElementTree` elements that remember their line and column.

The stdlib expat parser (the one ElementTree uses) drives an ElementTree ``TreeBuilder``; the position of each
start tag is recorded so that readers can say *where* a bad element is. Malformed XML becomes a
:class:`~bnstudio.errors.FormatError` with expat's line and column. The bytes go to expat as they are, so the
encoding named in the ``<?xml ...?>`` declaration is honoured (UTF-8 by default).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.parsers import expat

from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, read_bytes


class XmlDocument:
    """A parsed document: ``root``, plus :meth:`line` and :meth:`error` to locate elements."""

    def __init__(self, root: ET.Element, where: dict[ET.Element, tuple[int, int]], path: str) -> None:
        self.root, self._where, self.path = root, where, path

    def line(self, element: ET.Element | None) -> int | None:
        return self._where[element][0] if element is not None and element in self._where else None

    def error(self, message: str, element: ET.Element | None = None, label: str | None = None) -> FormatError:
        """A FormatError at ``element``'s start tag; the message starts with ``label`` (default: the tag)."""
        if element is None:
            return FormatError(message, path=self.path)
        line, column = self._where.get(element, (None, None))
        return FormatError(f"{label or describe(element)}: {message}", path=self.path, line=line, column=column)


def describe(element: ET.Element) -> str:
    """``<tag id='X'>`` (the id attribute only when there is one)."""
    ident = element.get("id")
    return f"<{element.tag} id='{ident}'>" if ident is not None else f"<{element.tag}>"


def parse_xml(data: bytes | str, path: str, upper_tags: bool = False) -> XmlDocument:
    """Parse ``data``; ``upper_tags`` folds tag names to upper case (XMLBIF readers accept either case)."""
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
    except (ValueError, UnicodeError) as exc:  # e.g. an encoding expat does not know
        raise FormatError(f"malformed XML: {exc}", path=path) from None
    return XmlDocument(root, where, path)


def text(element: ET.Element | None) -> str:
    """The stripped text of ``element`` ('' for None or no text)."""
    return "" if element is None else (element.text or "").strip()
