"""A learning run says what it is in one line (issue 39): method, stop reason, iterations, time and the last
scores of its history, never its CPTs."""
from __future__ import annotations

from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.learn.structure import make_structure_learner
from bnstudio.resources import bundled_example
from bnstudio.sampling import forward_sample


def test_fit_result_repr_names_the_run_not_the_tables():
    net = read_network(bundled_example("asia.bif"))
    codes = forward_sample(net, 400, seed=0)
    result = make_learner("clgd", l2=0.01).fit(net, codes, target="dysp")
    text = repr(result)
    last = result.history[-1]
    assert text.startswith(f"FitResult('clgd', {result.stop_reason} after {result.n_iterations} iteration")
    assert f"nll={last['nll']:.4g}" in text and f"cnll={last['cnll']:.4g}" in text and "8 CPTs" in text
    assert "array" not in text and len(text) < 160
    assert repr(make_learner("ml").fit(net, codes)).startswith("FitResult('ml', closed_form after 1 iteration in ")


def test_structure_result_repr():
    net = read_network(bundled_example("asia.bif"))
    codes = forward_sample(net, 400, seed=0)
    result = make_structure_learner("chow-liu").fit(codes, net.variables, [net.states(v) for v in net.variables])
    assert repr(result) == (f"StructureResult('chow-liu', closed_form, {len(result.arcs)} arcs, "
                            f"ll={result.score:.6g}, 1 step in {result.seconds:.3g} s)")
