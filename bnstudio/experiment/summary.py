"""What a study found, from its store: tables, wins/draws/losses and paired tests (no plotting here).

* **Cells** (Zhou Table 4-2): per data set, structure and method, the mean and the sample standard deviation of a
  metric over the folds and seeds that finished. A cell with fewer finished runs than the study asks for
  (folds × seeds) is *partial*: the report marks it and leaves it out of every comparison.
* **Comparisons**: each method against the study's baseline on the same structure, paired by data set on the
  cells' means, complete cells only (the data sets left out are counted): wins / draws / losses (a draw: the
  means differ by at most :data:`DRAW_TOLERANCE`), the two-sided Wilcoxon signed-rank test on the differences
  (zeros dropped) and the two-sided sign test (binomial, p = 1/2, on wins vs losses), both from scipy.
* **Query studies**: per query, the mean squared error of each method's answers over the data sets (Singh
  §4.6) and its split into bias² and variance over the data sets. The queries of one data set share its rows
  and its fitted network, so they are not independent samples: the comparisons pair the *data sets* (the
  independent unit), each by its squared error averaged over the queries (:func:`dataset_errors`).

A finished run may have no value of a metric: AUC is undefined on a fold whose test rows show one state of the
target, and a run computed by an older BN Studio has no ECE. Such runs are counted in the cell's ``missing``
(the report says n/a and how many), never turned into NaN; a cell with no value at all is n/a and left out of
the comparisons and rank tests.

Lower is better for error, brier, ece, ae, se, mse, time and iterations; higher for cll, ll and auc.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping, Sequence, Union

import numpy as np

HIGHER_IS_BETTER = frozenset({"cll", "ll", "auc"})
DRAW_TOLERANCE = 1e-9


@dataclass
class Cell:
    """A metric over the folds × seeds of one (data set, structure, method); ``dropped``: NaN values left out
    (shown in the report, never silently)."""

    mean: float
    sd: float
    n: int
    dropped: int = 0
    runs: int = 0           # finished tasks of the cell (whatever their value of this metric)
    expected: int = 0       # tasks the study asks for (folds × seeds); 0: unknown
    missing: int = 0        # finished tasks without a value of this metric (AUC of a one-state test fold)

    @property
    def partial(self) -> bool:
        """Fewer runs finished than the study asks for (an interrupted, running or failing study)."""
        return self.runs < self.expected


@dataclass
class Comparison:
    """``method`` against ``baseline`` on ``structure`` for ``metric``, paired over ``n`` units (``unit``: what
    was paired); ``left_out``: units left out because a cell was partial."""

    structure: str
    method: str
    baseline: str
    metric: str
    n: int
    wins: int
    draws: int
    losses: int
    wilcoxon_p: float
    sign_p: float
    mean_difference: float
    unit: str = "data sets"
    left_out: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def metric_values(rows: Iterable[dict[str, Any]], metric: str) -> dict[tuple[str, str, str], list[float]]:
    """(data set, structure, method) -> the metric of every finished fold/seed (a metric a task does not have,
    such as AUC of a fold whose test rows show one state, left out: :func:`cells` counts it as missing; ±inf
    kept, NaN kept for :func:`cells` to count)."""
    out: dict[tuple[str, str, str], list[float]] = {}
    for row in rows:
        value = (row.get("metrics") or {}).get(metric)
        if row.get("status") == "done" and value is not None:
            out.setdefault((row["dataset"], row["structure"], row["method"]), []).append(float(value))
    return out


def expected_runs(study: dict[str, Any]) -> int:
    """Tasks per (data set, structure, method) that the study asks for: folds (1 for a split or a query
    study) × seeds."""
    return int(study.get("folds") or 1) * max(1, len(study.get("seeds") or [0]))


def expected_by_dataset(study: dict[str, Any]) -> dict[str, int]:
    """:func:`expected_runs` per data set: a data set with a fixed test set (``test_set``) has one task per seed,
    not one per fold."""
    seeds = max(1, len(study.get("seeds") or [0]))
    return {d["name"]: seeds if d.get("test_set") else expected_runs(study) for d in study.get("datasets", [])}


def split_description(study: dict[str, Any]) -> str:
    """How the study's rows are split, in words for a report's or the study view's header: query studies, k-fold
    cross-validation or a test fraction per seed, and the data sets tested on a fixed set (``test_set``)."""
    if study.get("evaluation") == "queries":
        return "query answers against the generating network"
    text = (f"{study['folds']}-fold cross-validation" if study.get("folds")
            else f"a {study.get('test_fraction') or 0:g} test split per seed")
    fixed = [d["name"] for d in study.get("datasets", []) if d.get("test_set")]
    if len(fixed) == len(study.get("datasets", [])) and fixed:
        text = "a fixed test set per data set"
    elif fixed:
        text += f" ({', '.join(fixed)}: a fixed test set)"
    return "; ".join([text, *whole_file_cuts(study)])


def whole_file_cuts(study: dict[str, Any]) -> list[str]:
    """What a study that asked for cut points learnt on the whole file (``per_fold = false``) must say in its
    header, one clause per kind: supervised (MDL) cuts saw the test rows' classes, unsupervised ones their
    values. Per-fold cuts (the default) need no clause. A store written before issue 35 has whole-file tables
    without the key: they are said as such too."""
    seen: dict[bool, list[str]] = {}
    for d in study.get("datasets", []):
        options = d.get("discretise") or {}
        if options and not options.get("per_fold", False):
            seen.setdefault(options.get("method") == "mdl", []).append(d["name"])
    what = {True: "classes", False: "values"}
    return [f"{', '.join(names)}: cut points learnt on the whole file (test rows' {what[supervised]} included)"
            for supervised, names in sorted(seen.items(), reverse=True)]


def single_state_text(study: dict[str, Any]) -> str:
    """The report's line naming the columns that ended with a single state (the study's ``single_state``), or
    ``""``."""
    found = study.get("single_state") or {}
    if not found:
        return ""
    where = "; ".join(f"{name}: {', '.join(columns)}" for name, columns in found.items())
    return (f"Columns with a single state after preparation (in at least one fold), which carry no information: "
            f"{where}.")


Expected = Union[int, Mapping[str, int]]


def _expected_of(expected: Expected, dataset: str) -> int:
    """The expected runs of ``dataset`` (0: unknown)."""
    return expected.get(dataset, 0) if isinstance(expected, Mapping) else expected


def finished_runs(rows: Iterable[dict[str, Any]]) -> dict[tuple[str, str, str], int]:
    """(data set, structure, method) -> its finished (``done``) tasks."""
    out: dict[tuple[str, str, str], int] = {}
    for row in rows:
        if row.get("status") == "done":
            key = (row["dataset"], row["structure"], row["method"])
            out[key] = out.get(key, 0) + 1
    return out


def cells(rows: Iterable[dict[str, Any]], metric: str, expected: Expected = 0
          ) -> dict[tuple[str, str, str], Cell]:
    """Mean and sample standard deviation (0 for one value) of ``metric`` per (data set, structure, method)
    with a finished run; NaN values are left out and counted in ``dropped``, runs without a value in
    ``missing`` (no value at all: the mean is NaN, shown n/a); a cell with fewer than ``expected`` finished runs (a
    number, or one per data set: :func:`expected_by_dataset`) is :attr:`Cell.partial`."""
    rows = list(rows)
    runs = finished_runs(rows)
    values = metric_values(rows, metric)
    out = {}
    for key, finished in runs.items():
        v = np.array(values.get(key, []), dtype=float)
        kept = v[~np.isnan(v)]
        with np.errstate(invalid="ignore"):    # sd of values with an infinity is NaN: reported as such
            sd = float(np.std(kept, ddof=1)) if len(kept) > 1 else 0.0
        out[key] = Cell(float(kept.mean()) if len(kept) else math.nan, sd, len(kept), int(len(v) - len(kept)),
                        finished, _expected_of(expected, key[0]), finished - len(v))
    return out


def stored(rows: Iterable[dict[str, Any]], metric: str) -> bool:
    """Whether any finished run stored ``metric``, a value or None (ECE in a study file written before it was
    stored: no run has it)."""
    return any(metric in (row.get("metrics") or {}) for row in rows if row.get("status") == "done")


def _rank_safe(gain: np.ndarray) -> np.ndarray:
    """``gain`` with ±inf replaced by ±(twice the largest finite |gain|, or 1): the same ranks of |gain| and the
    same signs, which is all the Wilcoxon and sign tests use."""
    finite = np.abs(gain[np.isfinite(gain)])
    big = 2.0 * float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    return np.where(np.isinf(gain), np.sign(gain) * big, gain)


def paired_comparison(method_values: Sequence[float], baseline_values: Sequence[float], metric: str,
                      structure: str = "", method: str = "", baseline: str = "") -> Comparison:
    """Wins/draws/losses and the Wilcoxon signed-rank and sign tests of paired values (see module docstring)."""
    from scipy.stats import binomtest, wilcoxon

    a, b = np.asarray(method_values, dtype=float), np.asarray(baseline_values, dtype=float)
    both = ~(np.isnan(a) | np.isnan(b))
    a, b = a[both], b[both]
    with np.errstate(invalid="ignore"):
        gain = (a - b) if metric in HIGHER_IS_BETTER else (b - a)      # > 0: the method is better
    gain = _rank_safe(np.nan_to_num(gain, nan=0.0))     # inf - inf: both infinitely bad, a draw
    wins, losses = int((gain > DRAW_TOLERANCE).sum()), int((gain < -DRAW_TOLERANCE).sum())
    nonzero = gain[np.abs(gain) > DRAW_TOLERANCE]
    wilcoxon_p = float(wilcoxon(nonzero).pvalue) if len(nonzero) > 0 else 1.0
    sign_p = float(binomtest(wins, wins + losses, 0.5).pvalue) if wins + losses > 0 else 1.0
    return Comparison(structure, method, baseline, metric, len(gain), wins, len(gain) - wins - losses, losses,
                      wilcoxon_p, sign_p, float(np.mean(a - b)) if len(a) else math.nan)


def comparisons(rows: list[dict[str, Any]], metric: str, structures: Sequence[str], methods: Sequence[str],
                baseline: str, expected: Expected = 0) -> list[Comparison]:
    """Every method against ``baseline`` on every structure, paired by data set over the data sets where both
    cells are complete (``expected`` runs each); the others are counted in ``left_out``. Cells without any
    value (n/a) take no part."""
    table = cells(rows, metric, expected)
    datasets = sorted({d for d, _, _ in table})
    out = []
    for structure in structures:
        for method in methods:
            if method == baseline:
                continue
            both = [(table[d, structure, method], table[d, structure, baseline]) for d in datasets
                    if (d, structure, method) in table and (d, structure, baseline) in table
                    and table[d, structure, method].n and table[d, structure, baseline].n]
            pairs = [(a.mean, b.mean) for a, b in both if not (a.partial or b.partial)]
            if both:
                a, b = zip(*pairs, strict=True) if pairs else ((), ())
                found = paired_comparison(a, b, metric, structure, method, baseline)
                found.left_out = len(both) - len(pairs)
                out.append(found)
    return out


# ---------------------------------------------------------------------------------------------- query studies
def query_summary(rows: list[dict[str, Any]], structures: Sequence[str], methods: Sequence[str],
                  baseline: str, expected: int = 0) -> dict[str, Any]:
    """Per method: per-query MSE, bias² and variance over data sets, and per data set its squared error averaged
    over the queries; comparisons with the baseline paired by data set (:func:`dataset_errors`). A method with
    fewer than ``expected`` data sets finished is marked ``partial``."""
    truth = next((np.asarray(r["metrics"]["truth"]) for r in rows if r.get("status") == "done"), None)
    per_method: dict[str, Any] = {}
    for key, suffix in (("answers", ""), ("mean_cpt_answers", " (mean CPTs)")):
        for (structure, method), (names, values) in _by_method(rows, key).items():
            assert truth is not None  # a method with answers has a finished task, which holds the truth
            per_method[f"{structure}/{method}{suffix}"] = _query_entry(structure, f"{method}{suffix}", names,
                                                                      values, truth, expected)
    compared = []
    for structure in structures:
        base = per_method.get(f"{structure}/{baseline}")
        if base is None:
            continue
        for entry in per_method.values():
            if entry["structure"] == structure and entry["method"] != baseline:
                compared.append(_paired_by_dataset(entry, base, structure, baseline))
    return {"truth": None if truth is None else truth.tolist(), "methods": per_method,
            "comparisons": [c.to_json() for c in compared]}


def dataset_errors(names: Sequence[str], values: np.ndarray, truth: np.ndarray) -> dict[str, float]:
    """Per data set d, its squared error averaged over the Q queries, (1/Q) Σ_q (ζ_dq − ζ*_q)² (several
    tasks of one data set, e.g. seeds, averaged too). The data sets are independent samples of the generating
    network, the queries of one data set are not (they share its rows and its fitted network), so this is the
    unit a paired test may treat as independent."""
    per_task = ((np.asarray(values, dtype=float) - truth) ** 2).mean(axis=1)
    grouped: dict[str, list[float]] = {}
    for name, error in zip(names, per_task, strict=True):
        grouped.setdefault(name, []).append(float(error))
    return {name: float(np.mean(errors)) for name, errors in sorted(grouped.items())}


def _query_entry(structure: str, method: str, names: list[str], values: np.ndarray, truth: np.ndarray,
                 expected: int) -> dict[str, Any]:
    """One method's query table entry: per-query MSE, bias² and variance over the data sets, per data set
    error, how many data sets finished."""
    mse = ((values - truth) ** 2).mean(axis=0)
    finished = len(set(names))
    return {"structure": structure, "method": method, "datasets": finished, "expected": expected,
            "partial": finished < expected, "mse": mse.tolist(),
            "bias2": ((values.mean(axis=0) - truth) ** 2).tolist(), "variance": values.var(axis=0).tolist(),
            "mean_mse": float(mse.mean()), "dataset_mse": dataset_errors(names, values, truth)}


def _paired_by_dataset(entry: dict[str, Any], base: dict[str, Any], structure: str, baseline: str) -> Comparison:
    """``entry`` against ``base``, paired over the data sets both finished (the others counted as left out)."""
    a, b = entry["dataset_mse"], base["dataset_mse"]
    common = sorted(set(a) & set(b))
    found = paired_comparison([a[d] for d in common], [b[d] for d in common], "mse", structure, entry["method"],
                              baseline)
    found.unit = "data sets (queries averaged per data set)"
    found.left_out = len(set(a) | set(b)) - len(common)
    return found


def _by_method(rows: list[dict[str, Any]], key: str) -> dict[tuple[str, str], tuple[list[str], np.ndarray]]:
    """(structure, method) -> (data set of each finished task, (tasks, queries) answers), by data set name."""
    grouped: dict[tuple[str, str], list[tuple[str, list[float]]]] = {}
    for row in rows:
        metrics = row.get("metrics") or {}
        if row.get("status") == "done" and key in metrics:
            grouped.setdefault((row["structure"], row["method"]), []).append((row["dataset"], metrics[key]))
    out = {}
    for k, v in grouped.items():
        v.sort(key=lambda item: item[0])
        out[k] = ([name for name, _ in v], np.array([a for _, a in v]))
    return out
