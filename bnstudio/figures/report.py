"""A study's whole report: :func:`~bnstudio.experiment.report.compose_report` (tables, JSON), its figures drawn
(:func:`~bnstudio.figures.plots.draw_all`) and the HTML page embedding them."""
from __future__ import annotations

from pathlib import Path

from bnstudio.experiment.report import Report, compose_report
from bnstudio.figures.plots import draw_all


def write_report(store_path: str | Path, folder: str | Path | None = None, workers: int = 1) -> Report:
    """Write the report of the study file ``store_path`` into ``folder`` (default ``STUDY-report`` beside it),
    its figures drawn on ``workers`` processes."""
    report = compose_report(store_path, folder)
    draw_all(report.jobs, workers)
    report.write_page()
    return report
