"""Canonical nodes in files: GeNIe's XDSL <noisymax> (Díez's parameters, strengths order, leak last) and
<deterministic>, read to the expanded CPT with the model kept, written back as such; .bnsproj keeps the model."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from bnstudio.core.canonical import Deterministic, NoisyMax, canonical_of, set_canonical
from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io import read_network, write_network
from bnstudio.io.genie.xdsl import format_xdsl, parse_xdsl

# Díez's parameters (SMILE's native CI weights, the leak excluded): P(C present | only A acts, present) = 0.8,
# only B acts: strong 0.6, weak 0.3; leak 0.05. B's strengths list its states strongest first: strong (2), weak (0), none (1).
NOISY = """<?xml version="1.0" encoding="UTF-8"?>
<smile version="1.0" id="canon" numsamples="10000">
  <nodes>
    <cpt id="A"><state id="present"/><state id="absent"/><probabilities>0.3 0.7</probabilities></cpt>
    <cpt id="B"><state id="weak"/><state id="none"/><state id="strong"/><probabilities>0.2 0.5 0.3</probabilities></cpt>
    <noisymax id="C"><state id="present"/><state id="absent"/><parents>A B</parents>
      <strengths>0 1 2 0 1</strengths>
      <parameters>0.8 0.2 0 1 0.6 0.4 0.3 0.7 0 1 0.05 0.95</parameters></noisymax>
    <deterministic id="D"><state id="on"/><state id="off"/><parents>A C</parents>
      <resultingstates>on on off off</resultingstates></deterministic>
  </nodes>
</smile>
"""


def diez_noisy_or(present: dict[int, float], leak: float) -> float:
    """P(child absent) with Díez's parameters c_i of the present causes: (1 - leak) prod (1 - c_i)."""
    out = 1 - leak
    for p in present.values():
        out *= 1 - p
    return out


def test_genie_noisy_max_is_expanded_with_diezs_formula_and_kept():
    net = parse_xdsl(NOISY)
    cpt = net.cpt("C")
    strength_b = {"weak": 0.3, "none": None, "strong": 0.6}
    for (a, sa), (b, sb) in itertools.product(enumerate(net.states("A")), enumerate(net.states("B"))):
        present = {i: p for i, p in enumerate([0.8 if sa == "present" else None, strength_b[sb]]) if p is not None}
        assert cpt[a, b, 1] == pytest.approx(diez_noisy_or(present, 0.05), abs=1e-15), (sa, sb)
    model = canonical_of(net, "C")
    assert isinstance(model, NoisyMax) and model.distinguished == (1, 1) and model.n_parameters() == 4
    np.testing.assert_array_equal(net.cpt("D"), [[[1, 0], [1, 0]], [[0, 1], [0, 1]]])
    assert isinstance(canonical_of(net, "D"), Deterministic)


def test_canonical_nodes_are_written_back_as_genie_reads_them(tmp_path):
    net = parse_xdsl(NOISY)
    text = format_xdsl(net)
    assert '<noisymax id="C">' in text and "<strengths>0 1 0 2 1</strengths>" in text  # distinguished last
    assert "<parameters>0.8 0.2 0.0 1.0 0.3 0.7 0.6 0.4 0.0 1.0 0.05 0.95</parameters>" in text  # Díez's, as read
    assert "<resultingstates>on on off off</resultingstates>" in text
    back = parse_xdsl(text)
    for var in ("C", "D"):
        np.testing.assert_allclose(back.cpt(var), net.cpt(var), rtol=0, atol=1e-15)
        assert type(canonical_of(back, var)) is type(canonical_of(net, var))
    for ext in (".bnsproj", ".xdsl"):
        write_network(net, tmp_path / f"c{ext}")
        again = read_network(tmp_path / f"c{ext}")
        model = canonical_of(again, "C")
        assert model is not None and all(np.allclose(x, y, atol=1e-15) for x, y in
                                         zip(model.links, canonical_of(net, "C").links, strict=True))


def test_an_edited_table_is_written_as_a_plain_cpt():
    net = parse_xdsl(NOISY)
    net.set_cpt_row("C", ["present", "weak"], [0.5, 0.5])
    assert '<cpt id="C">' in format_xdsl(net) and "<noisymax" not in format_xdsl(net)


def test_a_network_built_here_is_written_as_noisy_max():
    net = Network()
    net.add_variable("A", ["yes", "no"], cpt=[0.5, 0.5])
    net.add_variable("C", ["yes", "no"], ["A"])
    set_canonical(net, "C", NoisyMax.noisy_or([0.9], 0.1))
    back = parse_xdsl(format_xdsl(net))
    np.testing.assert_allclose(back.cpt("C"), [[0.91, 0.09], [0.1, 0.9]], rtol=0, atol=1e-15)


@pytest.mark.parametrize("old, new, message", [
    ("<strengths>0 1 2 0 1</strengths>", "<strengths>0 1 2 0 0</strengths>",
     "<strengths> of 'C' must list the state indices of 'B' (0..2) once each"),
    ("<strengths>0 1 2 0 1</strengths>", "<strengths>0 1 2 0 1 0</strengths>", "<strengths> of 'C' has 6 numbers, expected 5"),
    ("0.05 0.95</parameters>", "0.05</parameters>", "<parameters> of 'C' has 11 numbers, expected 12"),
    ("0.05 0.95</parameters>", "0.05 -0.95</parameters>", "negative probability -0.95"),
    ("<resultingstates>on on off off", "<resultingstates>on on off", "has 3 states, expected 4"),
    ("<resultingstates>on on off off", "<resultingstates>on on off maybe", "unknown state 'maybe'"),
    ("0.8 0.2 0 1 0.6", "0.8 0.2 0.1 0.9 0.6", "the row of A=absent (distinguished) must be 0 ... 0 1"),
])
def test_malformed_canonical_nodes_are_one_line_errors(old, new, message):
    with pytest.raises(FormatError) as info:
        parse_xdsl(NOISY.replace(old, new), "c.xdsl")
    assert message in str(info.value) and "\n" not in str(info.value) and str(info.value).startswith("c.xdsl:")


@pytest.mark.parametrize("ext", [".bif", ".bif.gz", ".xmlbif", ".net", ".xdsl", ".bnsproj"])
def test_every_format_with_properties_keeps_the_models_and_the_table(tmp_path, ext):
    net = parse_xdsl(NOISY)
    path = tmp_path / f"c{ext}"
    write_network(net, path)
    back = read_network(path)
    for var in ("C", "D"):
        np.testing.assert_allclose(back.cpt(var), net.cpt(var), rtol=0, atol=1e-15)
        model = canonical_of(back, var)
        assert type(model) is type(canonical_of(net, var))
        np.testing.assert_allclose(model.expand(), net.cpt(var), rtol=0, atol=1e-15)
    assert not any(k.endswith("bnstudio_canonical") for k in back.properties)
    assert not any(k.endswith("bnstudio_canonical") for k in net.properties)  # the network written is unchanged


def test_a_table_edited_elsewhere_reads_as_a_plain_cpt(tmp_path):
    net = parse_xdsl(NOISY)
    path = tmp_path / "c.bif"
    write_network(net, path)
    text = path.read_text(encoding="utf-8")
    assert 'property bnstudio_canonical = "noisy-max distinguished=1,1 ' in text
    row = next(line for line in text.splitlines() if line.strip().startswith("(present, weak)"))
    path.write_text(text.replace(row, "  (present, weak) 0.5, 0.5;"), encoding="utf-8")
    assert canonical_of(read_network(path), "C") is None


def test_strengths_are_optional_and_default_to_the_declared_order():
    """GeNIe's schema has <strengths> minOccurs=0: each parent's states in declared order, the last distinguished."""
    with_them = NOISY.replace("<strengths>0 1 2 0 1</strengths>", "<strengths>0 1 0 1 2</strengths>")
    without = NOISY.replace("<strengths>0 1 2 0 1</strengths>", "")
    np.testing.assert_array_equal(parse_xdsl(without).cpt("C"), parse_xdsl(with_them).cpt("C"))
    assert canonical_of(parse_xdsl(without), "C").distinguished == (1, 2)
    with pytest.raises(FormatError, match="expected at most one <strengths>, found 2"):
        parse_xdsl(NOISY.replace("<strengths>", "<strengths>0 1 0 1 2</strengths><strengths>"))


# --------------------------------------------------------- a noisy-MAX whose table lists its absent state first
def permuted_network() -> Network:
    """A Hugin-style noisy-OR ("false" first everywhere) and a 3-state noisy-MAX listing its absent state in the
    middle."""
    net = Network("permuted")
    net.add_variable("A", ["false", "true"], cpt=[0.7, 0.3])
    net.add_variable("B", ["false", "true"], cpt=[0.6, 0.4])
    net.add_variable("C", ["false", "true"], ["A", "B"])
    links = (np.array([[0.0, 1.0], [0.8, 0.2]]), np.array([[0.0, 1.0], [0.6, 0.4]]))
    set_canonical(net, "C", NoisyMax(links, np.array([0.05, 0.95]), (0, 0), (1, 0)))
    net.add_variable("S", ["mild", "none", "severe"], ["A", "C"])
    links = (np.array([[0.0, 0.0, 1.0], [0.5, 0.3, 0.2]]), np.array([[0.0, 0.0, 1.0], [0.1, 0.6, 0.3]]))
    set_canonical(net, "S", NoisyMax(links, np.array([0.02, 0.08, 0.9]), (0, 0), (2, 0, 1)))
    return net


@pytest.mark.parametrize("ext, kept", [(".bif", True), (".bif.gz", True), (".xmlbif", True), (".net", True),
                                       (".bnsproj", True), (".xdsl", False), (".dsl", False)])
def test_a_permuted_noisy_max_round_trips_as_far_as_each_format_can_say(tmp_path, ext, kept):
    from bnstudio.cli.convert import lost_information

    net = permuted_network()
    path = tmp_path / f"p{ext}"
    write_network(net, path)
    back = read_network(path)
    for var in ("C", "S"):
        np.testing.assert_allclose(back.cpt(var), net.cpt(var), rtol=0, atol=1e-15)
        model, before = canonical_of(back, var), canonical_of(net, var)
        if not kept:
            assert model is None
            continue
        assert isinstance(model, NoisyMax) and model.child_order == before.child_order
        assert model.distinguished == before.distinguished
        for a, b in zip(model.links + (model.leak,), before.links + (before.leak,), strict=True):
            np.testing.assert_array_equal(a, b)  # exactly: every format writes full precision
    assert ("canonical models" in lost_information(net, back)) == (not kept)


def test_genie_gets_a_permuted_noisy_max_as_its_table():
    """SMILE orders only the parents' states by strength: such a node is a <cpt> GeNIe reads to the same table."""
    net = permuted_network()
    text = format_xdsl(net)
    assert '<cpt id="C">' in text and '<cpt id="S">' in text and "<noisymax" not in text
    identity = net.copy()
    set_canonical(identity, "C", NoisyMax.noisy_or([0.8, 0.6], 0.05))  # a GeNIe-ordered node stays a noisymax
    assert '<noisymax id="C">' in format_xdsl(identity)
    from bnstudio.io.genie.xdsl_canonical import format_canonical
    with pytest.raises(ValueError, match="written as a <cpt>"):
        format_canonical(canonical_of(net, "C"), "C", ["false", "true"], ["A", "B"])


def test_the_property_form_says_the_order_only_when_it_is_not_genies(tmp_path):
    net = permuted_network()
    path = tmp_path / "p.bif"
    write_network(net, path)
    text = path.read_text(encoding="utf-8")
    assert text.count(" order=1,0") == 1 and text.count(" order=2,0,1") == 1
    write_network(parse_xdsl(NOISY), path)
    assert "order=" not in path.read_text(encoding="utf-8")
