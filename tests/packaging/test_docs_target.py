"""`make docs` (issue 39): a phony target (a docs/ folder exists) building the API reference with Sphinx, whose
versions are pinned like every other; docs/api/conf.py makes the docstrings' plain-text maths literal for
reStructuredText without touching backquoted code, emphasis, literal blocks or doctests."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


def _conf():
    return load_script("docs/api/conf.py", "api_conf")


def test_docs_is_a_phony_target_with_warnings_as_errors():
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    phony = re.search(r"^\.PHONY:(.*)$", make, re.M)
    assert phony and "docs" in phony.group(1).split()
    recipe = re.search(r"^docs: .*\n((?:\t.*\n)+)", make, re.M)
    assert recipe and "sphinx -W" in recipe.group(1) and "docs/api" in recipe.group(1)


def test_the_docs_and_sklearn_extras_are_pinned():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    pins = {line.split("==")[0].lower().replace("_", "-")
            for line in (ROOT / "packaging" / "constraints.txt").read_text(encoding="utf-8").splitlines()
            if "==" in line and not line.startswith("#")}
    for extra in ("docs", "sklearn"):
        for requirement in extras[extra]:
            name = re.split(r"[<>=!\[ ]", requirement, maxsplit=1)[0].lower()
            assert name in pins, f"{extra}: {name} is not pinned in packaging/constraints.txt"
    assert "scikit-learn>=1.6" in extras["test"]


def test_plain_maths_is_made_literal_and_the_rest_kept():
    conf = _conf()
    assert conf.plain_maths("(N, *family) over |X| states") == r"(N, \*family) over \|X\| states"
    assert conf.plain_maths("len(classes_) and F_-m") == r"len(classes\_) and F\_-m"
    assert conf.plain_maths("the guides, docs/*.md") == r"the guides, docs/\*.md"
    assert conf.plain_maths("**strong**, *emphasis*, ``a|b*c_``") == "**strong**, *emphasis*, ``a|b*c_``"
    lines = ["A formula::", "", "    P(y | x) * c_", "", "after |X|", ">>> f(a|b)", "1", "", "x*y_"]
    conf.escape_maths(None, "function", "f", None, {}, lines)
    assert lines == ["A formula::", "", "    P(y | x) * c_", "", r"after \|X\|", ">>> f(a|b)", "1", "", r"x\*y\_"]
