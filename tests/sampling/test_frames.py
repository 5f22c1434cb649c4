"""Samples as DataFrames on request (issue 39): the same draws as the codes, named by state."""
from __future__ import annotations

import numpy as np

from bnstudio.data import Dataset
from bnstudio.io import read_network
from bnstudio.resources import bundled_example
from bnstudio.sampling import codes_to_frame, forward_sample, likelihood_weighting


def test_forward_sample_as_frame_is_the_codes_named():
    net = read_network(bundled_example("asia.bif"))
    frame = forward_sample(net, 300, seed=5, as_frame=True)
    codes = forward_sample(net, 300, seed=5)
    assert list(frame.columns) == net.variables
    for k, v in enumerate(net.variables):
        np.testing.assert_array_equal(frame[v].to_numpy(dtype=object), np.array(net.states(v))[codes[:, k]])
    assert frame.equals(codes_to_frame(net, codes))


def test_likelihood_weighting_as_frame_keeps_the_weights():
    net = read_network(bundled_example("asia.bif"))
    frame, weights = likelihood_weighting(net, {"xray": "yes"}, 200, seed=2, as_frame=True)
    codes, same = likelihood_weighting(net, {"xray": "yes"}, 200, seed=2)
    np.testing.assert_array_equal(weights, same)
    assert frame.equals(codes_to_frame(net, codes)) and set(frame["xray"]) == {"yes"}


def test_a_datasets_names_are_its_columns():
    ds = Dataset(["A", "B"], [("no", "yes"), ("lo", "hi")], np.array([[0, 1], [1, 0]]))
    assert ds.names == ds.columns == ["A", "B"]
