"""The README's Python examples run as written (from the repository root), in order."""
from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_example_runs(capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    block = "\n".join(blocks)
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
    bars = namespace["bars"]
    assert 0 < bars.mean < 1 and bars.sd > 0 and bars.mc.r == 1000
