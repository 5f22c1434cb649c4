"""Render the canvas's first sights and a note into docs/ (offscreen; no display needed), issues 23 and 38:

    .venv/bin/python docs/canvas_screenshots.py [--out DIR]

At 1366x768: docs/screenshot-first-sight-alarm.png (every state, whole names), -child.png (no arc under another
node), -alarm-tan.png (the TAN example: bar charts, not Compact at 32 %), -munin.png (munin from pgmpy's package
data, if installed: text, not an overview) and docs/screenshot-canvas-note.png (a text note on asia); at
1920x1080 docs/screenshot-first-sight-alarm-1920.png, -child-1920.png and -munin-1920.png.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPointF  # noqa: E402

from bnstudio.gui.screenshot import render_screenshot  # noqa: E402

NETWORKS = ROOT / "resources" / "networks"


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    small, large = (1366, 768), (1920, 1080)
    shots = [("first-sight-alarm", NETWORKS / "alarm.bif", small, None),
             ("first-sight-child", NETWORKS / "child.bif", small, None),
             ("first-sight-alarm-tan", NETWORKS / "alarm-tan-clgd-20k.bnsproj", small, None),
             ("first-sight-munin", munin(), small, None),
             ("first-sight-alarm-1920", NETWORKS / "alarm.bif", large, None),
             ("first-sight-child-1920", NETWORKS / "child.bif", large, None),
             ("first-sight-munin-1920", munin(), large, None),
             ("canvas-note", NETWORKS / "asia.bif", small, _note)]
    for name, path, size, prepare in shots:
        if path is None:
            print(f"skipped {name}: munin is not in pgmpy's package data")
            continue
        out = render_screenshot(args.out / f"screenshot-{name}.png", path, size, prepare=prepare)
        print("wrote", out)


if __name__ == "__main__":
    main()
