"""Hugin table-generator expressions, parsed and evaluated over all parent configurations at once, against
brute force: the same expression written out in Python and computed configuration by configuration (math.comb,
math.exp, explicit loops over the hidden causes of a noisy-OR)."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from bnstudio.io.hugin.expression_eval import generate
from bnstudio.io.hugin.expression_nodes import NodeKind
from bnstudio.io.hugin.expressions import (
    MAX_DEPTH,
    Binary,
    Call,
    ExpressionError,
    Num,
    Ref,
    Str,
    Unary,
    parse_expression,
    parse_model_data,
)

N = NodeKind.build("N", ("n0", "n1", "n2"), "number", ["0", "1.5", "3"])
M = NodeKind.build("M", ("m0", "m1"), "number", ["-2", "1"])
L = NodeKind.build("L", ("a", "b", "c"))
L2 = NodeKind.build("L2", ("a", "c"))
B = NodeKind.build("B", ("false", "true"), "boolean")
B2 = NodeKind.build("B2", ("no", "yes"), "boolean")  # not labelled false/true: the first state is false
K = NodeKind.build("K", ("0", "1", "2"), "number", ["0", "1", "2"])
COUNT = NodeKind.build("C", tuple(str(k) for k in range(6)), "number", [str(k) for k in range(6)])


def utilities(text: str, parents, model_nodes=()) -> np.ndarray:
    return generate(None, parents, list(model_nodes), parse_model_data(text)).table


def table(child: NodeKind, text: str, parents, model_nodes=(), noisy_or=None):
    return generate(child, parents, list(model_nodes), parse_model_data(text), noisy_or)


def configurations(parents):
    """(index tuple, {name: value}) over the parents, the last fastest; values as Hugin gives them."""
    for index in itertools.product(*[range(p.card) for p in parents]):
        values = {}
        for p, k in zip(parents, index, strict=True):
            values[p.name] = (float(p.values[k]) if p.subtype == "number" else k == p.true_index
                              if p.subtype == "boolean" else p.states[k])
        yield index, values


def error(text: str, child=COUNT, parents=(N, M, L, B), model_nodes=(), noisy_or=None) -> ExpressionError:
    with pytest.raises(ExpressionError) as info:
        generate(child, list(parents), list(model_nodes), parse_model_data(text), noisy_or)
    assert "\n" not in str(info.value)
    return info.value


# ------------------------------------------------------------------------------------------------ parsing
def test_precedence_and_associativity():
    assert parse_expression("-2 ^ 2") == Unary("-", Binary("^", Num(2.0, 1), Num(2.0, 5), 3), 0)
    cases = {"2 ^ 3 ^ 2": 512.0, "-2 ^ 2": -4.0, "1 - 2 - 3": -4.0, "12 / 3 / 2": 2.0, "1 + 2 * 3 ^ 2": 19.0,
             "2 * -3": -6.0, "(1 + 2) * 3": 9.0, "-(1 - 3) ^ 3": 8.0}
    for text, value in cases.items():
        assert utilities(f"( {text} )", []).tolist() == value, text
    assert parse_expression('A <> "x"') == Binary("!=", Ref("A", 0), Str("x", 5), 2)


def test_lexical_details():
    text = '( IF (l == "a\\"b", distribution (1, 2), Distribution (.5, 5e-1)) % a comment ( , )\n )'
    (call,) = parse_model_data(text)
    assert isinstance(call, Call) and call.name == "if" and call.args[0].right == Str('a"b', 11)
    assert [a.name for a in call.args[1:]] == ["Distribution", "Distribution"]
    assert parse_model_data("()") == [] and parse_model_data("Poisson (1), Poisson (2)")[1].args == (Num(2.0, 22),)


@pytest.mark.parametrize("text, message, offset", [
    ("if (A, 1", "expected ')' to close the arguments of 'if', found the end of the expressions", 8),
    ("1 2", "unexpected '2' after the expressions", 2),
    ("a < b < c", "comparisons cannot be chained (use and(...))", 6),
    ('"open', "unterminated string in the expression", 0),
    ("1 # 2", "unexpected character '#' in the expression", 2),
    ("Sigmoid (1)", "'Sigmoid' is not a Hugin function (not supported)", 0),
    ("(1, 2) 3", "expected ')' to close '(', found ','", 2),
    ("Distribution (1, )", "expected a number, a \"label\", a node or a function, found ')'", 17),
])
def test_malformed_expressions(text, message, offset):
    with pytest.raises(ExpressionError) as info:
        parse_model_data(text)
    assert (info.value.detail, info.value.offset) == (message, offset)


@pytest.mark.parametrize("text", ["(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "-" * (MAX_DEPTH + 1) + "1",
                                  "2" + " ^ 2" * (MAX_DEPTH + 1),
                                  "(" * (MAX_DEPTH + 1) + "1 + 1" + ")" * (MAX_DEPTH + 1),
                                  "not (" * (MAX_DEPTH + 1) + "true" + ")" * (MAX_DEPTH + 1)])
def test_nesting_is_bounded(text):
    with pytest.raises(ExpressionError, match=f"nested more than {MAX_DEPTH} levels deep"):
        parse_model_data(text)


@pytest.mark.parametrize("terms", [MAX_DEPTH + 1, 20_000])
def test_a_flat_chain_is_no_nesting(terms):
    """Issue 25 item 10: ``0 + 0 + ...`` (101 terms) was refused as nested 101 levels deep; a flat chain of
    one precedence is folded in a loop, left to right, however long."""
    assert utilities(" + ".join(["0"] * (terms - 1) + ["0.5"]), []).tolist() == 0.5
    assert utilities("1" + " - 0.25" * (terms - 1), []).tolist() == 1 - 0.25 * (terms - 1)
    assert utilities("2" + " * 1 / 1" * (terms // 2), []).tolist() == 2.0
    assert utilities("1 - 2 - 3", []).tolist() == -4.0  # left to right


def test_nesting_within_the_bound_evaluates():
    depth = MAX_DEPTH // 2 - 1
    assert utilities("(" * depth + "1" + ")" * depth + " + " + " + ".join(["1"] * 40), []).tolist() == 41.0


# ------------------------------------------------------------------------------------------------ numbers
NUMERIC = [
    ("N + M * 2 - N / (M + 3) ^ 2", lambda v: v["N"] + v["M"] * 2 - v["N"] / (v["M"] + 3) ** 2),
    ("min (N, M, 1) + max (N, 2)", lambda v: min(v["N"], v["M"], 1) + max(v["N"], 2)),
    ("abs (M) + floor (N) + ceil (N)", lambda v: abs(v["M"]) + math.floor(v["N"]) + math.ceil(v["N"])),
    ("sqrt (N) + exp (M) + log (N + 1) + log2 (N + 1) + log10 (N + 1)",
     lambda v: math.sqrt(v["N"]) + math.exp(v["M"]) + math.log(v["N"] + 1) + math.log2(v["N"] + 1)
     + math.log10(v["N"] + 1)),
    ("sin (N) + cos (M) + tan (0.5) + sinh (M) + cosh (N) + tanh (N)",
     lambda v: math.sin(v["N"]) + math.cos(v["M"]) + math.tan(0.5) + math.sinh(v["M"]) + math.cosh(v["N"])
     + math.tanh(v["N"])),
    ("mod (N * 2, 4) + mod (7, 2.5)", lambda v: math.fmod(v["N"] * 2, 4) + 2.0),
    ('if (and (N > 1, M < 0), 1, if (or (L == "a", not (B)), 2, 3))',
     lambda v: 1 if v["N"] > 1 and v["M"] < 0 else 2 if v["L"] == "a" or not v["B"] else 3),
    ("if (N == 1.5, 10, 0) + if (N != 3, 1, 0) + if (N <= 1.5, 100, 0) + if (M >= 1, 1000, 0)",
     lambda v: 10 * (v["N"] == 1.5) + (v["N"] != 3) + 100 * (v["N"] <= 1.5) + 1000 * (v["M"] >= 1)),
    ('if (L <> "c", 1, 0) + if (B = true, 2, 0) + if (B != false, 4, 0)',
     lambda v: (v["L"] != "c") + 2 * v["B"] + 4 * v["B"]),
]


@pytest.mark.parametrize("text, truth", NUMERIC, ids=[t for t, _ in NUMERIC])
def test_numeric_expressions_against_brute_force(text, truth):
    parents = [N, M, L, B]
    got = utilities(f"( {text} )", parents)
    assert got.shape == (3, 2, 3, 2)
    for index, values in configurations(parents):
        assert got[index] == pytest.approx(truth(values), rel=1e-12, abs=1e-12), (index, values)


def test_a_branch_not_taken_may_have_no_value():
    got = utilities("( if (N == 0, -1, log (N) / N) + if (M > 0, sqrt (M), 0) )", [N, M])
    for index, v in configurations([N, M]):
        expected = (-1 if v["N"] == 0 else math.log(v["N"]) / v["N"]) + (math.sqrt(v["M"]) if v["M"] > 0 else 0)
        assert got[index] == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize("text, message", [
    ("( 1 / (N - 1.5) )", "a division by zero for (N=n1, M=m0)"),
    ("( log (M + 2) )", "a logarithm of a number <= 0 for (N=n0, M=m0)"),
    ("( sqrt (M) )", "the square root of a negative number for (N=n0, M=m0)"),
    ("( M ^ 0.5 )", "a power that is not a real number for (N=n0, M=m0)"),
    ("( exp (1000 * (N + 1)) )", "a result too large to represent for (N=n0, M=m0)"),
    ("( mod (M, 2) )", "mod of a number < 0 or by a number <= 0 (not supported) for (N=n0, M=m0)"),
])
def test_values_that_do_not_exist_name_the_first_configuration(text, message):
    assert error(text, None, (N, M)).detail == message


# ------------------------------------------------------------------------------------------------ states
def test_deterministic_values_give_probability_one_on_the_matching_state():
    labelled = NodeKind.build("Y", ("x", "c", "b", "a"))
    got = table(labelled, '( if (B, L, "x") )', [L, B])
    assert got.states.tolist() == [[0, 3], [0, 2], [0, 1]]
    np.testing.assert_array_equal(got.table, np.eye(4)[got.states])
    boolean = NodeKind.build("Y", ("yes", "no"), "boolean")  # not labelled false/true: the first state is false
    assert table(boolean, "( or (B, B2) )", [B, B2]).states.tolist() == [[0, 1], [1, 1]]


def test_a_number_maps_to_its_state_or_interval():
    numbered = NodeKind.build("Y", ("a", "b", "c", "d"), "number", ["0", "0.3", "1", "2"])
    got = table(numbered, "( if (M > 0, 0.1 + 0.2, N / 1.5) )", [N, M]).states  # 0.1 + 0.2 is 0.30000000000000004
    assert got.tolist() == [[0, 1], [2, 1], [3, 1]]
    interval = NodeKind.build("Y", ("lo", "mid", "hi"), "interval", ["-infinity", "1.5", "3", "infinity"])
    assert table(interval, "( N + M )", [N, M]).states.tolist() == [[0, 0], [0, 1], [0, 2]]
    assert table(interval, "( N )", [N]).states.tolist() == [0, 1, 2]  # a bound belongs to the interval above it
    bounded = NodeKind.build("Y", ("lo", "hi"), "interval", ["0", "1.5", "3"])
    assert error("( N )", bounded, (N,)).detail == "the value 3 is not a state of 'Y' for (N=n2)"
    assert error('( if (L == "c", "zz", L) )', NodeKind.build("Y", ("a", "b")), (L,)).detail == \
        "the value \"zz\" is not a state of 'Y' for (L=c)"


@pytest.mark.parametrize("text, child, message", [
    ("( N )", NodeKind.build("Y", ("a", "b")), "'Y' is a labelled node; the expression gives a number"),
    ('( "a" )', COUNT, "'C' is a numbered node; the expression gives a label"),
    ("( N + L )", COUNT, "'+' needs a number, got a label"),
    ("( if (N, 1, 2) )", COUNT, "the condition of 'if' needs a Boolean, got a number"),
    ('( if (B, 1, "a") )', COUNT, "the branches of 'if' give a number and a label"),
    ("( L == 1 )", COUNT, "cannot compare a label and a number with '=='"),
    ('( L < "b" )', COUNT, "cannot compare a label and a label with '<'"),
    ('( L == "d" )', COUNT, "'L' has no state \"d\""),
    ("( X + 1 )", COUNT, "the expression names 'X', not a parent"),
    ("( C + 1 )", COUNT, "the expression names 'C', the node itself"),
    ("( TRUE )", COUNT, "the expression names 'TRUE', not a parent"),
    ("( Binomial (1) )", COUNT, "Binomial takes 2 arguments, got 1"),
    ("( not (B, B) )", COUNT, "not takes 1 argument, got 2"),
    ("( and () )", COUNT, "and takes at least 1 argument, got 0"),
    ("( Distribution (1, 2) )", COUNT, "Distribution takes 6 arguments, got 2"),
    ("( Normal (0, 1) )", COUNT, "Normal is not supported: a continuous distribution, and how Hugin discretises "
                                 "those over interval states is not documented"),
    ("( Geometric (0.5) )", COUNT, "Geometric is not supported: its parametrisation is not documented in the "
                                   "sources we read"),
    ("( Binomial (2, 0.5) )", NodeKind.build("Y", ("1", "2", "3"), "number", ["1", "2", "3"]),
     "Binomial needs a numbered node with the states 0, 1, ..., m; 'Y' is a numbered node with the states 1, 2, 3"),
])
def test_expressions_that_cannot_give_the_table(text, child, message):
    assert error(text, child).detail == message


# ------------------------------------------------------------------------------------------------ distributions
def test_distribution_weights_may_depend_on_the_parents():
    child = NodeKind.build("Y", ("a", "b", "c"))
    got = table(child, "( Distribution (N, 1, M + 2) )", [N, M])
    assert got.states is None
    for index, v in configurations([N, M]):
        assert got.table[index].tolist() == [v["N"], 1.0, v["M"] + 2]
    assert error("( Distribution (1, M, 1) )", child, (N, M)).detail == \
        "a negative weight in Distribution for (N=n0, M=m0)"


def test_binomial_against_brute_force():
    probability = NodeKind.build("P", ("p1", "p2"), "number", ["0.25", "0.5"])
    got = table(COUNT, "( Binomial (K + 3, P) )", [K, probability]).table
    for index, v in configurations([K, probability]):
        n, p = int(v["K"]) + 3, v["P"]
        assert got[index] == pytest.approx([math.comb(n, k) * p ** k * (1 - p) ** (n - k) if k <= n else 0.0
                                            for k in range(6)], rel=1e-12, abs=1e-15)
    assert error("( Binomial (K + 4, 0.5) )", COUNT, (K,)).detail == \
        "Binomial with n = 6 needs the states 0..6 of 'C' (it has 0..5) for (K=2)"
    assert error("( Binomial (K / 2, 0.5) )", COUNT, (K,)).detail == \
        "the n of Binomial must be a whole number >= 0, got 0.5 for (K=1)"
    assert error("( Binomial (2, K) )", COUNT, (K,)).detail == "the p of Binomial must be in [0, 1] for (K=2)"


def test_poisson_puts_the_tail_on_the_last_state():
    got = table(COUNT, "( Poisson (K * 1.75) )", [K]).table
    for k, rate in enumerate([0.0, 1.75, 3.5]):
        pmf = [math.exp(-rate) * rate ** j / math.factorial(j) for j in range(5)]
        assert got[k] == pytest.approx(pmf + [1 - sum(pmf)], rel=1e-12, abs=1e-15)
    single = NodeKind.build("Z", ("0",), "number", ["0"])
    assert table(single, "( Poisson (2) )", []).table.tolist() == [1.0]
    assert error("( Poisson (M) )", COUNT, (M,)).detail == "the mean of Poisson must be >= 0 for (M=m0)"


@pytest.mark.parametrize("reading", ["inhibitor", "strength"])
def test_noisy_or_against_the_hidden_causes(reading):
    child = NodeKind.build("Y", ("false", "true"), "boolean")
    text = "( NoisyOR (B, 0.2, B2, N / 4, and (B, B2), 0.5, true, 0.9) )"
    got = table(child, text, [B, B2, N], noisy_or=reading).table
    for index, v in configurations([B, B2, N]):
        causes = [(v["B"], 0.2), (v["B2"], v["N"] / 4), (v["B"] and v["B2"], 0.5), (True, 0.9)]
        p_false = 0.0
        for fired in itertools.product([False, True], repeat=len(causes)):  # which causes get through
            weight = 1.0
            for (on, p), through in zip(causes, fired, strict=True):
                passes = 1 - p if reading == "inhibitor" else p
                weight *= (passes if through else 1 - passes) if on else (0.0 if through else 1.0)
            if not any(fired):
                p_false += weight
        assert got[index] == pytest.approx([p_false, 1 - p_false], abs=1e-15)


def test_noisy_or_needs_a_reading_pairs_and_probabilities():
    child = NodeKind.build("Y", ("false", "true"), "boolean")
    assert "NoisyOR without a 'data' table is not supported" in error("( NoisyOR (B, 0.1) )", child).detail
    assert error("( NoisyOR (B, 0.1, B) )", child, noisy_or="inhibitor").detail == \
        "NoisyOR takes pairs (Boolean, probability), got 3 arguments"
    assert error("( NoisyOR (B, N) )", child, noisy_or="inhibitor").detail == \
        "a NoisyOR probability outside [0, 1] for (N=n1, M=m0, L=a, B=false)"


def test_model_nodes_fix_their_parents_in_each_expression():
    texts = [f"{a} * 10 + if (B, 1, 0) + M" for a in range(3)]  # one expression per state of N
    got = utilities(f"( {', '.join(texts)} )", [N, M, B], ["N"])
    for index, v in configurations([N, M, B]):
        assert got[index] == index[0] * 10 + v["B"] + v["M"]
    got = utilities("( N * 100 + M, 1 + N, 2 + N, 3 + N, 4 + N, 5 + N )", [N, M, K], ["K", "M"])
    for (n, m, k), v in configurations([N, M, K]):
        assert got[n, m, k] == (v["N"] * 100 + v["M"] if (k, m) == (0, 0) else 2 * k + m + v["N"])
    assert error("( 1, 2 )", None, (N, M), ["N"]).detail == \
        "model_data has 2 expressions, expected 3 (one per configuration of the model nodes)"
    assert error("( 1 )", None, (N,), ["Q"]).detail == "the model node 'Q' is not a parent"
