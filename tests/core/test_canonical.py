"""Canonical models against brute force (enumerating the hidden causes), the published noisy-OR formulas
(Díez & Druzdzel 2006 §4.1; GeNIe's Henrion and Díez parametrisations) and pyAgrum's noisy-OR."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from bnstudio.core.canonical import Deterministic, NoisyMax, canonical_of, set_canonical
from bnstudio.core.network import Network
from bnstudio.errors import ValidationError


def random_noisy_max(rng: np.random.Generator, parent_cards=(2, 3, 3), card: int = 3) -> NoisyMax:
    links, distinguished = [], []
    for k in parent_cards:
        d = int(rng.integers(k))
        link = rng.dirichlet(np.ones(card), k)
        link[d] = np.eye(card)[-1]
        links.append(link)
        distinguished.append(d)
    return NoisyMax(tuple(links), rng.dirichlet(np.ones(card)), tuple(distinguished))


def brute_force(model: NoisyMax) -> np.ndarray:
    """P(Y | x) by summing over every value of the hidden Y_1..Y_k, Y_L: Y = the most severe (lowest index)."""
    card = len(model.leak)
    cpt = np.zeros(model.shape)
    for x in itertools.product(*(range(len(l)) for l in model.links)):
        for hidden in itertools.product(range(card), repeat=len(x) + 1):
            p = model.leak[hidden[-1]] * np.prod([model.links[i][x[i], hidden[i]] for i in range(len(x))])
            cpt[x + (min(hidden),)] += p
    return cpt


@pytest.mark.parametrize("seed", range(4))
def test_noisy_max_expands_as_brute_force_over_the_hidden_causes(seed):
    model = random_noisy_max(np.random.default_rng(seed))
    np.testing.assert_allclose(model.expand(), brute_force(model), rtol=0, atol=1e-14)


def test_noisy_or_follows_the_published_formula_in_both_parametrisations():
    """Díez: P(absent | x) = (1 - leak) prod_{i present} (1 - c_i); Henrion: (1 - leak) prod (1 - p_i)/(1 - leak)."""
    c, leak = [0.8, 0.6, 0.3], 0.05
    model = NoisyMax.noisy_or(c, leak)
    cpt = model.expand()
    for x in itertools.product(range(2), repeat=3):
        present = [i for i in range(3) if x[i] == 0]
        absent = (1 - leak) * np.prod([1 - c[i] for i in present])
        assert cpt[x][1] == pytest.approx(absent, abs=1e-15)
    henrion, _ = model.henrion()
    p = [h[0, 0] for h in henrion]
    np.testing.assert_allclose(p, [1 - (1 - leak) * (1 - ci) for ci in c], rtol=0, atol=1e-15)
    for x in itertools.product(range(2), repeat=3):
        present = [i for i in range(3) if x[i] == 0]
        assert cpt[x][1] == pytest.approx((1 - leak) * np.prod([(1 - p[i]) / (1 - leak) for i in present]),
                                          abs=1e-15)


@pytest.mark.parametrize("seed", range(3))
def test_henrion_parameters_convert_back(seed):
    model = random_noisy_max(np.random.default_rng(10 + seed))
    links, leak = model.henrion()
    back = NoisyMax.from_henrion(links, leak, model.distinguished)
    for a, b in zip(back.links, model.links):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    np.testing.assert_allclose(back.expand(), model.expand(), rtol=0, atol=1e-14)


def test_pyagrum_noisy_or_gives_the_same_table():
    """pyAgrum's addNoisyOR takes Henrion weights (its state 1 = present): an independent implementation."""
    gum = pytest.importorskip("pyagrum")
    bn = gum.BayesNet()
    for v in "AB":
        bn.add(gum.LabelizedVariable(v, v, 2))
    bn.addNoisyOR(gum.LabelizedVariable("C", "C", 2), 0.05)
    bn.addWeightedArc("A", "C", 0.8)
    bn.addWeightedArc("B", "C", 0.6)
    links = [np.array([[0.8, 0.2], [0.0, 1.0]]), np.array([[0.6, 0.4], [0.0, 1.0]])]
    ours = NoisyMax.from_henrion(links, np.array([0.05, 0.95]), (1, 1)).expand()
    for a, b in itertools.product(range(2), repeat=2):
        theirs = bn.cpt("C")[{"A": 1 - a, "B": 1 - b}]  # their 1 = our 0 (present)
        np.testing.assert_allclose(ours[a, b], theirs[::-1], rtol=0, atol=1e-12)


def test_a_model_is_kept_only_while_it_gives_the_cpt():
    net = Network()
    net.add_variable("A", ["yes", "no"], cpt=[0.3, 0.7])
    net.add_variable("B", ["yes", "no"], cpt=[0.4, 0.6])
    net.add_variable("C", ["yes", "no"], ["A", "B"])
    model = NoisyMax.noisy_or([0.8, 0.6], 0.05)
    set_canonical(net, "C", model)
    assert canonical_of(net, "C") is model and canonical_of(net.copy(), "C") is model
    np.testing.assert_array_equal(net.cpt("C"), model.expand())
    net.set_cpt_row("C", ["yes", "yes"], [0.5, 0.5])
    assert canonical_of(net, "C") is None
    set_canonical(net, "C", model)
    net.remove_arc("B", "C")
    assert canonical_of(net, "C") is None
    with pytest.raises(ValidationError, match="shape"):
        set_canonical(net, "C", model)


def test_deterministic_node_is_one_hot_and_invalid_models_are_refused():
    model = Deterministic(np.array([[0, 1], [1, 2]]), 3)
    np.testing.assert_array_equal(model.expand(), [[[1, 0, 0], [0, 1, 0]], [[0, 1, 0], [0, 0, 1]]])
    assert model.n_parameters() == 0
    with pytest.raises(ValidationError):
        Deterministic(np.array([0, 3]), 3)
    with pytest.raises(ValidationError, match="distinguished"):
        NoisyMax((np.array([[0.5, 0.5], [0.2, 0.8]]),), np.array([0.1, 0.9]), (1,))
    assert NoisyMax.noisy_or([0.8] * 8, 0.01).n_parameters() == 9  # 8 links and a leak, not 256 rows


def test_the_one_line_text_form_reads_back_and_refuses_garbage():
    from bnstudio.core.canonical import canonical_from_text, canonical_to_text

    model = random_noisy_max(np.random.default_rng(3))
    back = canonical_from_text(canonical_to_text(model))
    np.testing.assert_array_equal(back.expand(), model.expand())
    det = Deterministic(np.array([[0, 2], [1, 1]]), 3)
    np.testing.assert_array_equal(canonical_from_text(canonical_to_text(det)).expand(), det.expand())
    for bad in ("noisy-max leak=abc", "noisy-max distinguished=0 leak=0.5,0.5", "mystery x=1", "deterministic"):
        with pytest.raises(ValidationError):
            canonical_from_text(bad)
