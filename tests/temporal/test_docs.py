"""Every ``$ bnstudio query ...`` block of docs/temporal.md prints exactly what the page shows (docs/architecture.md
§3.20: numbers in the docs come from the command beside them)."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bnstudio.cli import main

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "temporal.md"


def command_blocks() -> list[tuple[str, str]]:
    blocks = re.findall(r"```\n\$ (bnstudio query [^\n]+)\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    return [(command, output) for command, output in blocks]


def test_the_page_has_its_commands():
    assert len(command_blocks()) == 4


@pytest.mark.parametrize("command, output", command_blocks(), ids=lambda x: x[:60] if x.startswith("bn") else "")
def test_each_command_prints_what_the_page_shows(capsys, monkeypatch, command, output):
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[1:]) == 0
    printed = capsys.readouterr().out
    assert printed.rstrip() == output.rstrip()
