"""docs/screenshot_script.py, what the docs' screenshot scripts share: the command line (``--size``, ``--out``),
the loop over a script's shots, and each script's shots naming the images the pages show."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests.scripts import ROOT, load_script

SCRIPTS = ("appearance_screenshots", "reasoning_screenshots", "temporal_screenshots", "screenshots",
           "screenshots_first_hour")


@pytest.fixture
def helper(monkeypatch):
    """The module as the scripts import it (``python docs/X.py`` has docs/ on the path)."""
    monkeypatch.syspath_prepend(str(ROOT / "docs"))
    return importlib.import_module("screenshot_script")


def test_each_shot_is_rendered_at_its_size_or_the_command_lines_then_passed_on(helper, monkeypatch, tmp_path, capsys):
    from bnstudio.gui import screenshot

    calls = []

    def render(out, path, size, **options):
        calls.append((out, path, size, options))
        return Path(out)

    monkeypatch.setattr(screenshot, "render_screenshot", render)
    read = []

    def shots():
        read.append(True)      # read after the command line: --help builds nothing
        yield helper.shot("a.png", ROOT / "x.bif", docks=["query"], centre="HRBP")
        yield helper.shot("b.png", None, (1920, 1080), then=lambda p: p.with_suffix(".small.png"))

    written = helper.main(shots(), "Doc line.\n\nMore.", ["--size", "800x600", "--out", str(tmp_path)])
    assert calls == [(tmp_path / "a.png", ROOT / "x.bif", (800, 600), {"docks": ["query"], "centre": "HRBP"}),
                     (tmp_path / "b.png", None, (1920, 1080), {})]
    assert written == [tmp_path / "a.png", tmp_path / "b.small.png"]
    assert capsys.readouterr().out.splitlines() == [f"wrote {p}" for p in written]
    assert helper.arguments(None, []).size == (1366, 768) and helper.arguments(None, []).out == ROOT / "docs"
    with pytest.raises(SystemExit):
        helper.main(shots(), "Doc line.", ["--help"])
    assert read == [True]


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_scripts_shots_are_the_images_in_docs(name, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "docs"))
    script = load_script(f"docs/{name}.py", f"{name}_under_test")
    assert script.SHOTS
    for shot in script.SHOTS:
        assert (ROOT / "docs" / shot.name).is_file(), shot.name
        assert shot.path is None or shot.path.is_file(), shot.path
