"""The data panel (read, browse, discretise, split and align a data table) and the :class:`DataSelection`
it hands to the training panel."""
from bnstudio.app.dataset.selection import DataSelection, split_rows
from bnstudio.gui.data_panel.panel import DataPanel

__all__ = ["DataPanel", "DataSelection", "split_rows"]
