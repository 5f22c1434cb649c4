"""A figure of a report, described as data: what to draw and where (:class:`FigureJob`). The core writes these;
:mod:`bnstudio.figures.plots` draws them with matplotlib, which the core never imports."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMATS = ("png", "svg")


@dataclass(frozen=True)
class FigureJob:
    """One figure to draw: ``kind`` (``scatter``, ``curves``, ``learning``, ``cd``: a critical-difference diagram,
    ``roc`` or ``reliability``: :mod:`bnstudio.figures.validation`), its arguments, the path stem of its files."""

    kind: str
    title: str
    stem: Path
    args: tuple = ()
    options: dict[str, Any] = field(default_factory=dict)

    def paths(self) -> tuple[Path, Path]:
        """The PNG and SVG it writes."""
        png, svg = (self.stem.with_suffix(f".{fmt}") for fmt in FORMATS)
        return png, svg
