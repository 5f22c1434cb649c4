"""Undoable edits: one user edit = one plain command = one core mutation (docs/architecture.md §3.3)."""
from bnstudio.app.commands.arcs import AddArc, RemoveArc, ReverseArc
from bnstudio.app.commands.base import Family, NetworkCommand, restore, snapshot
from bnstudio.app.commands.decisions import DecisionPart, SetDecisionPart, set_utility_table
from bnstudio.app.commands.params import SetAlpha, SetCpt, SetParameters
from bnstudio.app.commands.positions import MoveNodes
from bnstudio.app.commands.states import AddState, RemoveState, RenameState, ReorderStates
from bnstudio.app.commands.variables import AddVariable, RemoveVariable, RenameVariable, SetDescription

__all__ = ["AddArc", "AddState", "AddVariable", "DecisionPart", "Family", "MoveNodes", "NetworkCommand", "RemoveArc",
           "RemoveState", "RemoveVariable", "RenameState", "RenameVariable", "ReorderStates", "ReverseArc",
           "SetAlpha", "SetCpt", "SetDecisionPart", "SetDescription", "SetParameters", "restore",
           "set_utility_table", "snapshot"]
