"""Reading and writing network files, dispatched on the file extension.

>>> sorted(FORMATS)
['.bif', '.bif.gz', '.bifxml', '.bnsproj', '.dne', '.dsl', '.net', '.neta', '.uai', '.xdsl', '.xml', '.xmlbif']

Every format is one :class:`~bnstudio.io.formats.FormatRecord` in :data:`bnstudio.io.formats.RECORDS` (a reader
``(path, strict=False) -> Network``, a writer ``(net, path) -> None``, what the format keeps); :data:`FORMATS`
and :data:`DIAGRAM_FORMATS` are views of it. Readers raise :class:`~bnstudio.errors.FormatError` for every problem (missing
file, bad encoding, syntax, inconsistent tables) and read what the authoring tool would read, reporting each repair
in one :class:`~bnstudio.errors.RepairWarning` (``strict=True``: refuse instead; see :mod:`bnstudio.io.repairs`);
writers write atomically (see :mod:`bnstudio.io.atomic`). Readers run no inference: whether rows of zeros made
uniform change any probability is said by :func:`open_file` (so :func:`read_network` and :func:`read_model`),
while a reader or parser called on its own (``parse_bif(text)``) names those rows without that verdict.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike
from bnstudio.io.bif.reader import format_bif, parse_bif, read_bif, write_bif
from bnstudio.io.formats import DIAGRAM_FORMATS, FORMATS, RECORDS, FormatRecord, diagram_format_for, format_for
from bnstudio.io.genie.dsl import read_dsl, write_dsl
from bnstudio.io.genie.xdsl import read_xdsl, write_xdsl
from bnstudio.io.hugin.net import read_net
from bnstudio.io.hugin.net_writer import write_net
from bnstudio.io.opening import Opened, open_file
from bnstudio.io.repairs import strict_reading
from bnstudio.io.uai.uai import read_uai, write_uai
from bnstudio.io.xml.xmlbif import read_xmlbif, write_xmlbif

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram

#: Deprecated names of :class:`~bnstudio.io.formats.FormatRecord` (the records replaced both tuples).
FileFormat = DiagramFormat = FormatRecord


def read_network(path: PathLike, strict: bool | None = None) -> Network:
    """Read a network file of any registered format; every failure is a :class:`FormatError`.

    What the authoring tool would repair (rounded rows, tiny negative entries, Hugin weights...) is repaired and
    said in one :class:`~bnstudio.errors.RepairWarning`; ``strict=True`` refuses the file instead, naming the first
    thing that would need a repair (see :mod:`bnstudio.io.repairs`); None: as the enclosing
    :func:`~bnstudio.io.repairs.strict_reading` block says (lenient outside any). Opened by :func:`open_file`.
    """
    return open_file(path, strict, diagrams=False).network


def write_network(net: Network, path: PathLike) -> None:
    """Write ``net`` in the format given by ``path``'s extension, atomically."""
    format_for(path).write(net, path)


def read_model(path: PathLike, strict: bool | None = None) -> Network | InfluenceDiagram:
    """Read a Bayesian network or an influence diagram: a file with decision or utility nodes (Hugin NET,
    GeNIe XDSL, XMLBIF, Netica DNE, the JSON form ``.json``, a ``.bnsproj`` with a decision part) gives an
    :class:`~bnstudio.decision.model.InfluenceDiagram`, any other file a :class:`Network` as
    :func:`read_network` reads it. ``strict`` as in :func:`read_network`. Opened by :func:`open_file`."""
    return open_file(path, strict).model


def write_influence_diagram(diagram: InfluenceDiagram, path: PathLike) -> None:
    """Write ``diagram`` in the format given by ``path``'s extension (.net, .xdsl, .xmlbif/.xml/.bifxml, .dne,
    .json, .bnsproj), atomically; other extensions are a :class:`FormatError` listing these."""
    fmt = diagram_format_for(path)
    if fmt is None:
        raise FormatError(f"cannot write an influence diagram in this format; use one of "
                          f"{', '.join(sorted(DIAGRAM_FORMATS))}", path=str(path))
    fmt.write_diagram(diagram, path)


__all__ = ["DIAGRAM_FORMATS", "FORMATS", "RECORDS", "FileFormat", "FormatRecord", "Opened", "diagram_format_for",
           "format_bif", "format_for", "open_file", "parse_bif", "read_bif", "read_dsl", "read_model", "read_net",
           "read_network", "read_uai", "read_xdsl", "read_xmlbif", "strict_reading", "write_bif", "write_dsl",
           "write_influence_diagram", "write_net", "write_network", "write_uai", "write_xdsl", "write_xmlbif"]
