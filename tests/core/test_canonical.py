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
    for a, b in zip(back.links, model.links, strict=True):
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


# ------------------------------------------------------------------------------- the child's states in any order
@pytest.mark.parametrize("seed, order", [(0, (2, 0, 1)), (1, (0, 2, 1)), (2, (1, 2, 0))])
def test_a_permuted_child_puts_each_severity_in_its_table_column(seed, order):
    """Brute force over the hidden causes in severity order, then the state of severity s in column order[s]."""
    base = random_noisy_max(np.random.default_rng(20 + seed))
    model = NoisyMax(base.links, base.leak, base.distinguished, order)
    brute = brute_force(base)
    cpt = model.expand()
    for s, column in enumerate(order):
        np.testing.assert_allclose(cpt[..., column], brute[..., s], rtol=0, atol=1e-14)
    assert model.shape == base.shape and model.n_parameters() == base.n_parameters()
    np.testing.assert_array_equal(model.to_severity(cpt), base.expand())
    np.testing.assert_array_equal(model.to_table(model.to_severity(cpt)), cpt)


def test_a_noisy_or_listing_absent_first():
    """Díez's formula, the table's columns (absent, present)."""
    c, leak = [0.8, 0.6], 0.05
    model = NoisyMax.noisy_or(c, leak, child_order=(1, 0))
    cpt = model.expand()
    for x in itertools.product(range(2), repeat=2):
        absent = (1 - leak) * np.prod([1 - c[i] for i in range(2) if x[i] == 0])
        np.testing.assert_allclose(cpt[x], [absent, 1 - absent], rtol=0, atol=1e-15)


def test_the_identity_order_is_stored_as_none_and_bad_orders_are_refused():
    model = random_noisy_max(np.random.default_rng(7))
    same = NoisyMax(model.links, model.leak, model.distinguished, (0, 1, 2))
    assert same.child_order is None and "child_order" not in same.to_json()
    np.testing.assert_array_equal(same.expand(), model.expand())
    assert NoisyMax(model.links, model.leak, model.distinguished, [np.int64(2), 1, 0]).child_order == (2, 1, 0)
    for bad in [(0, 0, 1), (0, 1), (0, 1, 2, 3), (1, 2, 3), (0.0, 1.0, 2.0), (True, False, 2), ("0", "1", "2")]:
        with pytest.raises(ValidationError) as info:
            NoisyMax(model.links, model.leak, model.distinguished, bad)
        assert "child order" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("order", [None, (1, 2, 0)])
def test_json_text_and_henrion_forms_keep_the_order(order):
    from bnstudio.core.canonical import canonical_from_json, canonical_from_text, canonical_to_text

    base = random_noisy_max(np.random.default_rng(8))
    model = NoisyMax(base.links, base.leak, base.distinguished, order)
    obj = model.to_json()
    assert ("child_order" in obj) == (order is not None)
    for back in (canonical_from_json(obj), canonical_from_text(canonical_to_text(model)),
                 NoisyMax.from_henrion(*model.henrion(), model.distinguished, order)):
        assert back.child_order == order
        np.testing.assert_allclose(back.expand(), model.expand(), rtol=0, atol=1e-14)
    assert ("order=" in canonical_to_text(model)) == (order is not None)
    henrion, leak = model.henrion()
    np.testing.assert_array_equal(leak, model.leak)  # severity order, whatever the table's
    np.testing.assert_allclose(henrion[0], base.henrion()[0][0], rtol=0, atol=0)


def test_json_without_the_order_reads_as_before_and_a_wrong_order_is_refused():
    from bnstudio.core.canonical import canonical_from_json

    old = {"kind": "noisy-max", "links": [[[0.8, 0.2], [0.0, 1.0]]], "leak": [0.05, 0.95], "distinguished": [1]}
    model = canonical_from_json(old)
    assert model.child_order is None
    np.testing.assert_allclose(model.expand(), [[0.81, 0.19], [0.05, 0.95]], rtol=0, atol=1e-15)
    for bad in ("10", [1, 1], [1.5, 0], {"a": 1}):
        with pytest.raises(ValidationError):
            canonical_from_json({**old, "child_order": bad})


def test_a_permuted_model_is_kept_while_it_gives_the_cpt():
    net = Network()
    net.add_variable("A", ["no", "yes"], cpt=[0.7, 0.3])
    net.add_variable("C", ["false", "true"], ["A"])
    model = NoisyMax((np.array([[0.0, 1.0], [0.9, 0.1]]),), np.array([0.05, 0.95]), (0,), (1, 0))
    set_canonical(net, "C", model)
    np.testing.assert_allclose(net.cpt("C"), [[0.95, 0.05], [0.095, 0.905]], rtol=0, atol=1e-15)
    assert canonical_of(net, "C") is model
    identity = NoisyMax(model.links, model.leak, model.distinguished)
    net.canonical["C"] = identity  # the same parameters read in the table's order: another table
    assert canonical_of(net, "C") is None
