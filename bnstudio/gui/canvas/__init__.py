"""The graph canvas: :class:`NetworkScene` (items mirroring the network), :class:`NetworkView` (zoom, pan,
rename, menus), the node and arc items, export to PNG/SVG and the automatic layout glue."""
from bnstudio.gui.canvas.scene import ADD_ARC, ADD_DECISION, ADD_NODE, ADD_UTILITY, SELECT, NetworkScene
from bnstudio.gui.canvas.view import NetworkView

__all__ = ["ADD_ARC", "ADD_DECISION", "ADD_NODE", "ADD_UTILITY", "NetworkScene", "NetworkView", "SELECT"]
