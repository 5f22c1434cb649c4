"""A corpus of small real-world-shaped files (tests/io/corpus, written for these tests in the styles of the tools
named in their names), each read as its authoring tool reads it, with the repairs said and its expected result;
a strict reading refuses every file that needed a repair. Expected numbers are worked out by hand here."""
from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.canonical import Deterministic, NoisyMax, canonical_of
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io import read_network

CORPUS = Path(__file__).resolve().parent / "corpus"


def read(name: str, repaired: bool):
    """The network of ``name`` and its one repair message (None if it needed none: then no warning at all)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        net = read_network(CORPUS / name)
    assert all(issubclass(w.category, RepairWarning) for w in caught)
    assert len(caught) == (1 if repaired else 0), [str(w.message) for w in caught]
    if repaired:
        with pytest.raises(FormatError, match="strict reading repairs nothing"):
            read_network(CORPUS / name, strict=True)
    else:
        read_network(CORPUS / name, strict=True)
    return net, (str(caught[0].message) if caught else None)


def test_unbbayes_single_precision_noise():
    net, message = read("unbbayes_noise.net", repaired=True)
    assert "set 1 tiny negative probability to 0" in message and "row (Fault=Present) of 'Finding'" in message
    np.testing.assert_allclose(net.cpt("Finding"), [[0.7, 0.3, 0.0], [0.1, 0.7999999, 0.1000001]], rtol=0,
                               atol=1e-12)
    assert net.cpt("Finding")[0, 2] == 0.0


def test_genie_rows_summing_to_0_99808_are_normalised():
    net, message = read("genie_rounded.xdsl", repaired=True)
    assert "row () of 'Weather' sums to 0.99808" in message and "row (Weather=Cloudy) of 'Umbrella'" in message
    np.testing.assert_allclose(net.cpt("Weather"), np.array([0.33336, 0.33336, 0.33136]) / 0.99808, rtol=0,
                               atol=1e-15)
    np.testing.assert_allclose(net.cpt("Umbrella")[2], np.array([0.38808, 0.61]) / 0.99808, rtol=0, atol=1e-15)
    assert net.cpt("Umbrella")[0].tolist() == [0.1, 0.9]


def test_hugin_unnormalised_potentials_are_weights():
    net, message = read("hugin_weights.net", repaired=True)
    assert "normalised 3 rows" in message and "as Hugin does" in message
    assert net.cpt("Season").tolist() == [0.1, 0.9]
    np.testing.assert_allclose(net.cpt("Flu"), [[0.3, 0.7], [0.05, 0.95]], rtol=0, atol=1e-15)


def test_a_quoted_net_attribute_over_two_lines():
    net, message = read("unbbayes_twoline.net", repaired=True)
    assert "lines 9-10" in message
    assert net.variable("Smoker").description == "Is the patient a smoker"


def test_blanks_before_the_xml_declaration():
    net, message = read("blank_before_xml.xmlbif", repaired=True)
    assert "skipped 4 blank characters" in message and net.cpt("Coin").tolist() == [0.5, 0.5]


def test_count_tables():
    net, message = read("counts.bif", repaired=True)
    assert "read as counts" in message
    np.testing.assert_allclose(net.cpt("Outlook"), [5 / 14, 4 / 14, 5 / 14], rtol=0, atol=1e-15)
    np.testing.assert_allclose(net.cpt("Play"), [[0.4, 0.6], [1.0, 0.0], [0.6, 0.4]], rtol=0, atol=1e-15)


@pytest.mark.parametrize("name", ["empty.bif", "empty.xdsl"])
def test_empty_networks(name):
    net, _ = read(name, repaired=False)
    assert len(net) == 0


def test_genie_noisy_max_with_leak():
    """<parameters> are SMILE's native CI weights, Díez's (the leak excluded): brute force over the hidden causes
    Y_Flu, Y_Cold, Y_L (independent, each with its row), the child being the most severe of them (lowest index)."""
    net, _ = read("noisymax.xdsl", repaired=False)
    leak = [0.01, 0.04, 0.95]
    flu = {0: [0.6, 0.3, 0.1], 1: [0, 0, 1]}                             # present, absent (distinguished)
    cold = {0: [0.3, 0.4, 0.3], 1: [0.05, 0.25, 0.7], 2: [0, 0, 1]}     # severe, mild, absent (distinguished)
    for f, c in itertools.product(range(2), range(3)):
        expected = [0.0, 0.0, 0.0]
        for yf, yc, yl in itertools.product(range(3), repeat=3):
            expected[min(yf, yc, yl)] += flu[f][yf] * cold[c][yc] * leak[yl]
        np.testing.assert_allclose(net.cpt("Fever")[f, c], expected, rtol=0, atol=1e-14, err_msg=f"{f}, {c}")
    assert isinstance(canonical_of(net, "Fever"), NoisyMax)


def test_genie_noisy_max_with_parent_strengths_reordered():
    """SMILE's manual example shape (binary child, two parents of three states); p2's <strengths> 2 0 1 put its
    rows in the order State2, State0, State1 (distinguished). Hand-computed: P(State1 | x) = 0.9 (1 - c1)(1 - c2)
    with c1 = 0.9, 0.4, 0 and c2 = 0.2, 0, 0.7 for State0..State2."""
    net, _ = read("genie_noisymax_strengths.xdsl", repaired=False)
    absent = [[0.072, 0.09, 0.027], [0.432, 0.54, 0.162], [0.72, 0.9, 0.27]]
    np.testing.assert_allclose(net.cpt("node1")[..., 1], absent, rtol=0, atol=1e-15)
    np.testing.assert_allclose(net.cpt("node1")[..., 0], 1 - np.array(absent), rtol=0, atol=1e-15)
    assert canonical_of(net, "node1").distinguished == (2, 1)


def test_genie_deterministic_node():
    net, _ = read("deterministic.xdsl", repaired=False)
    np.testing.assert_array_equal(net.cpt("Lamp"), [[[1, 0], [0, 1]], [[0, 1], [0, 1]]])
    assert isinstance(canonical_of(net, "Lamp"), Deterministic)


def test_a_markov_network_is_refused_in_one_line_saying_what_it_is():
    with pytest.raises(FormatError) as info:
        read_network(CORPUS / "markov.uai")
    assert "MARKOV network" in str(info.value) and "only 'BAYES' UAI files can be read" in str(info.value)
