"""Every ``$ bnstudio query ...`` block of docs/temporal.md prints exactly what the page shows (docs/architecture.md
§3.20: numbers in the docs come from the command beside them)."""
from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.io import read_network

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "temporal.md"


def command_blocks() -> list[tuple[str, str]]:
    blocks = re.findall(r"```\n\$ (bnstudio query [^\n]+)\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    return [(command, output) for command, output in blocks]


def test_the_page_has_its_commands():
    assert len(command_blocks()) == 5


def test_the_learned_machine_is_what_the_pages_snippet_writes(tmp_path, monkeypatch):
    """The error-bar example's 2TBN with counts (resources/networks/temporal/machine_learned.bnsproj) is what the
    page's Python snippet writes: the snippet is run in a scratch folder and the two networks compared."""
    snippet = next(code for code in re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
                   if "machine_learned.bnsproj" in code)
    folder = tmp_path / "resources" / "networks" / "temporal"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "resources" / "networks" / "temporal" / "machine.bif", folder)
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet, "docs/temporal.md", "exec"), {})
    written = read_network(folder / "machine_learned.bnsproj")
    bundled = read_network(ROOT / "resources" / "networks" / "temporal" / "machine_learned.bnsproj")
    assert written.variables == bundled.variables
    for v in bundled.variables:
        assert written.parents(v) == bundled.parents(v)
        np.testing.assert_array_equal(written.cpt(v), bundled.cpt(v))
        np.testing.assert_array_equal(written.alpha(v), bundled.alpha(v))
    assert bundled.alpha("Weart") is not None


@pytest.mark.parametrize("command, output", command_blocks(), ids=lambda x: x[:60] if x.startswith("bn") else "")
def test_each_command_prints_what_the_page_shows(capsys, monkeypatch, command, output):
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[1:]) == 0
    printed = capsys.readouterr().out
    assert printed.rstrip() == output.rstrip()
