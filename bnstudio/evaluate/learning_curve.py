"""Learning curves on the user's data: held-out error and CLL against training-set size, per fitting method.

Ng & Jordan (NIPS 2001, §3 and Fig. 1): a generative fit (naive Bayes by counts: ``ml``, ``mp``) approaches
its asymptotic error with few rows, a discriminative one (``clgd``, ``wanbia``) reaches a lower asymptote
but needs more, so the curves may cross. For each size s of a log-spaced grid and each repeat r, a subsample of s
training rows is drawn without replacement (seeded by ``seed``, s and r, and the same for every method, so the
methods are compared on the same rows); each method is fitted on it (the network's structure is kept) and
scored on the held-out rows with :func:`~bnstudio.evaluate.metrics.evaluate` (vectorised over the rows). Each
point is the mean over the repeats ± their standard deviation (ddof 1).

* ``error`` = share of held-out rows whose most probable target state is wrong (Zhou eq 3.6)
* ``cll``   = mean log p(target | rest) over the held-out rows (Zhou eq 3.4; higher is better)

>>> size_grid(1000, points=5)
[10, 32, 100, 316, 1000]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.evaluate.metrics import evaluate
from bnstudio.jobs import CallbackReporter, Progress, Reporter
from bnstudio.learn.params.suffstats import check_codes
from bnstudio.learn.registry import parameter_learner

#: the smallest training size of the default grid, and its number of points
SMALLEST = 10
POINTS = 8
#: the scores a learning curve follows, as :class:`~bnstudio.evaluate.metrics.Metrics` names them
SCORES = ("error_rate", "cll")


def size_grid(n_train: int, points: int = POINTS, smallest: int = SMALLEST) -> list[int]:
    """About ``points`` whole sizes spaced evenly on a log scale from ``smallest`` (at most a quarter of the
    rows, at least 1) to ``n_train`` (duplicates from rounding merged)."""
    if n_train < 1:
        raise ValidationError("a learning curve needs at least one training row")
    if points < 2:
        raise ValidationError(f"a learning curve needs at least 2 sizes, got {points}")
    low = min(smallest, max(1, n_train // 4))
    grid = np.unique(np.round(np.geomspace(low, n_train, points)).astype(int))
    return [int(s) for s in grid]


def check_sizes(sizes: Sequence[int], n_train: int) -> list[int]:
    """Sorted distinct sizes, each a whole number in [1, n_train]; else a one-line ValidationError."""
    out = sorted({int(s) for s in sizes})
    if any(float(s) != int(s) for s in sizes) or not out or out[0] < 1 or out[-1] > n_train:
        raise ValidationError(f"training sizes must be whole numbers between 1 and the {n_train} training rows, "
                              f"got {', '.join(str(s) for s in sizes) or 'none'}")
    return out


@dataclass(frozen=True)
class MethodCurve:
    """One method's scores: ``values[score]`` has shape (repeats, sizes)."""

    label: str
    method: str
    options: dict[str, Any]
    values: dict[str, np.ndarray]

    def mean(self, score: str) -> np.ndarray:
        return self.values[score].mean(axis=0)

    def sd(self, score: str) -> np.ndarray:
        v = self.values[score]
        return v.std(axis=0, ddof=1) if v.shape[0] > 1 else np.zeros(v.shape[1])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "method": self.method, "options": self.options}
        for score in SCORES:
            out[score] = self.mean(score).tolist()
            out[f"{score}_sd"] = self.sd(score).tolist()
        return out


@dataclass(frozen=True)
class LearningCurves:
    """The curves of every method over the same sizes, subsamples and held-out rows."""

    target: str
    sizes: list[int]
    repeats: int
    n_train: int
    n_test: int
    seed: int
    curves: list[MethodCurve] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "sizes": self.sizes, "repeats": self.repeats, "n_train": self.n_train,
                "n_test": self.n_test, "seed": self.seed, "curves": [c.to_json() for c in self.curves]}


def subsample(n_train: int, size: int, repeat: int, seed: int) -> np.ndarray:
    """The sorted training rows of repeat ``repeat`` at ``size``: the same for every method."""
    rng = np.random.default_rng([seed, size, repeat])
    return np.sort(rng.choice(n_train, size=size, replace=False))


def _methods(methods: Sequence[str | tuple[str, dict[str, Any]]], seed: int) -> list[tuple[str, str, dict]]:
    """(label, method, options): a seeded learner gets ``seed`` unless its options name one."""
    out = []
    for item in methods:
        method, options = (item, {}) if isinstance(item, str) else (item[0], dict(item[1]))
        entry = parameter_learner(method)
        if entry.seeded and options.get("seed") is None:
            options["seed"] = seed
        shown = {k: v for k, v in options.items() if k != "seed"}
        label = method + (f" ({', '.join(f'{k}={v}' for k, v in shown.items())})" if shown else "")
        out.append((label, method, options))
    if len(out) < 1:
        raise ValidationError("a learning curve needs at least one method")
    return out


def learning_curves(net: Network, train: Any, test: Any, target: str,
                    methods: Sequence[str | tuple[str, dict[str, Any]]], sizes: Sequence[int] | None = None,
                    repeats: int = 5, seed: int = 0, reporter: Reporter | None = None) -> LearningCurves:
    """Fit every method on seeded subsamples of ``train`` at each size and score it on ``test`` (module
    docstring). ``train`` and ``test`` are what :func:`~bnstudio.evaluate.metrics.evaluate` takes (codes in
    ``net.variables`` order, or tables matched by column name); ``methods`` are names or (name, options).
    Reports one iteration per fit (a stop request raises :class:`~bnstudio.errors.Cancelled`)."""
    train_codes, _ = check_codes(net, train)
    test_codes, _ = check_codes(net, test, learnable=False)
    if target not in net:
        raise ValidationError(f"unknown target variable '{target}'")
    if len(test_codes) == 0:
        raise ValidationError("a learning curve needs held-out rows to score on")
    if int(repeats) != repeats or repeats < 1:
        raise ValidationError(f"repeats must be a whole number >= 1, got {repeats}")
    n = len(train_codes)
    grid = size_grid(n) if sizes is None else check_sizes(sizes, n)
    chosen = _methods(methods, seed)
    values = {label: {s: np.empty((repeats, len(grid))) for s in SCORES} for label, _m, _o in chosen}
    progress = Progress(reporter, "learning curve", len(grid) * repeats * len(chosen))
    # a fit asks the job's reporter whether to stop at each of its iterations, without reporting them
    inner = CallbackReporter(lambda _info: getattr(reporter, "cancelled", False))
    step = 0
    for j, size in enumerate(grid):
        for r in range(repeats):
            rows = train_codes[subsample(n, size, r, seed)]
            for label, method, options in chosen:
                fitted = parameter_learner(method).make(**options).fit(net, rows, target=target,
                                                                       reporter=inner).network(net)
                metrics = evaluate(fitted, test_codes, target)
                for score in SCORES:
                    values[label][score][r, j] = getattr(metrics, score)
                step += 1
                progress.report(step, {"rows": float(size), "error": metrics.error_rate, "cll": metrics.cll},
                                f"{label} on {size} rows")
    progress.done()
    curves = [MethodCurve(label, method, {k: v for k, v in options.items()}, values[label])
              for label, method, options in chosen]
    return LearningCurves(target, grid, int(repeats), n, len(test_codes), int(seed), curves)
