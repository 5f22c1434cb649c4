"""Reading and writing network files, dispatched on the file extension.

>>> sorted(FORMATS)
['.bif', '.bif.gz', '.bifxml', '.bnsproj', '.dne', '.dsl', '.net', '.neta', '.uai', '.xdsl', '.xml', '.xmlbif']

To add a format, register its extension(s) in :data:`FORMATS` with a reader ``(path, strict=False) -> Network`` and
a writer ``(net, path) -> None``. Readers raise :class:`~bnstudio.errors.FormatError` for every problem (missing
file, bad encoding, syntax, inconsistent tables) and read what the authoring tool would read, reporting each repair
in one :class:`~bnstudio.errors.RepairWarning` (``strict=True``: refuse instead; see :mod:`bnstudio.io.repairs`);
writers write atomically (see :mod:`bnstudio.io.atomic`).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, NamedTuple

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, refuse_empty
from bnstudio.io.bif import format_bif, parse_bif, read_bif, write_bif
from bnstudio.io.canonical_props import take_model_properties, with_model_properties
from bnstudio.io.diagram_files import DIAGRAM_FORMATS, diagram_format_for
from bnstudio.io.dne import read_dne, read_neta, write_neta
from bnstudio.io.dne_writer import write_dne
from bnstudio.io.dsl import read_dsl, write_dsl
from bnstudio.io.hugin_net import read_net, write_net
from bnstudio.io.repairs import reading_strictly, strict_reading
from bnstudio.io.uai import read_uai, write_uai
from bnstudio.io.xdsl import read_xdsl, write_xdsl
from bnstudio.io.xmlbif import read_xmlbif, write_xmlbif

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram


class FileFormat(NamedTuple):
    """A file format: a human-readable name, a reader and a writer (``savable``: False for a format whose writer
    only refuses in one line, such as Netica's encrypted binary: it is offered for opening, never for saving)."""

    name: str
    read: Callable[..., Network]  # (path, strict=False) -> Network
    write: Callable[[Network, PathLike], None]
    savable: bool = True


def _keeping_models(name: str, read: Callable[..., Network], write: Callable[[Network, PathLike], None]) -> FileFormat:
    """A format that keeps canonical models as properties (see :mod:`bnstudio.io.canonical_props`)."""
    return FileFormat(name, lambda path, strict=False: take_model_properties(read(path, strict=strict)),
                      lambda net, path: write(with_model_properties(net), path))


_BIF = _keeping_models("BIF", read_bif, write_bif)
_XMLBIF = _keeping_models("XMLBIF", read_xmlbif, write_xmlbif)

def _read_project(path: PathLike, strict: bool = False) -> Network:
    from bnstudio.project import read_project_network  # lazy: the project package builds on bnstudio.io
    return read_project_network(path, strict)


def _write_project(net: Network, path: PathLike) -> None:
    from bnstudio.project import write_project_network
    write_project_network(net, path)


#: Extension (lower case, with the dot; the longest match wins: ``.bif.gz`` before ``.gz``) -> format.
FORMATS: dict[str, FileFormat] = {
    ".bif": _BIF,
    ".bif.gz": _BIF,
    ".xmlbif": _XMLBIF,
    ".xml": _XMLBIF,
    ".bifxml": _XMLBIF,  # pyAgrum's name for XMLBIF
    ".net": _keeping_models("Hugin NET", read_net, write_net),
    ".xdsl": FileFormat("GeNIe XDSL", read_xdsl, write_xdsl),
    ".dsl": FileFormat("GeNIe DSL", read_dsl, write_dsl),
    ".uai": FileFormat("UAI", read_uai, write_uai),
    ".dne": FileFormat("Netica DNE", read_dne, write_dne),
    ".neta": FileFormat("Netica binary", read_neta, write_neta, savable=False),  # encrypted: refused, both ways
    ".bnsproj": FileFormat("BN Studio project", _read_project, _write_project),
}


def format_for(path: PathLike) -> FileFormat:
    """The :class:`FileFormat` for ``path``'s extension; a :class:`FormatError` lists the supported ones."""
    name = Path(path).name.lower()
    matches = [ext for ext in FORMATS if name.endswith(ext) and len(name) > len(ext)]
    if not matches:
        raise FormatError(f"unknown file type; supported extensions: {', '.join(sorted(FORMATS))}",
                          path=str(path))
    return FORMATS[max(matches, key=len)]


def read_network(path: PathLike, strict: bool | None = None) -> Network:
    """Read a network file of any registered format; every failure is a :class:`FormatError`.

    What the authoring tool would repair (rounded rows, tiny negative entries, Hugin weights...) is repaired and
    said in one :class:`~bnstudio.errors.RepairWarning`; ``strict=True`` refuses the file instead, naming the first
    thing that would need a repair (see :mod:`bnstudio.io.repairs`); None: as the enclosing
    :func:`~bnstudio.io.repairs.strict_reading` block says (lenient outside any).
    """
    fmt = format_for(path)
    if strict is None:
        strict = reading_strictly()
    if not Path(path).exists():
        raise FormatError("no such file", path=str(path))
    refuse_empty(path)
    return fmt.read(path, strict=strict)


def write_network(net: Network, path: PathLike) -> None:
    """Write ``net`` in the format given by ``path``'s extension, atomically."""
    format_for(path).write(net, path)


def read_model(path: PathLike, strict: bool | None = None) -> Network | InfluenceDiagram:
    """Read a Bayesian network or an influence diagram: a file with decision or utility nodes (Hugin NET,
    GeNIe XDSL, XMLBIF, the JSON form ``.json``, a ``.bnsproj`` with a decision part) gives an
    :class:`~bnstudio.decision.model.InfluenceDiagram`, any other file a :class:`Network` as
    :func:`read_network` reads it. ``strict`` as in :func:`read_network`."""
    fmt = diagram_format_for(path)
    if fmt is None:
        return read_network(path, strict)
    if strict is None:
        strict = reading_strictly()
    if not Path(path).exists():
        raise FormatError("no such file", path=str(path))
    refuse_empty(path)
    model = fmt.read(path, strict=strict)
    return take_model_properties(model) if isinstance(model, Network) and fmt.name in _PROPERTY_MODELS else model


_PROPERTY_MODELS = {"Hugin NET", "XMLBIF"}  # formats keeping canonical models as properties


def write_influence_diagram(diagram: InfluenceDiagram, path: PathLike) -> None:
    """Write ``diagram`` in the format given by ``path``'s extension (.net, .xdsl, .xmlbif/.xml/.bifxml,
    .json, .bnsproj), atomically; other extensions are a :class:`FormatError` listing these."""
    fmt = diagram_format_for(path)
    if fmt is None:
        raise FormatError(f"cannot write an influence diagram in this format; use one of "
                          f"{', '.join(sorted(DIAGRAM_FORMATS))}", path=str(path))
    fmt.write(diagram, path)


__all__ = ["DIAGRAM_FORMATS", "FORMATS", "FileFormat", "format_bif", "format_for", "parse_bif", "read_bif",
           "read_dsl", "read_model", "read_net", "read_network", "read_uai", "read_xdsl", "read_xmlbif", "strict_reading",
           "write_bif", "write_dsl", "write_influence_diagram", "write_net", "write_network", "write_uai", "write_xdsl",
           "write_xmlbif"]
