"""Large networks: finite, normalised answers; both methods agree; the memory budget is enforced first."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from tests.inference.test_against_pgmpy import seeded_queries

pgmpy = pytest.importorskip("pgmpy")
MODELS = Path(pgmpy.__file__).parent / "utils" / "example_models"


def load(name: str):
    path = MODELS / f"{name}.bif.gz"
    if not path.exists():
        pytest.skip(f"{path} not shipped by this pgmpy")
    return read_network(path)


@pytest.mark.parametrize("name", ["hailfinder", "win95pts", "hepar2", "andes", "pathfinder"])
def test_junction_tree_and_pruned_elimination_agree(name):
    net = load(name)
    tree = InferenceEngine(net, method="junction-tree")
    elimination = InferenceEngine(net, method="elimination")
    for target, evidence in seeded_queries(net, 6, seed=7):
        a = tree.posterior(target, evidence)[target]
        b = elimination.posterior(target, evidence)[target]
        assert np.all(np.isfinite(a)) and a.sum() == pytest.approx(1.0, abs=1e-12)
        np.testing.assert_allclose(a, b, atol=1e-9, err_msg=f"{name}: p({target} | {evidence})")
        assert tree.log_evidence(evidence) == pytest.approx(elimination.log_evidence(evidence), abs=1e-8)


def test_andes_p_of_many_findings_stays_finite_without_underflow():
    """60 findings: p(e) is far below the smallest double's square root; the log stays exact."""
    net = load("andes")
    from bnstudio.sampling import forward_sample
    row = forward_sample(net, 1, seed=3)[0]
    evidence = {v: net.states(v)[c] for v, c in list(zip(net.variables, row, strict=True))[::3]}
    tree = InferenceEngine(net, method="junction-tree").log_evidence(evidence)
    elimination = InferenceEngine(net, method="elimination").log_evidence(evidence)
    assert np.isfinite(tree) and tree < -20
    assert tree == pytest.approx(elimination, abs=1e-8)


def test_munin1_single_and_batched_queries_use_what_fits():
    net = load("munin1")
    engine = InferenceEngine(net)
    assert not engine.fits_budget  # its full junction tree needs more than the default budget
    names = net.variables
    for target, evidence in seeded_queries(net, 8, seed=11):
        p = engine.posterior(target, evidence)[target]
        assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0, abs=1e-12)
        # one case as a batch: the tree of An(target ∪ evidence) fits where the whole network's does not
        codes = np.full((1, len(names)), -1)
        for var, state in evidence.items():
            codes[0, names.index(var)] = net.states(var).index(state)
        np.testing.assert_allclose(engine.posterior_batch(target, codes)[target][0], p, atol=1e-10)
    # every family marginal needs the whole network's tree: one case does not fit, and the message says where
    with pytest.raises(MemoryBudgetExceeded, match=r"junction tree of this 186-variable network .* does not "
                                                   r"fit the memory budget of 2 GiB even for one case"):
        engine.family_marginals_batch(np.full((4, len(net)), -1))


def test_memory_budget_stops_a_query_before_allocating():
    net = load("andes")
    engine = InferenceEngine(net, memory_budget=4096, method="elimination")
    target, evidence = seeded_queries(net, 1, seed=2)[0]
    with pytest.raises(MemoryBudgetExceeded, match="memory budget"):
        # the unconditional joint of many variables needs a big table
        engine.joint(net.variables[:12], {})
