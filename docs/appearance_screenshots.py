"""Render the window light and dark at 1366x768 into docs/ (offscreen; no display needed):

    .venv/bin/python docs/appearance_screenshots.py [--size 1366x768 --out DIR]

The images are docs/screenshot-appearance-light.png and docs/screenshot-appearance-dark.png: ALARM with
HRBP = HIGH (the canvas centred on it: ALARM opens on its top), the Query panel (expert counts, a message in its
banner) and HR's probability table, as View ▸ Appearance ▸ Light and ▸ Dark draw them (docs/gui.md, "Light and
dark").
"""
from __future__ import annotations

from screenshot_script import NETWORKS, main, shot

from bnstudio.gui import theme


def _prepare(window) -> None:
    panel = window.query_panel
    panel.set_ess(10.0)
    panel.set_target({"LVFAILURE": "TRUE"})
    panel.messages.show_message("info", "Expert counts (ESS 10) give every CPT row its error bar.")


SHOTS = [shot(f"screenshot-appearance-{choice}.png", NETWORKS / "alarm.bif", evidence={"HRBP": "HIGH"},
              select="HR", centre="HRBP", docks=["query", "cpt"], prepare=_prepare, appearance=choice)
         for choice in (theme.LIGHT, theme.DARK)]

if __name__ == "__main__":
    main(SHOTS, __doc__)
