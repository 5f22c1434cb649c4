"""GeNIe's dynamic XDSL: read into a 2TBN, written back, and unrolled inference unchanged (docs/temporal.md)."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import FormatError, ValidationError
from bnstudio.io.genie.xdsl import parse_xdsl
from bnstudio.temporal import format_dbn_xdsl, from_network, two_slice_network, unrolled_posterior
from tests.temporal.random_tbn import random_tbn

# The layout SMILE writes for a dynamic network (its Tutorial 6 file, see bnstudio.io.genie.xdsl_dynamic), with
# our own numbers: Location is contemporal, Rain and Umbrella are in the plate, Rain[t-1] -> Rain[t] of order 1.
SAMPLE = """<?xml version="1.0" encoding="UTF-8"?>
<smile version="1.0" id="Unnamed" numsamples="10000" discsamples="10000">
  <nodes>
    <cpt id="Location">
      <state id="Pittsburgh" />
      <state id="Sahara" />
      <probabilities>0.6 0.4</probabilities>
    </cpt>
    <cpt id="Rain" dynamic="plate">
      <state id="true" />
      <state id="false" />
      <parents>Location</parents>
      <probabilities>0.7 0.3 0.05 0.95</probabilities>
    </cpt>
    <cpt id="Umbrella" dynamic="plate">
      <state id="true" />
      <state id="false" />
      <parents>Rain</parents>
      <probabilities>0.9 0.1 0.2 0.8</probabilities>
    </cpt>
  </nodes>
  <dynamic numslices="5">
    <cpt id="Rain" order="1">
      <parents>Rain</parents>
      <probabilities>0.8 0.2 0.4 0.6 0.1 0.9 0.02 0.98</probabilities>
    </cpt>
  </dynamic>
  <extensions>
    <genie version="1.0" app="SMILE_ACADEMIC 1.6.0" name="Unnamed">
      <plate leftwidth="120" rightwidth="120">20 20 620 320</plate>
      <node id="Location"><name>Location</name><position>160 360 245 415</position></node>
      <node id="Rain"><name>Rain</name><position>380 240 465 295</position></node>
      <node id="Umbrella"><name>Umbrella</name><position>300 100 385 155</position></node>
    </genie>
  </extensions>
</smile>
"""


def expected_sample():
    """The 2TBN the sample means, built by hand: Location carried unchanged from slice to slice."""
    b = ["true", "false"]
    return two_slice_network(
        {"Location": ["Pittsburgh", "Sahara"], "Rain": b, "Umbrella": b},
        initial={"Location": ((), [0.6, 0.4]), "Rain": (("Location",), [[0.7, 0.3], [0.05, 0.95]]),
                 "Umbrella": (("Rain",), [[0.9, 0.1], [0.2, 0.8]])},
        transition={"Location": ((("Location", 1),), np.eye(2)),
                    "Rain": ((("Location", 0), ("Rain", 1)),
                             [[[0.8, 0.2], [0.4, 0.6]], [[0.1, 0.9], [0.02, 0.98]]]),
                    "Umbrella": ((("Rain", 0),), [[0.9, 0.1], [0.2, 0.8]])},
        name="Unnamed")


def families(tbn):
    """{variable: {parent: axis}, table with the parent axes sorted by name} of every copy, to compare 2TBNs
    whose parents are listed in different orders."""
    out = {}
    for var in tbn.network.variables:
        parents = list(tbn.network.parents(var))
        order = sorted(range(len(parents)), key=lambda k: parents[k])
        out[var] = (sorted(parents), np.transpose(tbn.network.cpt(var), order + [len(parents)]))
    return out


def assert_same(a, b):
    fa, fb = families(a), families(b)
    assert fa.keys() == fb.keys()
    for var in fa:
        assert fa[var][0] == fb[var][0], var
        np.testing.assert_allclose(fa[var][1], fb[var][1], rtol=0, atol=1e-12, err_msg=var)


def test_the_sample_reads_to_the_2tbn_it_means():
    tbn = from_network(parse_xdsl(SAMPLE))
    assert tbn.radicals == ("Location", "Rain", "Umbrella")
    assert tbn.transition_parents("Rain") == (("Location", 0), ("Rain", 1))
    assert tbn.initial_parents("Rain") == ("Location",)
    assert tbn.transition_cpt("Rain")[1, 0].tolist() == [0.1, 0.9]     # Sahara, rained yesterday
    assert_same(tbn, expected_sample())
    assert tbn.network.positions["Rain0"] == (422.5, 267.5)
    assert tbn.network.positions["Raint"][0] > max(tbn.network.positions[v + "0"][0] for v in tbn.radicals)


def test_unrolled_inference_on_the_read_sample_equals_the_models():
    read, model = from_network(parse_xdsl(SAMPLE)), expected_sample()
    evidence = {"Umbrella0": "true", "Umbrella2": "false", "Umbrella3": "true"}
    targets = ["Rain1", "Rain3", "Location3"]
    got, want = unrolled_posterior(read, 4, targets, evidence), unrolled_posterior(model, 4, targets, evidence)
    for t in targets:
        np.testing.assert_allclose(got[t], want[t], rtol=0, atol=1e-12)
    # and by hand, slice 0 alone: p(Rain0 = true | Umbrella0 = true)
    rain = 0.6 * 0.7 + 0.4 * 0.05
    assert unrolled_posterior(read, 1, "Rain0", {"Umbrella0": "true"})["Rain0"][0] == pytest.approx(
        rain * 0.9 / (rain * 0.9 + (1 - rain) * 0.2))


@pytest.mark.parametrize("seed", range(5))
def test_write_then_read_gives_the_model_back(seed):
    tbn = random_tbn(seed, n=3)
    text = format_dbn_xdsl(tbn, slices=7)
    assert 'dynamic="plate"' in text and '<dynamic numslices="7">' in text
    back = from_network(parse_xdsl(text))
    assert_same(back, tbn)
    targets = [f"V{k}3" for k in range(3)]
    evidence = {"V00": "s1", "V12": "s0"}
    got, want = unrolled_posterior(back, 4, targets, evidence), unrolled_posterior(tbn, 4, targets, evidence)
    for t in targets:
        np.testing.assert_allclose(got[t], want[t], rtol=0, atol=1e-10)


def test_the_sample_round_trips_with_location_in_the_plate():
    """The contemporal node comes back as a plate node carrying itself: the same 2TBN."""
    tbn = from_network(parse_xdsl(SAMPLE))
    assert_same(from_network(parse_xdsl(format_dbn_xdsl(tbn))), tbn)


def test_different_parents_inside_slice_0_and_slice_t_are_both_kept():
    b = ["y", "n"]
    tbn = two_slice_network({"A": b, "B": b},
                            initial={"B": (("A",), [[0.9, 0.1], [0.3, 0.7]])},
                            transition={"A": ((("A", 1),), [[0.6, 0.4], [0.1, 0.9]]),
                                        "B": ((("B", 1),), [[0.8, 0.2], [0.5, 0.5]])})
    back = from_network(parse_xdsl(format_dbn_xdsl(tbn)))
    assert set(back.transition_parents("B")) == {("A", 0), ("B", 1)}
    got = unrolled_posterior(back, 3, ["B2", "A2"], {"B0": "y", "A1": "n"})
    want = unrolled_posterior(tbn, 3, ["B2", "A2"], {"B0": "y", "A1": "n"})
    for t in got:
        np.testing.assert_allclose(got[t], want[t], rtol=0, atol=1e-12)


@pytest.mark.parametrize("change, message", [
    (('<cpt id="Location">', '<cpt id="Location" dynamic="anchor">'), "GeNIe 'anchor' node"),
    (('order="1"', 'order="2"'), "order 2"),
    (("<parents>Rain</parents>\n      <probabilities>0.8", "<parents>Location</parents>\n      <probabilities>0.8"),
     "not a node of the temporal plate"),
    (("0.8 0.2 0.4 0.6 0.1 0.9 0.02 0.98", "0.8 0.2 0.4 0.6"), "has 4 values, expected 8"),
])
def test_what_does_not_convert_is_refused_in_one_line(change, message):
    with pytest.raises(FormatError, match=message):
        parse_xdsl(SAMPLE.replace(*change))


def test_what_genie_cannot_hold_is_refused_when_writing():
    b = ["y", "n"]
    differs = two_slice_network({"A": b}, initial={"A": ((), [0.5, 0.5])}, transition={"A": ((), [0.9, 0.1])})
    with pytest.raises(ValidationError, match="different tables in slice 0 and slice t"):
        format_dbn_xdsl(differs)
    cycle = two_slice_network({"A": b, "B": b}, initial={"B": (("A",), None)},
                              transition={"A": ((("B", 0),), None), "B": ((("B", 1),), None)})
    with pytest.raises(ValidationError, match="cycle"):
        format_dbn_xdsl(cycle)


def test_numslices_is_kept_with_the_2tbn_and_written_back_unless_another_count_is_given():
    """GeNIe's slice count survives read -> write (the app's Time panel starts with it); a count given wins."""
    from bnstudio.io.genie.xdsl_dynamic import NUMSLICES, slice_count
    from bnstudio.temporal.xdsl import DEFAULT_SLICES, dynamic_slices

    net = parse_xdsl(SAMPLE)
    assert net.properties[NUMSLICES] == "5" and slice_count(net) == 5
    tbn = from_network(net)
    assert '<dynamic numslices="5">' in format_dbn_xdsl(tbn)
    assert '<dynamic numslices="12">' in format_dbn_xdsl(tbn, slices=12)
    assert slice_count(parse_xdsl(SAMPLE.replace('numslices="5"', 'numslices="0"'))) is None
    assert slice_count(parse_xdsl(SAMPLE.replace('numslices="5"', 'numslices="many"'))) is None
    plain = random_tbn(0, n=2)
    assert slice_count(plain.network) is None and dynamic_slices(plain.network) == DEFAULT_SLICES == 10
    assert f'<dynamic numslices="{DEFAULT_SLICES}">' in format_dbn_xdsl(plain)
    for bad in (0, -3, 2.5):
        with pytest.raises(ValidationError, match="whole number >= 1"):
            format_dbn_xdsl(plain, slices=bad)
