"""The report of a study (``bnstudio report STUDY.sqlite``): its tables as CSV and JSON, one HTML page
(:mod:`~bnstudio.experiment.html`) and its figures described as :class:`~bnstudio.experiment.figure_jobs.FigureJob`
values. :func:`compose_report` writes the tables and says what to draw; :func:`bnstudio.figures.report.write_report`
also draws them (matplotlib lives there, outside the core).

Classification studies: per metric, the long table (data set, structure, method, mean, sd, n) and the wide
table of Zhou Table 4-2 (a row per data set, a column per structure + method, "mean ± sd" over folds and
seeds); the comparisons with the baseline (:mod:`~bnstudio.experiment.summary`); the failed tasks; scatter
plots of each method's error (and CLL) against the baseline's per data set; convergence curves (training
objective per iteration, first seed, fold 0) per data set and structure; a calibration figure per data set (the
reliability diagram of every structure + method, the held-out rows of its folds and seeds pooled:
:mod:`~bnstudio.experiment.calibration`); learning curves (error against training size) for generated data sets
at several sizes (:mod:`~bnstudio.experiment.learning_curves`). A cell some of whose runs have no value (AUC of a
fold whose test rows show one state) says n/a and how many; a study file written before ECE and the
calibration bins were stored is reported without them, and says so. Each figure has its own file
(:meth:`Report.figure_stem`). Query studies: per query the true
answer and each method's MSE, bias² and variance over the data sets, the comparisons by query and a log-log
scatter of per-query MSE.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from bnstudio.errors import BNStudioError, StudyFileError
from bnstudio.experiment import ranks, summary
from bnstudio.experiment.accounting import accounting_line
from bnstudio.experiment.calibration import calibration_series
from bnstudio.experiment.figure_jobs import FigureJob
from bnstudio.experiment.html import PERCENT, page
from bnstudio.experiment.learning_curves import learning_curves
from bnstudio.experiment.status import run_outcome, study_status
from bnstudio.experiment.store import StudyStore
from bnstudio.io.atomic import atomic_write_text
from bnstudio.io.messages import shorten

SCATTER_METRICS = ("error", "cll")
FRIEDMAN_HEAD = ["structure", "metric", "n", "chi2", "p", "iman_davenport", "iman_davenport_p",
                 "critical_difference", "left_out"]
NOT_TABULATED = {"n"}


@dataclass
class Report:
    """Where the report went: the folder, the HTML page, the JSON, every CSV and every figure (PNG, SVG)."""

    folder: Path
    html: Path
    json: Path
    tables: list[Path] = field(default_factory=list)
    jobs: list[FigureJob] = field(default_factory=list, repr=False)   # drawn by bnstudio.figures
    document: dict[str, Any] = field(default_factory=dict, repr=False)  # what report.json holds
    stems: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)  # file name (casefolded) -> parts

    def figure_stem(self, *parts: str) -> Path:
        """The path stem of the figure named by ``parts`` (kind, metric, data set, structure, ...): the parts
        joined by "_" and made safe for a file name; when that changed a part's text, or another figure already
        has the name (``x/y`` and ``x_y``, ``a_b`` + ``c`` and ``a`` + ``b_c``, or names differing in case only,
        one file on Windows and macOS), a short hash of the parts follows, so each figure has its own file."""
        name = _slug("_".join(parts))
        if any(_slug(p) != p for p in parts) or self.stems.get(name.casefold(), parts) != parts:
            name += "-" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:8]
        self.stems[name.casefold()] = parts
        return self.folder / "figures" / name

    def write_page(self) -> Path:
        """Write the HTML page, which embeds the figures' PNGs: call it once they are drawn."""
        atomic_write_text(self.html, page(self.document, self.figures, self.folder))
        return self.html

    @property
    def figures(self) -> list[tuple[str, Path, Path]]:
        """(title, PNG, SVG) of every figure, in order."""
        return [(job.title, *job.paths()) for job in self.jobs]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def _finite(value: Any) -> Any:
    """JSON-safe: non-finite floats become None (recursively)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(rows)
    atomic_write_text(path, text.getvalue())  # a full disk leaves the previous table whole
    return path


def default_folder(store_path: str | Path) -> Path:
    """Where the report of ``store_path`` goes unless told: ``STUDY-report`` beside the study file."""
    store_path = Path(store_path)
    return store_path.with_name(f"{store_path.stem}-report")


def compose_report(store_path: str | Path, folder: str | Path | None = None) -> Report:
    """Write the report of the study file ``store_path`` into ``folder`` (default ``STUDY-report`` beside it):
    its tables and JSON. Its figures are described by the returned report's ``jobs``, undrawn; once they are
    drawn, :meth:`Report.write_page` writes the HTML page embedding them (both done by
    :func:`bnstudio.figures.report.write_report`)."""
    store_path = Path(store_path)
    folder = Path(folder) if folder is not None else default_folder(store_path)
    with StudyStore(store_path, create=False) as store:
        study, rows, counts, state = store.study() or {}, store.rows(), store.counts(), store.state() or {}
        runs = [{**run, "outcome": run_outcome(run), "accounting": accounting_line(store, run["id"])}
                for run in store.runs()]
    if not study:
        from bnstudio.errors import FormatError
        raise FormatError("the study file holds no study (run `bnstudio experiment` first)", str(store_path))
    folder.mkdir(parents=True, exist_ok=True)
    report = Report(folder, folder / "index.html", folder / "report.json")
    try:
        document = _document(study, rows, counts, state, runs, report)
    except BNStudioError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:  # fields the file got wrong
        raise StudyFileError(f"damaged study file (its records do not read: {type(exc).__name__}: "
                             f"{shorten(str(exc), 120)}); run the study into a new file", str(store_path)) from None
    failed = [r for r in rows if r["status"] == "failed"]
    report.tables.append(_write_csv(folder / "tables" / "failures.csv",
                                    ["dataset", "structure", "method", "fold", "seed", "attempts", "error"],
                                    [[r["dataset"], r["structure"], r["method"], r["fold"], r["seed"], r["attempts"],
                                      r["error"]] for r in failed]))
    document["failures"] = [{k: r[k] for k in ("dataset", "structure", "method", "fold", "seed", "error")}
                            for r in failed]
    atomic_write_text(report.json, json.dumps(_finite(document), indent=1, allow_nan=False))
    report.document = document
    return report


def _document(study: dict[str, Any], rows: list[dict[str, Any]], counts: dict[str, int], state: dict[str, Any],
              runs: list[dict[str, Any]], report: Report) -> dict[str, Any]:
    document: dict[str, Any] = {"study": study, "counts": counts, "executor": state.get("executor"),
                                "status": study_status(state, counts),
                                "code": {k: state.get(k) for k in ("version", "code")}, "runs": runs}
    if study.get("evaluation") == "queries":
        document.update(_query_report(study, rows, report))
    else:
        document.update(_classification_report(study, rows, report))
    return document


# ----------------------------------------------------------------------------------------- classification
def _labels(study: dict[str, Any], key: str) -> list[str]:
    return [item["label"] for item in study.get(key, [])]


def _classification_report(study: dict[str, Any], rows: list[dict[str, Any]], report: Report) -> dict[str, Any]:
    structures, methods, baseline = _labels(study, "structures"), _labels(study, "methods"), study["baseline"]
    datasets = [d["name"] for d in study["datasets"]]
    metrics = [m for m in study["metrics"] if m not in NOT_TABULATED]
    tables: dict[str, Any] = {}
    compared: list[dict[str, Any]] = []
    tested: list[dict[str, Any]] = []
    curves: list[dict[str, Any]] = []
    expected = summary.expected_by_dataset(study)
    not_stored = []
    for metric in metrics:
        table = summary.cells(rows, metric, expected)
        if not table:
            continue
        if not summary.stored(rows, metric):       # e.g. ECE in a study file written before it was stored
            not_stored.append(metric)
            continue
        tables[metric] = _metric_table(report, study, table, metric, datasets, structures, methods)
        compared += [c.to_json() for c in summary.comparisons(rows, metric, structures, methods, baseline,
                                                              expected)]
        tested += _rank_tests(report, table, datasets, structures, methods, baseline, metric)
        if metric in SCATTER_METRICS:
            _scatters(report, table, datasets, structures, methods, baseline, metric)
        if metric == "error":
            curves, jobs = learning_curves(study, table, structures, methods, report.folder)
            report.jobs += jobs
    report.tables.append(_write_csv(report.folder / "tables" / "comparisons.csv", list(summary.Comparison.__annotations__),
                                    [list(c.values()) for c in compared]))
    report.tables.append(_write_csv(report.folder / "tables" / "friedman.csv", FRIEDMAN_HEAD,
                                    [[t[k] for k in FRIEDMAN_HEAD] for t in tested]))
    report.tables.append(_write_csv(report.folder / "tables" / "ranks.csv",
                                    ["structure", "metric", "method", "average_rank", "holm_p"],
                                    [[t["structure"], t["metric"], m, r, t["holm_p"].get(m)]
                                     for t in tested for m, r in zip(t["methods"], t["average_ranks"], strict=True)]))
    _convergence(report, rows, datasets, structures, methods)
    return {"tables": tables, "comparisons": compared, "friedman": tested, "not_stored": not_stored,
            "older_tasks": sum(1 for r in rows if r["status"] == "done" and "ece" not in (r["metrics"] or {})),
            "calibration": _calibration(report, rows, study, structures, methods),
            **({"learning_curves": curves} if curves else {})}


def _metric_table(report: Report, study: dict[str, Any], table: dict, metric: str, datasets: list[str],
                  structures: list[str], methods: list[str]) -> dict[str, Any]:
    """Write ``cells_METRIC.csv`` (long) and ``table_METRIC.csv`` (wide, Zhou Table 4-2) of one metric; the
    table as report.json holds it. A cell without any value says n/a (never NaN)."""
    long_rows = [[d, s, m, *(["n/a", "n/a"] if not c.n else [c.mean, c.sd]), c.n, c.runs, c.expected,
                  int(c.partial), c.missing] for (d, s, m), c in sorted(table.items())]
    report.tables.append(_write_csv(report.folder / "tables" / f"cells_{metric}.csv",
                                    ["dataset", "structure", "method", "mean", "sd", "n", "runs", "expected",
                                     "partial", "missing"], long_rows))
    columns = [(s, m) for s in structures for m in methods]
    wide = [[d] + [_pair(table.get((d, s, m))) for s, m in columns] for d in datasets]
    report.tables.append(_write_csv(report.folder / "tables" / f"table_{metric}.csv",
                                    ["dataset"] + [f"{s}+{m}" for s, m in columns], wide))
    return {"columns": [f"{s}+{m}" for s, m in columns], "pairs": columns, "datasets": datasets,
            "runs_unit": _runs_unit(study),
            "test_sets": {d["name"]: d["test_set"] for d in study["datasets"] if d.get("test_set")},
            "cells": {f"{d}|{s}|{m}": _cell_json(c) for (d, s, m), c in table.items()}}


#: the most lines one calibration figure holds; a data set with more structure + method pairs gets a figure per
#: structure (twelve lines repeat the colours and hide each other)
CALIBRATION_LINES = 6


def _calibration(report: Report, rows: list[dict[str, Any]], study: dict[str, Any], structures: list[str],
                 methods: list[str]) -> dict[str, Any]:
    """A reliability diagram per data set (per data set and structure beyond :data:`CALIBRATION_LINES` lines):
    every structure + method, its held-out rows of every fold and seed pooled
    (:mod:`~bnstudio.experiment.calibration`); how many figures, and how many finished tasks had no bins to pool
    (computed by an older BN Studio)."""
    drawn, without, expected = 0, 0, summary.expected_by_dataset(study)
    groups = [structures] if len(structures) * len(methods) <= CALIBRATION_LINES else [[s] for s in structures]
    for d in study["datasets"]:
        dataset = d["name"]
        runs = "the fixed test set" if d.get("test_set") else f"{expected.get(dataset, 0)} {_runs_unit(study)}"
        for group in groups:
            series, missing = calibration_series(rows, dataset, group, methods, expected.get(dataset, 0))
            without += missing
            if not series:
                continue
            named = [dataset] + (group if len(groups) > 1 else [])
            report.jobs.append(FigureJob("reliability", f"calibration: {', '.join(named)}, {runs} pooled",
                                         report.figure_stem("calibration", *named), (series,)))
            drawn += 1
    return {"figures": drawn, "without_bins": without}


def _rank_tests(report: Report, table: dict, datasets: list[str], structures: list[str], methods: list[str],
                baseline: str, metric: str) -> list[dict[str, Any]]:
    """Friedman / Nemenyi / Holm per structure (:mod:`~bnstudio.experiment.ranks`) and, for the scatter
    metrics, a critical-difference diagram each."""
    found = ranks.rank_tests(table, datasets, structures, methods, baseline, metric,
                             metric in summary.HIGHER_IS_BETTER)
    for test in found if metric in SCATTER_METRICS else []:
        stem = report.figure_stem("cd", metric, test.structure)
        title = (f"{metric}, {test.structure}: average ranks over {test.n} data sets (Friedman p = {test.p:.3g}; "
                 f"Nemenyi CD = {test.critical_difference:.2f} at α = {test.alpha:g})")
        report.jobs.append(FigureJob("cd", title, stem, (test.methods, test.average_ranks,
                                                         test.critical_difference), {}))
    return [t.to_json() for t in found]


def _pair(cell: summary.Cell | None) -> str:
    """A wide CSV cell: "mean ± sd", partial cells marked "† runs/expected", runs without a value "‡ n/a
    missing/runs" (a cell without any value: "n/a")."""
    if cell is None:
        return ""
    spread = "" if cell.n == 1 else f" ± {cell.sd:.3g}"         # one value (a fixed test set) has no sd
    text = f"{cell.mean:.6g}{spread}" if cell.n else "n/a"
    text += f" ‡ n/a {cell.missing}/{cell.runs}" if cell.missing and cell.n else ""
    return text + (f" † {cell.runs}/{cell.expected}" if cell.partial else "")


def _cell_json(cell: summary.Cell) -> dict[str, Any]:
    return {"mean": cell.mean, "sd": cell.sd, "n": cell.n, "runs": cell.runs, "expected": cell.expected,
            "partial": cell.partial, "missing": cell.missing}


def _runs_unit(study: dict[str, Any]) -> str:
    """What a cell's runs are: "folds" (one seed), "runs" (folds × several seeds or splits)."""
    return "folds" if study.get("folds") and len(study.get("seeds") or [0]) == 1 else "runs"


def _scatters(report: Report, table: dict, datasets: list[str], structures: list[str], methods: list[str],
              baseline: str, metric: str) -> None:
    for structure in structures:
        for method in methods:
            if method == baseline:
                continue
            keys = [d for d in datasets if (d, structure, method) in table and (d, structure, baseline) in table
                    and table[d, structure, method].n and table[d, structure, baseline].n]
            if not keys:
                continue
            base = [table[d, structure, baseline] for d in keys]
            other = [table[d, structure, method] for d in keys]
            stem = report.figure_stem("scatter", metric, structure, method, "vs", baseline)
            partial = [a.partial or b.partial for a, b in zip(base, other, strict=True)]
            title = f"{metric}: {structure}+{method} vs {structure}+{baseline} ({len(keys)} data sets"
            title += f"; {sum(partial)} partial, hollow)" if any(partial) else ")"
            scale, unit = (100.0, " (%)") if metric in PERCENT else (1.0, "")   # the tables' unit
            report.jobs.append(FigureJob(
                "scatter", title, stem, ([scale * c.mean for c in base], [scale * c.mean for c in other]),
                {"xerr": [scale * c.sd for c in base], "yerr": [scale * c.sd for c in other], "labels": keys,
                 "xlabel": f"{baseline} {metric}{unit}", "ylabel": f"{method} {metric}{unit}", "partial": partial}))


def _convergence(report: Report, rows: list[dict[str, Any]], datasets: list[str], structures: list[str],
                 methods: list[str]) -> None:
    """Training objective per iteration of the iterative methods, first seed and fold 0."""
    first_seed = min((r["seed"] for r in rows), default=0)
    for dataset in datasets:
        for structure in structures:
            series = []
            for method in methods:
                row = next((r for r in rows if (r["dataset"], r["structure"], r["method"], r["fold"], r["seed"]) ==
                            (dataset, structure, method, 0, first_seed) and r["status"] == "done"), None)
                history = (row or {}).get("history") or []
                key = "cnll" if history and "cnll" in history[0] else "nll"
                values = [h[key] for h in history if h.get(key) is not None]
                if len(values) > 1:
                    series.append((f"{method} ({key})", values))
            if not series:
                continue
            stem = report.figure_stem("convergence", dataset, structure)
            title = f"convergence: {dataset}, {structure} (fold 0)"
            report.jobs.append(FigureJob("curves", title, stem, (series,),
                                              {"ylabel": "training objective per row (cnll: −CLL, nll: −LL)"}))


# ----------------------------------------------------------------------------------------- query studies
def _query_report(study: dict[str, Any], rows: list[dict[str, Any]], report: Report) -> dict[str, Any]:
    structures, methods, baseline = _labels(study, "structures"), _labels(study, "methods"), study["baseline"]
    found = summary.query_summary(rows, structures, methods, baseline, len(study["datasets"]))
    per = found["methods"]
    names = list(per)
    truth = found["truth"] or []
    header = ["query", "truth"] + [f"{n} {k}" for n in names for k in ("mse", "bias2", "variance")]
    table = [[q + 1, truth[q]] + [per[n][k][q] for n in names for k in ("mse", "bias2", "variance")]
             for q in range(len(truth))]
    report.tables.append(_write_csv(report.folder / "tables" / "queries.csv", header, table))
    report.tables.append(_write_csv(report.folder / "tables" / "comparisons.csv",
                                    list(summary.Comparison.__annotations__),
                                    [list(c.values()) for c in found["comparisons"]]))
    for comparison in found["comparisons"]:
        structure, method = comparison["structure"], comparison["method"]
        base = per[f"{structure}/{baseline}"]["mse"]
        other = per[f"{structure}/{method}"]["mse"]
        stem = report.figure_stem("scatter", "queries", structure, method, "vs", baseline)
        better = sum(o < b for o, b in zip(other, base, strict=True))
        title = f"per-query MSE: {method} vs {baseline} ({better} of {len(base)} queries better)"
        partial = [e for e in (per[f"{structure}/{baseline}"], per[f"{structure}/{method}"]) if e["partial"]]
        if partial:
            title += "; partial: " + ", ".join(f"{e['method']} {e['datasets']}/{e['expected']} data sets"
                                               for e in partial)
        report.jobs.append(FigureJob("scatter", title, stem, (base, other),
                                          {"xlabel": f"{baseline} MSE", "ylabel": f"{method} MSE", "log": True}))
    return {"queries": found}
