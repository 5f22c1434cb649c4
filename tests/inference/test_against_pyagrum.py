"""Answers agree with pyAgrum's LazyPropagation (an independent parser and engine) to 1e-6, whichever path answers
them: pruned elimination, the whole tree (single and all marginals), or a batch on the tree of An(T ∪ E)."""
from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from tests.inference.test_against_pgmpy import seeded_queries

gum = pytest.importorskip("pyagrum")
pgmpy = pytest.importorskip("pgmpy")
MODELS = Path(pgmpy.__file__).parent / "utils" / "example_models"


def load_both(name: str, tmp_path: Path):
    path = MODELS / f"{name}.bif.gz"
    if not path.exists():
        pytest.skip(f"{path} not shipped by this pgmpy")
    plain = tmp_path / f"{name}.bif"
    plain.write_bytes(gzip.decompress(path.read_bytes()))
    return read_network(path), gum.loadBN(str(plain))


def theirs(bn, target: str, evidence: dict, states) -> np.ndarray:
    engine = gum.LazyPropagation(bn)
    engine.setEvidence(evidence)
    posterior = engine.posterior(target).toarray()
    return posterior[[bn.variable(target).labels().index(s) for s in states]]


@pytest.mark.parametrize("name", ["alarm", "win95pts", "pathfinder"])
def test_posteriors_match_pyagrum(name, tmp_path):
    net, bn = load_both(name, tmp_path)
    engine = InferenceEngine(net)
    queries = [(t, e) for t, e in seeded_queries(net, 40, seed=3) if e][:12]
    for target, evidence in queries:  # pruned elimination, then the whole tree once queries are large
        np.testing.assert_allclose(engine.posterior(target, evidence)[target],
                                   theirs(bn, target, evidence, net.states(target)), atol=1e-6)
    names = net.variables
    target = queries[0][0]
    codes = np.full((len(queries), len(names)), -1)
    for k, (_, evidence) in enumerate(queries):
        for var, state in evidence.items():
            codes[k, names.index(var)] = net.states(var).index(state)
    batch = engine.posterior_batch(target, codes)[target]
    for k, (_, evidence) in enumerate(queries):
        np.testing.assert_allclose(batch[k], theirs(bn, target, evidence, net.states(target)), atol=1e-6)
    evidence = queries[1][1]
    everything = engine.posterior(names, evidence)
    for var in names[::7]:
        np.testing.assert_allclose(everything[var], theirs(bn, var, evidence, net.states(var)), atol=1e-6)
