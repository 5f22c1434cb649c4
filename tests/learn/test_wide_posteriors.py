"""Closed-form p(target | row) on complete rows (bnstudio.evaluate.blanket) against the inference engine."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.evaluate.metrics import _engine_posteriors, target_posteriors
from bnstudio.sampling import forward_sample, hide_at_random


@pytest.mark.parametrize("target", ["C", "A", "D"])
def test_closed_form_posteriors_equal_the_engine(target):
    """A TAN-like network with a 3-state class: the target as root, inner node and leaf; some rows missing."""
    net = network_from_dsl("C->A; C->B; A->B; C->D; B->D; D->E", seed=3,
                           states={"C": ("x", "y", "z"), "B": ("0", "1", "2")})
    data = forward_sample(net, 400, seed=1)
    data[200:] = hide_at_random(data[200:], 0.2, seed=2)
    fast = target_posteriors(net, data, target)
    slow = _engine_posteriors(net, data, target, np.arange(len(data)), 2**26)
    np.testing.assert_allclose(fast, slow, atol=1e-12)


def test_chunks_of_the_memory_budget_give_the_same_posteriors():
    net = network_from_dsl("C->A; C->B; C->D", seed=5)
    data = forward_sample(net, 1000, seed=1)
    np.testing.assert_allclose(target_posteriors(net, data, "C", memory_budget=2**12),
                               target_posteriors(net, data, "C"), atol=1e-15)
