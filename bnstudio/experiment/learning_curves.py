"""Learning curves in a study's report: held-out error against training size (Ng & Jordan, NIPS 2001, Fig. 1).

A curve is drawn for every group of generated data sets with one generator and two or more sizes (the
``ng-jordan`` suite: ``wide-binary`` at 8 sizes). Its x is the training size per fold — rows × (k − 1)/k with k
folds, rows × (1 − test fraction) with a split — and its y, per structure + method, the cell's mean error over
folds and seeds with ± one standard deviation; data sets of one generator and size with other seeds are
replicates, averaged (± the standard deviation of their means). Sizes with a partial, missing or n/a cell are
left out of the curve and counted in its title.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from bnstudio.experiment.figure_jobs import FigureJob


def training_rows(study: dict[str, Any], rows: int, test_set: str | None = None) -> float:
    """Rows a model is trained on in one task of a data set of ``rows`` rows: all of them when it is tested on
    a fixed set (``test_set``)."""
    if test_set:
        return float(rows)
    if study.get("folds"):
        return rows * (study["folds"] - 1) / study["folds"]
    return rows * (1.0 - (study.get("test_fraction") or 0.0))


def curve_groups(study: dict[str, Any]) -> dict[str, list[tuple[float, list[str]]]]:
    """Generator -> [(training rows, names of its data sets of that size)] sorted by size, for generators with
    several sizes; data sets of one size (other seeds) are replicates."""
    groups: dict[str, dict[float, list[str]]] = {}
    for spec in study.get("datasets", []):
        if spec.get("kind") == "generator" and spec.get("rows"):
            size = training_rows(study, int(spec["rows"]), spec.get("test_set"))
            groups.setdefault(spec["source"], {}).setdefault(size, []).append(spec["name"])
    return {source: sorted(sizes.items()) for source, sizes in groups.items() if len(sizes) > 1}


def _point(cells: list) -> tuple[float, float] | None:
    """(mean, sd) of one size: the cell's mean and sd, or over replicates the mean of their means and the sd
    of those means; None when a replicate's cell is missing or partial."""
    if not cells or any(c is None or c.partial or not c.n for c in cells):
        return None
    means = np.array([c.mean for c in cells])
    return float(means.mean()), float(means.std(ddof=1) if len(means) > 1 else cells[0].sd)


def learning_curves(study: dict[str, Any], table: dict, structures: list[str], methods: list[str],
                    folder: Path, metric: str = "error") -> tuple[list[dict[str, Any]], list[FigureJob]]:
    """The curves as JSON-safe dicts (report.json ``learning_curves``) and one figure job per generator."""
    found, jobs = [], []
    scale = 100.0 if metric == "error" else 1.0
    for source, sizes in curve_groups(study).items():
        series, left_out = [], 0
        for structure in structures:
            for method in methods:
                found_points = [(x, _point([table.get((name, structure, method)) for name in names]))
                                for x, names in sizes]
                left_out += sum(1 for _, p in found_points if p is None)
                points = [(x, p) for x, p in found_points if p is not None]
                if len(points) < 2:
                    continue
                series.append({"label": f"{structure}+{method}", "rows": [x for x, _ in points],
                               "mean": [scale * p[0] for _, p in points], "sd": [scale * p[1] for _, p in points]})
        if not series:
            continue
        found.append({"generator": source, "metric": metric, "series": series})
        title = f"learning curve: {source}, held-out {metric}"
        title += f" ({left_out} partial points left out)" if left_out else ""
        unit = " (%)" if metric == "error" else ""
        jobs.append(FigureJob("learning", title, folder / "figures" / f"learning_{metric}_{source}", (series,),
                              {"ylabel": f"held-out {metric}{unit}", "xlabel": "training rows"}))
    return found, jobs
