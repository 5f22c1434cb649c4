"""Deprecated module path: the project store is :mod:`bnstudio.io.project.store`."""
from bnstudio.io.project.store import EXTENSION, Project, save_project
from bnstudio.project import load_project

__all__ = ["EXTENSION", "Project", "load_project", "save_project"]
