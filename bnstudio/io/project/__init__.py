"""Native ``.bnsproj`` project files: the network with its saved evidence, queries, learning runs, data
settings and view options, as versioned JSON (see ``docs/project-format.md``).

>>> from bnstudio.core import network_from_dsl
>>> project = project_from_network(network_from_dsl("A->B"))
>>> project_to_json(project)["schema_version"]
1
"""
from bnstudio.io.project.schema import FORMAT_TAG, MIGRATIONS, SCHEMA_VERSION, ProjectFormatError, migrate
from bnstudio.io.project.store import (
                                    EXTENSION,
                                    Project,
                                    load_project,
                                    project_from_diagram,
                                    project_from_json,
                                    project_from_network,
                                    project_to_json,
                                    read_project_network,
                                    save_project,
                                    write_project_network,
)

__all__ = ["EXTENSION", "FORMAT_TAG", "MIGRATIONS", "SCHEMA_VERSION", "Project", "ProjectFormatError",
           "load_project", "migrate", "project_from_diagram", "project_from_json", "project_from_network",
           "project_to_json", "read_project_network", "save_project", "write_project_network"]
