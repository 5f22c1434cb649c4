"""Sphinx configuration of the API reference (``make docs``): the docstrings of the public modules, read by
autodoc, numpy-style sections by napoleon; warnings are errors (the Makefile passes -W)."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))              # the checkout's bnstudio, not an installed copy
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

project = "BN Studio"
author = "BN Studio authors"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon"]
templates_path = ["_templates"]             # a module page: its docstring, members, then its submodules
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True,
                           "ignore-module-all": True}   # a package's re-exports are documented where defined
autodoc_typehints = "description"
autodoc_member_order = "bysource"
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False
nitpicky = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_title = "BN Studio API reference"
suppress_warnings: list[str] = []

#: text between backquotes (``literal``, `role`): left as written
CODE = re.compile(r"(``.+?``|`[^`]+`)")
#: emphasis or strong text (``*word*``, ``**word**``): kept
EMPHASIS = re.compile(r"((?<![\w*\\])\*{1,2}[^\s*][^*]*?(?<=[^\s*\\])\*{1,2}(?![\w*]))")
#: any other asterisk before text: ``(N, *family)``, ``**options``, ``docs/*.md``, not emphasis
LONE_STAR = re.compile(r"(?<![\\*])\*{1,2}(?=[^\s*])")
#: a word ending in an underscore (``classes_``, ``F_-m``): not a hyperlink reference
TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?!\w)")


def _escaped(match: re.Match) -> str:
    return match.group(0).replace("*", "\\*")


def _stars(text: str) -> str:
    """``text`` with every asterisk that is not emphasis escaped."""
    parts = EMPHASIS.split(text)
    return "".join(part if k % 2 else LONE_STAR.sub(_escaped, part) for k, part in enumerate(parts))


def plain_maths(text: str) -> str:
    """One docstring line's plain-text maths made literal for reStructuredText: ``|X|`` (a cardinality) is not a
    substitution, ``*family`` not emphasis, ``classes_`` not a reference; backquoted parts are left alone."""
    parts = CODE.split(text)
    out = []
    for k, part in enumerate(parts):
        if k % 2 == 0:
            part = TRAILING_UNDERSCORE.sub(r"\\_", _stars(part.replace("|", "\\|")))
        out.append(part)
    return "".join(out)


def escape_maths(app, what, name, obj, options, lines) -> None:
    """autodoc-process-docstring: :func:`plain_maths` on the lines of running text (the docstrings are written
    to read well in ``help``), not on literal blocks (after ``::``) or doctests."""
    literal: int | None = None
    doctest = False
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if literal is not None and stripped and indent <= literal:
            literal = None
        doctest = stripped.startswith(">>>") or (doctest and bool(stripped))
        if literal is None and not doctest:
            lines[i] = plain_maths(line)
        if literal is None and stripped.endswith("::"):
            literal = indent


def skip_foreign(app, what, name, obj, skip, options):
    """autodoc-skip-member: members scikit-learn adds to our estimators (``set_score_request``) are its own."""
    return True if getattr(obj, "__module__", "") and str(obj.__module__).startswith("sklearn") \
        else None


def setup(app) -> None:
    app.connect("autodoc-process-docstring", escape_maths)
    app.connect("autodoc-skip-member", skip_foreign)
