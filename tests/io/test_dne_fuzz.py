"""Property tests: corrupted DNE gives a one-line located FormatError or a valid model (with RepairWarnings only);
any network survives write -> read."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bnstudio.core.network import Network
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io.netica.dne import parse_dne, parse_dne_model
from bnstudio.io.netica.dne_writer import format_dne
from tests.io.test_bif_fuzz import corruption, networks

CORPUS = Path(__file__).parent / "corpus" / "dne"
SOURCES = {name: (CORPUS / f"{name}.dne").read_text(encoding="utf-8")
           for name in ("chest_clinic", "oil_wildcatter", "levels", "impossible")}


@st.composite
def corrupted(draw) -> str:
    text = SOURCES[draw(st.sampled_from(sorted(SOURCES)))]
    for _ in range(draw(st.integers(1, 3))):
        text = draw(corruption(text))
    return text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(corrupted())
@example(SOURCES["chest_clinic"].replace("(0.01,        0.99)", "(1,        10)", 1))  # counts: repaired
@example(SOURCES["chest_clinic"].replace("kind = NATURE;", "kind = UTILITY;", 1))  # a utility with children
@example(SOURCES["levels"].replace("0.5, #1, 2.5", "0.5, #3, 2.5"))  # no state #3
def test_corrupted_input_gives_format_error_or_valid_model(text):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = parse_dne_model(text, "fuzz.dne")
        except FormatError as err:
            assert err.path == "fuzz.dne" and err.line is not None and err.line >= 1
            assert "\n" not in str(err)
            return
    assert all(issubclass(w.category, RepairWarning) for w in caught), [str(w.message) for w in caught]
    (model if isinstance(model, Network) else model.network).validate()


@settings(max_examples=100, deadline=None, derandomize=True)
@given(networks())
def test_any_network_survives_write_then_read(net):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        back = parse_dne(format_dne(net))
    assert back.name == net.name and set(back.variables) == set(net.variables)
    for v in net.variables:
        assert (back.states(v), back.parents(v)) == (net.states(v), net.parents(v))
        assert np.array_equal(back.cpt(v), net.cpt(v))
    assert back.positions == {v: (float(round(x)), float(round(y))) for v, (x, y) in net.positions.items()}
