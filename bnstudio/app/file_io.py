"""The one place that knows file formats: network files through :mod:`bnstudio.io` (whatever
:data:`bnstudio.io.FORMATS` registers at run time) and ``.bnsproj`` projects through :mod:`bnstudio.io.project`.

A two-slice network (pyAgrum's X0 / Xt names, :func:`bnstudio.temporal.timeline.as_two_slice`) saved as
``.xdsl`` is written in GeNIe's dynamic form (:func:`bnstudio.temporal.xdsl.write_dbn_xdsl`: a temporal plate and
``<dynamic numslices=T>``, docs/temporal.md); one that form cannot hold is written as the plain network in the
naming convention, with a :class:`PlainXdslWarning` saying why.

A :class:`LoadedFile` keeps the project a network came from, so saving a project keeps its other sections
(saved queries, learning runs, data settings) untouched.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bnstudio import io as bnio
from bnstudio.core.network import Network
from bnstudio.errors import FormatError, ValidationError
from bnstudio.io.project.store import EXTENSION as PROJECT_EXTENSION
from bnstudio.io.project.store import project_from_network, save_project

DIAGRAM_EXTENSION = ".json"   # an influence diagram (bnstudio.decision.serial), opened by the decision panel
#: the evidence set a project file uses for the evidence entered in the app
CURRENT_EVIDENCE = "current"
DYNAMIC_EXTENSION = ".xdsl"   # a two-slice network saved here is written as a GeNIe dynamic network


class PlainXdslWarning(UserWarning):
    """A two-slice network was saved as a plain XDSL network (X0 / Xt names): GeNIe's dynamic form cannot hold
    it; the message says why."""


@dataclass
class LoadedFile:
    """A network read from disk, with the project it came from (None for plain network files) and, for an
    influence diagram, the whole diagram (its ``network`` holds the chance and decision variables)."""

    network: Network
    project: Any = None
    evidence: dict[str, Any] | None = None
    diagram: Any = None
    decisions: Any = None      # the window's decision part (utility positions included), from a recovery copy


def is_project(path: str | Path) -> bool:
    return str(path).lower().endswith(PROJECT_EXTENSION)


def can_write(path: str | Path) -> bool:
    """Whether a registered writer handles ``path``'s extension."""
    if is_project(path) or is_diagram(path):
        return True
    try:
        bnio.format_for(path)
    except FormatError:
        return False
    return True


def read_file(path: str | Path) -> LoadedFile:
    """Read a project or network file (:func:`bnstudio.io.open_file`); every problem is a :class:`FormatError`
    naming the file."""
    opened = bnio.open_file(path)
    evidence = opened.project.evidence_sets.get(CURRENT_EVIDENCE) if opened.project is not None else None
    return LoadedFile(opened.network, opened.project, dict(evidence) if evidence else None, opened.diagram)


def write_file(net: Network, path: str | Path, project: Any = None,
               evidence: dict[str, Any] | None = None, view: dict[str, Any] | None = None,
               diagram: Any = None, slices: int | None = None) -> Any:
    """Write ``net`` (atomically, by the format's writer) or, when given, the influence ``diagram`` built on it
    (formats in ``bnio.DIAGRAM_FORMATS``); for a project, also the evidence and view options. A two-slice
    network to ``.xdsl`` is a GeNIe dynamic network of ``slices`` slices (None: the count read with it, else
    10), or the plain network with a :class:`PlainXdslWarning` (module docstring).

    Returns the project written (or None for a network file).
    """
    if is_project(path):
        if project is None:
            project = project_from_network(net)
        project.network = net
        project.evidence_sets.pop(CURRENT_EVIDENCE, None)
        if evidence:
            project.evidence_sets[CURRENT_EVIDENCE] = dict(evidence)
        if view is not None:
            project.view = dict(view)
        project.diagram = diagram
        save_project(project, path)
        return project
    if diagram is not None:
        bnio.write_influence_diagram(diagram, path)
    elif not _write_dynamic(net, path, slices):
        bnio.write_network(net, path)
    return None


def _write_dynamic(net: Network, path: str | Path, slices: int | None) -> bool:
    """Write the two-slice ``net`` to ``path`` as a GeNIe dynamic network; False (nothing written, a
    :class:`PlainXdslWarning` given) when that form cannot hold it, or when it is not such a file and network."""
    from bnstudio.temporal.timeline import as_two_slice
    from bnstudio.temporal.xdsl import write_dbn_xdsl

    tbn = as_two_slice(net) if Path(path).suffix.lower() == DYNAMIC_EXTENSION else None
    if tbn is None:
        return False
    try:
        write_dbn_xdsl(tbn, path, slices)
    except ValidationError as exc:
        warnings.warn(PlainXdslWarning(f"saved as a plain XDSL network (X0 / Xt names), not GeNIe's dynamic "
                                       f"form: {exc}"), stacklevel=3)
        return False
    return True


def _extensions(saving: bool = False) -> list[tuple[str, list[str]]]:
    """(format name, extensions) in registration order, the project format first and once (it is registered
    in ``bnio.FORMATS`` too), the influence diagram last (``saving``: only the formats a network can be saved
    to)."""
    groups: dict[str, list[str]] = {}
    for ext, fmt in bnio.FORMATS.items():
        if (fmt.savable or not saving) and ext != PROJECT_EXTENSION:
            groups.setdefault(fmt.name, []).append(ext)
    return [("BN Studio project", [PROJECT_EXTENSION]), *groups.items(), ("Influence diagram", [DIAGRAM_EXTENSION])]


def is_diagram(path: str | Path) -> bool:
    """A file that only an influence diagram goes to (bnstudio.decision's JSON form)."""
    return Path(path).suffix.lower() == DIAGRAM_EXTENSION


def can_hold_diagram(path: str | Path) -> bool:
    """Whether an influence diagram can be written to ``path`` (projects, NET, XDSL, XMLBIF, DNE, JSON)."""
    return Path(path).suffix.lower() in bnio.DIAGRAM_FORMATS


def open_filters() -> str:
    """A QFileDialog filter string: all supported files first, then one entry per format."""
    groups = _extensions()
    every = " ".join(f"*{e}" for _, exts in groups for e in exts)
    return ";;".join([f"All supported files ({every})"]
                     + [f"{name} ({' '.join('*' + e for e in exts)})" for name, exts in groups]
                     + ["All files (*)"])


def save_filters() -> str:
    return ";;".join(f"{name} ({' '.join('*' + e for e in exts)})" for name, exts in _extensions(saving=True))


def default_save_suffix() -> str:
    return PROJECT_EXTENSION


def with_suffix_for_filter(path: str, selected_filter: str) -> str:
    """Add the filter's first extension when the user typed a name without a known one."""
    known = [e for _, exts in _extensions() for e in exts]
    if any(path.lower().endswith(e) for e in known):
        return path
    start = selected_filter.find("*")
    ext = selected_filter[start + 1:].split()[0].rstrip(")") if start >= 0 else default_save_suffix()
    return path + ext


def format_error_text(exc: FormatError) -> tuple[str, str]:
    """(short summary, detail) for a parser error: file, line (and column) and message."""
    where = Path(exc.path).name if exc.path else "the file"
    parts = [f"File: {exc.path}" if exc.path else None,
             f"Line: {exc.line}" if exc.line is not None else None,
             f"Column: {exc.column}" if exc.column is not None else None]
    json_path = getattr(exc, "json_path", None)
    if json_path:
        parts.append(f"Location: {json_path}")
    return f"Could not read {where}", "\n".join(p for p in parts if p) + f"\n\n{exc}"
