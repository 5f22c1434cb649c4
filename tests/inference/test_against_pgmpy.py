"""Posteriors agree with pgmpy's exact VariableElimination (an independent parser and engine) to 1e-8."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.sampling import forward_sample

pgmpy_readwrite = pytest.importorskip("pgmpy.readwrite")
pgmpy_inference = pytest.importorskip("pgmpy.inference")

SHARED = Path(__file__).resolve().parents[3] / "shared" / "networks"
RESOURCES = Path(__file__).resolve().parents[2] / "resources" / "networks"
NETWORK_DIR = SHARED if SHARED.is_dir() else RESOURCES
NETWORKS = sorted(NETWORK_DIR.glob("*.bif"))


def seeded_queries(net, n_queries: int, seed: int):
    """(target, evidence) pairs; evidence taken from forward samples so that p(e) > 0."""
    rng = np.random.default_rng(seed)
    names = net.variables
    cases = forward_sample(net, n_queries, seed=seed)
    queries = []
    for row in cases:
        order = rng.permutation(len(names))
        target = names[order[0]]
        evidence = {names[k]: net.states(names[k])[row[k]] for k in order[1:1 + rng.integers(0, 5)]}
        queries.append((target, evidence))
    return queries


@pytest.mark.parametrize("path", NETWORKS, ids=lambda p: p.stem)
def test_posteriors_match_pgmpy(path):
    net = read_network(path)
    model = pgmpy_readwrite.BIFReader(str(path)).get_model()
    reference = pgmpy_inference.VariableElimination(model)
    engine = InferenceEngine(net)
    for target, evidence in seeded_queries(net, 12, seed=len(net)):
        ours = engine.posterior(target, evidence)[target]
        theirs = reference.query([target], evidence=evidence, show_progress=False)
        order = [theirs.state_names[target].index(s) for s in net.states(target)]
        np.testing.assert_allclose(ours, np.asarray(theirs.values)[order], atol=1e-8,
                                   err_msg=f"{path.stem}: p({target} | {evidence})")


def test_networks_found():
    assert len(NETWORKS) >= 5
