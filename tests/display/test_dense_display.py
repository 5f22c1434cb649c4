"""Issue 42 item 15: ``show()`` of a dense 250-node network draws it without beliefs (a warning says why) and
without the crossing counts that took tens of seconds; a large drawing goes to the notebook once."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from bnstudio.core.network import build_network
from bnstudio.display import layout
from bnstudio.display.notebook import BUNDLE_SVG_UP_TO, show
from bnstudio.display.svg import BeliefsNotShown


def dense(n: int = 250, parents: int = 12, seed: int = 0):
    """n binary nodes, each with ``parents`` random earlier parents (the first few with fewer)."""
    rng = np.random.default_rng(seed)
    families = []
    for i in range(n):
        chosen = sorted(rng.choice(i, size=min(parents, i), replace=False)) if i else []
        cpt = rng.dirichlet([1, 1], size=2 ** len(chosen)).reshape((2,) * len(chosen) + (2,))
        families.append((f"X{i}", ["a", "b"], [f"X{j}" for j in chosen], cpt))
    return build_network(families, name="dense")


def test_a_dense_network_is_drawn_without_beliefs_and_without_counting_crossings(monkeypatch):
    counted = []
    real = layout.count_layer_crossings
    monkeypatch.setattr(layout, "count_layer_crossings", lambda *a: counted.append(1) or real(*a))
    net = dense()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        shown = show(net)
    [warning] = [w for w in caught if issubclass(w.category, BeliefsNotShown)]
    assert "drawn without beliefs" in str(warning.message) and "junction tree" in str(warning.message)
    assert shown.svg.count("<title>") >= 250
    assert counted == []   # each count of a layered graph this dense took seconds


def test_small_networks_still_get_their_crossings_minimised(monkeypatch):
    counted = []
    real = layout.count_layer_crossings
    monkeypatch.setattr(layout, "count_layer_crossings", lambda *a: counted.append(1) or real(*a))
    show(dense(20, 2))
    assert counted


@pytest.mark.parametrize("n, both", [(30, True), (1200, False)])
def test_a_large_drawing_is_sent_once(n, both):
    rng = np.random.default_rng(1)
    families = [(f"V{i}", ["a", "b"], [f"V{int(rng.integers(i))}"] if i else [], None) for i in range(n)]
    net = build_network(families, name="chain-ish")
    bundle = net._repr_mimebundle_()
    svg = bundle["text/html"][bundle["text/html"].index("<svg"):]
    assert (len(svg) > BUNDLE_SVG_UP_TO) != both
    assert ("image/svg+xml" in bundle) == both
    assert sum(v.count("<svg") for v in bundle.values()) == (2 if both else 1)
