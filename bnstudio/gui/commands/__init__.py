"""Undoable edits: one user edit = one :class:`QUndoCommand` = one core mutation (docs/architecture.md §3.3)."""
from bnstudio.gui.commands.arcs import AddArc, RemoveArc, ReverseArc
from bnstudio.gui.commands.base import Family, NetworkCommand, restore, snapshot
from bnstudio.gui.commands.decisions import DecisionPart, SetDecisionPart, set_utility_table
from bnstudio.gui.commands.params import SetAlpha, SetCpt, SetParameters
from bnstudio.gui.commands.positions import MoveNodes
from bnstudio.gui.commands.states import AddState, RemoveState, RenameState, ReorderStates
from bnstudio.gui.commands.variables import AddVariable, RemoveVariable, RenameVariable, SetDescription

__all__ = ["AddArc", "AddState", "AddVariable", "DecisionPart", "Family", "MoveNodes", "NetworkCommand", "RemoveArc",
           "RemoveState", "RemoveVariable", "RenameState", "RenameVariable", "ReorderStates", "ReverseArc",
           "SetAlpha", "SetCpt", "SetDecisionPart", "SetDescription", "SetParameters", "restore",
           "set_utility_table", "snapshot"]
