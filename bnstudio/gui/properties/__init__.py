"""The node properties panel."""
from bnstudio.gui.properties.panel import PropertiesPanel

__all__ = ["PropertiesPanel"]
