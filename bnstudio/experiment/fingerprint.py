"""A fingerprint of the code a task runs, so that a result computed by other code is never reused.

A task's result depends on the source of every ``bnstudio`` module its evaluation can execute. Those are found
without importing anything: starting from :data:`TASK_ROOTS`, every ``import bnstudio...`` and
``from bnstudio... import`` (relative ones too, and those inside functions: the evaluation imports its learners
lazily) is followed through the package's files, with the ``__init__`` of each package on the way (Python runs
it on import). The fingerprint is the SHA-256 of the sorted (module, source bytes) pairs, computed once per
process (about 0.03 s of CPU).

It is deliberately coarse: every learner is reachable from the evaluation (``make_learner`` imports them all),
so a change to any of them makes every task new. A comment or a docstring edit counts as a change too: a
fingerprint cannot tell a harmless edit from a harmful one, and recomputing is the safe side. Where the
sources are not files (a frozen app bundle), the fingerprint is ``"no-source"`` and the package version alone
tells code apart.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable

PACKAGE = "bnstudio"
ROOT = Path(__file__).resolve().parents[1]          # the bnstudio package folder
#: where a task's code starts: the worker runs :func:`bnstudio.experiment.evaluation.run_task`
TASK_ROOTS = ("bnstudio.experiment.evaluation",)


def module_path(name: str) -> Path | None:
    """The source file of the ``bnstudio`` module ``name`` (a package: its ``__init__.py``); None if there is
    none (a name imported from a module rather than a submodule)."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = ROOT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n#;]*)", re.M)


def _absolute(target: str, module: str, is_package: bool) -> str:
    """The absolute module of a ``from TARGET import`` in ``module`` (resolving ``from . import x``)."""
    level = len(target) - len(target.lstrip("."))
    if not level:
        return target
    parts = module.split(".")
    base = (parts if is_package else parts[:-1])[:len(parts) - level + (1 if is_package else 0)]
    rest = target[level:]
    return ".".join(base + ([rest] if rest else []))


def _names(text: str) -> list[str]:
    """The names of an import list ("a as b, c" or "(a,\n b)")."""
    return [item.split(" as ")[0].strip() for item in text.strip("()").replace("\n", " ").split(",")
            if item.strip()]


def imported_modules(name: str, path_of: Callable[[str], Path | None] = module_path) -> set[str]:
    """The ``bnstudio`` modules ``name`` imports anywhere in its source, inside functions too (each package on
    the way included). A text scan, not a parse (3 times faster); an import named in a docstring counts too,
    which can only make the fingerprint cover more. ``path_of``: :func:`module_path`, or a memo of it."""
    path = path_of(name)
    if path is None:
        return set()
    source = path.read_text(encoding="utf-8")
    found = {m for match in _IMPORT.finditer(source) for m in _names(match.group(1))}
    for target, names in _FROM.findall(source):
        base = _absolute(target, name, path.name == "__init__.py")
        found.add(base)
        found.update(f"{base}.{n}" for n in _names(names))       # submodules imported by name
    return {parent for m in found if m.split(".")[0] == PACKAGE for parent in _with_parents(m)
            if path_of(parent) is not None}


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts) + 1)]


def closure(roots: tuple[str, ...] = TASK_ROOTS) -> list[str]:
    """Every ``bnstudio`` module reachable from ``roots`` by imports, sorted. Each name's file is looked up once
    (a study's driver computes this before its first task: 7,800 lookups, two file-system checks each, became
    about 400)."""
    paths: dict[str, Path | None] = {}

    def path_of(name: str) -> Path | None:
        if name not in paths:
            paths[name] = module_path(name)
        return paths[name]

    seen: set[str] = set()
    todo = [p for root in roots for p in _with_parents(root)]
    while todo:
        name = todo.pop()
        if name not in seen and path_of(name) is not None:
            seen.add(name)
            todo.extend(imported_modules(name, path_of) - seen)
    return sorted(seen)


def source_digest(modules: list[str]) -> str:
    """SHA-256 (16 hex digits) of the (name, source bytes) of ``modules``, in the order given."""
    digest = hashlib.sha256()
    for name in modules:
        path = module_path(name)
        assert path is not None, name  # the modules listed are those with a source file
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@lru_cache(maxsize=None)
def code_fingerprint(roots: tuple[str, ...] = TASK_ROOTS) -> str:
    """The :func:`source_digest` of every module in :func:`closure` of ``roots`` (``"no-source"`` without
    source files); computed once per process."""
    modules = closure(roots)
    return source_digest(modules) if modules else "no-source"
