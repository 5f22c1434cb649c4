"""Render the query panel's reasoning tabs and a do() finding into docs/ (offscreen; no display needed):

    .venv/bin/python docs/reasoning_screenshots.py [--size 1920x1080 --out DIR]

At 1366x768 (the default) the images are docs/screenshot-query-voi.png, docs/screenshot-query-explanations.png,
docs/screenshot-do-finding.png and docs/screenshot-query-tornado.png.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bnstudio.app.commands.findings import DO  # noqa: E402
from bnstudio.gui.screenshot import render_screenshot  # noqa: E402

NETWORKS = ROOT / "resources" / "networks"


def _voi(window) -> None:
    """ALARM: what to observe next for LVFAILURE given HRBP = HIGH, relevance shown on the canvas."""
    panel = window.query_panel
    panel.set_target({"LVFAILURE": "TRUE"})
    panel.tabs.setCurrentWidget(panel.reasoning.voi)
    panel.reasoning.voi.relevance.setChecked(True)


def _explanations(window) -> None:
    """ASIA: the three most probable explanations given xray = yes and dysp = yes, MAP over lung and bronc."""
    panel = window.query_panel
    panel.set_ess(20.0)
    panel.set_target({"lung": "yes", "bronc": "yes"})
    panel.tabs.setCurrentWidget(panel.reasoning.explanations)


def _do_finding(window) -> None:
    """ASIA: do(lung = yes) beside the observation dysp = yes; the answer p(smoke | do(lung=yes), dysp=yes)."""
    window.document.set_finding("lung", "yes", DO)
    panel = window.query_panel
    panel.set_ess(20.0)
    panel.set_target({"smoke": "yes"})
    panel.tabs.setCurrentIndex(0)


def _tornado(window) -> None:
    """ASIA with expert counts (ESS 20): the parameters that move p(lung = yes | dysp = yes) most."""
    panel = window.query_panel
    panel.set_ess(20.0)
    panel.set_target({"lung": "yes"})
    panel.tabs.setCurrentWidget(panel.tornado)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    out = Path(args.out)
    shots = [("screenshot-query-voi.png", NETWORKS / "alarm.bif", {"HRBP": "HIGH"}, _voi),
             ("screenshot-query-explanations.png", NETWORKS / "asia.bif", {"xray": "yes", "dysp": "yes"},
              _explanations),
             ("screenshot-do-finding.png", NETWORKS / "asia.bif", {"dysp": "yes"}, _do_finding),
             ("screenshot-query-tornado.png", NETWORKS / "asia.bif", {"dysp": "yes"}, _tornado)]
    for name, path, evidence, prepare in shots:
        print("wrote", render_screenshot(out / name, path, size, evidence, docks=["query"], prepare=prepare))


if __name__ == "__main__":
    main()
