"""The one chunking policy: every batch that grows with the work (evidence cases, data rows, parameter sets,
bootstrap bags) is cut into chunks that fit the memory budget, and the chunk results are accumulated
(docs/architecture.md §3.15). Learners, error bars and held-out scores size their batches here; the engine
cuts each propagation it is given here too.

Two levels, one rule (a chunk holds as many batch elements as fit, at least one; only a single element that
does not fit is an error):

* **Callers** (:func:`batch_size`, :func:`parameter_batches`, :func:`fitting`, :func:`spans`): one batched
  propagation of the engine needs about ``engine.memory_budget / engine.batch_capacity()`` bytes per batch
  element (evidence case × parameter set); the caller adds its own arrays per element. A chunk holds as many
  elements as fit the smaller of the engine's memory budget and :data:`WORKING_SET`: larger batches are no
  faster (ALARM's EM E-step takes 56–72 µs per case from 250 to 20,000 cases per call and 82 µs at 40,000, out
  of cache), so memory stays bounded whatever the number of rows, bags or draws. When a single case does not
  fit, :func:`check_one_case` raises :class:`~bnstudio.errors.MemoryBudgetExceeded` naming the computation and
  the network.
* **The engine** (:func:`chunks`): one propagation over n cases and s parameter sets holds about
  ``bytes_per_element`` for each of its s·n batch elements (clique tables, messages, beliefs) plus
  ``bytes_per_case`` of evidence for each case. Chunks take all S parameter sets and as many cases as fit — but
  at most :data:`CHUNK_ELEMENTS` elements, past which a bigger chunk is no faster (its tables leave the
  processor's caches) — or, when even one case with all S sets is too big, one case and as many sets as fit.

>>> [(s.start, s.stop) for s in spans(7, 3)]
[(0, 3), (3, 6), (6, 7)]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Mapping

import numpy as np

from bnstudio.errors import MemoryBudgetExceeded

if TYPE_CHECKING:  # the engine imports this module
    from bnstudio.inference.engine import InferenceEngine

CHUNK_ELEMENTS = 1 << 14
BYTES_PER_ENTRY = 8 * 3  # potentials, messages and beliefs of one propagation, float64
#: the most bytes one batched propagation works on (with the caller's per-element arrays), unless the
#: engine's memory budget is smaller
WORKING_SET = 256 * 2**20


def chunks(n_cases: int, n_sets: int, budget: int, bytes_per_element: int, bytes_per_case: int = 0,
           label: str = "the network") -> Iterator[tuple[slice, slice]]:
    """(parameter-set slice, case slice) pairs covering the S x N batch, each within the budget (``label``
    names the network in the error raised when one element does not fit).

    >>> [(s.start, s.stop, r.start, r.stop) for s, r in chunks(5, 1, 3 * 100, 100)]
    [(0, 1, 0, 3), (0, 1, 3, 5)]
    """
    one = bytes_per_element + bytes_per_case
    if one > budget:
        raise MemoryBudgetExceeded(f"one case of {label} needs {one / 2**20:.3g} MiB, more than the memory budget "
                                   f"of {budget / 2**20:.3g} MiB; a larger memory_budget "
                                   f"(InferenceEngine(net, memory_budget=...)) is needed")
    if n_sets * bytes_per_element + bytes_per_case <= budget:
        per_chunk = budget // (n_sets * bytes_per_element + bytes_per_case)
        step = max(1, min(per_chunk, CHUNK_ELEMENTS // n_sets, n_cases))
        for start in range(0, n_cases, step):
            yield slice(0, n_sets), slice(start, min(start + step, n_cases))
        return
    step = max(1, min((budget - bytes_per_case) // bytes_per_element, CHUNK_ELEMENTS))
    for row in range(n_cases):
        for start in range(0, n_sets, step):
            yield slice(start, min(start + step, n_sets)), slice(row, row + 1)


def check_one_case(engine: InferenceEngine, task: str) -> None:
    """Raise :class:`MemoryBudgetExceeded` naming ``task`` and the network if a propagation of a single case
    does not fit the engine's memory budget (the only reason a chunked batch can fail for memory)."""
    if not engine.fits_budget:
        net = engine.net
        raise MemoryBudgetExceeded(
            f"{task} on '{net.name}' ({len(net)} variables) needs more than the memory budget of "
            f"{engine.memory_budget / 2**30:.3g} GiB for a single case: the network's junction tree is that large; "
            f"give a larger memory_budget (bytes) if the machine has the memory")


def batch_size(engine: InferenceEngine, bytes_per_element: int = 0, task: str = "a batched computation") -> int:
    """How many batch elements (cases × parameter sets) one propagation of ``engine`` should take: as many as
    fit min(memory budget, :data:`WORKING_SET`) with ``bytes_per_element`` of the caller's own; at least 1.
    :func:`check_one_case` first."""
    check_one_case(engine, task)
    capacity = engine.batch_capacity(int(bytes_per_element))      # within the engine's whole budget
    if engine.memory_budget <= WORKING_SET:
        return capacity
    return max(1, capacity * WORKING_SET // engine.memory_budget)


def parameter_batches(engine: InferenceEngine, parameters: Mapping[str, np.ndarray], n_cases: int = 1,
                      task: str = "a batched computation") -> Iterator[dict[str, np.ndarray]]:
    """S parameter sets {var: (S, *family)} as consecutive chunks {var: (s, *family)}, each as large as one
    propagation of ``n_cases`` evidence cases per set should take (:func:`batch_size`; a table with a
    leading axis of 1 is shared by every set and passed whole)."""
    sets = max(t.shape[0] for t in parameters.values())
    per_set = 8 * sum(int(np.prod(t.shape[1:])) for t in parameters.values())   # the sets' own CPTs
    size = max(1, batch_size(engine, per_set // max(1, n_cases), task) // max(1, n_cases))
    for part in spans(sets, size):
        yield {v: t[part] if t.shape[0] == sets else t for v, t in parameters.items()}


def fitting(bytes_per_element: int, memory_budget: int = WORKING_SET) -> int:
    """How many elements of ``bytes_per_element`` fit min(``memory_budget``, :data:`WORKING_SET`); at least 1
    (for batches that do not go through the engine, e.g. bootstrap bags counted together)."""
    return max(1, min(int(memory_budget), WORKING_SET) // max(1, int(bytes_per_element)))


def spans(n: int, size: int) -> Iterator[slice]:
    """Consecutive slices of at most ``size`` covering range(n)."""
    size = max(1, int(size))
    for start in range(0, n, size):
        yield slice(start, min(start + size, n))
