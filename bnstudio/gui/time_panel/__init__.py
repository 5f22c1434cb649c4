"""Dynamic Bayesian networks in the desktop app: the Time dock of a two-slice network (the panel is built on
first use, like the analysis panels) and ``install(window)`` that wires it into the main window. The canvas's
temporal plate is :mod:`bnstudio.gui.canvas.temporal_plate`."""
from __future__ import annotations

from bnstudio.gui.time_panel.wiring import install, time_panel

__all__ = ["install", "time_panel"]
