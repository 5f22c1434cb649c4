"""``bnstudio learn`` offers every structure learner's option from the learner registry (docs/architecture.md §4),
each reaching ``learn_structure`` with the value given, and names the algorithms taking it."""
from __future__ import annotations

import argparse

import pytest

from bnstudio.cli.learn import add_arguments, structure_keywords
from bnstudio.learn.registry import STRUCTURE_LEARNERS

NAMES = ["A", "B", "C"]


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser()
    add_arguments(out)
    return out


def sample(option) -> str:
    if option.kind == "choice":
        return option.choices[-1]
    if option.kind in ("int", "float"):
        return str(int(option.low or 0) + 2)
    return {"arcs": "A->B", "variable": "B", "start": "empty"}[option.kind]


@pytest.mark.parametrize("entry", STRUCTURE_LEARNERS, ids=[e.name for e in STRUCTURE_LEARNERS])
def test_every_option_of_every_structure_learner_reaches_learn_structure(entry):
    flags = {a.dest: a.option_strings for a in parser()._actions}
    for option in entry.shown_options:
        assert option.name in flags, f"bnstudio learn lacks {option.name} ({entry.name})"
        if option.kind == "tiers":
            continue        # a file: tests/structure/test_cli_learn.py
        value = sample(option)
        args = parser().parse_args(["data.csv", "-a", entry.name, flags[option.name][0], value, "-o", "o.bif"])
        given = structure_keywords(args, NAMES)[option.name]
        expected = {"int": int, "float": float}.get(option.kind, str)(value)
        assert given == ([("A", "B")] if option.kind == "arcs" else expected), option.name


def test_the_help_names_the_algorithms_taking_an_option_and_every_score():
    actions = {a.dest: a for a in parser()._actions}
    assert "(hill-climb, bnc" in actions["tabu"].help and "(kdb" in actions["k"].help
    assert actions["required"].help == "arcs (parent, child) every result has"   # all take it: no list
    assert set(actions["score"].choices) == {c for e in STRUCTURE_LEARNERS for c in e.option("score").choices}
    assert actions["target"].help == "class variable (nb, tan, kdb, bnc)"
