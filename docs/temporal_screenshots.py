"""Render the temporal plate and the Time panel of the bundled dynamic networks into docs/ (offscreen):

    .venv/bin/python docs/temporal_screenshots.py [--size 1366x768 --out DIR]

At 1366x768 (the default) the images are docs/screenshot-temporal-plate.png (the machine monitoring model:
the plate, slice 0 and the dashed arcs from slice t−1, the Time panel at slice 5 of its twelve readings) and
docs/screenshot-temporal-time.png (the umbrella HMM smoothed over the book's five days, the belief of rain
across time with the slider at day 2) and docs/screenshot-temporal-band.png (the machine model learned with mp
from sequences, smoothed over machine.csv: p(Wear = broken) with its 90 % error band).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from bnstudio.gui.screenshot import render_screenshot  # noqa: E402
from bnstudio.gui.time_panel import time_panel  # noqa: E402

TEMPORAL = ROOT / "resources" / "networks" / "temporal"


def _computed(window, seconds: float = 60.0) -> None:
    """Wait for the Time panel's job (the debounce timer, then the worker)."""
    panel = time_panel(window)
    panel.compute()
    end = time.monotonic() + seconds
    while (panel.jobs.running or panel.result is None or panel._timer.isActive()) and time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def _plate(window) -> None:
    """The machine model smoothed over machine.csv, slice 5 (the first hot reading) on the canvas."""
    panel = time_panel(window)
    _computed(window)
    panel.variable.setCurrentText("Wear")
    panel.state.setCurrentText("broken")
    panel.slider.setValue(5)


def _time(window) -> None:
    """The umbrella HMM smoothed over the five days; Rain = yes across time, the slider at day 2 (dry)."""
    panel = time_panel(window)
    _computed(window)
    panel.variable.setCurrentText("Rain")
    panel.state.setCurrentText("yes")
    panel.slider.setValue(2)


def _band(window) -> None:
    """The learned machine model (Dirichlet counts) over machine.csv: Wear = broken with its error band."""
    panel = time_panel(window)
    panel.load_table(TEMPORAL / "machine.csv")
    panel.variable.setCurrentText("Wear")
    panel.state.setCurrentText("broken")
    _computed(window)
    end = time.monotonic() + 60
    while (panel.bars is None or panel.jobs.running or panel._timer.isActive()) and time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)
    panel.slider.setValue(5)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    out = Path(args.out)
    shots = [("screenshot-temporal-plate.png", TEMPORAL / "machine.bif", _plate),
             ("screenshot-temporal-time.png", TEMPORAL / "umbrella.bif", _time),
             ("screenshot-temporal-band.png", TEMPORAL / "machine_learned.bnsproj", _band)]
    for name, path, prepare in shots:
        print("wrote", render_screenshot(out / name, path, size, docks=["time"], prepare=prepare))


if __name__ == "__main__":
    main()
