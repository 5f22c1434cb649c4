"""ROC and reliability figures (matplotlib, imported on first use like :mod:`bnstudio.figures.plots`).

Series are plain dicts, so a :class:`~bnstudio.experiment.figure_jobs.FigureJob` can carry them to a worker:

* ROC: ``{"label", "fpr", "tpr", "auc"}`` — one line per series, the chance diagonal dashed;
* reliability: :meth:`~bnstudio.evaluate.curves.Reliability.to_json` plus ``"label"`` — accuracy against mean
  confidence per bin (points joined, the perfectly calibrated diagonal dashed) and, below, the cases per bin as
  steps on a logarithmic scale, so a bin drawn from three cases is seen as such (:mod:`bnstudio.evaluate.curves`).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from bnstudio.figures.plots import _figure, _save

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _legend(fig: "Figure", source, count: int) -> None:
    """The labelled lines of ``source`` in a legend below the figure, in two columns, so four or more runs
    neither wrap nor cover the curves (the saved picture grows to hold it: ``bbox_inches="tight"``)."""
    if count:
        handles, labels = source.get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, 0.02), ncol=min(count, 2),
                   frameon=False)


def roc_figure(series: Sequence[dict], *, title: str) -> "Figure":
    """True against false positive rate, one line per series labelled with its AUC."""
    fig = _figure((4.4, 4.6))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], color="#888888", lw=1, ls="--")
    for item in series:
        ax.plot(item["fpr"], item["tpr"], lw=1.4, drawstyle="default", label=f"{item['label']} (AUC {item['auc']:.3f})")
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    ax.set_title(title, fontsize=10)
    ax.grid(True, lw=0.4, alpha=0.5)
    _legend(fig, ax, len(series))
    return fig


def reliability_figure(series: Sequence[dict], *, title: str) -> "Figure":
    """Reliability diagram (accuracy against confidence per bin) above the case counts per bin."""
    from matplotlib.ticker import FuncFormatter

    fig = _figure((4.6, 5.4))
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 1], "hspace": 0.08})
    top.plot([0, 1], [0, 1], color="#888888", lw=1, ls="--")
    for item in series:
        conf = np.array([np.nan if c is None else c for c in item["confidence"]], dtype=float)
        acc = np.array([np.nan if a is None else a for a in item["accuracy"]], dtype=float)
        filled = np.isfinite(conf)
        line, = top.plot(conf[filled], acc[filled], marker="o", ms=3.5, lw=1.2,
                         label=f"{item['label']} (ECE {item['ece']:.3f})")
        bottom.stairs(item["weight"], item["edges"], color=line.get_color(), lw=1.2)
    top.set_xlim(0, 1)
    top.set_ylim(-0.01, 1.01)
    top.set_ylabel("fraction predicted right")
    top.set_title(title, fontsize=10)
    top.grid(True, lw=0.4, alpha=0.5)
    bottom.set_xlabel("predicted state's probability")
    bottom.set_yscale("symlog", linthresh=1)   # a bin of three cases stays visible beside one of thousands
    bottom.set_ylim(bottom=0)
    bottom.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    bottom.set_ylabel("cases")
    bottom.grid(True, lw=0.4, alpha=0.5)
    _legend(fig, top, len(series))
    return fig


def roc(series: Sequence[dict], stem: Path, *, title: str) -> list[Path]:
    """Write :func:`roc_figure` as PNG and SVG at ``stem``."""
    return _save(roc_figure(series, title=title), stem)


def reliability(series: Sequence[dict], stem: Path, *, title: str) -> list[Path]:
    """Write :func:`reliability_figure` as PNG and SVG at ``stem``."""
    return _save(reliability_figure(series, title=title), stem)
