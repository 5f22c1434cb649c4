"""NB + ml / mp / clgd against scikit-learn's BernoulliNB / CategoricalNB / LogisticRegression (Ng & Jordan 2001).

Held-out p(class | attributes) must agree: to 1e-6 for the closed forms, to 1e-4 for clgd against logistic
regression at the same optimum (docs/learning.md, "Wide data against scikit-learn").
"""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.evaluate import evaluate
from bnstudio.evaluate.metrics import target_posteriors
from bnstudio.experiment.generators import wide_categorical
from bnstudio.learn.params import make_learner
from bnstudio.learn.structure.api import learn_structure

naive_bayes = pytest.importorskip("sklearn.naive_bayes")
linear_model = pytest.importorskip("sklearn.linear_model")
preprocessing = pytest.importorskip("sklearn.preprocessing")


def wide(n: int, d: int, states: int, classes: int = 2, seed: int = 0, flat: float = 1.0):
    """(NB network, train codes, test codes) from :func:`wide_categorical` (2n rows, halved)."""
    codes, names, states_list = wide_categorical(2 * n, seed, d, states, classes, flat)
    names[-1] = "y"
    net = learn_structure("nb", codes[:n], names, states_list, target="y").network
    return net, codes[:n], codes[n:]


def class_prior(train: np.ndarray, classes: int) -> np.ndarray:
    """mp's Laplace class prior, (N_k + 1) / (N + K), which scikit-learn takes as ``class_prior``."""
    counts = np.bincount(train[:, -1], minlength=classes)
    return (counts + 1.0) / (counts.sum() + classes)


def test_mp_equals_bernoulli_nb():
    net, train, test = wide(300, 40, 2)
    fit = make_learner("mp").fit(net, train, target="y")
    ours = target_posteriors(fit.network(net), test, "y")
    theirs = naive_bayes.BernoulliNB(alpha=1.0, class_prior=class_prior(train, 2)).fit(
        train[:, :-1], train[:, -1]).predict_proba(test[:, :-1])
    np.testing.assert_allclose(ours, theirs, atol=1e-6)


def test_mp_equals_categorical_nb_on_many_valued_attributes():
    net, train, test = wide(400, 25, 5, classes=3, seed=1)
    fit = make_learner("mp").fit(net, train, target="y")
    ours = target_posteriors(fit.network(net), test, "y")
    model = naive_bayes.CategoricalNB(alpha=1.0, class_prior=class_prior(train, 3), min_categories=5)
    theirs = model.fit(train[:, :-1], train[:, -1]).predict_proba(test[:, :-1])
    np.testing.assert_allclose(ours, theirs, atol=1e-6)


def test_ml_equals_categorical_nb_without_smoothing():
    """ml = relative frequencies; every cell is seen here, so the floor never acts (alpha → 0 in scikit-learn)."""
    net, train, test = wide(2000, 10, 3, seed=2)
    fit = make_learner("ml").fit(net, train, target="y")
    ours = target_posteriors(fit.network(net), test, "y")
    model = naive_bayes.CategoricalNB(alpha=1e-10, force_alpha=True, min_categories=3)
    theirs = model.fit(train[:, :-1], train[:, -1]).predict_proba(test[:, :-1])
    np.testing.assert_allclose(ours, theirs, atol=1e-6)


@pytest.mark.parametrize("states, classes", [(2, 2), (4, 3)])
def test_unpenalised_clgd_equals_logistic_regression_held_out(states, classes):
    """NB + clgd with l2 = 0 is logistic regression on one-hot attributes (Zaidi et al. §3, eq 8): the same
    optimum in function space, so the same held-out posteriors, error and CLL."""
    net, train, test = wide(600, 12, states, classes, seed=3, flat=20.0)
    fit = make_learner("clgd", l2=0.0, tol=1e-14, max_iter=2000).fit(net, train, target="y")
    ours = target_posteriors(fit.network(net), test, "y")
    onehot = preprocessing.OneHotEncoder(categories=[list(range(states))] * 12).fit(train[:, :-1])
    lr = linear_model.LogisticRegression(C=np.inf, tol=1e-12, max_iter=100_000)
    theirs = lr.fit(onehot.transform(train[:, :-1]), train[:, -1]).predict_proba(onehot.transform(test[:, :-1]))
    np.testing.assert_allclose(ours, theirs, atol=1e-4)
    scores = evaluate(fit.network(net), test, "y")
    y = test[:, -1]
    assert scores.cll == pytest.approx(np.log(theirs[np.arange(len(y)), y]).mean(), abs=1e-4)
    assert scores.error_rate == pytest.approx((theirs.argmax(axis=1) != y).mean(), abs=1e-4)


def test_penalised_clgd_with_the_mapped_l2_is_close_to_logistic_regression():
    """λ = 2 / (C N) (binary class) gives the attribute weights LR's penalty at the symmetric split; the
    softmax normalisers make the intercept non-linear in β, so the optima differ by O(λ) (docs/learning.md)."""
    net, train, test = wide(1000, 20, 2, seed=4)
    c = 1.0
    fit = make_learner("clgd", init="uniform", l2=2.0 / (c * len(train)), tol=1e-14).fit(net, train, target="y")
    ours = target_posteriors(fit.network(net), test, "y")
    onehot = preprocessing.OneHotEncoder(categories=[[0, 1]] * 20).fit(train[:, :-1])
    lr = linear_model.LogisticRegression(C=c, tol=1e-12, max_iter=100_000)
    theirs = lr.fit(onehot.transform(train[:, :-1]), train[:, -1]).predict_proba(onehot.transform(test[:, :-1]))
    assert np.abs(ours - theirs).mean() < 1e-2
    y = test[:, -1]
    assert abs((ours.argmax(axis=1) != y).mean() - (theirs.argmax(axis=1) != y).mean()) <= 0.01
