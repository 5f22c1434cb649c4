"""The format registry: one :class:`FormatRecord` per file format, the only place that lists them.

A record says how a format is recognised (its extensions), how it is read and written (a network reader and
writer, and for formats with decision and utility nodes a model reader and a diagram writer) and what it keeps
(``keeps_*``: checked by tests/io/test_format_records.py, which round-trips a small network through every record).
:data:`FORMATS` (extension -> record, the formats holding a Bayesian network) and :data:`DIAGRAM_FORMATS`
(extension -> record, the formats holding an influence diagram) are views of :data:`RECORDS`; an extension is
matched case-insensitively, the longest registered suffix winning (``.bif.gz`` before ``.gz``).

To add a format, append one record to :data:`RECORDS` (see docs/architecture.md, "Adding a format").
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike
from bnstudio.io.bif.reader import read_bif, write_bif
from bnstudio.io.canonical_props import take_model_properties, with_model_properties
from bnstudio.io.diagram_files import read_diagram_json, write_diagram_json
from bnstudio.io.genie.dsl import read_dsl, write_dsl
from bnstudio.io.genie.xdsl import read_xdsl, read_xdsl_model, write_xdsl, write_xdsl_diagram
from bnstudio.io.hugin.net import read_net, read_net_model
from bnstudio.io.hugin.net_writer import write_net, write_net_diagram
from bnstudio.io.netica.dne import read_dne, read_dne_model, read_neta, write_neta
from bnstudio.io.netica.dne_writer import write_dne, write_dne_diagram
from bnstudio.io.uai.uai import read_uai, write_uai
from bnstudio.io.xml.xmlbif import read_xmlbif, read_xmlbif_model, write_xmlbif, write_xmlbif_diagram

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram

NetworkReader = Callable[..., Network]  # (path, strict=False) -> Network
NetworkWriter = Callable[[Network, PathLike], None]
ModelReader = Callable[..., "Network | InfluenceDiagram"]  # (path, strict=False)
DiagramWriter = Callable[["InfluenceDiagram", PathLike], None]


@dataclass(frozen=True)
class FormatRecord:
    """One file format.

    ``reader``/``writer``: a Bayesian network (None: the format holds influence diagrams only);
    ``model_reader``: a network or, for a file with decision or utility nodes, an influence diagram;
    ``diagram_writer``: an influence diagram (both None: the format has no decision nodes). The methods
    :meth:`read`, :meth:`write`, :meth:`read_model` and :meth:`write_diagram` are what callers use. ``savable``: False for a format offered for
    opening only (its writer refuses in one line). ``models_as_properties``: canonical models ride in one
    ``bnstudio_canonical`` property per node (:mod:`bnstudio.io.canonical_props`), added on writing and taken
    back on reading. ``keeps_*``: what a network written and read back still has -- variable names, node
    positions (layout), Dirichlet counts (``Network.alpha``), canonical models.
    """

    name: str
    extensions: tuple[str, ...]
    reader: NetworkReader | None
    writer: NetworkWriter | None
    model_reader: ModelReader | None = None
    diagram_writer: DiagramWriter | None = None
    savable: bool = True
    models_as_properties: bool = False
    keeps_names: bool = True
    keeps_layout: bool = True
    keeps_counts: bool = False
    keeps_canonical: bool = False

    @property
    def keeps_diagrams(self) -> bool:
        """Whether influence diagrams (decision and utility nodes) are read and written."""
        return self.diagram_writer is not None

    def read(self, path: PathLike, strict: bool = False) -> Network:
        """The network in ``path`` (canonical models taken from their properties where the format keeps them so)."""
        if self.reader is None:
            raise FormatError(f"a {self.name} file holds an influence diagram, not a Bayesian network",
                              path=str(path))
        net = self.reader(path, strict=strict)
        return take_model_properties(net) if self.models_as_properties else net

    def write(self, net: Network, path: PathLike) -> None:
        """Write ``net`` to ``path`` (atomically, as every writer does)."""
        if self.writer is None:
            raise FormatError(f"a {self.name} file holds influence diagrams only; the input is a Bayesian "
                              f"network", path=str(path))
        self.writer(with_model_properties(net) if self.models_as_properties else net, path)

    def read_model(self, path: PathLike, strict: bool = False) -> Network | InfluenceDiagram:
        """A network or, where the format has decision nodes and the file some, an influence diagram."""
        if self.model_reader is None:
            return self.read(path, strict)
        model = self.model_reader(path, strict=strict)
        return take_model_properties(model) if isinstance(model, Network) and self.models_as_properties else model

    def write_diagram(self, diagram: InfluenceDiagram, path: PathLike) -> None:
        """Write an influence diagram; a :class:`FormatError` for a format without decision nodes."""
        if self.diagram_writer is None:
            raise FormatError(f"a {self.name} file cannot hold an influence diagram", path=str(path))
        self.diagram_writer(diagram, path)


# The project format's functions import bnstudio.io.project (and networkx) when first used: a program that
# reads other formats does not carry them (a bigger heap makes every garbage collection pass of a reader slower).
def _read_project(path: PathLike, strict: bool = False) -> Network:
    from bnstudio.io.project.store import read_project_network
    return read_project_network(path, strict)


def _write_project(net: Network, path: PathLike) -> None:
    from bnstudio.io.project.store import write_project_network
    write_project_network(net, path)


def _read_project_model(path: PathLike, strict: bool = False) -> Network | InfluenceDiagram:
    from bnstudio.io.project.store import read_project

    project = read_project(path, strict)
    return project.network if project.diagram is None else project.diagram


def _write_project_diagram(diagram: InfluenceDiagram, path: PathLike) -> None:
    from bnstudio.io.project.store import project_from_diagram, save_project

    save_project(project_from_diagram(diagram), path)


#: The native project format; :func:`bnstudio.io.open_file` reads a project whole (evidence, queries, runs...).
PROJECT = FormatRecord("BN Studio project", (".bnsproj",), _read_project, _write_project,
                       _read_project_model, _write_project_diagram, keeps_counts=True, keeps_canonical=True)

#: Every format, in the order file dialogs list them.
RECORDS: tuple[FormatRecord, ...] = (
    FormatRecord("BIF", (".bif", ".bif.gz"), read_bif, write_bif, models_as_properties=True,
                 keeps_canonical=True),
    FormatRecord("XMLBIF", (".xmlbif", ".xml", ".bifxml"), read_xmlbif, write_xmlbif,  # .bifxml: pyAgrum's name
                 read_xmlbif_model, write_xmlbif_diagram, models_as_properties=True, keeps_canonical=True),
    FormatRecord("Hugin NET", (".net",), read_net, write_net, read_net_model, write_net_diagram,
                 models_as_properties=True, keeps_canonical=True),
    FormatRecord("GeNIe XDSL", (".xdsl",), read_xdsl, write_xdsl, read_xdsl_model, write_xdsl_diagram,
                 keeps_canonical=True),
    FormatRecord("GeNIe DSL", (".dsl",), read_dsl, write_dsl),
    FormatRecord("UAI", (".uai",), read_uai, write_uai, keeps_names=False, keeps_layout=False),
    FormatRecord("Netica DNE", (".dne",), read_dne, write_dne, read_dne_model, write_dne_diagram),
    FormatRecord("Netica binary", (".neta",), read_neta, write_neta, savable=False,  # encrypted: refused, both ways
                 keeps_names=False, keeps_layout=False),
    PROJECT,
    FormatRecord("influence diagram JSON", (".json",), None, None, read_diagram_json, write_diagram_json,
                 keeps_layout=False),
)


def _by_extension(records: Iterable[FormatRecord]) -> dict[str, FormatRecord]:
    return {ext: record for record in records for ext in record.extensions}


#: Extension (lower case, with the dot) -> format, for the formats holding a Bayesian network.
FORMATS: dict[str, FormatRecord] = _by_extension(r for r in RECORDS if r.reader is not None)
#: Extension -> format, for the formats holding an influence diagram (decision and utility nodes).
DIAGRAM_FORMATS: dict[str, FormatRecord] = _by_extension(r for r in RECORDS if r.keeps_diagrams)


def _match(path: PathLike, table: dict[str, FormatRecord]) -> FormatRecord | None:
    name = Path(path).name.lower()
    matches = [ext for ext in table if name.endswith(ext) and len(name) > len(ext)]
    return table[max(matches, key=len)] if matches else None


def format_for(path: PathLike) -> FormatRecord:
    """The network format of ``path``'s extension; a :class:`FormatError` lists the supported ones."""
    record = _match(path, FORMATS)
    if record is None:
        raise FormatError(f"unknown file type; supported extensions: {', '.join(sorted(FORMATS))}",
                          path=str(path))
    return record


def diagram_format_for(path: PathLike) -> FormatRecord | None:
    """The influence-diagram format of ``path``'s extension, or None."""
    return _match(path, DIAGRAM_FORMATS)


def record_for(path: PathLike, diagrams: bool = True) -> FormatRecord:
    """The record of ``path``'s longest registered extension (``diagrams=False``: among the network formats);
    a :class:`FormatError` lists the network formats' extensions when none matches."""
    record = _match(path, _EVERY if diagrams else FORMATS)
    return format_for(path) if record is None else record


_EVERY = _by_extension(RECORDS)
