"""The CPT editor: a virtualised table model of one CPT and the panel around it."""
from bnstudio.gui.cpt_editor.model import CptTableModel
from bnstudio.gui.cpt_editor.widget import CptEditor

__all__ = ["CptEditor", "CptTableModel"]
