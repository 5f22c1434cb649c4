"""Influence diagrams in the desktop app: the decision panel (MEU, option values, policies, the error bar of
the expected utility, the utility table editor), the solver that keeps it current, showing an opened diagram in
the document, and ``install(window)`` that wires it all into the main window."""
from bnstudio.gui.decision_panel.opening import show_diagram
from bnstudio.gui.decision_panel.panel import DecisionPanel
from bnstudio.gui.decision_panel.solver import DecisionSolver
from bnstudio.gui.decision_panel.wiring import install

__all__ = ["DecisionPanel", "DecisionSolver", "install", "show_diagram"]
