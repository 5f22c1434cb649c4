"""Fuzz passes over Hugin table-generator expressions: seeded random token soups through the parser and the
evaluator, and the project's mutation fuzzer (tests/fuzz/mutate.py) over NET files with models. Only a
:class:`~bnstudio.errors.FormatError` may come out (with a one-line message), never another exception, and a NET
file is read within the fuzzer's time and memory limits with no warning but BN Studio's own."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from bnstudio.errors import FormatError
from bnstudio.io.hugin.expression_eval import generate
from bnstudio.io.hugin.expression_nodes import NodeKind
from bnstudio.io.hugin.expressions import parse_model_data
from tests.fuzz.mutate import MUTATIONS, check_case

CORPUS = Path(__file__).resolve().parent / "corpus"
SEEDS = ["hugin_expressions_only.net", "hugin_noisy_or_saved.net", "hugin_noisy_or_true_first.net",
         "hugin_utility_expressions.net"]
VOCABULARY = (["N", "M", "L", "B", "Y", "Q", "true", "false", '"a"', '"c"', '"zz"', '"', "0", "1", "2.5", "-3", "1e308",
               "0.5", "1e-320", ".", "(", ")", "(", ")", ",", ",", "+", "-", "*", "/", "^", "==", "=", "!=", "<>",
               "<", "<=", ">", ">=", "%", "\n", "#"]
              + ["if", "and", "or", "not", "min", "max", "log", "sqrt", "exp", "mod", "floor", "Distribution",
                 "Binomial", "Poisson", "NoisyOR", "Normal", "Geometric", "Foo"])
PARENTS = [NodeKind.build("N", ("n0", "n1", "n2"), "number", ["0", "1", "2"]),
           NodeKind.build("M", ("m0", "m1"), "number", ["-1", "0.5"]),
           NodeKind.build("L", ("a", "b", "c")),
           NodeKind.build("B", ("false", "true"), "boolean")]
CHILDREN = [NodeKind.build("Y", ("0", "1", "2", "3"), "number", ["0", "1", "2", "3"]),
            NodeKind.build("Y", ("a", "b", "c")),
            NodeKind.build("Y", ("false", "true"), "boolean"),
            NodeKind.build("Y", ("lo", "hi"), "interval", ["-infinity", "1", "infinity"]),
            None]


def number(rng: random.Random, depth: int) -> str:
    if depth <= 0 or rng.random() < 0.3:
        return rng.choice(["N", "M", "0", "1", "2.5", "0.5", "1e308", "-3"])
    k = rng.random()
    if k < 0.4:
        return f"({number(rng, depth - 1)} {rng.choice('+-*/^')} {number(rng, depth - 1)})"
    if k < 0.7:
        name = rng.choice(["log", "sqrt", "exp", "floor", "abs", "sin"])
        return f"{name} ({number(rng, depth - 1)})"
    if k < 0.85:
        return f"{rng.choice(['min', 'max', 'mod'])} ({number(rng, depth - 1)}, {number(rng, depth - 1)})"
    return f"if ({boolean(rng, depth - 1)}, {number(rng, depth - 1)}, {number(rng, depth - 1)})"


def boolean(rng: random.Random, depth: int) -> str:
    if depth <= 0 or rng.random() < 0.3:
        return rng.choice(["B", "true", "false", 'L == "a"', 'L != "c"'])
    k = rng.random()
    if k < 0.5:
        return f"{number(rng, depth - 1)} {rng.choice(['<', '<=', '>', '>=', '==', '!='])} {number(rng, depth - 1)}"
    if k < 0.8:
        return f"{rng.choice(['and', 'or'])} ({boolean(rng, depth - 1)}, {boolean(rng, depth - 1)})"
    return f"not ({boolean(rng, depth - 1)})"


def expression(rng: random.Random) -> str:
    """A random expression, mostly well-formed and well-typed, for any of the children."""
    k = rng.random()
    if k < 0.2:
        return f"Distribution ({', '.join(number(rng, 1) for _ in range(rng.choice([2, 3, 4])))})"
    if k < 0.35:
        return f"Binomial ({number(rng, 1)}, {number(rng, 1)})"
    if k < 0.45:
        return f"Poisson ({number(rng, 1)})"
    if k < 0.6:
        return "NoisyOR (" + ", ".join(f"{boolean(rng, 1)}, {number(rng, 1)}" for _ in range(rng.randint(1, 3))) + ")"
    if k < 0.7:
        label = rng.choice(["L", '"a"', '"zz"'])
        return f'if ({boolean(rng, 2)}, {label}, "b")'
    if k < 0.8:
        return boolean(rng, 3)
    return number(rng, 3)


def soup(rng: random.Random) -> str:
    """One or three random expressions, and sometimes a few tokens edited at random."""
    tokens = ("( " + ", ".join(expression(rng) for _ in range(rng.choice([1, 1, 3]))) + " )").split(" ")
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        at = rng.randrange(len(tokens))
        action = rng.random()
        if action < 0.4:
            del tokens[at]
        elif action < 0.7:
            tokens.insert(at, rng.choice(VOCABULARY))
        else:
            tokens[at] = rng.choice(VOCABULARY)
    return " ".join(tokens)


def test_random_expressions_parse_and_evaluate_or_fail_cleanly():
    rng = random.Random(20240611)
    outcomes = {"ok": 0, "refused": 0}
    for _ in range(1500):
        text = soup(rng)
        try:
            expressions = parse_model_data(text)
        except FormatError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 500, text
            outcomes["refused"] += 1
            continue
        model = [] if len(expressions) == 1 else ["N"] if len(expressions) == 3 else ["L", "B"]
        for child in CHILDREN:  # each kind of node the expressions may be for
            try:
                generate(child, PARENTS, model, expressions, rng.choice([None, "inhibitor", "strength"]))
                outcomes["ok"] += 1
            except FormatError as exc:
                assert "\n" not in str(exc) and len(str(exc)) < 500, text
                outcomes["refused"] += 1
    assert outcomes["ok"] > 200 and outcomes["refused"] > 500, outcomes  # both paths were exercised


@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_net_files_with_models_read_or_fail_cleanly(seed, tmp_path):
    usable = [(f, w) for f, w in MUTATIONS if f.__name__ not in ("_splice", "_encoding", "_json_value")]
    functions, weights = [f for f, _ in usable], [w for _, w in usable]
    original = (CORPUS / seed).read_bytes()
    failures = []
    for index in range(60):
        rng = random.Random(f"{seed}:{index}")
        data = original
        for _ in range(rng.choice([1, 1, 2, 3])):
            data = rng.choices(functions, weights)[0](rng, data, "net")
        path = tmp_path / f"case{index}.net"
        path.write_bytes(data)
        problem = check_case("net", path)
        if problem is not None:
            failures.append(f"{seed} case {index}: {problem}")
    assert not failures, "\n".join(failures)
