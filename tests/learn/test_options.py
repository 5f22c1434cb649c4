"""Every learner hyper-parameter is checked at the constructor: a one-line ValidationError naming the option (as
the CLI user types it) and the accepted range, for 0, -1, nan, inf, huge and wrong types; boundary values work."""
from __future__ import annotations

import math

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import ValidationError
from bnstudio.learn.params import make_learner
from bnstudio.learn.structure.api import learn_structure
from bnstudio.sampling import forward_sample

NAN, INF = math.nan, math.inf
ITERATIVE = ("em", "lgd", "clgd", "wanbia")
BAD = {
    "l2": [-5, -1e-300, NAN, INF, -INF, 1e300, "0.1", True],
    "max_iter": [0, -1, 1.5, NAN, INF, 10 ** 18, "5", True],
    "tol": [-1e-9, NAN, INF],
    "max_time": [0, -1, NAN],
    "alpha": [-0.1, 1.5, NAN, INF],
    "ess": [0, -1, NAN, INF, 1e300, 1e-300],
    "bags": [0, -1, 10 ** 6, 2.5, NAN],
    "restarts": [-1, 10 ** 6, 0.5],
    "seed": [-1, 1.5, NAN],
    "patience": [0, -1, 2.5],
}
TAKES = {"l2": ("lgd", "clgd", "wanbia"), "max_iter": ITERATIVE, "tol": ITERATIVE, "max_time": ITERATIVE,
         "alpha": ("clgd",), "ess": ("mp", "em", "wanbia", "bagged-mp"), "bags": ("bagged-mp",),
         "restarts": ("em",), "seed": ("em", "bagged-mp"), "patience": ("lgd", "clgd")}
CASES = [(method, option, value) for option, values in BAD.items() for method in TAKES[option] for value in values]


@pytest.mark.parametrize("method, option, value", CASES, ids=[f"{m}-{o}={v!r}" for m, o, v in CASES])
def test_a_bad_value_is_a_one_line_error_naming_the_option(method, option, value):
    with pytest.raises(ValidationError) as info:
        make_learner(method, **{option: value})
    message = str(info.value)
    assert message.startswith(option) and "got" in message and "\n" not in message


def test_the_messages_read_as_the_cli_user_expects():
    cases = [("clgd", {"l2": -5}, "l2 must be a finite number in [0, 1e+12], got -5"),
             ("em", {"max_iter": -1}, "max_iter must be an integer in [1, 10000000], got -1"),
             ("clgd", {"alpha": 2}, "alpha must be a finite number in [0, 1], got 2"),
             ("mp", {"ess": NAN}, "ess (the equivalent sample size) must be a finite number in [1e-06, 1e+09], got nan"),
             ("bagged-mp", {"bags": 0}, "bags must be an integer in [1, 100000], got 0"),
             ("wanbia", {"level": "x"}, "unknown level 'x'; use one of attribute, attribute-value, "
                                        "attribute-value-class, parameter"),
             ("clgd", {"optimizer": "adam"}, "unknown optimizer 'adam'; use one of lbfgs, cg"),
             ("mp", {"prior": "jeffreys"}, "unknown prior 'jeffreys'; use one of laplace, bdeu, network"),
             ("ml", {"l2": 1.0}, "method 'ml' has no option 'l2'; its options: none"),
             ("lgd", {"criterion": "cll"}, "method 'lgd' has no option 'criterion'")]
    for method, options, expected in cases:
        with pytest.raises(ValidationError) as info:
            make_learner(method, **options)
        assert str(info.value).startswith(expected), str(info.value)


def test_alpha_belongs_to_the_cll_criterion():
    with pytest.raises(ValidationError, match="alpha .* applies to criterion 'cll' only"):
        make_learner("clgd", criterion="se", alpha=0.5)


@pytest.mark.parametrize("method, options", [
    ("clgd", {"l2": 0, "alpha": 1, "max_iter": 1, "tol": 0, "max_time": INF, "patience": 1}),
    ("clgd", {"l2": 1e12, "alpha": 0.0}), ("wanbia", {"l2": 0.0, "ess": 1e-6}), ("mp", {"ess": 1e9}),
    ("em", {"restarts": 0, "seed": 0, "max_iter": 1}), ("bagged-mp", {"bags": 1, "seed": 2 ** 40}),
    ("lgd", {"l2": np.float64(0.5), "max_iter": np.int64(3)})])
def test_values_at_the_boundaries_are_accepted_and_fit(method, options):
    net = network_from_dsl("C->A,B", seed=3)
    fit = make_learner(method, **options).fit(net, forward_sample(net, 40, seed=4), target="C")
    assert all(np.all(np.isfinite(t)) for t in fit.cpts.values())


def test_the_default_l2_is_resolved_and_recorded():
    net = network_from_dsl("C->A,B", seed=3)
    data = forward_sample(net, 50, seed=4)
    assert make_learner("clgd").fit(net, data, target="C").settings["l2"] == pytest.approx(10.0 / 50)
    weights = np.full(50, 2.0)
    assert make_learner("wanbia").fit(net, data, weights, target="C").settings["l2"] == pytest.approx(10.0 / 100)


@pytest.mark.parametrize("options, fragment", [({"ess": NAN}, "ess"), ({"ess": 1e300}, "ess"), ({"ess": 0}, "ess"),
                                               ({"seed": -1}, "seed"), ({"perturb": 0}, "perturb"),
                                               ({"max_iter": -1}, "max_iter"), ({"tabu": -1}, "tabu")])
def test_structure_learning_options_are_checked(options, fragment):
    names, states = ["A", "B"], [("0", "1"), ("0", "1")]
    codes = np.array([[0, 1], [1, 0], [1, 1]])
    with pytest.raises(ValidationError, match=f"^{fragment}"):
        learn_structure("hill-climb", codes, names, states, **options)
