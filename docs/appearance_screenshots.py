"""Render the window light and dark at 1366x768 into docs/ (offscreen; no display needed):

    .venv/bin/python docs/appearance_screenshots.py [--size 1366x768 --out DIR]

The images are docs/screenshot-appearance-light.png and docs/screenshot-appearance-dark.png: ALARM with
HRBP = HIGH, the Query panel (expert counts, a message in its banner) and HR's probability table, as View ▸
Appearance ▸ Light and ▸ Dark draw them (docs/gui.md, "Light and dark").
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bnstudio.gui import theme  # noqa: E402
from bnstudio.gui.screenshot import render_screenshot  # noqa: E402

NETWORKS = ROOT / "resources" / "networks"


def _prepare(window) -> None:
    panel = window.query_panel
    panel.set_ess(10.0)
    panel.set_target({"LVFAILURE": "TRUE"})
    panel.messages.show_message("info", "Expert counts (ESS 10) give every CPT row its error bar.")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    out = Path(args.out)
    for choice in (theme.LIGHT, theme.DARK):
        name = f"screenshot-appearance-{choice}.png"
        print("wrote", render_screenshot(out / name, NETWORKS / "alarm.bif", size, {"HRBP": "HIGH"}, select="HR",
                                         docks=["query", "cpt"], prepare=_prepare, appearance=choice))


if __name__ == "__main__":
    main()
