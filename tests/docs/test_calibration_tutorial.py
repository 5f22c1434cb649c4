"""docs/tutorial-calibration.md: its table is what docs/calibration_tutorial.py computes now, the CLI command it
prints gives the same row, and its Python snippet runs."""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from bnstudio.cli import main
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "tutorial-calibration.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def tutorial():
    return load_script("docs/calibration_tutorial.py", "calibration_tutorial")


@pytest.fixture(scope="module")
def found(tutorial):
    return tutorial.results()


def test_the_page_table_is_regenerated_by_its_script(tutorial, found):
    shown = re.search(r"<!-- calibration-table -->\n(.*?)\n<!-- /calibration-table -->", PAGE, re.S)
    assert shown is not None
    assert shown.group(1) == tutorial.table(found)


def test_the_cli_command_on_the_page_gives_the_row(tutorial, found, tmp_path, capsys):
    nb = tmp_path / "nb-child.bif"
    assert main(["learn", str(tutorial.DATA), "-a", "nb", "--target", "Disease", "-o", str(nb)]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(nb), str(tutorial.DATA), "--target", "Disease", "--folds", "10", "--method", "mp",
                 "--seed", "1", "--figures", str(tmp_path / "figs"), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    for key in tutorial.COLUMNS:
        assert payload[key] == pytest.approx(found["mp"][0][key], rel=1e-12)
    assert sorted(p.name for p in (tmp_path / "figs").iterdir()) == [
        "reliability-Disease.png", "reliability-Disease.svg", "roc-Disease.png", "roc-Disease.svg"]
    assert payload["figures"] == [str(tmp_path / "figs" / n) for n in
                                  ("roc-Disease.png", "roc-Disease.svg", "reliability-Disease.png",
                                   "reliability-Disease.svg")]


def test_the_python_snippet_runs(tutorial, tmp_path, capsys):
    nb = tmp_path / "nb-child.bif"
    assert main(["learn", str(tutorial.DATA), "-a", "nb", "--target", "Disease", "-o", str(nb)]) == 0
    code = re.search(r"  ```python\n(.*?)  ```", PAGE, re.S)
    assert code is not None
    source = textwrap.dedent(code.group(1)).replace('"nb-child.bif"', repr(str(nb))).replace(
        '"resources/data/child.csv"', repr(str(tutorial.DATA)))
    scope: dict = {}
    exec(compile(source, "tutorial-calibration.md", "exec"), scope)
    shown = scope["compare"](scope["fits"], scope["test"], scope["net"], "Disease")
    assert shown.html.count("<svg") >= 2 and "ECE" in shown.html
