"""Each shared default and bound is written once (issue 41, "one home per default"): the credible level and the
default L2 penalty live in bnstudio/defaults.py, the bootstrap bags' bound in bnstudio/learn/bounds.py and a
structure learner's default score in its class; every other module reads them. The scan is of the source text, so
a copy pasted back (``level: float = 0.9``, ``setValue(90.0)``, a second ``MAX_BAGS =``, a help text saying
"10/N") fails here."""
from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bnstudio"
COPIES = {
    "the credible level": (re.compile(r"level\s*(:\s*float\s*)?=\s*0\.9\b|default=0\.9\b|setValue\(90(\.0)?\)",
                                      re.I), {"defaults.py"}),
    "the bound on bootstrap bags": (re.compile(r"^MAX_BAGS\s*=", re.M), {"learn/bounds.py"}),
    "a table of structure learners' default scores": (re.compile(r"DEFAULT_SCORE\s*=", re.M), set()),
    "the default L2 penalty": (re.compile(r"^DEFAULT_L2\s*=", re.M), {"defaults.py"}),
    "the default L2 penalty as text": (re.compile(r"\b10\s*/\s*N\b"), set()),   # help texts format DEFAULT_L2
}


def written(pattern: re.Pattern, root: Path = PACKAGE) -> set[str]:
    """The modules under ``root`` whose text matches ``pattern``."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*.py") if pattern.search(p.read_text(encoding="utf-8"))}


def test_each_default_has_one_home():
    for what, (pattern, home) in COPIES.items():
        assert written(pattern) == home, f"{what} is written in {sorted(written(pattern) ^ home)}"


def test_the_scan_finds_a_copy(tmp_path):
    """The check can fail: a module that writes the level again is found beside its home."""
    (tmp_path / "defaults.py").write_text("CREDIBLE_LEVEL = 0.9\n")
    (tmp_path / "panel.py").write_text("def f(level: float = 0.9):\n    return level\n")
    (tmp_path / "form.py").write_text("spin.setValue(100 * CREDIBLE_LEVEL)\n")
    assert written(COPIES["the credible level"][0], tmp_path) == {"defaults.py", "panel.py"}
