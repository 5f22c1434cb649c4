"""The files BN Studio ships with: example networks and projects (``networks/``), influence diagrams
(``decision/``), data tables (``data/``, the suites' tables in ``data/suite/``) and icons (``icons/``).

They live in the repository's top-level ``resources/`` folder, which pyproject.toml installs as the package data
of ``bnstudio._resources``; every module reads a bundled file through this one accessor, which asks
:mod:`importlib.resources`, so the same call finds them in a checkout (the editable install), in an installed
wheel and in a PyInstaller build (whose spec puts them under ``bnstudio/_resources``). Standard library only: the
lowest layer of docs/architecture.md §1, usable from every other.
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import importlib.resources
from pathlib import Path

#: the package whose data the ``resources/`` folder is (pyproject.toml, ``[tool.setuptools.package-dir]``)
PACKAGE = "bnstudio._resources"

__all__ = ["PACKAGE", "bundled_data", "bundled_diagram", "bundled_example", "icon_path", "manual_page",
           "resource_root", "suite_data"]


@functools.cache
def resource_root() -> Path:
    """The folder holding the bundled files, as a real path (readers, SQLite and worker processes need one).

    A loader that keeps the package elsewhere than on disk (a zip) has the folder extracted once for the
    process; it is removed at exit."""
    root = importlib.resources.files(PACKAGE)
    if isinstance(root, Path):
        return root
    stack = contextlib.ExitStack()
    atexit.register(stack.close)
    return Path(stack.enter_context(importlib.resources.as_file(root)))


def bundled_example(name: str = "alarm.bif") -> Path:
    """The path of a bundled example network or project (``resources/networks/NAME``)."""
    return resource_root() / "networks" / name


def bundled_diagram(name: str = "oil_wildcatter.json") -> Path:
    """The path of a bundled influence diagram (``resources/decision/NAME``; the oil wildcatter: Raiffa 1968,
    MEU 22.5, test first)."""
    return resource_root() / "decision" / name


def bundled_data(name: str) -> Path:
    """The path of a bundled data table (``resources/data/NAME``, e.g. ``alarm.csv``)."""
    return resource_root() / "data" / name


def suite_data(name: str = "") -> Path:
    """The path of a table of the built-in studies (``resources/data/suite/NAME``), or their folder."""
    return resource_root() / "data" / "suite" / name if name else resource_root() / "data" / "suite"


def icon_path(name: str = "bnstudio.svg") -> Path:
    """The path of one of the app's icons (``resources/icons/NAME``)."""
    return resource_root() / "icons" / name


def manual_page(name: str = "gui.md") -> Path:
    """A page of the manual (Help ▸ Manual): the repository's ``docs/NAME``. Built packages have docs/*.md and
    their pictures among the bundled files (``manual/``: setup.py copies them there, the PyInstaller spec too); a
    checkout reads them where they are, beside the bundled files' folder."""
    installed = resource_root() / "manual"
    return (installed if installed.is_dir() else resource_root().parent / "docs") / name
