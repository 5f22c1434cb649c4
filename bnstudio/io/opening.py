"""The one way a file is opened: :func:`open_file` finds the format record of the path (see
:mod:`bnstudio.io.formats`), checks once that the file exists and is not empty, and reads what it holds -- a
Bayesian network, an influence diagram, or a whole project. :func:`~bnstudio.io.read_network`,
:func:`~bnstudio.io.read_model`, the app's ``File > Open`` and the command line all go through it. It is where
the rows of zeros a reader reports are judged (:mod:`bnstudio.io.judging`): readers run no inference.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, refuse_empty
from bnstudio.io.formats import PROJECT, FormatRecord, record_for
from bnstudio.io.judging import judged_repairs
from bnstudio.io.repairs import reading_strictly

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram
    from bnstudio.io.project.store import Project


@dataclass(frozen=True)
class Opened:
    """What a file held: its ``network`` (for an influence diagram, the network of its chance and decision
    variables), the ``diagram`` (None for a Bayesian network), the ``project`` (None unless a ``.bnsproj``
    was opened whole) and the ``format`` record that read it."""

    network: Network
    diagram: InfluenceDiagram | None
    project: Project | None
    format: FormatRecord

    @property
    def model(self) -> Network | InfluenceDiagram:
        """The influence diagram if there is one, else the network."""
        return self.network if self.diagram is None else self.diagram


def open_file(path: PathLike, strict: bool | None = None, diagrams: bool = True) -> Opened:
    """Open ``path`` by its extension; every failure is one :class:`FormatError` line naming the file.

    ``diagrams``: read decision and utility nodes where the format has them, and a project whole; False reads
    a Bayesian network only (a file holding an influence diagram is then refused in one line). ``strict`` as in
    :func:`~bnstudio.io.read_network` (None: as the enclosing :func:`~bnstudio.io.strict_reading` block says).
    Repairs are reported as one :class:`~bnstudio.errors.RepairWarning`, as by every reader, saying whether
    rows of zeros made uniform change any probability (see :mod:`bnstudio.io.zero_rows`).
    """
    record = record_for(path, diagrams)  # an unknown extension: one line listing the known ones
    if strict is None:
        strict = reading_strictly()
    if not Path(path).exists():
        raise FormatError("no such file", path=str(path))
    refuse_empty(path)
    with judged_repairs():
        return _read(path, record, strict, diagrams)


def _read(path: PathLike, record: FormatRecord, strict: bool, diagrams: bool) -> Opened:
    """What :func:`open_file` opens once the file is known to exist."""
    if not diagrams:
        return Opened(record.read(path, strict=strict), None, None, record)
    if record is PROJECT:
        from bnstudio.io.project.store import read_project  # with networkx: only when a project is opened

        project = read_project(path, strict)
        diagram = project.diagram
        return Opened(project.network if diagram is None else diagram.network, diagram, project, record)
    model = record.read_model(path, strict=strict)
    if isinstance(model, Network):
        return Opened(model, None, None, record)
    return Opened(model.network, model, None, record)
