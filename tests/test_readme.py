"""The README's Python example runs as written (from the repository root)."""
from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_example_runs(capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        namespace: dict = {}
        exec(compile(block, "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    assert "HYPOVOLEMIA" in capsys.readouterr().out
    counts = namespace["counts"]
    assert abs(counts["HYPOVOLEMIA"].sum() - 10_000) < 1e-6
