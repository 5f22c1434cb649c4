"""The :class:`Project` and its ``.bnsproj`` file: JSON (never pickle), saved atomically, validated on load.

See ``docs/project-format.md`` for the schema.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.io.atomic import PathLike, atomic_write_text, read_text
from bnstudio.io.common import json_document
from bnstudio.io.common import json_text as dumps
from bnstudio.io.judging import judged_repairs
from bnstudio.io.project import schema
from bnstudio.io.project.curves_json import read_runs
from bnstudio.io.project.decision_json import decision_from_json, decision_to_json
from bnstudio.io.project.network_json import check_keys, network_from_json, network_to_json
from bnstudio.io.project.notes import Note, notes_to_json, read_notes
from bnstudio.io.project.schema import Checker, ProjectFormatError, json_safe
from bnstudio.io.project.sections import read_data, read_evidence_sets, read_queries
from bnstudio.io.repairs import Repairs

EXTENSION = ".bnsproj"
TOP_KEYS = {"format", "schema_version", "network", "decision", "evidence_sets", "queries", "runs", "data", "view",
            "notes"}
Evidence = dict[str, str | list[float]]

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram


@dataclass(eq=False)
class Project:
    """A network plus what the app keeps with it: saved evidence and queries, learning runs, data, view."""

    network: Network
    #: name -> {VAR: STATE or [likelihood per state]}
    evidence_sets: dict[str, Evidence] = field(default_factory=dict)
    #: [{"target": VAR or {VAR: STATE}, "evidence": {...}, "label": str}, ...]
    queries: list[dict[str, Any]] = field(default_factory=list)
    #: learning runs: free-form JSON-safe dicts (method, settings, history, stop_reason, ...) with checked
    #: ``curves`` (:mod:`bnstudio.io.project.curves_json`)
    runs: list[dict[str, Any]] = field(default_factory=list)
    #: None or {"path": data file (relative to the project file or absolute), "settings": {...}}
    data: dict[str, Any] | None = None
    #: free-form GUI view options
    view: dict[str, Any] = field(default_factory=dict)
    #: text notes on the drawing (annotations), in drawing order
    notes: list[Note] = field(default_factory=list)
    #: the influence diagram when the network has decisions and utilities (its decision and utility parts are
    #: saved with ``network``, whose variables are its chance and decision variables), else None
    diagram: "InfluenceDiagram | None" = None

    def data_file(self, project_file: PathLike) -> Path | None:
        """The data file's path, resolving a relative ``data["path"]`` against the project file's folder."""
        if self.data is None:
            return None
        path = Path(self.data["path"])
        return path if path.is_absolute() else Path(project_file).parent / path


def project_from_network(net: Network) -> Project:
    """A new project holding ``net`` and nothing else."""
    return Project(network=net)


def project_from_diagram(diagram: "InfluenceDiagram") -> Project:
    """A new project holding an influence diagram (its network, decisions and utilities) and nothing else."""
    return Project(network=diagram.network, diagram=diagram)


def project_to_json(project: Project) -> dict[str, Any]:
    """The project as a plain JSON document; ValidationError names the path of anything unsavable."""
    doc = {
        "format": schema.FORMAT_TAG,
        "schema_version": None,   # the oldest schema that holds the document: set below
        "network": network_to_json(project.network),
        **({} if project.diagram is None else {"decision": decision_to_json(project.diagram)}),
        "evidence_sets": json_safe(project.evidence_sets, "evidence_sets"),
        "queries": json_safe(project.queries, "queries"),
        "runs": json_safe(project.runs, "runs"),
        "data": json_safe(project.data, "data"),
        "view": json_safe(project.view, "view"),
        **({"notes": notes_to_json(project.notes)} if project.notes else {}),
    }
    json_safe(doc["network"], "network")  # e.g. properties that are not strings
    doc["schema_version"] = schema.version_for(doc)
    try:  # never write what load_project would refuse or repair
        _read_sections(Checker(), doc, project.network, Repairs("<project>", strict=True))
    except ProjectFormatError as exc:
        raise ValidationError(f"cannot save the project: {exc}") from None
    return doc


def _read_sections(check: Checker, doc: dict[str, Any], net: Network, repairs: Repairs) -> Project:
    return Project(
        diagram=None if doc.get("decision") is None else decision_from_json(check, doc["decision"], net),
        network=net,
        evidence_sets=read_evidence_sets(check, net, doc.get("evidence_sets", {})),
        queries=read_queries(check, net, doc.get("queries", [])),
        runs=read_runs(check, doc.get("runs", []), repairs),
        data=read_data(check, doc.get("data")),
        view=check.of(doc.get("view", {}), dict, "view"),
        notes=read_notes(check, doc.get("notes", [])),
    )


def project_from_json(doc: Any, file: str | None = None, strict: bool = False) -> Project:
    """Validate (after migrating to the current schema) and decode a parsed project document (``strict``: refuse
    what would need a repair, see :mod:`bnstudio.io.repairs`)."""
    check = Checker(file)
    check.of(doc, dict, "")
    if check.key(doc, "format", str, "") != schema.FORMAT_TAG:
        check.fail("format", f"not a BN Studio project (expected {schema.FORMAT_TAG!r}, got {doc['format']!r})")
    doc = schema.migrate(doc, check)
    check_keys(check, doc, TOP_KEYS, "")
    repairs = Repairs(check.file or "<project>", strict)   # the file's one report: the network's, runs' curves
    net = network_from_json(check, check.key(doc, "network", dict, ""), strict=strict, repairs=repairs)
    project = _read_sections(check, doc, net, repairs)
    repairs.warn(net)
    return project


def save_project(project: Project, path: PathLike) -> None:
    """Write ``project`` to ``path`` as JSON, atomically (the old file stays intact on any failure)."""
    atomic_write_text(path, dumps(project_to_json(project)) + "\n")


def load_project(path: PathLike, strict: bool = False) -> Project:
    """Read and validate a project file; every problem is a :class:`~bnstudio.errors.FormatError` naming
    the file and the JSON path (or line and column for invalid JSON); ``strict`` refuses repairs too. Repairs
    (the tables' rows, runs' damaged curves dropped) are one :class:`~bnstudio.errors.RepairWarning`, rows of
    zeros in its tables judged as
    :func:`bnstudio.io.open_file` judges them (docs/architecture.md §1)."""
    with judged_repairs():
        return read_project(path, strict)


def read_project(path: PathLike, strict: bool = False) -> Project:
    """:func:`load_project` as a reader (the format registry, :func:`bnstudio.io.open_file`): it reports its
    repairs and judges nothing, the caller judges (docs/architecture.md §1)."""
    doc = json_document(read_text(path), str(path), ProjectFormatError)
    return project_from_json(doc, str(path), strict)


def read_project_network(path: PathLike, strict: bool = False) -> Network:
    """The network of a project file (a reader for the format registry); a project holding an influence
    diagram is refused in one line (read it with :func:`load_project` or :func:`bnstudio.io.read_model`)."""
    project = read_project(path, strict)
    if project.diagram is not None:
        from bnstudio.io.influence import not_a_network

        raise ProjectFormatError(not_a_network(project.diagram.decision_names, project.diagram.utility_names),
                                 path=str(path), json_path="decision")
    return project.network


def write_project_network(net: Network, path: PathLike) -> None:
    """Save ``net`` as a new project holding only the network (a writer for the format registry)."""
    save_project(project_from_network(net), path)
