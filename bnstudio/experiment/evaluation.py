"""One task, start to end, as a pure function of the data and the task: the same inputs give the same numbers in
any process, on any worker (what makes a local run and a Dask run agree).

Classification: the rows are split by the task's seed (k-fold: :func:`bnstudio.data.k_folds`; or one
train/test split; or, with a fixed test set, all rows train and the set tests: :func:`task_rows`); a
``per_fold`` data set is cut on the training rows (:func:`~bnstudio.experiment.datasets.cut_on_rows`); the
structure is learned on the training part (or fixed: ``true`` / a file), the method fits
the parameters there (``validation``: a seeded share of the training rows held out for early stopping) and the
held-out rows are scored (:mod:`~bnstudio.experiment.scores`; a bagged ensemble averages its bags' answers).
Query studies fit on all rows and compare the answers with the generating network's
(:mod:`~bnstudio.experiment.queries`). Seeded learners without an explicit seed get one derived from the task's
seed and fold.

A learned structure is kept per process (a few of them), so the methods of one (data set, structure, fold,
seed) learn it once when they run in the same worker.
"""
from __future__ import annotations

import json
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.experiment.datasets import PreparedData, cut_on_rows, split_rows
from bnstudio.experiment.queries import Query, query_answers, query_cases, query_scores
from bnstudio.experiment.scores import classification_scores
from bnstudio.experiment.tasks import Task

SEEDED_METHODS = ("em", "bagged-mp")
_STRUCTURES: "OrderedDict[tuple, tuple[Network, np.ndarray, float]]" = OrderedDict()
_KEEP = 8


@dataclass
class Context:
    """What every worker needs, sent once: the prepared data sets by name and a query study's queries."""

    datasets: Mapping[str, PreparedData]
    queries: list[Query] | None = None


def derived_seed(*parts: int) -> int:
    """A seed for a task's random choices from its seed and fold (numpy's SeedSequence)."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1, np.uint64)[0] >> 1)


def task_rows(data: PreparedData, split: Mapping[str, Any], fold: int,
              seed: int) -> tuple[PreparedData, np.ndarray, np.ndarray]:
    """(the data the task sees, its train rows, its test rows). A fixed test set (``data.test_codes``) follows
    the training rows and is the test; otherwise :func:`split_rows`. A ``per_fold`` data set is then cut on the
    train rows (the cut points never see a test row)."""
    if data.test_codes is not None:
        n, m = len(data.codes), len(data.test_codes)
        data = replace(data, codes=np.concatenate([data.codes, data.test_codes]), test_codes=None,
                       fingerprint=f"{data.fingerprint}/test-set")
        train, test = np.arange(n), np.arange(n, n + m)
    else:
        train, test = split_rows(len(data.codes), split, fold, seed)
    if data.fold_cuts is not None:
        data = cut_on_rows(data, train)
    return data, train, test


def _structure(data: PreparedData, spec: Mapping[str, Any], train: np.ndarray, fold: int,
               seed: int) -> tuple[Network, np.ndarray, float]:
    """(network, codes aligned to it, seconds to learn it) for the task's structure, cached per process."""
    cache_key = (data.fingerprint, json.dumps(spec, sort_keys=True), fold, seed, len(train))
    if cache_key in _STRUCTURES:
        _STRUCTURES.move_to_end(cache_key)
        return _STRUCTURES[cache_key]
    start = time.perf_counter()
    if spec["network"] == "true":
        if data.network is None:
            from bnstudio.errors import ValidationError
            raise ValidationError(f"structure 'true' needs a data set sampled from a network; '{data.name}' is not")
        found = (data.network, data.codes, 0.0)
    elif spec["network"] is not None:
        from bnstudio.data import align
        from bnstudio.io import read_network

        net = read_network(spec["network"])
        found = (net, align(data.dataset, net).codes, 0.0)
    else:
        from bnstudio.learn.structure.api import learn_structure

        options = dict(spec["options"])
        if spec["algorithm"] in ("hill-climb", "bnc") and "seed" not in options:
            options["seed"] = derived_seed(seed, fold)
        learned = learn_structure(spec["algorithm"], data.codes[train], data.names, data.states,
                                  target=data.target, **options)
        found = (learned.network, data.codes, time.perf_counter() - start)
    _STRUCTURES[cache_key] = found
    while len(_STRUCTURES) > _KEEP:
        _STRUCTURES.popitem(last=False)
    return found


def _fit(net: Network, codes: np.ndarray, target: str | None, method: Mapping[str, Any], fold: int, seed: int):
    from bnstudio.data.split import train_test_indices

    options = dict(method["options"])
    if method["method"] in SEEDED_METHODS and "seed" not in options:
        options["seed"] = derived_seed(seed, fold, 1)
    validation = None
    if method["validation"] is not None:
        keep, held = train_test_indices(len(codes), method["validation"], derived_seed(seed, fold, 2))
        codes, validation = codes[keep], codes[held]
    scale = method.get("l2_scale")
    if not method.get("l2_choices"):
        return _fit_scaled(net, codes, target, method["method"], options, scale, validation)
    start = time.perf_counter()
    scale = chosen_l2_scale(net, codes, target, method, options, derived_seed(seed, fold, 3))
    fit = _fit_scaled(net, codes, target, method["method"], options, scale, validation)
    fit.settings["l2_scale"] = scale
    fit.seconds = time.perf_counter() - start       # the choice is part of the method's cost
    return fit


def _fit_scaled(net: Network, codes: np.ndarray, target: str | None, name: str, options: dict[str, Any],
                scale: float | None, validation: np.ndarray | None = None):
    """The learner ``name`` fitted on ``codes``; ``scale`` = c sets its L2 to c / (rows fitted)."""
    from bnstudio.learn.params import make_learner

    if scale is not None:
        options = {**options, "l2": scale / max(len(codes), 1)}
    return make_learner(name, **options).fit(net, codes, target=target, validation=validation)


#: the share of a fold's training rows held out to pick a method's ``l2_choices`` (MethodSpec)
INNER_HOLDOUT = 0.25


def chosen_l2_scale(net: Network, codes: np.ndarray, target: str | None, method: Mapping[str, Any],
                    options: dict[str, Any], seed: int) -> float:
    """The c of ``method["l2_choices"]`` whose fit on 75% of ``codes`` (seeded split) has the lowest error on the
    other 25%, ties broken by the higher conditional log-likelihood, then by the larger c (the stronger pull
    toward the generative start). Cost: one fit per choice on 3/4 of the rows, before the refit."""
    from bnstudio.data.split import train_test_indices
    from bnstudio.errors import ValidationError

    if target is None:
        raise ValidationError("l2_choices picks c by held-out error: it needs a classification study's target")
    keep, held = train_test_indices(len(codes), INNER_HOLDOUT, seed)
    best: tuple[float, float, float] | None = None
    for c in method["l2_choices"]:
        fit = _fit_scaled(net, codes[keep], target, method["method"], options, c)
        scores = classification_scores(fit.network(net), codes[held], target, fit.ensemble)
        error, cll = scores["error"], scores["cll"]
        if error is None or cll is None:
            raise ValidationError("l2_choices picks c by held-out error, but no row of the inner hold-out has the "
                                  "target observed")
        rank = (error, -cll, -c)
        if best is None or rank < best:
            best = rank
    assert best is not None
    return -best[2]


def network_blob(net: Network) -> bytes:
    """The fitted network as a compressed ``.bnsproj`` document (what the app opens from a study cell)."""
    from bnstudio.io.project import project_from_network, project_to_json

    return zlib.compress(json.dumps(project_to_json(project_from_network(net))).encode(), 6)


def run_task(context: Context, task: Task) -> dict[str, Any]:
    """Run ``task`` on its data set; returns metrics, the convergence history, the stop reason and the fitted
    network (compressed project JSON). Errors propagate: the runner stores them as the task's failure."""
    data = context.datasets[task.dataset]
    spec = task.spec
    if spec["split"]["evaluation"] == "queries":
        return _query_task(context, data, task)
    assert data.target is not None  # the spec refuses a classification data set without one
    data, train, test = task_rows(data, spec["split"], task.fold, task.seed)
    assert data.target is not None
    net, codes, structure_seconds = _structure(data, spec["structure"], train, task.fold, task.seed)
    fit = _fit(net, codes[train], data.target, spec["method"], task.fold, task.seed)
    fitted = fit.network(net)
    metrics = classification_scores(fitted, codes[test], data.target, fit.ensemble)
    metrics.update(time=fit.seconds, structure_time=structure_seconds, iterations=fit.n_iterations)
    if "l2_scale" in fit.settings:      # the c an l2_choices rule picked on the training rows
        metrics["l2_scale"] = fit.settings["l2_scale"]
    return {"metrics": metrics, "history": fit.history, "stop_reason": fit.stop_reason,
            "network": network_blob(fitted)}


def _query_task(context: Context, data: PreparedData, task: Task) -> dict[str, Any]:
    assert data.network is not None  # the spec takes a query study's data from a network
    net, codes, _ = _structure(data, task.spec["structure"], np.arange(len(data.codes)), task.fold, task.seed)
    fit = _fit(net, codes, None, task.spec["method"], task.fold, task.seed)
    fitted = fit.network(net)
    queries = context.queries or []
    cases = query_cases(net, queries)
    truth = query_answers(data.network, query_cases(data.network, queries))
    metrics = query_scores(query_answers(fitted, cases, fit.ensemble), truth)
    if fit.ensemble is not None:     # for comparison: the answer of the bag-mean CPTs (not Singh's estimator)
        metrics["mean_cpt_answers"] = query_answers(fitted, cases).tolist()
    metrics.update(truth=truth.tolist(), time=fit.seconds, iterations=fit.n_iterations)
    return {"metrics": metrics, "history": fit.history, "stop_reason": fit.stop_reason,
            "network": network_blob(fitted)}
