"""The query panel: p(q | e) with delta-method error bars, densities, a Monte-Carlo check, the CPT rows the
variance comes from, one-way sensitivity and saved queries (see :mod:`.panel`).

``QueryPanel`` is imported on first use (PEP 562), so a light part such as :mod:`.contributions` (the decision
panel uses it) does not bring the panel's plots (pyqtgraph) and scipy.stats with it."""
from __future__ import annotations

from typing import Any

__all__ = ["QueryPanel"]


def __getattr__(name: str) -> Any:
    if name == "QueryPanel":
        from bnstudio.gui.query_panel.panel import QueryPanel
        return QueryPanel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
