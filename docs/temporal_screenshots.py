"""Render the temporal plate and the Time panel of the bundled dynamic networks into docs/ (offscreen):

    .venv/bin/python docs/temporal_screenshots.py [--size 1366x768 --out DIR]

At 1366x768 (the default) the images are docs/screenshot-temporal-plate.png (the machine monitoring model:
the plate, slice 0 and the dashed arcs from slice t−1, the Time panel at slice 5 of its twelve readings) and
docs/screenshot-temporal-time.png (the umbrella HMM smoothed over the book's five days, the belief of rain
across time with the slider at day 2) and docs/screenshot-temporal-band.png (the machine model learned with mp
from sequences, smoothed over machine.csv: p(Wear = broken) with its 90 % error band) and
docs/screenshot-temporal-edit.png (the umbrella evidence edited cell by cell: Rain = no set on day 3, the
umbrella of day 1 cleared).
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


def _computed(window, seconds: float = 60.0, band: bool = False) -> None:
    """Wait for the Time panel's job (the debounce timer, then the worker), and its error band if ``band``."""
    panel = time_panel(window)
    panel.compute()
    end = time.monotonic() + seconds
    while (panel.jobs.running or panel.result is None or panel._timer.isActive() or (band and panel.bars is None)) \
            and time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def _showing(variable: str, state: str, k: int, table: Path | None = None, band: bool = False):
    """A ``prepare`` that plots ``variable = state`` over time (with ``table`` as evidence, and waiting for the
    error band when ``band``) and puts slice ``k`` on the canvas."""
    def prepare(window) -> None:
        panel = time_panel(window)
        if table is not None:
            panel.load_table(table)
        panel.variable.setCurrentText(variable)
        panel.state.setCurrentText(state)
        _computed(window, band=band)
        panel.slider.setValue(k)
    return prepare


def _edited(window) -> None:
    """The umbrella timeline edited in the panel's cells: Rain = no on day 3, day 1's umbrella cleared."""
    _showing("Rain", "yes", 3)(window)
    panel = time_panel(window)
    panel.set_cell(3, "Rain", "no")
    panel.set_cell(1, "Umbrella", None)
    _computed(window)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    out = Path(args.out)
    shots = [  # machine over machine.csv, slice 5 (the first hot reading); umbrella, day 2 (the dry day); the
        # learned machine model (Dirichlet counts) over machine.csv: Wear = broken with its error band
        ("screenshot-temporal-plate.png", TEMPORAL / "machine.bif", _showing("Wear", "broken", 5)),
        ("screenshot-temporal-time.png", TEMPORAL / "umbrella.bif", _showing("Rain", "yes", 2)),
        ("screenshot-temporal-band.png", TEMPORAL / "machine_learned.bnsproj",
         _showing("Wear", "broken", 5, TEMPORAL / "machine.csv", band=True)),
        ("screenshot-temporal-edit.png", TEMPORAL / "umbrella.bif", _edited)]
    for name, path, prepare in shots:
        print("wrote", render_screenshot(out / name, path, size, docks=["time"], prepare=prepare))


if __name__ == "__main__":
    main()
