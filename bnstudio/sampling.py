"""Sampling from a network, vectorised over cases: one numpy pass per variable, none per case.

* :func:`forward_sample` -- ancestral sampling: for each variable in topological order the row of its CPT is
  found from the parents' sampled codes (mixed-radix index) and a state drawn by inverting the row's
  cumulative distribution with one uniform;
* :func:`likelihood_weighting` / :func:`estimate_posterior` -- the same with evidence variables clamped and
  each case weighted by the product of p(e_i | pa_i);
* :func:`hide_at_random` (MCAR cells) and :func:`hide_variables` (latent columns) make incomplete data;
* :func:`codes_to_frame` / :func:`write_samples_csv` turn codes (-1 = missing) into state names.

Every function taking ``seed`` also accepts a :class:`numpy.random.Generator`, so one stream can feed a
sampler and then :func:`hide_at_random` (what ``bnstudio sample`` does).
"""
from __future__ import annotations

from typing import Iterable, Mapping

import numpy as np
import pandas as pd

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.errors import ImpossibleEvidence, ValidationError
from bnstudio.io.atomic import PathLike, atomic_write_text

Seed = int | np.random.Generator | None


def _check_count(n: object, minimum: int = 0) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < minimum:
        raise ValidationError(f"the number of samples must be an integer >= {minimum}, got {n!r}")
    return int(n)


def _row_index(net: Network, var: str, codes: np.ndarray, col: dict[str, int]) -> np.ndarray:
    """For each case, the flat row of ``var``'s CPT selected by its parents' codes (row-major order)."""
    rows = np.zeros(codes.shape[0], dtype=np.int64)
    for p in net.parents(var):
        rows = rows * net.cardinality(p) + codes[:, col[p]]
    return rows


def _draw(table: np.ndarray, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One state per case from the selected rows of a (rows, |X|) table, by inverting the CDF."""
    cum = np.cumsum(table, axis=1)
    cum[:, -1] = np.inf  # guard against rows summing to 1 - 1e-16
    u = rng.random(rows.shape[0])
    return (u[:, None] >= cum[rows]).sum(axis=1)


def _sample(net: Network, n: int, rng: np.random.Generator,
            clamp: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray]:
    names = net.variables
    col = {v: i for i, v in enumerate(names)}
    codes = np.empty((n, len(names)), dtype=np.int64, order="F")  # column-major: learners read columns
    weights = np.ones(n)
    for var in net.topological_order():
        table = normalise_rows(net.cpt(var)).reshape(-1, net.cardinality(var))
        rows = _row_index(net, var, codes, col)
        if var in clamp:
            codes[:, col[var]] = clamp[var]
            weights *= table[rows, clamp[var]]
        else:
            codes[:, col[var]] = _draw(table, rows, rng)
    return codes, weights


def forward_sample(net: Network, n: int, seed: Seed = None) -> np.ndarray:
    """``n`` cases as an (n, |V|) int64 array of state codes, columns in ``net.variables`` order."""
    return _sample(net, _check_count(n), np.random.default_rng(seed), {})[0]


def likelihood_weighting(net: Network, evidence: Mapping[str, str], n: int,
                         seed: Seed = None) -> tuple[np.ndarray, np.ndarray]:
    """``n`` cases with the evidence variables clamped to their observed states, and their weights.

    Returns
    -------
    codes : (n, |V|) int64 array of state codes, columns in ``net.variables`` order
    weights : (n,) array, each the product of p(e_i | parents) over the evidence variables; their mean
        estimates p(e) and they weight the cases for posterior estimates (see :func:`estimate_posterior`)
    """
    clamp = {var: net.variable(var).index(state) for var, state in evidence.items()}
    return _sample(net, _check_count(n, 1), np.random.default_rng(seed), clamp)


def estimate_posterior(net: Network, target: str, evidence: Mapping[str, str], n: int,
                       seed: Seed = None) -> np.ndarray:
    """The likelihood-weighting estimate of p(target | evidence) over ``target``'s states."""
    column = net.variables.index(net.variable(target).name)
    codes, weights = likelihood_weighting(net, evidence, n, seed)
    mass = np.bincount(codes[:, column], weights=weights, minlength=net.cardinality(target))
    if not mass.sum() > 0:
        raise ImpossibleEvidence(f"none of the {n} weighted samples is consistent with the evidence "
                                 f"{dict(evidence)} (its probability is zero or too small to sample)")
    return mass / mass.sum()


def hide_at_random(codes: np.ndarray, fraction: float, seed: Seed = None) -> np.ndarray:
    """A copy with each cell set to -1 (unobserved) independently with probability ``fraction`` (MCAR)."""
    if not 0.0 <= fraction <= 1.0:
        raise ValidationError(f"the missing fraction must be between 0 and 1, got {fraction}")
    rng = np.random.default_rng(seed)
    out = np.array(codes, dtype=np.int64, copy=True)
    out[rng.random(out.shape) < fraction] = -1
    return out


def hide_variables(codes: np.ndarray, net: Network, names: Iterable[str]) -> np.ndarray:
    """A copy with the columns of ``names`` set to -1 throughout (latent variables)."""
    columns = [net.variables.index(net.variable(name).name) for name in names]
    out = np.array(codes, dtype=np.int64, copy=True)
    out[:, columns] = -1
    return out


def _check_codes(net: Network, codes: np.ndarray) -> np.ndarray:
    codes = np.asarray(codes)
    if codes.ndim != 2 or codes.shape[1] != len(net):
        raise ValidationError(f"expected an (n, {len(net)}) array of codes for '{net.name}', got shape {codes.shape}")
    cards = np.array([net.cardinality(v) for v in net.variables])
    bad = np.argwhere((codes < -1) | (codes >= cards))
    if len(bad):
        r, c = bad[0]
        raise ValidationError(f"code {codes[r, c]} in row {r} is not a state of '{net.variables[c]}' "
                              f"(0..{cards[c] - 1}, or -1 for missing)")
    return codes


def codes_to_frame(net: Network, codes: np.ndarray) -> pd.DataFrame:
    """A DataFrame of state names (categorical, categories in state order; -1 becomes NaN)."""
    codes = _check_codes(net, codes)
    return pd.DataFrame({v: pd.Categorical.from_codes(codes[:, k], categories=list(net.states(v)))
                         for k, v in enumerate(net.variables)})


def write_samples_csv(net: Network, codes: np.ndarray, path: PathLike) -> None:
    """Write cases as CSV (a header of variable names, state names, missing cells empty), atomically."""
    text = codes_to_frame(net, codes).to_csv(index=False, na_rep="", lineterminator="\n")
    atomic_write_text(path, text)
