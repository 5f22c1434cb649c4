"""The learner forms' rules (issue 41, "logic lives in widgets"), read from the learner registry by the Qt-free
:mod:`bnstudio.learn.forms`: which fields a method shows for the form's values and the ``make_learner`` keywords
they give. :func:`today` states the rules as the training form had them written by method name (534d83a,
``gui/training_panel/options.py``, where patience 0 and an L2 of -0.001 stood for "unset"); the registry's rules
must give the same fields and keywords for every method over a grid of values."""
from __future__ import annotations

import argparse
import ast
import itertools
from pathlib import Path
from typing import Any

import pytest

from bnstudio.learn import forms, registry
from bnstudio.learn.forms import implied, learner_options, visible_fields
from bnstudio.learn.registry import ALGORITHMS, METHODS, Option, parameter_learner

#: the training form's "unset" values before the registry described them, and now (None)
L2_DEFAULT = -0.001
OLD_UNSET = {"patience": 0, "l2": L2_DEFAULT}

#: the form's values that vary; the other fields keep one value each (:data:`FIXED`)
GRID: dict[str, tuple[Any, ...]] = {"m_step": ("ml", "mp"), "criterion": ("cll", "ae", "se"),
                                    "alpha": (0.0, 0.3, 1.0), "l2": (L2_DEFAULT, 0.0, 0.5), "patience": (0, 5),
                                    "seed": (0, 7), "m_bagging": (False, True)}
FIXED: dict[str, Any] = {"prior": "bdeu", "ess": 2.5, "optimizer": "cg", "level": "parameter", "bags": 3,
                         "max_iter": 50, "restarts": 2}


def grid() -> list[dict[str, Any]]:
    return [{**FIXED, **dict(zip(GRID, combo, strict=True))} for combo in itertools.product(*GRID.values())]


def now(values: dict[str, Any]) -> dict[str, Any]:
    """The same form values with the unset ones as the form gives them now (None)."""
    return {k: None if k in OLD_UNSET and v == OLD_UNSET[k] else v for k, v in values.items()}


def today(method: str, values: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The fields and keywords as written by method name before the registry held the rules: em's prior and ESS
    only with the mp M-step, clgd's α only with the cll criterion; patience 0 (off), a negative L2 (the
    learner's default) and α 0 are left out."""
    fields = tuple(o.name for o in parameter_learner(method).shown_options)
    if method == "em" and values["m_step"] != "mp":
        fields = tuple(f for f in fields if f not in ("prior", "ess"))
    if method == "clgd" and values["criterion"] != "cll":
        fields = tuple(f for f in fields if f != "alpha")
    unset = {"patience": lambda v: v == 0, "l2": lambda v: v < 0, "alpha": lambda v: v == 0.0}
    return fields, {f: values[f] for f in fields if not unset.get(f, lambda v: False)(values[f])}


@pytest.mark.parametrize("method", METHODS)
def test_the_fields_and_keywords_are_todays_for_every_method(method):
    for values in grid():
        fields, options = today(method, values)
        assert visible_fields(method, now(values)) == fields, values
        assert learner_options(method, now(values)) == options, values


def test_the_grid_reaches_every_rule():
    """The grid both shows and hides each conditional field, and both keeps and leaves out each unset value."""
    for method, field in (("em", "prior"), ("em", "ess"), ("clgd", "alpha")):
        shown = {field in today(method, values)[0] for values in grid()}
        assert shown == {True, False}, (method, field)
    for field in ("patience", "l2", "alpha"):
        kept = {field in today("clgd", values)[1] for values in grid() if values["criterion"] == "cll"}
        assert kept == {True, False}, field


def learner_names_in(source: str) -> set[str]:
    """The method and algorithm names written as strings in ``source``."""
    tree = ast.parse(source)
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return strings & set(METHODS + ALGORITHMS)


def test_no_form_compares_learner_names():
    """The forms carry no rule by learner name: no method or algorithm name is written in their modules."""
    root = Path(forms.__file__).resolve().parents[1]
    for path in ("gui/training_panel/options.py", "gui/structure_panel/options.py", "learn/forms.py"):
        assert learner_names_in((root / path).read_text(encoding="utf-8")) == set(), path


def test_the_scan_finds_a_learner_name():
    assert learner_names_in('if method == "clgd" and values.get("criterion") != "cll":\n    pass\n') == {"clgd"}


@pytest.mark.parametrize("entry", registry.PARAMETER_LEARNERS + registry.STRUCTURE_LEARNERS,
                         ids=[e.name for e in registry.PARAMETER_LEARNERS + registry.STRUCTURE_LEARNERS])
def test_each_condition_names_an_option_of_its_learner(entry):
    for option in entry.options:
        if option.applies_when is not None:
            other, value = option.applies_when
            assert other in entry.option_names and value in entry.option(other).choices, (option.name, other)


def test_an_unset_label_needs_none_as_a_value():
    with pytest.raises(ValueError, match="optional"):
        Option("patience", "int", "stop after", unset_label="off")
    assert Option("patience", "int", "stop after", optional=True, unset_label="off").unset_label == "off"


def test_a_form_starts_unset_where_the_learner_decides():
    assert forms.start_value("patience") is None and forms.start_value("l2") is None
    assert forms.start_value("seed") == 0            # no unset value: a form's run repeats
    assert forms.start_value("m_step") == parameter_learner("em").defaults()["m_step"]


def test_a_given_option_implies_its_condition():
    em = parameter_learner("em")
    assert implied(em, {"ess": 2.0}) == {"ess": 2.0, "m_step": "mp"}
    assert implied(em, {"prior": "bdeu", "m_step": "ml"}) == {"prior": "bdeu", "m_step": "ml"}   # as given
    assert implied(em, {"max_iter": 5}) == {"max_iter": 5}
    assert implied(parameter_learner("clgd"), {"alpha": 0.5}) == {"alpha": 0.5}      # cll: clgd's default


def test_the_command_line_reads_the_same_conditions():
    from bnstudio.cli.fit import add_learner_options
    from bnstudio.cli.fit import learner_options as cli_options

    parser = argparse.ArgumentParser()
    parser.add_argument("--method")
    add_learner_options(parser)
    assert cli_options(parser.parse_args(["--method", "em", "--prior", "bdeu"])) == {"prior": "bdeu", "m_step": "mp"}
    assert cli_options(parser.parse_args(["--method", "em", "--ess", "4"])) == {"ess": 4.0, "m_step": "mp"}
    assert cli_options(parser.parse_args(["--method", "clgd", "--alpha", "0.5"])) == {"alpha": 0.5}


def test_the_run_label_names_what_distinguishes_a_run():
    assert forms.describe("ml", {}) == "ml"
    assert forms.describe("bagged-mp", {"bags": 5, "m_bagging": True, "prior": "bdeu"}) == "bagged-mp (5 m-bags)"
    assert forms.describe("clgd", {"criterion": "cll", "l2": 0.01}) == "clgd (cll, L2=0.01)"
