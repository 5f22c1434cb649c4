"""Hugin NET potentials with table-generator models (``model_nodes`` / ``model_data``): a saved ``data`` table is
read and checked against the expressions; without it the table is generated as Hugin does, and said; anything
outside the supported subset is one line naming the node and the place in the file. Expected tables are worked
out here by brute force (loops over configurations, ``math.comb``, ``math.exp``), not with the evaluator."""
from __future__ import annotations

import itertools
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.canonical import Deterministic, NoisyMax, canonical_of
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io import read_model, read_network
from bnstudio.io.hugin.net import parse_net

CORPUS = Path(__file__).resolve().parent / "corpus"

NET = """net { }
node A { states = ("yes" "no"); }
node C { states = ("yes" "no"); }
potential (A) { data = (0.3 0.7); }
potential (C | A) {
    model_nodes = ();
    model_data = ( NoisyOR (A, 0.9, true, 0.1) );
    DATA
}
"""


def quietly(text: str, path: str = "x.net", strict: bool = False):
    """The network of ``text`` and the messages of the RepairWarnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        net = parse_net(text, path, strict)
    assert all(issubclass(w.category, RepairWarning) for w in caught)
    return net, [str(w.message) for w in caught]


def refusal(text: str, strict: bool = False) -> str:
    with pytest.raises(FormatError) as info:
        quietly(text, "x.net", strict)
    message = str(info.value)
    assert "\n" not in message and message.startswith("x.net:")
    return message


def boolean_net(expression: str, data: str = "", child_states: str = '"false" "true"') -> str:
    return f"""net {{ }}
node X {{ states = ("false" "true"); subtype = boolean; }}
node Y {{ states = ("false" "true"); subtype = boolean; }}
node Z {{ states = ({child_states}); subtype = boolean; }}
potential (X) {{ data = (0.5 0.5); }}
potential (Y) {{ data = (0.5 0.5); }}
potential (Z | X Y) {{
    model_nodes = ();
    model_data = ( {expression} );
    {data}
}}
"""


def noisy_or_truth(q: dict[str, float], leak_q: float) -> np.ndarray:
    """P(Z = true | X, Y) for inhibitor probabilities ``q`` and the leak's, by enumerating the hidden causes."""
    out = np.zeros((2, 2))
    for x, y in itertools.product(range(2), repeat=2):
        active = [name for name, on in (("X", x), ("Y", y)) if on]
        p_false = leak_q
        for name in active:
            p_false *= q[name]
        out[x, y] = 1 - p_false
    return out


def data_of(p_true: np.ndarray, true_first: bool = False) -> str:
    rows = [f"({1 - p!r} {p!r})" if not true_first else f"({p!r} {1 - p!r})" for p in p_true.ravel().tolist()]
    return f"data = ({' '.join(rows)});"


# ------------------------------------------------------------------------------------------------ with data
def test_the_saved_table_is_read_when_the_expressions_cannot_be_evaluated():
    # NoisyOR needs a Boolean node; C is labelled: the expression is not checked, the table is read as saved
    net, messages = quietly(NET.replace("DATA", "data = ((0.91 0.09) (0.1 0.9));"))
    np.testing.assert_allclose(net.cpt("C"), [[0.91, 0.09], [0.1, 0.9]], rtol=0, atol=0)
    assert messages == [] and "C" not in net.canonical


@pytest.mark.parametrize("true_first", [False, True])
def test_a_saved_noisy_or_table_agrees_with_its_expression_either_way_of_reading_it(true_first):
    """Either state order of the node: the table is Hugin's (saved to 6 digits, read exactly) and the node keeps
    its noisy-OR, whose expansion is that table."""
    q = {"X": 0.3, "Y": 0.6}
    inhibitor = noisy_or_truth(q, 0.8)  # the probabilities read as inhibitor probabilities q
    strength = noisy_or_truth({k: 1 - v for k, v in q.items()}, 1 - 0.8)  # ... or as causal strengths 1 - q
    states, true = ('"true" "false"', 0) if true_first else ('"false" "true"', 1)
    for truth in (inhibitor, strength):
        net, messages = quietly(boolean_net("NoisyOR (X, 0.3, Y, 0.6, true, 0.8)", data_of(truth.round(6), true_first),
                                            child_states=states))
        assert messages == []
        np.testing.assert_allclose(net.cpt("Z")[..., true], truth, rtol=0, atol=1e-15)  # the exact values
        model = canonical_of(net, "Z")
        assert isinstance(model, NoisyMax) and model.child_order == (None if true_first else (1, 0))
        assert model.distinguished == (0, 0)  # the parents list "false" first
        np.testing.assert_array_equal(model.expand(), net.cpt("Z"))
        np.testing.assert_allclose(model.expand()[..., true], truth.round(6), rtol=0, atol=5e-7)  # as saved


def test_a_saved_table_that_contradicts_its_expressions_is_reported_and_read():
    truth = noisy_or_truth({"X": 0.3, "Y": 0.6}, 0.8)
    wrong = truth.copy()
    wrong[1, 0] = 0.5
    text = boolean_net("NoisyOR (X, 0.3, Y, 0.6, true, 0.8)", data_of(wrong))
    net, messages = quietly(text)
    assert len(messages) == 1
    assert "the table of 'Z' differs from its Hugin expressions (model_data) by up to 0.26 (row (X=true, Y=false) " \
           "first); the table was read" in messages[0]
    np.testing.assert_allclose(net.cpt("Z")[..., 1], wrong, rtol=0, atol=1e-15)
    assert "strict reading repairs nothing" in refusal(text, strict=True)


def test_the_hugin_saved_noisy_or_corpus_file():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net = read_network(CORPUS / "hugin_noisy_or_saved.net", strict=True)
    truth = noisy_or_truth({"X": 0.4, "Y": 0.2}, 0.95)  # Cold is X, Flu is Y here
    np.testing.assert_allclose(net.cpt("Cough")[..., 1], truth, rtol=0, atol=1e-15)
    model = canonical_of(net, "Cough")  # "false" listed first: a noisy-OR whose child order is (true, false)
    assert isinstance(model, NoisyMax) and model.child_order == (1, 0) and model.distinguished == (0, 0)
    np.testing.assert_allclose([link[1, 0] for link in model.links], [0.6, 0.8], rtol=0, atol=1e-15)  # Díez's
    assert model.leak[0] == pytest.approx(0.05, abs=1e-15)
    assert net.variable("Cough").description == "Coughs" and net.positions["Cough"] == (125.0, 150.0)


def test_a_noisy_or_listing_true_first_becomes_a_canonical_noisy_or():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net = read_network(CORPUS / "hugin_noisy_or_true_first.net", strict=True)
    model = canonical_of(net, "Dyspnoea")
    assert isinstance(model, NoisyMax) and model.distinguished == (0, 0)
    # Díez's link probabilities c_i = 1 - q_i and the leak 1 - q_0, the present state first
    np.testing.assert_allclose(model.links[0], [[0, 1], [0.7, 0.3]], rtol=0, atol=1e-15)
    np.testing.assert_allclose(model.links[1], [[0, 1], [0.9, 0.1]], rtol=0, atol=1e-15)
    np.testing.assert_allclose(model.leak, [0.1, 0.9], rtol=0, atol=1e-15)
    brute = np.zeros((2, 2, 2))
    for s, a in itertools.product(range(2), repeat=2):
        absent = 0.9 * (0.3 if s else 1) * (0.1 if a else 1)
        brute[s, a] = [1 - absent, absent]
    np.testing.assert_allclose(model.expand(), brute, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(net.cpt("Dyspnoea"), model.expand())


def test_a_deterministic_expression_with_its_saved_table_becomes_a_deterministic_node():
    text = """net { }
node A { states = ("a1" "a2" "a3"); }
node B { states = ("x" "y"); }
potential (A) { data = (0.2 0.3 0.5); }
potential (B | A) {
    model_nodes = ();
    model_data = ( if (A == "a2", "y", "x") );
    data = ((1 0) (0 1) (1 0));
}
"""
    net, messages = quietly(text)
    assert messages == []
    model = canonical_of(net, "B")
    assert isinstance(model, Deterministic) and model.states.tolist() == [0, 1, 0]


# ------------------------------------------------------------------------------------------------ without data
def test_expressions_alone_give_the_table_and_say_so():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        net = read_network(CORPUS / "hugin_expressions_only.net")
    assert [str(w.message) for w in caught] == [
        f"{CORPUS / 'hugin_expressions_only.net'}: generated the tables of 'Sixes', 'Calls', 'Mood', 'Total' from "
        f"Hugin expressions (model_data), as Hugin does"]
    sixes = np.array([[math.comb(n, k) * (1 / 6) ** k * (5 / 6) ** (n - k) if k <= n else 0.0 for k in range(4)]
                      for n in (1, 2, 3)])
    np.testing.assert_allclose(net.cpt("Sixes"), sixes, rtol=1e-12, atol=1e-15)
    for rain, rate in ((0, 1.5), (1, 2.25)):
        pmf = [math.exp(-rate) * rate ** k / math.factorial(k) for k in range(4)]
        np.testing.assert_allclose(net.cpt("Calls")[rain], pmf + [1 - sum(pmf)], rtol=1e-12, atol=1e-15)
    for rain, sixes_ in itertools.product(range(2), range(4)):
        if rain and sixes_ == 0:
            expected = [0, 0, 1]
        elif sixes_ >= 2 or not rain:
            expected = [0.6, 0.3, 0.1]
        else:
            expected = [0, 1, 0]
        np.testing.assert_allclose(net.cpt("Mood")[rain, sixes_], expected, rtol=0, atol=1e-15)
    model = canonical_of(net, "Total")  # Dice + Sixes into (-inf, 2), [2, 4), [4, inf)
    assert isinstance(model, Deterministic)
    assert model.states.tolist() == [[int(d + s >= 2) + int(d + s >= 4) for s in range(4)] for d in (1, 2, 3)]
    assert net.variable("Dice").description == "Number of dice thrown"


def test_strict_reading_generates_tables_too_and_still_says_so():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        net = read_network(CORPUS / "hugin_expressions_only.net", strict=True)
    assert len(caught) == 1 and issubclass(caught[0].category, RepairWarning)
    assert "generated the tables of 'Sixes', 'Calls', 'Mood', 'Total'" in str(caught[0].message)
    assert net.cpt("Mood").shape == (2, 4, 3)


def test_model_nodes_take_one_expression_per_configuration_the_first_slowest():
    weights = {(a, b): (1 + a, 1 + b, 1 + 3 * a + b) for a in range(2) for b in range(3)}
    exprs = ", ".join(f"Distribution ({w[0]}, {w[1]}, {w[2]})" for (_, _), w in sorted(weights.items()))
    text = f"""net {{ }}
node A {{ states = ("a1" "a2"); }}
node B {{ states = ("b1" "b2" "b3"); }}
node C {{ states = ("c1" "c2" "c3"); }}
potential (A) {{ data = (0.5 0.5); }}
potential (B) {{ data = (0.2 0.3 0.5); }}
potential (C | B A) {{
    model_nodes = (A, B);
    model_data = ( {exprs} );
}}
"""
    net, messages = quietly(text)
    assert len(messages) == 1 and "normalised 6 rows whose sums were far from 1 (read as weights" in messages[0]
    assert "generated the table of 'C' from Hugin expressions" in messages[0]
    for (a, b), w in weights.items():  # the potential lists B before A: the table follows the potential
        np.testing.assert_allclose(net.cpt("C")[b, a], np.array(w) / sum(w), rtol=1e-15)


def test_an_influence_diagram_s_utility_from_expressions():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        diagram = read_model(CORPUS / "hugin_utility_expressions.net")
    assert len(caught) == 1 and "generated the table of 'Cost'" in str(caught[0].message)
    (cost,) = diagram.utilities
    assert cost.parents == ("Treat", "Ill") and cost.table.tolist() == [[0, -100], [-10, 50]]


def test_an_equals_sign_inside_model_data_is_part_of_the_expression():
    net, _ = quietly(boolean_net('if (X = Y, true, false)'))
    np.testing.assert_array_equal(net.cpt("Z")[..., 1], [[1, 0], [0, 1]])


# ------------------------------------------------------------------------------------------------ refused
def test_a_malformed_expression_is_one_line_at_its_place():
    message = refusal(boolean_net("if (X, 0.5, )"))
    assert message.startswith("x.net:9:32: 'Z': expected a number")


def test_an_unsupported_function_is_one_line_naming_node_and_function():
    message = refusal(boolean_net("Normal (0, 1)"))
    assert message.startswith("x.net:9:20: 'Z': Normal is not supported: a continuous distribution") and \
        message.endswith("how Hugin discretises those over interval states is not documented")
    message = refusal(boolean_net("Foo (X)"))
    assert message.startswith("x.net:9:20: 'Z': 'Foo' is not a Hugin function (not supported)")


def test_noisy_or_alone_is_refused_because_its_reading_is_unconfirmed():
    message = refusal(NET.replace("DATA", ""))
    assert message.startswith("x.net:7:20: 'C': NoisyOR needs a Boolean node; 'C' is a labelled node")
    message = refusal(boolean_net("NoisyOR (X, 0.3, Y, 0.6)"))
    assert message.startswith("x.net:9:20: 'Z': NoisyOR without a 'data' table is not supported")


def test_a_value_outside_the_states_names_the_configuration():
    text = boolean_net('if (and (X, Y), 1, 0)')
    assert refusal(text).startswith("x.net:9:20: 'Z': 'Z' is a Boolean node; the expression gives a number")
    text = """net { }
node N { states = ("0" "1" "2"); subtype = number; state_values = (0 1 2); }
node M { states = ("0" "1" "2"); subtype = number; state_values = (0 1 2); }
potential (N) { data = (0.2 0.3 0.5); }
potential (M | N) { model_nodes = (); model_data = ( N + 1 ); }
"""
    assert refusal(text).startswith("x.net:5:54: 'M': the value 3 is not a state of 'M' for (N=2)")


def test_interval_parents_and_bad_state_values_are_refused():
    text = """net { }
node T { states = ("lo" "hi"); subtype = interval; state_values = (0 1 2); }
node M { states = ("0" "1"); subtype = number; state_values = (0 1); }
potential (T) { data = (0.5 0.5); }
potential (M | T) { model_nodes = (); model_data = ( if (T < 1, 0, 1) ); }
"""
    assert "'M': the value of the interval node 'T' is not supported (Hugin samples points inside its " \
           "intervals)" in refusal(text)
    assert "'M': the state_values of 'T' must increase" in refusal(text.replace("(0 1 2)", "(0 2 1)"))
    assert "'M': the numbered node 'M' has 1 state_values, expected 2" in refusal(text.replace("(0 1);", "(0);"))


def test_sizes_are_checked_before_the_table_is_generated(monkeypatch):
    monkeypatch.setenv("BNSTUDIO_MAX_TABLE_ENTRIES", "1000")
    parents = " ".join(f"P{i}" for i in range(12))
    text = "net { }\n" + "".join(f'node P{i} {{ states = ("a" "b"); }}\npotential (P{i}) {{ data = (0.5 0.5); }}\n'
                                 for i in range(12))
    text += f'node C {{ states = ("a" "b"); }}\npotential (C | {parents}) {{ model_nodes = (); model_data = ("a"); }}\n'
    message = refusal(text)
    assert "the number of entries of the table of 'C' is 8,192, above the limit of 1,000" in message


def test_model_nodes_that_are_not_a_list_of_parents_are_refused():
    assert "'Z': model_nodes must be a list of node names '(A B ...)'" in refusal(
        boolean_net("true").replace("model_nodes = ();", 'model_nodes = "X";'))
    assert "'Z': the model node 'W' is not a parent" in refusal(
        boolean_net("true").replace("model_nodes = ();", "model_nodes = (W);"))
    net, _ = quietly(boolean_net("X").replace("model_nodes = ();\n", ""))  # no model_nodes: one expression
    np.testing.assert_array_equal(net.cpt("Z")[..., 1], [[0, 0], [1, 1]])
