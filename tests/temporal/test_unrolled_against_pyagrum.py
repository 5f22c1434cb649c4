"""Unrolled exact inference equals pyAgrum's: the same 2TBN built independently in pyAgrum (names X0, Xt), unrolled
by ``pyagrum.lib.dynamicBN.unroll2TBN`` and queried with LazyPropagation, on several seeds and structures, to
1e-10."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.temporal import unroll, unrolled_posterior
from tests.temporal.random_tbn import random_tbn, to_gum

gum = pytest.importorskip("pyagrum")
dynamic = pytest.importorskip("pyagrum.lib.dynamicBN")


def gum_posterior(bn, target: str, evidence: dict[str, str], states) -> np.ndarray:
    engine = gum.LazyPropagation(bn)
    engine.setEvidence(evidence)
    answer = engine.posterior(target).toarray()
    return answer[[bn.variable(target).labels().index(s) for s in states]]


@pytest.mark.parametrize("seed, n, slices", [(0, 2, 3), (1, 3, 5), (2, 4, 4), (3, 3, 8), (4, 5, 3), (7, 2, 12)])
def test_unrolled_posteriors_equal_pyagrums(seed, n, slices):
    tbn = random_tbn(seed, n=n)
    theirs = dynamic.unroll2TBN(to_gum(tbn), slices)
    ours = unroll(tbn, slices)
    assert set(theirs.names()) == set(ours.variables)
    for v in ours.variables:  # the same families
        assert {theirs.variable(p).name() for p in theirs.parents(v)} == set(ours.parents(v))
    rng = np.random.default_rng(seed)
    names = ours.variables
    for _ in range(4):
        chosen = rng.choice(len(names), size=min(len(names) - 1, 1 + slices // 2), replace=False)
        evidence = {names[k]: str(rng.choice(ours.states(names[k]))) for k in chosen}
        targets = [v for v in names if v not in evidence]
        answer = unrolled_posterior(tbn, slices, targets, evidence)
        for t in targets:
            np.testing.assert_allclose(answer[t], gum_posterior(theirs, t, evidence, ours.states(t)), atol=1e-10)
