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

from pathlib import Path

from screenshot_script import NETWORKS, main, shot, wait_until

from bnstudio.gui.time_panel import time_panel

TEMPORAL = NETWORKS / "temporal"


def _computed(window, seconds: float = 60.0, band: bool = False) -> None:
    """Wait for the Time panel's job (the debounce timer, then the worker), and its error band if ``band``."""
    panel = time_panel(window)
    panel.compute()
    wait_until(lambda: not (panel.jobs.running or panel.result is None or panel._timer.isActive()
                            or (band and panel.bars is None)), seconds)


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


# machine over machine.csv, slice 5 (the first hot reading); umbrella, day 2 (the dry day); the learned machine
# model (Dirichlet counts) over machine.csv: Wear = broken with its error band; the umbrella edited
SHOTS = [shot(name, path, docks=["time"], prepare=prepare) for name, path, prepare in (
    ("screenshot-temporal-plate.png", TEMPORAL / "machine.bif", _showing("Wear", "broken", 5)),
    ("screenshot-temporal-time.png", TEMPORAL / "umbrella.bif", _showing("Rain", "yes", 2)),
    ("screenshot-temporal-band.png", TEMPORAL / "machine_learned.bnsproj",
     _showing("Wear", "broken", 5, TEMPORAL / "machine.csv", band=True)),
    ("screenshot-temporal-edit.png", TEMPORAL / "umbrella.bif", _edited))]

if __name__ == "__main__":
    main(SHOTS, __doc__)
