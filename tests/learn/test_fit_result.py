"""FitResult as stored in a project file: parameters round-trip exactly; damaged tables are named."""
from __future__ import annotations

import json

import numpy as np
import pytest

import bnstudio.learn.params.base as base
from bnstudio.core import network_from_dsl
from bnstudio.errors import ValidationError
from bnstudio.learn.params import FitResult, make_learner
from bnstudio.sampling import forward_sample


@pytest.fixture(scope="module")
def net_and_data():
    net = network_from_dsl("A->B; A,B->C", seed=2, states={"B": ["x", "y", "z"]})
    return net, forward_sample(net, 300, seed=3)


def test_parameters_round_trip_through_json(net_and_data):
    net, data = net_and_data
    for method, options in (("mp", {}), ("bagged-mp", {"bags": 4, "seed": 1})):
        fit = make_learner(method, **options).fit(net, data)
        doc = json.loads(json.dumps(fit.to_json(parameters=True)))
        back = FitResult.from_json(doc)
        assert back.method == method and back.history == fit.history and back.stop_reason == fit.stop_reason
        for var in net.variables:
            np.testing.assert_array_equal(back.cpts[var], fit.cpts[var])
            if fit.alpha is not None:
                np.testing.assert_array_equal(back.alpha[var], fit.alpha[var])
            if fit.ensemble is not None:
                np.testing.assert_array_equal(back.ensemble[var], fit.ensemble[var])
        assert back.network(net).cpt("C").shape == net.cpt("C").shape
    assert "cpts" not in fit.to_json() and FitResult.from_json(fit.to_json()) is None


def test_a_large_ensemble_is_left_out_and_says_so(net_and_data, monkeypatch):
    net, data = net_and_data
    fit = make_learner("bagged-mp", bags=4, seed=1).fit(net, data)
    monkeypatch.setattr(base, "MAX_STORED", 10)
    doc = fit.to_json(parameters=True)
    assert doc["ensemble"] is None and doc["ensemble_omitted"] and doc["cpts"]
    assert FitResult.from_json(doc).ensemble is None


@pytest.mark.parametrize("cpts, fragment", [({"A": "abc"}, "'A' is not a numeric array"),
                                            ({"A": [0.5, None]}, "'A' is not a finite numeric array"),
                                            ([1, 2], "'cpts' must be an object")])
def test_damaged_tables_are_named(cpts, fragment):
    with pytest.raises(ValidationError, match=fragment):
        FitResult.from_json({"method": "mp", "cpts": cpts})
