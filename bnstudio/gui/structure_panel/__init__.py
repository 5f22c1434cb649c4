"""The structure panel: learn a DAG from data with expert constraints, show it as a diff on the canvas and
accept it as one undoable command (see :mod:`.panel`)."""
from bnstudio.app.structure.command import ApplyLearnedStructure
from bnstudio.gui.structure_panel.canvas_tool import ArcConstraintTool
from bnstudio.gui.structure_panel.overlay import DiffOverlay, structure_diff
from bnstudio.gui.structure_panel.panel import StructurePanel

__all__ = ["ApplyLearnedStructure", "ArcConstraintTool", "DiffOverlay", "StructurePanel", "structure_diff"]
