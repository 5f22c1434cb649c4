"""wanbia: gradients, the equivalent network, the logistic-regression optimum, levels, structure checks."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import ValidationError
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.base import DataScorer
from bnstudio.learn.params.wanbia import LEVELS, WeightedCLL, equivalent_network_cpts
from bnstudio.sampling import forward_sample
from tests.learn.test_gradient import finite_difference, noisy_naive_bayes_data

TAN = "C->X0,X1,X2,X3,X4; X0->X1; X1->X2; X0->X3"


def tan_data(n=800, seed=2):
    states = {f"X{i}": ["a", "b", "c"] for i in range(5)}
    net = network_from_dsl(TAN, seed=seed, states=states)
    source = network_from_dsl("X0->X1; X1,X2->C; C->X3; X3->X4", seed=seed + 1, states=states)
    data = forward_sample(source, n, seed=seed)
    return net, data[:, [source.variables.index(v) for v in net.variables]]


@pytest.mark.parametrize("level", LEVELS)
def test_weight_gradients_match_finite_differences(level):
    net, data = tan_data(200)
    theta = make_learner("mp").fit(net, data).cpts
    objective = WeightedCLL(net, theta, data, np.ones(len(data)), "C", level, l2=0.3)
    w = np.random.default_rng(1).normal(1.0, 0.3, objective.n_weights)
    np.testing.assert_allclose(objective(w)[1], finite_difference(objective, w), atol=1e-7)


@pytest.mark.parametrize("level", LEVELS)
def test_equivalent_network_has_the_weighted_models_conditional_likelihood(level):
    net, data = tan_data(300)
    theta = make_learner("mp").fit(net, data).cpts
    objective = WeightedCLL(net, theta, data, np.ones(len(data)), "C", level, l2=0.0)
    w = np.random.default_rng(2).normal(1.0, 0.5, objective.n_weights)
    cpts = equivalent_network_cpts(net, "C", theta, objective.weight_tables(w, net))
    cnll = DataScorer(net, data, None, "C").scores([cpts[v] for v in net.variables])["cnll"]
    assert cnll == pytest.approx(objective(w)[0], rel=1e-10)


def test_parameter_level_reaches_the_clgd_optimum_in_fewer_iterations():
    net, data = noisy_naive_bayes_data()
    wanbia = make_learner("wanbia", level="parameter", l2=0.0, max_iter=1000, tol=1e-14).fit(net, data, target="C")
    clgd = make_learner("clgd", l2=0.0, max_iter=1000, tol=1e-14).fit(net, data, target="C")   # unpenalised
    assert wanbia.history[-1]["cnll"] == pytest.approx(clgd.history[-1]["cnll"], rel=1e-5)
    assert wanbia.n_iterations < clgd.n_iterations


def test_l2_toward_one_pulls_back_to_the_generative_model():
    net, data = tan_data()
    mp = make_learner("mp").fit(net, data, target="C").history[-1]["cnll"]
    free = make_learner("wanbia", level="attribute", l2=0.0).fit(net, data, target="C").history[-1]["cnll"]
    tied = make_learner("wanbia", level="attribute", l2=1e6).fit(net, data, target="C").history[-1]["cnll"]
    assert free < mp - 1e-4
    assert tied == pytest.approx(mp, abs=1e-5)


def test_structure_and_data_requirements_are_explained():
    general = network_from_dsl("C->A,B; A,B->D", seed=0)
    with pytest.raises(ValidationError, match=r"at most one other parent.*\(learn a class-rooted structure first"):
        make_learner("wanbia").fit(general, forward_sample(general, 50, seed=1), target="C")
    rooted = network_from_dsl("A->C; C->B", seed=0)
    with pytest.raises(ValidationError, match=r"as a root.*\(learn a class-rooted structure first: nb, tan"):
        make_learner("wanbia").fit(rooted, forward_sample(rooted, 50, seed=1), target="C")
    net, data = tan_data(50)
    data[3, 2] = -1
    with pytest.raises(ValidationError, match="complete attribute values"):
        make_learner("wanbia").fit(net, data, target="C")


def previous_formula(net, theta, codes, row_weights, target, level, l2):
    """The dense per-family formula wanbia used before the sparse layout (eq 16–21 entry by entry), as a reference:
    for every row and class the entry of each class-containing table, its log θ and its weight id."""
    from scipy.special import logsumexp, softmax

    from bnstudio.learn.params.suffstats import families, family_index
    from bnstudio.learn.params.wanbia import group_map
    t, n_classes = net.variables.index(target), net.cardinality(target)
    filled = codes.copy()
    filled[:, t] = 0
    blocks, offset = [], 0
    for fam in families(net):
        if t not in fam.columns:
            continue
        axis = fam.columns.index(t)
        idx = family_index(filled, fam)[:, None] + int(np.prod(fam.shape[axis + 1:])) * np.arange(n_classes)[None, :]
        groups = group_map(fam.shape, axis, level).ravel()
        with np.errstate(divide="ignore"):
            logs = np.log(theta[fam.var]).ravel()
        blocks.append((logs[idx], groups[idx] + offset))
        offset += int(groups.max()) + 1
    y, rows, total = codes[:, t], np.arange(len(codes)), row_weights.sum()

    def objective(w):
        s = sum(w[ids] * logs for logs, ids in blocks)
        loss = -np.sum(row_weights * (s[rows, y] - logsumexp(s, axis=1))) / total
        resid = -softmax(s, axis=1)
        resid[rows, y] += 1.0
        resid *= row_weights[:, None]
        grad = -sum(np.bincount(ids.ravel(), weights=(resid * logs).ravel(), minlength=offset)
                    for logs, ids in blocks) / total
        return loss + 0.5 * l2 * np.sum((w - 1) ** 2), grad + l2 * (w - 1)
    return objective, offset


def three_class_tan_data(n=400, seed=4):
    states = {"C": ["c0", "c1", "c2"], **{f"X{i}": ["a", "b", "c"] for i in range(5)}}
    net = network_from_dsl(TAN, seed=seed, states=states)
    return net, forward_sample(net, n, seed=seed)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("make", [tan_data, three_class_tan_data], ids=["2 classes", "3 classes"])
def test_sparse_objective_equals_the_previous_dense_formula(level, make):
    """Finite log θ (the relative-score fast path): loss and gradient as before, with unequal row weights,
    column-major data and very large weights too."""
    net, data = make()
    row_weights = np.random.default_rng(5).uniform(0.2, 3.0, len(data))
    theta = make_learner("mp").fit(net, data).cpts
    reference, n_weights = previous_formula(net, theta, data, row_weights, "C", level, 0.3)
    unpenalised, _ = previous_formula(net, theta, data, row_weights, "C", level, 0.0)
    for codes in (data, np.asfortranarray(data)):
        objective = WeightedCLL(net, theta, codes, row_weights, "C", level, l2=0.3)
        assert objective.finite and objective.n_weights == n_weights
        for seed, scale in enumerate((1.0, 1.0, 300.0)):   # large weights: scores in the thousands, no overflow
            w = scale * np.random.default_rng(seed).normal(1.0, 0.5, n_weights)
            loss, grad = objective(w)
            ref_loss, ref_grad = reference(w)
            assert loss == pytest.approx(ref_loss, rel=1e-12)
            np.testing.assert_allclose(grad, ref_grad, rtol=1e-10, atol=1e-13)
            assert objective.cnll(w) == pytest.approx(unpenalised(w)[0], rel=1e-12)


def zero_theta_case():
    """3 classes; X0 never takes 'c' in the data and θ(X0 = c | ·) = 0 (unused zeros); θ(X1 = a | C = c2) = 0 and
    no row has C = c2 with X1 = a (a zero used only at a class the row does not have: p = 0 there)."""
    net, data = three_class_tan_data(500)
    data = data[(data[:, 1] != 2) & ~((data[:, 0] == 2) & (data[:, 2] == 0))]
    theta = make_learner("mp").fit(net, data).cpts
    x0 = theta["X0"].copy()
    x0[..., 2] = 0.0
    x1 = theta["X1"].copy()                      # X1 | C, X0: zero at C = c2, X1 = a for every X0
    x1[2, :, 0] = 0.0
    theta = {**theta, "X0": x0 / x0.sum(-1, keepdims=True), "X1": x1 / x1.sum(-1, keepdims=True)}
    return net, data, theta


@pytest.mark.parametrize("level", LEVELS)
def test_zeros_in_theta_take_the_absolute_score_path_and_match_finite_differences(level):
    net, data, theta = zero_theta_case()
    assert net.parents("X1") == ("C", "X0")
    row_weights = np.random.default_rng(4).uniform(0.2, 3.0, len(data))
    objective = WeightedCLL(net, theta, data, row_weights, "C", level, l2=0.2)
    reference, _ = previous_formula(net, theta, data, row_weights, "C", level, 0.2)
    assert not objective.finite
    w = np.random.default_rng(3).uniform(0.5, 1.5, objective.n_weights)     # w > 0: −∞ · w stays −∞
    loss, grad = objective(w)
    assert np.isfinite(loss) and np.all(np.isfinite(grad))
    np.testing.assert_allclose(grad, finite_difference(objective, w), atol=1e-7)
    with np.errstate(invalid="ignore"):              # the old formula gave NaN where 0 · log 0 met a used zero
        ref_loss, ref_grad = reference(w)
    assert loss == pytest.approx(ref_loss, rel=1e-12)
    known = np.isfinite(ref_grad)
    np.testing.assert_allclose(grad[known], ref_grad[known], rtol=1e-10, atol=1e-13)


def test_cached_evaluation_is_never_stale():
    net, data = tan_data(200)
    theta = make_learner("mp").fit(net, data).cpts
    objective = WeightedCLL(net, theta, data, np.ones(len(data)), "C", "parameter", l2=0.1)
    fresh = WeightedCLL(net, theta, data, np.ones(len(data)), "C", "parameter", l2=0.1)
    rng = np.random.default_rng(0)
    a, b = rng.normal(1, 0.3, objective.n_weights), rng.normal(1, 0.3, objective.n_weights)
    first = objective(a)
    first[1][:] = 0.0                                 # a caller scribbling on the gradient changes nothing
    for w in (b, a, a, b):
        loss, grad = objective(w)
        ref_loss, ref_grad = fresh(w.copy())
        assert loss == ref_loss
        np.testing.assert_array_equal(grad, ref_grad)


def test_missing_values_are_refused_by_the_objective():
    net, data = tan_data(50)
    theta = make_learner("mp").fit(net, data).cpts
    for column in (0, 3):
        holed = data.copy()
        holed[7, column] = -1
        with pytest.raises(ValidationError, match="observed in every row"):
            WeightedCLL(net, theta, holed, np.ones(len(holed)), "C", "attribute", l2=0.0)


@pytest.mark.parametrize("level", ["attribute", "parameter"])
def test_fit_history_and_theta_match_independent_scores(level):
    """θ is the ``mp`` estimate; every history entry's nll / cnll are the data scores of the equivalent network
    (first entry: w = 1, the ``mp`` network; last: the returned CPTs); rows with a missing class are dropped."""
    net, data = three_class_tan_data(600)
    weights = np.random.default_rng(1).uniform(0.5, 2.0, len(data))
    holed = data.copy()
    holed[::9, 0] = -1
    fit = make_learner("wanbia", level=level, prior="bdeu", ess=4.0, max_iter=3).fit(
        net, holed, weights=weights, target="C", validation=data[:100])
    kept, kept_weights = data[holed[:, 0] >= 0], weights[holed[:, 0] >= 0]
    mp = make_learner("mp", prior="bdeu", ess=4.0).fit(net, kept, weights=kept_weights).cpts
    for v in net.variables:
        np.testing.assert_array_equal(fit.extra["generative_cpts"][v], mp[v])
    scorer = DataScorer(net, kept, kept_weights, "C")
    assert fit.n_iterations == 4
    for entry, cpts in ((fit.history[0], mp), (fit.history[-1], fit.cpts)):
        expected = scorer.scores([cpts[v] for v in net.variables])
        assert entry["nll"] == pytest.approx(expected["nll"], rel=1e-12)
        assert entry["cnll"] == pytest.approx(expected["cnll"], rel=1e-10)
        val = DataScorer(net, data[:100], None, "C").scores([cpts[v] for v in net.variables])
        assert entry["val_cnll"] == pytest.approx(val["cnll"], rel=1e-12)


def test_zero_total_weight_is_a_clear_error():
    net = network_from_dsl("Y->A,B", seed=1)
    data = forward_sample(net, 50, seed=2)
    with pytest.raises(ValidationError, match="total weight is 0"):
        make_learner("wanbia").fit(net, data, np.zeros(len(data)), target="Y")
