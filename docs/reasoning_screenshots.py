"""Render the query panel's reasoning tabs and a do() finding into docs/ (offscreen; no display needed):

    .venv/bin/python docs/reasoning_screenshots.py [--size 1920x1080 --out DIR]

At 1366x768 (the default) the images are docs/screenshot-query-voi.png, docs/screenshot-query-explanations.png,
docs/screenshot-do-finding.png and docs/screenshot-query-tornado.png.
"""
from __future__ import annotations

from screenshot_script import NETWORKS, main, shot

from bnstudio.app.commands.findings import DO


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


ASIA = NETWORKS / "asia.bif"
SHOTS = [shot(name, path, evidence=evidence, docks=["query"], prepare=prepare) for name, path, evidence, prepare in (
    ("screenshot-query-voi.png", NETWORKS / "alarm.bif", {"HRBP": "HIGH"}, _voi),
    ("screenshot-query-explanations.png", ASIA, {"xray": "yes", "dysp": "yes"}, _explanations),
    ("screenshot-do-finding.png", ASIA, {"dysp": "yes"}, _do_finding),
    ("screenshot-query-tornado.png", ASIA, {"dysp": "yes"}, _tornado))]

if __name__ == "__main__":
    main(SHOTS, __doc__)
