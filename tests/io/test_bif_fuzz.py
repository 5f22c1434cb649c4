"""Property tests: corrupted BIF gives FormatError or a valid network; any network survives write -> read."""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bnstudio.core.network import Network
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io.bif.reader import format_bif, parse_bif

BUNDLED = Path(__file__).resolve().parents[2] / "resources" / "networks"
SOURCES = {name: (BUNDLED / f"{name}.bif").read_text(encoding="utf-8") for name in ("asia", "alarm")
           if (BUNDLED / f"{name}.bif").exists()}
_TOKEN = re.compile(r"[^\s{}()\[\];,|]+|[{}()\[\];,|]")
_PIECES = list('{}()[];,|"/*\\=.-+eE0123456789 \n\tabxyz_\u00e9') + [
    "table", "default", "property", "variable", "probability", "network", "yes", "no", "//", "/*", "*/"]
NOISE = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8).map("".join)


@st.composite
def corruption(draw, text: str) -> str:
    kind = draw(st.sampled_from(["delete", "insert", "swap", "truncate", "replace"]))
    n = len(text)
    if kind == "truncate":
        return text[:draw(st.integers(0, n))]
    if kind == "swap":
        spans = [m.span() for m in _TOKEN.finditer(text)]
        if len(spans) < 2:
            return text
        i, j = sorted(draw(st.lists(st.integers(0, len(spans) - 1), min_size=2, max_size=2, unique=True)))
        (a0, a1), (b0, b1) = spans[i], spans[j]
        return text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
    start = draw(st.integers(0, n))
    if kind == "insert":
        return text[:start] + draw(NOISE) + text[start:]
    stop = min(n, start + draw(st.integers(1, 40)))
    if kind == "replace":
        return text[:start] + draw(NOISE) + text[stop:]
    return text[:start] + text[stop:]


@st.composite
def corrupted(draw) -> str:
    text = SOURCES[draw(st.sampled_from(sorted(SOURCES)))]
    for _ in range(draw(st.integers(1, 3))):
        text = draw(corruption(text))
    return text


@pytest.mark.skipif(not SOURCES, reason="bundled networks missing")
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corrupted())
@example(SOURCES.get("asia", "").replace("0.01, 0.99", "1.0, 10.0", 1))      # a row of weights: repaired
def test_corrupted_input_gives_format_error_or_valid_network(text):
    """A corruption may also leave a file the repair policy reads (a row of weights such as ``1.0, 10.0`` is
    normalised, as Hugin does): a valid network said with RepairWarnings, and no other warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            net = parse_bif(text, "fuzz.bif")
        except FormatError as err:
            assert err.path == "fuzz.bif" and err.line is not None and err.line >= 1
            return
    assert all(issubclass(w.category, RepairWarning) for w in caught), [str(w.message) for w in caught]
    net.validate()


_NAME = st.text(st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=12).filter(
    lambda s: s == s.strip() and "\n" not in s)


@st.composite
def networks(draw) -> Network:
    names = draw(st.lists(_NAME, min_size=1, max_size=5, unique=True))
    net = Network(draw(st.text(max_size=12)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    for i, var in enumerate(names):
        states = draw(st.lists(_NAME, min_size=1, max_size=3, unique=True))
        parents = [p for p in names[:i] if draw(st.booleans())]
        shape = tuple(net.cardinality(p) for p in parents)
        net.add_variable(var, states, parents, cpt=rng.dirichlet(np.ones(len(states)), size=shape))
        if draw(st.booleans()):
            net.positions[var] = (draw(st.floats(allow_nan=False, allow_infinity=False)), 0.5)
    keys = st.one_of(st.text(min_size=1, max_size=8), st.sampled_from(names).map(lambda v: v + ".k"))
    net.properties.update(draw(st.dictionaries(keys, st.text(max_size=12), max_size=4)))
    return net


@settings(max_examples=100, deadline=None)
@given(networks())
def test_any_network_survives_write_then_read(net):
    back = parse_bif(format_bif(net))
    assert back.name == net.name and back.variables == net.variables
    for v in net.variables:
        assert (back.states(v), back.parents(v)) == (net.states(v), net.parents(v))
        assert np.array_equal(back.cpt(v), net.cpt(v))
    assert back.positions == net.positions
    assert back.properties == {k: v for k, v in net.properties.items() if k}  # an empty key is not written
