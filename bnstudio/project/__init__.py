"""Native ``.bnsproj`` project files (see ``docs/project-format.md``): the project format lives with the other
formats, in :mod:`bnstudio.io.project`; this package keeps its public names.

>>> from bnstudio.core import network_from_dsl
>>> project_to_json(project_from_network(network_from_dsl("A->B")))["schema_version"]
1
"""
from pathlib import Path

from bnstudio.io.judging import judged_repairs
from bnstudio.io.project import (EXTENSION, FORMAT_TAG, MIGRATIONS, SCHEMA_VERSION, Project, ProjectFormatError,
                                 migrate, project_from_diagram, project_from_json, project_from_network,
                                 project_to_json, read_project_network, save_project, write_project_network)
from bnstudio.io.project import schema as schema  # the module, as `from bnstudio.project import schema` gave it
from bnstudio.io.project.store import load_project as _load_project


def load_project(path: str | Path, strict: bool = False) -> Project:
    """Read a ``.bnsproj`` file (:func:`bnstudio.io.project.store.load_project`), rows of zeros in its tables
    judged as :func:`bnstudio.io.open_file` judges them (docs/architecture.md §1)."""
    with judged_repairs():
        return _load_project(path, strict)

__all__ = ["EXTENSION", "FORMAT_TAG", "MIGRATIONS", "SCHEMA_VERSION", "Project", "ProjectFormatError",
           "load_project", "migrate", "project_from_diagram", "project_from_json", "project_from_network",
           "project_to_json", "read_project_network", "save_project", "write_project_network"]
