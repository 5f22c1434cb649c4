"""Influence diagrams in the desktop app: the decision panel (MEU, option values, policies, the error bar of
the expected utility, the utility table editor), the solver that keeps it current, showing an opened diagram in
the document, and ``install(window)`` that wires it all into the main window.

``DecisionPanel`` is imported on first use (PEP 562): the window builds the panel only when it is first needed
(:func:`~bnstudio.gui.decision_panel.wiring.decision_panel`), so its modules wait too."""
from __future__ import annotations

from typing import Any

from bnstudio.app.decisions.opening import show_diagram
from bnstudio.gui.decision_panel.solver import DecisionSolver
from bnstudio.gui.decision_panel.wiring import decision_panel, install

__all__ = ["DecisionPanel", "DecisionSolver", "decision_panel", "install", "show_diagram"]


def __getattr__(name: str) -> Any:
    if name == "DecisionPanel":
        from bnstudio.gui.decision_panel.panel import DecisionPanel
        return DecisionPanel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
