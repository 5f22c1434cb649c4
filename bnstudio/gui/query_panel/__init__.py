"""The query panel: p(q | e) with delta-method error bars, densities, a Monte-Carlo check, the CPT rows the
variance comes from, one-way sensitivity and saved queries (see :mod:`.panel`)."""
from bnstudio.gui.query_panel.panel import QueryPanel

__all__ = ["QueryPanel"]
