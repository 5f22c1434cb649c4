"""The training form's rules (issue 41, "logic lives in widgets"): which fields a method shows for the form's
values and the ``make_learner`` keywords they give. :func:`today` states the rules as the form had them written
by method name (534d83a, ``gui/training_panel/options.py``); the form must give the same fields and keywords for
every method over a grid of values."""
from __future__ import annotations

import itertools
from typing import Any

import pytest

from bnstudio.gui.training_panel.options import L2_DEFAULT, learner_options, visible_fields
from bnstudio.learn.registry import METHODS, parameter_learner

#: the form's values that vary; the other fields keep one value each (:data:`FIXED`)
GRID: dict[str, tuple[Any, ...]] = {"m_step": ("ml", "mp"), "criterion": ("cll", "ae", "se"),
                                    "alpha": (0.0, 0.3, 1.0), "l2": (L2_DEFAULT, 0.0, 0.5), "patience": (0, 5),
                                    "seed": (0, 7), "m_bagging": (False, True)}
FIXED: dict[str, Any] = {"prior": "bdeu", "ess": 2.5, "optimizer": "cg", "level": "parameter", "bags": 3,
                         "max_iter": 50, "restarts": 2}


def grid() -> list[dict[str, Any]]:
    return [{**FIXED, **dict(zip(GRID, combo))} for combo in itertools.product(*GRID.values())]


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
        assert visible_fields(method, values) == fields, values
        assert learner_options(method, values) == options, values


def test_the_grid_reaches_every_rule():
    """The grid both shows and hides each conditional field, and both keeps and leaves out each unset value."""
    for method, field in (("em", "prior"), ("em", "ess"), ("clgd", "alpha")):
        shown = {field in today(method, values)[0] for values in grid()}
        assert shown == {True, False}, (method, field)
    for field in ("patience", "l2", "alpha"):
        kept = {field in today("clgd", values)[1] for values in grid() if values["criterion"] == "cll"}
        assert kept == {True, False}, field
