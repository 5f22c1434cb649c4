"""Deprecated module path: the project store is :mod:`bnstudio.io.project.store`."""
from bnstudio.io.project.store import EXTENSION, Project, load_project, save_project

__all__ = ["EXTENSION", "Project", "load_project", "save_project"]
