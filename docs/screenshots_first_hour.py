"""Regenerate the 1366x768 screenshots of each user's first hour (offscreen; no display needed):

    .venv/bin/python docs/screenshots_first_hour.py

The expert's network with its table, the student's training curves after three runs, the analyst's error bars
with a Monte-Carlo check, all on a laptop-sized window with the default dock layout.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from bnstudio.gui.panels import load_example_data  # noqa: E402
from bnstudio.gui.screenshot import render_screenshot  # noqa: E402

NETWORKS = ROOT / "resources" / "networks"
DOCS = ROOT / "docs"
SIZE = (1366, 768)


def wait_for(condition, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the window did not get there in time")
        QApplication.processEvents()
        time.sleep(0.01)


def expert(window) -> None:
    window.scene.select_only(["either"])
    window.document.set_evidence("smoke", "yes")
    window.view.fit_to_view()


def student(window) -> None:
    load_example_data(window, NETWORKS / "asia.bif")
    wait_for(lambda: window.training_panel.selection is not None)
    window.data_panel.split.target.setCurrentText("lung")
    wait_for(lambda: window.training_panel.selection.target == "lung")
    panel = window.training_panel
    for method in ("mp", "em", "clgd"):
        panel.options.set_method(method)
        count = len(panel.runs)
        panel.run()
        wait_for(lambda count=count: len(panel.runs) > count and panel.live is None)
    panel.options.set_method("clgd")
    window.show_dock("training")


def analyst(window) -> None:
    load_example_data(window, NETWORKS / "asia.bif")
    wait_for(lambda: window.training_panel.selection is not None)
    query = window.query_panel
    window.show_dock("query")
    query.set_target({"lung": "yes"})
    window.document.set_evidence("xray", "yes")
    window.document.set_evidence("smoke", "yes")
    query.set_ess(50.0)
    wait_for(lambda: query.density.bars is not None)
    query.run_monte_carlo(draws=4000, seed=1)
    wait_for(lambda: query.density.check is not None)


def main() -> None:
    for name, prepare in (("expert", expert), ("student", student), ("analyst", analyst)):
        out = render_screenshot(DOCS / f"screenshot-first-hour-{name}.png", NETWORKS / "asia.bif", SIZE,
                                prepare=prepare)
        print("wrote", out)


if __name__ == "__main__":
    main()
