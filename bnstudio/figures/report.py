"""A study's whole report: :func:`~bnstudio.experiment.report.compose_report` (tables, JSON), its figures drawn
(:func:`~bnstudio.figures.plots.draw_all`) and the HTML page embedding them."""
from __future__ import annotations

from pathlib import Path

from bnstudio.errors import FormatError
from bnstudio.experiment.report import Report, compose_report
from bnstudio.figures.plots import draw_all


def write_report(store_path: str | Path, folder: str | Path | None = None, workers: int = 1) -> Report:
    """Write the report of the study file ``store_path`` into ``folder`` (default ``STUDY-report`` beside it),
    its figures drawn on ``workers`` processes. Every file is written atomically; a failed write (a full disk) is
    one :class:`~bnstudio.errors.FormatError` line and leaves each file whole (the previous one, or none)."""
    try:
        report = compose_report(store_path, folder)
        draw_all(report.jobs, workers)
        report.write_page()
    except OSError as exc:
        raise FormatError(f"cannot write the report: {exc.strerror or exc}", exc.filename or str(folder)) from None
    return report
