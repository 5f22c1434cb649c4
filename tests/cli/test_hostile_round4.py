"""Issue 42 (hostile inputs, round 4) on the command line: each case ends in one ``bnstudio: error:`` line, and
before the work it would waste."""
from __future__ import annotations

from pathlib import Path

from tests.hostile.helpers import ASIA, bnstudio

ASIA_CSV = Path(__file__).resolve().parents[2] / "resources" / "data" / "asia.csv"


def test_an_unknown_output_extension_is_refused_before_the_fit(tmp_path):
    done = bnstudio("fit", ASIA, ASIA_CSV, "--method", "em", "-o", tmp_path / "out.xyz", timeout=120)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "unknown file type" in lines[0], done.stderr
    assert done.stdout == ""  # no EM iteration was run (each prints a line)
    assert list(tmp_path.iterdir()) == []
