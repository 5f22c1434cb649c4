"""Learning never returns a broken network (issue 12 §3): for every learner, on random small networks and random
data — with and without missing cells, constant columns, single-state variables, unseen parent configurations,
zero row weights — every CPT is finite, its rows sum to 1, every entry is at least the documented floor
(1e-9), and every training row has p(e) > 0 under the learned network (checked against brute-force
enumeration of the joint). Plus the clear errors for data with nothing to learn from."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bnstudio.core import network_from_dsl
from bnstudio.errors import ImpossibleEvidence, ValidationError
from bnstudio.evaluate import cross_validate, evaluate
from bnstudio.learn.params import METHODS, make_learner
from bnstudio.learn.params.floor import MIN_PROBABILITY, row_floor
from bnstudio.learn.structure.api import ALGORITHMS, learn_structure
from bnstudio.sampling import forward_sample, hide_at_random
from tests.brute import joint_table

#: every registered method with its defaults (a learner added to the registry is checked with no edit here) ...
QUICK = {"bagged-mp": {"bags": 3, "seed": 0}}
#: ... and the settings that once broke a network
VARIANTS = [("mp", {"prior": "bdeu", "ess": 1e-6}), ("em", {"m_step": "mp"}), ("lgd", {"l2": 0.0}),
            ("clgd", {"l2": 0.0}), ("clgd", {"criterion": "se"}), ("wanbia", {"l2": 0.0})]
LEARNERS = [(m, QUICK.get(m, {})) for m in METHODS] + [(m, o) for m, o in VARIANTS if m in METHODS]


def test_the_variants_name_registered_methods():
    assert {m for m, _ in VARIANTS} <= set(METHODS)


def brute_log_evidence(net, codes: np.ndarray) -> np.ndarray:
    """log p(e_n) per row by summing the enumerated joint over each row's missing cells."""
    joint = joint_table(net)
    out = np.empty(len(codes))
    for n, row in enumerate(codes):
        index = tuple(slice(None) if c < 0 else int(c) for c in row)
        with np.errstate(divide="ignore"):
            out[n] = np.log(joint[index].sum())
    return out


def assert_never_broken(fitted, codes: np.ndarray) -> None:
    for v in fitted.variables:
        table = fitted.cpt(v)
        assert np.all(np.isfinite(table)), v
        np.testing.assert_allclose(table.sum(axis=-1), 1.0, atol=1e-9)
        assert table.min() >= row_floor(table.shape[-1]) * (1 - 1e-9), (v, table.min())
    assert np.all(np.isfinite(brute_log_evidence(fitted, codes))), "a training row has p(e) = 0"


@st.composite
def small_problem(draw):
    """(network with a root class 'V0', NB network on the same variables, data, weights)."""
    seed = draw(st.integers(0, 2 ** 20))
    rng = np.random.default_rng(seed)
    n_vars = draw(st.integers(2, 5))
    cards = [draw(st.integers(1, 3)) for _ in range(n_vars)]
    names = [f"V{i}" for i in range(n_vars)]
    states = {v: [f"s{k}" for k in range(c)] for v, c in zip(names, cards, strict=True)}
    arcs = [f"{names[i]}->{names[j]}" for j in range(1, n_vars) for i in range(j) if rng.random() < 0.45]
    dsl = "; ".join(arcs + names)
    net = network_from_dsl(dsl, seed=seed, states=states, concentration=0.3)   # near-deterministic rows
    nb = network_from_dsl("V0->" + ",".join(names[1:]), seed=seed, states=states)
    n = draw(st.integers(3, 30))
    codes = forward_sample(net, n, seed=seed)[:, [net.variables.index(v) for v in names]]
    net = net.copy()
    if draw(st.booleans()):                              # a constant column: only one of its states shows
        codes[:, draw(st.integers(0, n_vars - 1))] = 0
    if draw(st.booleans()):
        codes = hide_at_random(codes, draw(st.sampled_from([0.1, 0.3, 0.6])), seed=seed + 1)
        codes[0, 0] = 0                                  # not every cell missing
    weights = None
    if draw(st.booleans()):
        weights = rng.uniform(0.0, 2.0, n)
        weights[rng.random(n) < 0.3] = 0.0
        weights[0] = 1.0
    return net, nb, codes, weights


def ordered(net, codes, names):
    return codes[:, [names.index(v) for v in net.variables]]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=small_problem())
def test_every_learner_returns_a_network_that_can_score_its_training_rows(problem):
    net, nb, codes, weights = problem
    names = [f"V{i}" for i in range(len(net))]
    for method, options in LEARNERS:
        base = nb if method == "wanbia" else net
        data = ordered(base, codes, names)
        labelled_rows = data[data[:, base.variables.index("V0")] >= 0]
        attributes_missing = (labelled_rows < 0).any()
        if method == "wanbia" and attributes_missing:
            with pytest.raises(ValidationError, match="complete attribute values"):
                make_learner(method, **options).fit(base, data, weights, target="V0")
            continue
        labelled = weights is None or (weights[data[:, base.variables.index("V0")] >= 0] > 0).any()
        if method in ("clgd", "wanbia") and not labelled:
            with pytest.raises(ValidationError, match="V0"):
                make_learner(method, **options).fit(base, data, weights, target="V0")
            continue
        fit = make_learner(method, **options).fit(base, data, weights, target="V0")
        fitted = fit.network(base)
        assert_never_broken(fitted, data)
        if (data[:, base.variables.index("V0")] >= 0).any():
            metrics = evaluate(fitted, data, "V0")
            assert np.isfinite(metrics.cll) and np.isfinite(metrics.ll)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=small_problem(), prior=st.sampled_from([None, "laplace"]))
def test_every_structure_learner_accepts_constant_and_single_state_columns(problem, prior):
    net, _, codes, _ = problem
    names = [f"V{i}" for i in range(len(net))]
    states = [net.states(v) for v in names]
    unseen = [v for v, seen in zip(names, (codes >= 0).any(axis=0), strict=True) if not seen]
    for algorithm in ALGORITHMS:
        options = {"target": "V0"} if algorithm in ("nb", "tan", "kdb", "bnc") else {}
        if unseen:    # a column with no observed value says nothing about its arcs: refused in one line
            with pytest.raises(ValidationError, match=f"no observed value for '{unseen[0]}'"):
                learn_structure(algorithm, codes, names, states, prior=prior, **options)
            continue
        if algorithm == "bnc" and not (codes >= 0).all(axis=1).any():
            with pytest.raises(ValidationError, match="complete rows"):
                learn_structure(algorithm, codes, names, states, prior=prior, **options)
            continue
        result = learn_structure(algorithm, codes, names, states, prior=prior, **options)
        assert_never_broken(result.network, ordered(result.network, codes, names))


def test_a_column_showing_one_state_is_accepted_everywhere():
    """ALARM-like small sample: one variable always shows the same state (the issue's PULMEMBOLUS = FALSE), as
    an attribute and as the class; every learner, evaluate and cross-validation accept it."""
    net = network_from_dsl("A->B,C,D; B->C", seed=5, states={"A": ["a0", "a1", "a2"]})
    data = forward_sample(net, 60, seed=2)
    data[:, net.variables.index("D")] = 1
    for target in ("A", "D"):
        for method, options in LEARNERS:
            if method == "wanbia" and target != "A":
                continue
            fitted = make_learner(method, **options).fit(net, data, target=target).network(net)
            assert_never_broken(fitted, data)
            assert np.isfinite(evaluate(fitted, data, target).cll)
        for method in ("ml", "clgd", "wanbia"):
            if method == "wanbia" and target != "A":
                continue
            summary = cross_validate(net, data, target, method, folds=3, seed=1)
            assert np.isfinite(summary["cll"]) and 0.0 <= summary["error_rate"] <= 1.0


@pytest.mark.parametrize("method, options", LEARNERS)
def test_data_with_nothing_to_learn_from_is_refused(method, options):
    net = network_from_dsl("V0->V1,V2", seed=1)
    learner = make_learner(method, **options)
    with pytest.raises(ValidationError, match="every cell of the data is missing"):
        learner.fit(net, np.full((5, 3), -1), target="V0")
    data = forward_sample(net, 5, seed=1)
    with pytest.raises(ValidationError, match="total weight is 0"):
        learner.fit(net, data, np.zeros(5), target="V0")
    with pytest.raises(ValidationError, match="no rows"):
        learner.fit(net, np.zeros((0, 3), dtype=int), target="V0")


def test_structure_learning_and_evaluation_refuse_all_missing_data():
    names, states = ["A", "B"], [("0", "1"), ("0", "1")]
    for algorithm in ALGORITHMS:
        with pytest.raises(ValidationError, match="every cell of the data is missing"):
            learn_structure(algorithm, np.full((4, 2), -1), names, states, target="A")
    net = network_from_dsl("A->B", seed=0)
    with pytest.raises(ValidationError, match="every cell of the data is missing"):
        evaluate(net, np.full((4, 2), -1), "A")


def test_the_floor_is_what_the_docs_say():
    assert MIN_PROBABILITY == 1e-9
    assert row_floor(2) == 1e-9 and row_floor(1) == 1e-9 and row_floor(10 ** 9) == 0.5e-9


@pytest.mark.parametrize("init", ["current", "random"])
def test_em_from_a_network_that_makes_training_rows_impossible(init):
    """The start is floored, so EM's log-likelihood is finite from the first E-step on and never falls."""
    net = network_from_dsl("A->B; B->C", seed=2)
    data = hide_at_random(forward_sample(net, 80, seed=3), 0.3, seed=4)
    table = net.cpt("B").copy()
    table[:] = [0.0, 1.0]                           # B = s0 impossible, yet observed in training rows
    net.set_parameters({"B": table})
    assert (data[:, net.variables.index("B")] == 0).any()
    fit = make_learner("em", init=init, seed=1, max_iter=30).fit(net, data)
    assert_never_broken(fit.network(net), data)
    nll = [h["nll"] for h in fit.history]
    assert np.all(np.isfinite(nll)) and np.all(np.diff(nll) <= 1e-9) and fit.stop_reason != "diverged"


def test_evaluate_names_the_data_rows_a_hand_made_network_makes_impossible():
    net = network_from_dsl("A->B; B->C", seed=2)
    table = net.cpt("C").copy()
    table[:, 0] = [0.0, 0.0]                       # C = s0 impossible whatever B
    table[:, 1] = 1.0
    net.set_parameters({"C": table})
    data = np.array([[0, 1, 1], [1, 0, 0], [-1, 1, 1], [1, -1, 0]])
    with pytest.raises(ImpossibleEvidence, match=r"data row\(s\) 1, 3: p\(A \| e\) is undefined"):
        evaluate(net, data, "A")
    fitted = make_learner("ml").fit(net, data).network(net)      # any learned network scores every row
    assert np.isfinite(evaluate(fitted, data, "A").cll)
