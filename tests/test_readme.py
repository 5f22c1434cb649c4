"""The README's Python examples run as written (from the repository root), in order."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

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


def readme_commands() -> list[str]:
    """The command-line block of the README, one command per entry: continuation lines joined, comments and
    the ``N=...; D=...`` line dropped (the tests set N and D themselves)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Command line\n\n```bash\n(.*?)```", text, re.S)
    assert block, "the README's command-line block"
    lines = block.group(1).replace("\\\n", " ").splitlines()
    commands = [re.sub(r"\s+#.*$", "", line).strip() for line in lines]
    return [c for c in commands if c and not c.startswith(("#", "N="))]


# Commands of the README run as written (issue 35: each of these failed as written). Each group runs in order in
# one fresh folder; the only change is ``--max-iter 2`` after the folder-of-parts fit, which otherwise runs EM
# to convergence on a Dask cluster (minutes on a busy machine).
GROUPS = {"queries": ("--queries",),
          "parts": ("mkdir -p parts", "parts/ --method em"),
          "wanbia": ("bnstudio learn $D/asia.csv", "--method wanbia"),
          "reasoning": ("--mpe --top 3", "--map lung", "--do lung=yes", "bnstudio voi", "--dsep asia smoke", "--approximate", "--tornado")}


@pytest.mark.parametrize("group", GROUPS)
def test_readme_commands_run_as_written(tmp_path, group):
    if group == "parts":
        pytest.importorskip("distributed")
    commands = [next(c for c in readme_commands() if key in c) for key in GROUPS[group]]
    if group == "parts":
        commands[-1] += " --max-iter 2"
    env = {**os.environ, "N": str(ROOT / "resources/networks"), "D": str(ROOT / "resources/data"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, f"{command}\n{done.stderr}"
        assert "bnstudio: error" not in done.stderr
