"""The report's figures, drawn with matplotlib's object API on the Agg canvas (no pyplot, no global backend: safe
in any process, the app's included) and written as PNG and SVG. matplotlib is imported inside the drawing
functions only, so importing this module (or :mod:`bnstudio.figures.report`) loads no plotting library.

* :func:`scatter` — the diagonal figure of the ELR papers (Zhou Fig. 4.8): one point per data set (or query),
  x = the baseline's score, y = the other method's, with one-standard-deviation bars; below the diagonal the
  method is better when lower is better.
* :func:`curves` — convergence: an objective per iteration, one line per method.
* :func:`learning_curve` — held-out error against training size, one line per structure + method.
* :func:`critical_difference` — Demšar's (2006, §3.2.2, Fig. 1) critical-difference diagram: the average ranks
  on an axis, the Nemenyi critical difference above it and a bar joining each group of methods whose ranks
  differ by less than it (not significantly different).

The report describes its figures as :class:`~bnstudio.experiment.figure_jobs.FigureJob` values (the core knows
no plotting library) and :func:`draw_all` draws them, serially or on
worker processes (each figure is independent; drawing is most of a report's time: about 0.17 s per figure).
"""
from __future__ import annotations

import io
import math
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence, cast

import numpy as np

from bnstudio.experiment.figure_jobs import FORMATS, FigureJob
from bnstudio.io.atomic import atomic_write_bytes

if TYPE_CHECKING:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.transforms import Bbox

PARALLEL_FROM = 8          # fewer figures are drawn here: a worker's start (matplotlib's import) would cost more


def draw(job: FigureJob) -> list[Path]:
    """Draw ``job``; returns the files written."""
    from bnstudio.figures import validation

    job.stem.parent.mkdir(parents=True, exist_ok=True)
    drawers: dict[str, Callable[..., list[Path]]] = {"scatter": scatter, "curves": curves,
                                                     "cd": critical_difference, "learning": learning_curve,
                                                     "roc": validation.roc, "reliability": validation.reliability}
    return drawers[job.kind](*job.args, job.stem, title=job.title, **job.options)


def draw_all(jobs: Sequence[FigureJob], workers: int = 1) -> None:
    """Draw every job: here when ``workers`` is 1 or the jobs are few, else on ``workers`` local processes
    (forked like the study's workers, :mod:`~bnstudio.experiment.worker_start`), in chunks."""
    workers = max(1, min(int(workers), len(jobs)))
    if workers == 1 or len(jobs) < PARALLEL_FROM:
        for job in jobs:
            draw(job)
        return
    from concurrent.futures import ProcessPoolExecutor

    from bnstudio.experiment.worker_start import worker_context

    with ProcessPoolExecutor(workers, mp_context=worker_context()) as pool:
        list(pool.map(draw, jobs, chunksize=math.ceil(len(jobs) / (2 * workers))))


def _figure(size: tuple[float, float]) -> "Figure":
    """A figure on its own Agg canvas (matplotlib imported here, on first use)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=size)
    FigureCanvasAgg(fig)
    return fig


def _save(fig: "Figure", stem: Path) -> list[Path]:
    paths = []
    for fmt in FORMATS:
        path = stem.with_suffix(f".{fmt}")
        data = io.BytesIO()
        fig.savefig(data, format=fmt, dpi=110, bbox_inches="tight", metadata={"Date": None} if fmt == "svg" else None)
        atomic_write_bytes(path, data.getvalue())   # a full disk leaves no half-written figure
        paths.append(path)
    return paths


def scatter(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, stem: Path, *, xlabel: str, ylabel: str, title: str,
            xerr: Sequence[float] | None = None, yerr: Sequence[float] | None = None,
            labels: Sequence[str] | None = None, log: bool = False,
            partial: Sequence[bool] | None = None) -> list[Path]:
    """Method against baseline with the diagonal y = x; points flagged in ``partial`` (a cell with fewer runs
    than the study asks for) are drawn hollow. Returns the PNG and SVG paths."""
    fig = _figure((4.6, 4.4))
    ax = fig.add_subplot()
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ax.errorbar(x, y, xerr=xerr, yerr=yerr, fmt="o", ms=5, color="#1f5fa8", ecolor="#9bb7d8", elinewidth=1,
                capsize=2)
    hollow = np.asarray(partial if partial is not None else [False] * len(x), dtype=bool)
    if hollow.any():
        ax.plot(x[hollow], y[hollow], "o", ms=5, color="white", markeredgecolor="#1f5fa8", zorder=3)
    values = np.concatenate([x, y])
    low, high = float(values.min()), float(values.max())
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
        low = float(values[values > 0].min()) if (values > 0).any() else 1e-6
    limits = _diagonal_limits(low, high, log)
    ax.plot(limits, limits, color="#888888", lw=1, ls="--")
    ax.set_xlim(*limits)        # the same scale on both axes: the diagonal is the 45° line
    ax.set_ylim(*limits)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    _place_labels(fig, ax, x, y, labels or [])
    ax.grid(True, lw=0.4, alpha=0.5)
    return _save(fig, stem)


def _diagonal_limits(low: float, high: float, log: bool) -> tuple[float, float]:
    """Both axes' range: the values with 8 % room (a factor 1.5 on a log scale). One value alone (every point
    equal) gets room around it too: equal low and high limits make a singular axis, which matplotlib warns
    about and widens by itself.

    >>> [round(v, 3) for v in _diagonal_limits(0.2, 0.2, log=False)]
    [0.19, 0.21]
    """
    if log:
        high = max(high, low)
        return low / 1.5, high * 1.5
    pad = (high - low) * 0.08 if high > low else max(abs(low) * 0.05, 1e-3)
    return low - pad, high + pad


LABEL_OFFSETS = ((4, 3), (4, -10), (-4, 3), (-4, -10), (0, 7), (0, -14))  # points: right, then left, above, below


def _place_labels(fig: "Figure", ax, x: np.ndarray, y: np.ndarray, labels: Sequence[str]) -> None:
    """Name each point beside it where the name overlaps no name placed before (the first free offset of
    :data:`LABEL_OFFSETS`, else the first): data sets with close scores (sachs-Akt, alarm-BP) stayed unreadable
    drawn over each other."""
    renderer = cast("FigureCanvasAgg", fig.canvas).get_renderer()  # every figure here has one (_figure)
    ax.apply_aspect()   # the axes' final box (equal aspect), so the overlaps found here are the drawn ones
    placed: list[Bbox] = []
    for k, label in enumerate(labels):
        for attempt, (dx, dy) in enumerate(LABEL_OFFSETS):
            text = ax.annotate(label, (x[k], y[k]), textcoords="offset points", xytext=(dx, dy), fontsize=7,
                               color="#333333", ha="left" if dx > 0 else "right" if dx < 0 else "center")
            box = text.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in placed) or attempt == len(LABEL_OFFSETS) - 1:
                break
            text.remove()
        if any(box.overlaps(other) for other in placed):   # nowhere free: the first place, as before
            text.remove()
            text = ax.annotate(label, (x[k], y[k]), textcoords="offset points", xytext=LABEL_OFFSETS[0],
                               fontsize=7, color="#333333")
            box = text.get_window_extent(renderer)
        placed.append(box)


def curves(series: Sequence[tuple[str, Sequence[float]]], stem: Path, *, ylabel: str, title: str) -> list[Path]:
    """One line per (label, values by iteration); returns the PNG and SVG paths."""
    fig = _figure((5.2, 3.6))
    ax = fig.add_subplot()
    for label, values in series:
        ax.plot(np.arange(1, len(values) + 1), values, marker="." if len(values) < 40 else None, lw=1.4,
                label=label)
    ax.set_xlabel("iteration")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, lw=0.4, alpha=0.5)
    ax.legend(fontsize=8)
    return _save(fig, stem)


def learning_curve(series: Sequence[dict], stem: Path, *, xlabel: str, ylabel: str, title: str) -> list[Path]:
    """Ng & Jordan's (NIPS 2001, Fig. 1) learning curve: per series (``label``, ``rows``, ``mean``, ``sd``) the
    held-out score against the training size on a log axis, with ± one standard deviation as a band."""
    fig = _figure((5.6, 3.8))
    ax = fig.add_subplot()
    for item in series:
        x, y, sd = (np.asarray(item[k], dtype=float) for k in ("rows", "mean", "sd"))
        line, = ax.plot(x, y, marker="o", ms=3, lw=1.4, label=item["label"])
        ax.fill_between(x, y - sd, y + sd, color=line.get_color(), alpha=0.15, lw=0)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, lw=0.4, alpha=0.5)
    ax.legend(fontsize=8)
    return _save(fig, stem)


def rank_groups(ranks: Sequence[float], cd: float) -> list[tuple[int, int]]:
    """The maximal runs (first, last), in the order of sorted ``ranks``, of two or more methods whose average
    ranks lie within less than ``cd`` of each other: Demšar's bars of not significantly different methods."""
    order = sorted(ranks)
    groups: list[tuple[int, int]] = []
    for first in range(len(order)):
        last = first
        while last + 1 < len(order) and order[last + 1] - order[first] < cd:
            last += 1
        if last > first and not any(a <= first and last <= b for a, b in groups):
            groups.append((first, last))
    return groups


def critical_difference(names: Sequence[str], ranks: Sequence[float], cd: float, stem: Path, *,
                        title: str) -> list[Path]:
    """The critical-difference diagram of methods ``names`` with average ``ranks`` (1 = best, on the left) and
    the Nemenyi critical difference ``cd`` (Demšar 2006 §3.2.2, Fig. 1); returns the PNG and SVG paths."""
    k = len(names)
    order = sorted(range(k), key=lambda j: ranks[j])
    groups = rank_groups(ranks, cd)
    half = (k + 1) // 2
    fig = _figure((6.4, 1.3 + 0.28 * (half + len(groups))))
    ax = fig.add_subplot()
    ax.set_xlim(0.5 - 0.9 * (k > 3), max(k, 1 + cd) + 0.5 + 0.9 * (k > 3))
    ax.set_ylim(half + 1.2, -1.6)
    ax.axis("off")
    ax.plot([1, k], [0, 0], color="black", lw=1)
    for r in range(1, k + 1):
        ax.plot([r, r], [0, -0.15], color="black", lw=1)
        ax.text(r, -0.25, str(r), ha="center", va="bottom", fontsize=8)
    ax.plot([1, 1 + cd], [-1.1, -1.1], color="#b22222", lw=2)     # longer than the axis: nothing differs
    ax.text(1 + cd / 2, -1.2, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=8, color="#b22222")
    for position, j in enumerate(order):
        left = position < half
        row = (position if left else k - 1 - position) + 1
        end = 0.5 - 0.6 * (k > 3) if left else k + 0.5 + 0.6 * (k > 3)
        ax.plot([ranks[j], ranks[j], end], [0, row, row], color="#1f5fa8", lw=1)
        ax.text(end, row - 0.1, f"{names[j]} ({ranks[j]:.2f})", ha="left" if not left else "right", va="bottom",
                fontsize=8)
    sorted_ranks = [ranks[j] for j in order]
    for level, (first, last) in enumerate(groups):
        y = 0.35 + 0.3 * level
        ax.plot([sorted_ranks[first] - 0.03, sorted_ranks[last] + 0.03], [y, y], color="black", lw=3)
    ax.set_title(title, fontsize=9)
    return _save(fig, stem)
