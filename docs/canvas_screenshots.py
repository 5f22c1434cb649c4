"""Render the canvas's first sights and a note into docs/ (offscreen; no display needed), issues 23 and 38:

    .venv/bin/python docs/canvas_screenshots.py [--out DIR]

At 1366x768: docs/screenshot-first-sight-alarm.png (every state, whole names), -child.png (no arc under another
node), -alarm-tan.png (the TAN example: bar charts, not Compact at 32 %), -munin.png (munin from pgmpy's package
data, if installed: text, not an overview) and docs/screenshot-canvas-note.png (a text note on asia); at
1920x1080 docs/screenshot-first-sight-alarm-1920.png, -child-1920.png and -munin-1920.png.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF
from screenshot_script import NETWORKS, main, shot


def _note(window) -> None:
    """Asia with a note left of "either", as a user writes one (right-click ▸ Add note here…)."""
    node = window.scene.nodes["either"]
    corner = node.sceneBoundingRect().topLeft() - QPointF(250.0, 0.0)
    window.scene.add_note_at(corner, "either = tub OR lung:\na deterministic node (its CPT is a truth table)")


def munin() -> Path | None:
    try:
        import pgmpy
    except ImportError:
        return None
    path = Path(pgmpy.__file__).parent / "utils" / "example_models" / "munin.bif.gz"
    return path if path.exists() else None


def shots():
    """The first sights at both sizes (munin only if pgmpy ships it) and the note."""
    small, large = (1366, 768), (1920, 1080)
    for name, path, size in (("first-sight-alarm", NETWORKS / "alarm.bif", small),
                             ("first-sight-child", NETWORKS / "child.bif", small),
                             ("first-sight-alarm-tan", NETWORKS / "alarm-tan-clgd-20k.bnsproj", small),
                             ("first-sight-munin", munin(), small),
                             ("first-sight-alarm-1920", NETWORKS / "alarm.bif", large),
                             ("first-sight-child-1920", NETWORKS / "child.bif", large),
                             ("first-sight-munin-1920", munin(), large)):
        if path is None:
            print(f"skipped {name}: munin is not in pgmpy's package data")
        else:
            yield shot(f"screenshot-{name}.png", path, size)
    yield shot("screenshot-canvas-note.png", NETWORKS / "asia.bif", small, prepare=_note)


if __name__ == "__main__":
    main(shots(), __doc__)
