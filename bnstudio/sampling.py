"""Sampling from a network, vectorised over cases: one numpy pass per variable, none per case.

* :func:`forward_sample` -- ancestral sampling: for each variable in topological order the row of its CPT is
  found from the parents' sampled codes (mixed-radix index) and a state drawn by inverting the row's
  cumulative distribution with one uniform;
* :func:`likelihood_weighting` -- the same with evidence variables clamped and each case weighted by the
  product of p(e_i | pa_i); :func:`estimate_posterior` is the engine's estimator
  (:mod:`bnstudio.inference.sampled`, with standard errors and chunks);
* :func:`hide_at_random` (MCAR cells) and :func:`hide_variables` (latent columns) make incomplete data;
* :func:`codes_to_frame` / :func:`write_samples_csv` turn codes (-1 = missing) into state names;
* :func:`sample_csv` streams any number of cases to a CSV file chunk by chunk (what ``bnstudio sample`` does):
  memory stays bounded, and a file that cannot fit in the folder's free space is refused before any work.

Every function taking ``seed`` also accepts a :class:`numpy.random.Generator`, so one stream can feed a
sampler and then :func:`hide_at_random`. An in-memory sample must fit the memory budget (8 bytes per cell).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import IO, Iterable, Iterator, Literal, Mapping, overload

import numpy as np
import pandas as pd

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.errors import FormatError, MemoryBudgetExceeded, ValidationError
from bnstudio.inference.engine import DEFAULT_MEMORY_BUDGET
from bnstudio.inference.sampled import likelihood_weighting as sampled_posterior
from bnstudio.io.atomic import PathLike, _permissions_for, atomic_write_text

Seed = int | np.random.Generator | None
CHUNK_CELLS = 2**21  # cells per chunk of a streamed sample (16 MiB of codes)


def _check_count(n: object, minimum: int = 0, width: int | None = None) -> int:
    """``n`` as a number of cases: an integer >= ``minimum`` whose (n, width) codes (if ``width`` is given: an
    in-memory sample) fit the memory budget."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < minimum:
        raise ValidationError(f"the number of samples must be an integer >= {minimum}, got {n!r}")
    if width is not None and 8 * int(n) * max(width, 1) > DEFAULT_MEMORY_BUDGET:
        raise MemoryBudgetExceeded(f"{n} cases of {width} variables need {8 * n * width / 2**30:.3g} GiB, more "
                                   f"than the memory budget of {DEFAULT_MEMORY_BUDGET / 2**30:.3g} GiB; stream "
                                   f"them to a file in chunks (sample_csv) instead")
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
    u = rng.random(len(rows))
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


@overload
def forward_sample(net: Network, n: int, seed: Seed = None, *, as_frame: Literal[False] = False) -> np.ndarray: ...
@overload
def forward_sample(net: Network, n: int, seed: Seed = None, *, as_frame: Literal[True]) -> pd.DataFrame: ...
def forward_sample(net: Network, n: int, seed: Seed = None, *, as_frame: bool = False
                   ) -> np.ndarray | pd.DataFrame:
    """``n`` cases as an (n, |V|) int64 array of state codes, columns in ``net.variables`` order; with
    ``as_frame``, as a DataFrame of state names (:func:`codes_to_frame`)."""
    codes = _sample(net, _check_count(n, width=len(net)), np.random.default_rng(seed), {})[0]
    return codes_to_frame(net, codes) if as_frame else codes


@overload
def likelihood_weighting(net: Network, evidence: Mapping[str, str], n: int, seed: Seed = None, *,
                         as_frame: Literal[False] = False) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def likelihood_weighting(net: Network, evidence: Mapping[str, str], n: int, seed: Seed = None, *,
                         as_frame: Literal[True]) -> tuple[pd.DataFrame, np.ndarray]: ...
def likelihood_weighting(net: Network, evidence: Mapping[str, str], n: int, seed: Seed = None, *,
                         as_frame: bool = False) -> tuple[np.ndarray | pd.DataFrame, np.ndarray]:
    """``n`` cases with the evidence variables clamped to their observed states, and their weights.

    Returns
    -------
    codes : (n, |V|) int64 array of state codes, columns in ``net.variables`` order (with ``as_frame``, a
        DataFrame of state names, :func:`codes_to_frame`)
    weights : (n,) array, each the product of p(e_i | parents) over the evidence variables; their mean
        estimates p(e) and they weight the cases for posterior estimates (see :func:`estimate_posterior`)
    """
    clamp = {var: net.variable(var).index(state) for var, state in evidence.items()}
    codes, weights = _sample(net, _check_count(n, 1, len(net) + 1), np.random.default_rng(seed), clamp)
    return (codes_to_frame(net, codes) if as_frame else codes), weights


def estimate_posterior(net: Network, target: str, evidence: Mapping[str, str], n: int,
                       seed: Seed = None) -> np.ndarray:
    """The likelihood-weighting estimate of p(target | evidence) over ``target``'s states (the engine's
    :func:`bnstudio.inference.sampled.likelihood_weighting`; an observed target is its finding)."""
    if target in evidence:
        return (np.asarray(net.states(target)) == evidence[target]).astype(float)
    return sampled_posterior(net, target, evidence, n, seed).posteriors[target]


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


@dataclass(frozen=True)
class SampleSummary:
    """What :func:`sample_csv` wrote: rows, columns and the fraction of empty (missing) cells."""

    rows: int
    columns: int
    missing_fraction: float


def sample_csv(net: Network, n: int, path: PathLike, seed: Seed = None, missing: float = 0.0,
               hide: Iterable[str] = ()) -> SampleSummary:
    """Forward-sample ``n`` cases into a CSV file, blanking the ``hide`` columns and then each other cell with
    probability ``missing`` (MCAR), in chunks of :data:`CHUNK_CELLS` cells written as they are drawn.

    Chunk 0 draws its cases and then its blanks from the stream seeded with ``seed`` (so it is
    ``forward_sample(net, rows, seed)`` followed by :func:`hide_at_random` on the same stream); chunk k > 0 does
    the same on the k-th child stream of that seed. Each chunk draws its cases first, so a seed gives the same
    complete cases with or without missing cells. Refused before any work: a network without variables, and a
    file that cannot fit the folder's free space even with the shortest state names. The file is replaced
    atomically.
    """
    if len(net) == 0:
        raise ValidationError(f"'{net.name}' has no variables to sample")
    if isinstance(missing, bool) or not 0.0 <= missing < 1.0:
        raise ValidationError(f"the missing fraction must be in [0, 1), got {missing!r}")
    n = _check_count(n, 1)
    hidden = {net.variable(name).name for name in hide}
    _check_free_space(net, n, path, hidden if missing == 0 else set(net.variables))
    first = np.random.default_rng(seed)
    chunk = max(1, CHUNK_CELLS // len(net))
    empty = 0
    with _atomic_stream(path) as out:
        for start in range(0, n, chunk):
            rng = first if start == 0 else first.spawn(1)[0]
            codes = hide_variables(_sample(net, min(chunk, n - start), rng, {})[0], net, hidden)
            if missing > 0:
                codes = hide_at_random(codes, missing, rng)
            empty += int(np.count_nonzero(codes < 0))
            text = codes_to_frame(net, codes).to_csv(index=False, header=start == 0, na_rep="", lineterminator="\n")
            out.write(text.encode("utf-8"))
    return SampleSummary(n, len(net), empty / (n * len(net)))


def _check_free_space(net: Network, n: int, path: PathLike, blank: set[str]) -> None:
    """Refuse a sample whose CSV cannot fit the free space of ``path``'s folder: each row takes at least a
    separator per cell plus the shortest state name of every column that is never blank."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise FormatError("cannot save: the folder does not exist", path=str(path))
    row = len(net) + sum(min(len(s.encode("utf-8")) for s in net.states(v)) for v in net.variables
                         if v not in blank)
    free = shutil.disk_usage(folder).free
    if n * row > free:
        raise ValidationError(f"cannot write {n} cases to {path}: they need at least {_size(n * row)} and its "
                              f"folder has {_size(free)} free")


def _size(n_bytes: int) -> str:
    """A byte count for people: ``72 bytes``, ``2.4 TB`` (exact for any integer, even beyond a float)."""
    for unit, power in (("TB", 12), ("GB", 9), ("MB", 6), ("kB", 3)):
        if n_bytes >= 10**power:
            return f"{Decimal(n_bytes).scaleb(-power):.3g} {unit}"
    return f"{n_bytes} bytes"


@contextlib.contextmanager
def _atomic_stream(path: PathLike) -> Iterator[IO[bytes]]:
    """A binary file to write in pieces; it replaces ``path`` (fsynced, :func:`os.replace`) only when the
    block ends without error, else it is removed (the same contract as :func:`atomic_write_bytes`)."""
    target = Path(path)
    tmp = tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=False)
    try:
        with tmp:
            yield tmp
            tmp.flush()
            os.fsync(tmp.fileno())
        os.chmod(tmp.name, _permissions_for(target))
        os.replace(tmp.name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp.name)
        raise
