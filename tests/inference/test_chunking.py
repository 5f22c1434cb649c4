"""Batches are cut into chunks that fit the memory budget and accumulated: any number of cases works, chunked
answers equal one propagation's, and MemoryBudgetExceeded means that one single case does not fit (naming the
network and saying what would help)."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import ImpossibleEvidence, MemoryBudgetExceeded
from bnstudio.inference import InferenceEngine
from bnstudio.inference.batching import chunks
from bnstudio.inference.trees import BYTES_PER_ENTRY
from bnstudio.sampling import forward_sample

NET = network_from_dsl("A->B; A->C; B->D; C->D; D->E; E->F; C->F; F->G", seed=11, name="chunky",
                       states={"D": ["d0", "d1", "d2"], "F": ["f0", "f1", "f2"]})


def small_engine(cases_per_chunk: int) -> InferenceEngine:
    """An engine whose budget lets a propagation take only a few batch elements."""
    entries = InferenceEngine(NET).compiled.jt.total_size
    return InferenceEngine(NET, memory_budget=(cases_per_chunk * entries + 1) * BYTES_PER_ENTRY)


def codes(n: int, seed: int, missing: float = 0.4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = forward_sample(NET, n, seed=seed)
    out[rng.random(out.shape) < missing] = -1
    return out


@pytest.mark.parametrize("n_cases,n_sets,budget,per_element,per_case", [
    (10, 1, 300, 100, 0), (7, 3, 1000, 100, 10), (5, 4, 250, 100, 0), (1, 1, 100, 100, 0), (0, 1, 500, 100, 0),
    (100_000, 1, 10**9, 1000, 8)])
def test_chunks_cover_the_batch_once_and_each_fits(n_cases, n_sets, budget, per_element, per_case):
    seen = np.zeros((n_sets, n_cases), dtype=int)
    for sets, rows in chunks(n_cases, n_sets, budget, per_element, per_case):
        n_rows = rows.stop - rows.start
        assert (sets.stop - sets.start) * n_rows * per_element + n_rows * per_case <= budget
        seen[sets, rows] += 1
    assert np.all(seen == 1)


def test_only_a_single_element_that_does_not_fit_is_an_error():
    with pytest.raises(MemoryBudgetExceeded, match="one case"):
        list(chunks(5, 1, 99, 100))
    assert len(list(chunks(10**6, 1, 10**4, 100))) > 1  # a million cases in a tiny budget: many chunks


def test_chunked_batches_equal_one_propagation():
    data = codes(200, seed=3)
    weights = np.random.default_rng(4).random(len(data))
    whole, small = InferenceEngine(NET), small_engine(cases_per_chunk=7)
    assert small.batch_capacity() == 7
    names = NET.variables
    for targets in ("G", ["A", "D"], names):  # few targets: the tree of An(targets ∪ observed); all: calibration
        expected = whole.posterior_batch(targets, data)
        for name, got in small.posterior_batch(targets, data).items():
            np.testing.assert_allclose(got, expected[name], atol=1e-13)
    np.testing.assert_allclose(small.log_evidence_batch(data), whole.log_evidence_batch(data), atol=1e-12)
    for reduce in (True, False):
        expected = whole.family_marginals_batch(data, weights=weights, reduce=reduce)
        for name, got in small.family_marginals_batch(data, weights=weights, reduce=reduce).items():
            np.testing.assert_allclose(got, expected[name], atol=1e-10)
    (fams, logs), (ref_fams, ref_logs) = small.calibrate_batch(data), whole.calibrate_batch(data)
    np.testing.assert_allclose(logs, ref_logs, atol=1e-12)
    for name in names:
        np.testing.assert_allclose(fams[name], ref_fams[name], atol=1e-13)


def test_parameter_sets_are_chunked_too_when_one_case_with_all_sets_does_not_fit():
    rng = np.random.default_rng(8)
    sets = 9
    params = {v: rng.dirichlet(np.ones(NET.cardinality(v)), size=(sets,) + NET.family_shape(v)[:-1])
              for v in NET.variables}
    data = codes(5, seed=9)
    whole, small = InferenceEngine(NET), small_engine(cases_per_chunk=4)  # 4 < 9 sets: sets split too
    np.testing.assert_allclose(small.log_evidence_batch(data, parameters=params),
                               whole.log_evidence_batch(data, parameters=params), atol=1e-12)
    expected = whole.posterior_batch(["A", "G"], data, parameters=params)
    for name, got in small.posterior_batch(["A", "G"], data, parameters=params).items():
        np.testing.assert_allclose(got, expected[name], atol=1e-13)
    expected = whole.family_marginals_batch(data, parameters=params)
    for name, got in small.family_marginals_batch(data, parameters=params).items():
        np.testing.assert_allclose(got, expected[name], atol=1e-10)


def test_impossible_cases_are_numbered_across_chunks():
    net = network_from_dsl("A->B", cpts={"A": [1.0, 0.0], "B": [[0.5, 0.5], [0.5, 0.5]]}, name="two")
    entries = InferenceEngine(net).compiled.jt.total_size
    engine = InferenceEngine(net, memory_budget=(3 * entries + 1) * BYTES_PER_ENTRY)  # 3 cases per chunk
    data = np.zeros((20, 2), dtype=int)
    data[[4, 11, 17], 0] = 1  # A = s1 has probability 0
    with pytest.raises(ImpossibleEvidence, match=r"case\(s\) \[4, 11, 17\]"):
        engine.posterior_batch("B", data)
    logs = engine.log_evidence_batch(data)
    assert np.isneginf(logs[[4, 11, 17]]).all() and np.isfinite(np.delete(logs, [4, 11, 17])).all()


def test_a_case_that_cannot_fit_names_the_network_and_what_would_help():
    engine = InferenceEngine(NET, memory_budget=BYTES_PER_ENTRY * 10)  # less than one case's tree
    message = "'chunky' .7 variables. does not fit the memory budget of 240 bytes even for one case.*memory_budget"
    with pytest.raises(MemoryBudgetExceeded, match=message):
        engine.family_marginals_batch(codes(3, seed=1))
    with pytest.raises(MemoryBudgetExceeded, match="'chunky'.*even for one case.*fewer targets or observed"):
        engine.posterior_batch("G", codes(3, seed=1))
    unnamed = network_from_dsl("A->B; B->C", seed=1, name="unknown")  # bnlearn files say 'network unknown'
    with pytest.raises(MemoryBudgetExceeded, match="this 3-variable network .its file gives no name."):
        InferenceEngine(unnamed, memory_budget=BYTES_PER_ENTRY).family_marginals_batch(np.zeros((2, 3), dtype=int))
