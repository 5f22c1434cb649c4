"""A hub clique sends its messages together, also when they come from the cached no-evidence propagation.

A naive Bayes compiles to a star: one clique holds the class and every other clique hangs on it. Made one at a
time, the hub's d messages each multiply d - 1 incoming ones (O(d²) products: 8 s for 1,000 attributes, which
the app waited for before showing any belief). Made together they cost O(d log d) (docs/inference.md)."""
from __future__ import annotations

import numpy as np

from bnstudio.core.network import Network
from bnstudio.inference import propagation
from bnstudio.inference.engine import InferenceEngine


def _naive_bayes(children: int, seed: int = 0) -> Network:
    rng = np.random.default_rng(seed)
    net = Network("nb")
    net.add_variable("C", ["a", "b", "c"], cpt=[0.2, 0.3, 0.5])
    for i in range(children):
        t = rng.uniform(0.05, 0.95, size=(3, 1))
        net.add_variable(f"X{i}", ["0", "1"], ["C"], np.hstack([t, 1 - t]))
    return net


def test_every_marginal_of_a_wide_naive_bayes_shares_the_hubs_products(monkeypatch):
    net = _naive_bayes(400)
    engine = InferenceEngine(net)
    hub_products = []
    original = propagation.Propagation._product

    def counting(self, c, exclude, safe=False):
        if len(self.jt.neighbours[c]) > 10:
            hub_products.append(exclude)
        return original(self, c, exclude, safe)

    monkeypatch.setattr(propagation.Propagation, "_product", counting)
    names = list(net.variables)
    answers = engine.posterior(names, {})
    assert len(hub_products) <= 4, f"the hub made {len(hub_products)} products one message at a time"
    prior = net.cpt("C")
    for name in names[1:]:   # p(X) = Σ_c p(c) p(X | c), exactly
        np.testing.assert_allclose(answers[name], prior @ net.cpt(name), rtol=0, atol=1e-12)
    np.testing.assert_allclose(answers["C"], prior, rtol=0, atol=1e-12)


def test_with_evidence_the_wide_naive_bayes_matches_its_closed_form():
    net = _naive_bayes(300, seed=1)
    engine = InferenceEngine(net)
    evidence = {f"X{i}": str(i % 2) for i in range(0, 300, 3)}
    answers = engine.posterior(list(net.variables), evidence)
    log_c = np.log(net.cpt("C")).copy()
    for name, state in evidence.items():
        log_c += np.log(net.cpt(name)[:, int(state)])
    post_c = np.exp(log_c - log_c.max())
    post_c /= post_c.sum()
    np.testing.assert_allclose(answers["C"], post_c, rtol=0, atol=1e-12)
    for i in (1, 2, 4, 299):
        np.testing.assert_allclose(answers[f"X{i}"], post_c @ net.cpt(f"X{i}"), rtol=0, atol=1e-12)
