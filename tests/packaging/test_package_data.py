"""The bundled files are package data, read through one accessor (:mod:`bnstudio.resources`): every file of
``resources/`` is listed in pyproject.toml's package-data, the editable install finds them in the checkout, and
no other module reaches them by a path of its own (``__file__`` parents, PyInstaller's ``sys._MEIPASS``)."""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from bnstudio.resources import PACKAGE, bundled_example, resource_root

ROOT = Path(__file__).resolve().parents[2]
RESOURCES = ROOT / "resources"
#: in resources/ but not bundled: the package's marker and the script that wrote the suites' tables
NOT_DATA = {"__init__.py", "data/suite/make_sklearn_csvs.py"}


def test_every_bundled_file_is_package_data():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"][PACKAGE]
    listed = {p.relative_to(RESOURCES).as_posix() for g in globs for p in RESOURCES.glob(g) if p.is_file()}
    files = {p.relative_to(RESOURCES).as_posix() for p in RESOURCES.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert files - NOT_DATA - listed == set()
    assert listed & NOT_DATA == set()


def test_the_checkout_is_what_the_editable_install_reads():
    assert resource_root() == RESOURCES
    assert bundled_example("alarm.bif").is_file()


def test_no_module_but_the_accessor_finds_bundled_files_by_itself():
    offenders = []
    for path in sorted((ROOT / "bnstudio").rglob("*.py")):
        if path.name == "resources.py" and path.parent.name == "bnstudio":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value == "_MEIPASS":
                offenders.append(f"{path.relative_to(ROOT)}: sys._MEIPASS")
            if isinstance(node, ast.Constant) and node.value == "resources":
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: a 'resources' path")
    assert offenders == []
