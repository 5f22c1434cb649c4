"""Influence diagrams: the model (chance network + decisions + utilities), exact no-forgetting solution by
rollback, LIMID single policy update, and the delta-method error bar on an expected utility."""
from bnstudio.decision.errorbar import UtilityErrorBar, utility_error_bar
from bnstudio.decision.model import DecisionNode, InfluenceDiagram, UtilityNode
from bnstudio.decision.serial import build_influence_diagram
from bnstudio.decision.solve import DecisionSolution, solve

__all__ = ["DecisionNode", "DecisionSolution", "InfluenceDiagram", "UtilityErrorBar", "UtilityNode",
           "build_influence_diagram", "solve", "utility_error_bar"]
