"""Learning curves (bnstudio.evaluate.learning_curve) against a hand-written loop of fit + evaluate per size."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import Cancelled, ValidationError
from bnstudio.evaluate import evaluate
from bnstudio.evaluate.learning_curve import check_sizes, learning_curves, size_grid, subsample
from bnstudio.jobs import RecordingReporter
from bnstudio.learn.params import make_learner
from bnstudio.sampling import forward_sample


def _data(n: int = 400, seed: int = 3):
    """Naive Bayes C -> A, B, D with a made-up truth, sampled; the last quarter held out."""
    net = network_from_dsl("C->A; C->B; C->D")
    rng = np.random.default_rng(seed)
    for v in net.variables:
        shape = net.family_shape(v)
        net.set_cpt(v, rng.dirichlet(np.ones(shape[-1]), size=shape[:-1]).reshape(shape))
    codes = forward_sample(net, n, seed=seed)
    return net, codes[: 3 * n // 4], codes[3 * n // 4:]


def test_every_point_is_the_mean_and_sd_of_fits_on_subsamples():
    net, train, test = _data()
    sizes, repeats, seed = [8, 40, 300], 3, 11
    got = learning_curves(net, train, test, "C", ["mp", ("clgd", {"max_iter": 30})], sizes, repeats, seed)
    assert got.sizes == sizes and got.n_train == 300 and got.n_test == 100
    for curve, (method, options) in zip(got.curves, (("mp", {}), ("clgd", {"max_iter": 30})), strict=True):
        error = np.empty((repeats, len(sizes)))
        cll = np.empty((repeats, len(sizes)))
        for j, size in enumerate(sizes):
            for r in range(repeats):
                rows = subsample(len(train), size, r, seed)
                fitted = make_learner(method, **options).fit(net, train[rows], target="C").network(net)
                m = evaluate(fitted, test, "C")
                error[r, j], cll[r, j] = m.error_rate, m.cll
        np.testing.assert_allclose(curve.mean("error_rate"), error.mean(axis=0))
        np.testing.assert_allclose(curve.sd("error_rate"), error.std(axis=0, ddof=1))
        np.testing.assert_allclose(curve.mean("cll"), cll.mean(axis=0))
        np.testing.assert_allclose(curve.sd("cll"), cll.std(axis=0, ddof=1))
    doc = got.to_json()
    assert [c["label"] for c in doc["curves"]] == ["mp", "clgd (max_iter=30)"]
    assert doc["curves"][0]["error_rate"] == pytest.approx(got.curves[0].mean("error_rate").tolist())


def test_subsamples_are_distinct_training_rows_shared_by_the_methods_and_the_full_size_has_no_spread():
    rows = [subsample(300, 40, r, 5) for r in range(3)]
    assert all(len(set(r.tolist())) == 40 and r.min() >= 0 and r.max() < 300 for r in rows)
    assert not np.array_equal(rows[0], rows[1])
    np.testing.assert_array_equal(subsample(300, 40, 1, 5), rows[1])           # seeded: the same for every method
    net, train, test = _data()
    got = learning_curves(net, train, test, "C", ["ml", "mp"], [300], repeats=2, seed=0)
    assert got.curves[0].sd("cll")[0] == 0.0                                   # every row, every repeat


def test_a_seeded_learner_is_seeded_and_a_stop_request_raises_cancelled():
    net, train, test = _data(200)
    a = learning_curves(net, train, test, "C", [("em", {"max_iter": 5})], [20, 150], repeats=2, seed=4)
    b = learning_curves(net, train, test, "C", [("em", {"max_iter": 5})], [20, 150], repeats=2, seed=4)
    np.testing.assert_array_equal(a.curves[0].values["cll"], b.curves[0].values["cll"])
    assert a.curves[0].options["seed"] == 4
    reporter = RecordingReporter(stop_after=3)
    with pytest.raises(Cancelled):
        learning_curves(net, train, test, "C", ["mp", "ml"], [10, 20, 40], repeats=2, reporter=reporter)
    assert len(reporter.infos) == 3 and reporter.infos[-1].message == "mp on 10 rows"   # size 10, repeat 2


def test_the_size_grid_and_bad_input():
    assert size_grid(1000, points=5) == [10, 32, 100, 316, 1000]
    assert size_grid(5) == [1, 2, 3, 4, 5]
    assert check_sizes([50, 10, 10], 60) == [10, 50]
    net, train, test = _data(80)
    for bad in ([0, 10], [10, 61], []):
        with pytest.raises(ValidationError, match="training sizes"):
            learning_curves(net, train, test, "C", ["mp"], bad)
    with pytest.raises(ValidationError, match="unknown method"):
        learning_curves(net, train, test, "C", ["nope"], [10])
    with pytest.raises(ValidationError, match="repeats"):
        learning_curves(net, train, test, "C", ["mp"], [10], repeats=0)
    with pytest.raises(ValidationError, match="unknown target"):
        learning_curves(net, train, test, "Z", ["mp"], [10])
