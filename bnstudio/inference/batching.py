"""Splitting a batch (N evidence cases x S parameter sets) into propagations that fit the memory budget.

One propagation over n cases and s parameter sets holds about ``bytes_per_element`` for each of its s·n batch
elements (clique tables, messages, beliefs) plus ``bytes_per_case`` of evidence for each case. Chunks take
all S parameter sets and as many cases as fit — but at most :data:`CHUNK_ELEMENTS` elements, past which a
bigger chunk is no faster (its tables leave the processor's caches) — or, when even one case with all S sets
is too big, one case and as many sets as fit. Only a single element that does not fit is an error.
"""
from __future__ import annotations

from typing import Iterator

from bnstudio.errors import MemoryBudgetExceeded

CHUNK_ELEMENTS = 1 << 14
BYTES_PER_ENTRY = 8 * 3  # potentials, messages and beliefs of one propagation, float64


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
