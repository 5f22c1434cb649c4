"""Regenerate the 1366x768 screenshots of each user's first hour (offscreen; no display needed):

    .venv/bin/python docs/screenshots_first_hour.py [--size 1366x768 --out DIR]

The expert's network with its table, the student's training curves after three runs, the analyst's error bars
with a Monte-Carlo check, all on a laptop-sized window with the default dock layout.
"""
from __future__ import annotations

from screenshot_script import NETWORKS, main, shot, wait_until

from bnstudio.gui.panels import load_example_data

ASIA = NETWORKS / "asia.bif"


def expert(window) -> None:
    window.scene.select_only(["either"])
    window.document.set_evidence("smoke", "yes")
    window.view.fit_to_view()


def student(window) -> None:
    load_example_data(window, ASIA)
    wait_until(lambda: window.training_panel.selection is not None)
    window.data_panel.split.target.setCurrentText("lung")
    wait_until(lambda: window.training_panel.selection.target == "lung")
    panel = window.training_panel
    for method in ("mp", "em", "clgd"):
        panel.options.set_method(method)
        count = len(panel.runs)
        panel.run()
        wait_until(lambda count=count: len(panel.runs) > count and panel.live is None)
    panel.options.set_method("clgd")
    window.show_dock("training")


def analyst(window) -> None:
    load_example_data(window, ASIA)
    wait_until(lambda: window.training_panel.selection is not None)
    query = window.query_panel
    window.show_dock("query")
    query.set_target({"lung": "yes"})
    window.document.set_evidence("xray", "yes")
    window.document.set_evidence("smoke", "yes")
    query.set_ess(50.0)
    wait_until(lambda: query.density.bars is not None)
    query.run_monte_carlo(draws=4000, seed=1)
    wait_until(lambda: query.density.check is not None)


SHOTS = [shot(f"screenshot-first-hour-{name}.png", ASIA, prepare=prepare)
         for name, prepare in (("expert", expert), ("student", student), ("analyst", analyst))]

if __name__ == "__main__":
    main(SHOTS, __doc__)
