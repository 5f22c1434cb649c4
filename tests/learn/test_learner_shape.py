"""One learner shape (issue 41; docs/architecture.md §2, §4): every learner of the registry, parameter and
structure, has scikit-learn's ``get_params`` / ``set_params`` over its constructor's options, each option an
attribute of its own name, and a ``repr`` of the options away from their defaults; what differs between structure
algorithms is the learner class's, never a dispatch on its name."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import ValidationError
from bnstudio.learn import registry
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.base import IterativeLearner, ParameterLearner
from bnstudio.learn.shape import Learner, same_value
from bnstudio.learn.structure import api
from bnstudio.learn.structure.learners import ConditionalSearch, HillClimb, StructureLearner, make_structure_learner

EVERY = registry.PARAMETER_LEARNERS + registry.STRUCTURE_LEARNERS
IDS = [e.name for e in EVERY]
NET = network_from_dsl("C->A,B,D; A->B", seed=1, states={"C": ["c0", "c1", "c2"]})
NAMES = list(NET.variables)
STATES = [tuple(NET.states(v)) for v in NAMES]


def sample(n: int, seed: int = 2) -> np.ndarray:
    from bnstudio.sampling import forward_sample

    return forward_sample(NET, n, seed=seed)


def keywords(cls: type) -> list[str]:
    return [k for k, p in inspect.signature(cls).parameters.items()
            if p.kind not in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)]


def bad_value(option: registry.Option):
    """A value outside ``option``'s declared range or choices (None when it declares neither)."""
    if option.choices:
        return "no-such-choice"
    if option.kind in ("int", "float") and option.low is not None:
        return option.low if option.low_open else option.low - 1
    return None


def assert_same_params(a: dict, b: dict) -> None:
    assert list(a) == list(b)
    for key in a:
        assert same_value(a[key], b[key]) or a[key] is b[key], key


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_get_params_are_the_constructor_options_as_attributes_and_rebuild_the_learner(entry):
    learner = entry.make()
    assert isinstance(learner, ParameterLearner if entry.kind == "parameters" else StructureLearner)
    params = learner.get_params()
    assert list(params) == keywords(type(learner))
    assert learner.get_params(deep=True) == params
    for key, value in params.items():
        assert getattr(learner, key) is value, key
    for key, value in entry.defaults().items():
        assert same_value(params[key], value), key         # the constructor's defaults, kept as given
    assert_same_params(type(learner)(**params).get_params(), params)


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_set_params_checks_each_value_and_names_the_options(entry):
    learner = entry.make()
    before = learner.get_params()
    with pytest.raises(ValidationError, match=f"'{entry.name}' has no option 'bogus'; its options: "):
        learner.set_params(bogus=1)
    checked = [o for o in entry.options if bad_value(o) is not None]
    assert checked or not entry.options, "an option with a range or choices to check"
    for option in checked:
        with pytest.raises(ValidationError):
            learner.set_params(**{option.name: bad_value(option)})
        assert_same_params(learner.get_params(), before)      # a refused change changes nothing


def other_value(option: registry.Option, default):
    """A valid value of ``option`` other than ``default`` (None if there is no simple one)."""
    if option.choices:
        return next(c for c in option.choices if c != default)
    if option.kind in ("int", "float") and option.low is not None:
        value = (int(option.low) if option.kind == "int" else float(option.low)) + 1
        return value if option.high is None or value <= option.high else None
    return None


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_set_params_changes_the_attribute_and_returns_the_learner(entry):
    defaults = entry.defaults()
    changes = {o.name: other_value(o, defaults[o.name]) for o in entry.options}
    changes = {k: v for k, v in changes.items() if v is not None and not same_value(v, defaults[k])}
    if not entry.options:
        assert entry.make().set_params().get_params() == {}
        return
    changed = 0
    for key, value in changes.items():
        learner = entry.make()
        try:
            assert learner.set_params(**{key: value}) is learner
        except ValidationError:
            continue                                      # a value the other options rule out
        assert getattr(learner, key) == value == learner.get_params()[key]
        assert f"{key}={getattr(learner, key)!r}" in repr(learner)
        changed += 1
    assert changed, "an option to change"


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_sklearn_clone_gives_equal_params(entry):
    base = pytest.importorskip("sklearn.base")
    learner = entry.make()
    clone = base.clone(learner)
    assert clone is not learner and type(clone) is type(learner)
    assert_same_params(clone.get_params(), learner.get_params())


def test_repr_lists_the_options_away_from_their_defaults():
    assert repr(make_learner("em", max_iter=7, seed=3)) == "ExpectationMaximisation(max_iter=7, seed=3)"
    assert repr(make_learner("mp")) == "MeanPosterior()"
    assert repr(make_learner("lgd")) == "GradientTraining(criterion='ll')"    # fixed by the name, not a default
    assert repr(make_structure_learner("hill-climb", tabu=3, required=[("A", "B")])) == \
        "HillClimb(required=[('A', 'B')], tabu=3)"
    assert repr(make_structure_learner("nb")) == "NaiveBayes()"


def test_set_params_checks_the_options_together():
    clgd = make_learner("clgd", alpha=0.5)
    with pytest.raises(ValidationError, match="alpha"):
        clgd.set_params(criterion="ae")                    # alpha applies to cll only
    assert clgd.criterion == "cll" and clgd.alpha == 0.5
    climb = make_structure_learner("hill-climb", score="ll", max_parents=2)
    with pytest.raises(ValidationError, match="max_parents"):
        climb.set_params(max_parents=None)                 # ll without a parent limit
    assert climb.max_parents == 2
    lgd = make_learner("lgd").set_params(criterion="cll")
    assert lgd.name == "clgd"                              # the name follows the options


@pytest.mark.parametrize("entry", [e for e in registry.PARAMETER_LEARNERS if e.iterative], ids=lambda e: e.name)
def test_the_stopping_options_are_attributes_and_rule_the_run(entry):
    learner = entry.make()
    assert isinstance(learner, IterativeLearner) and not hasattr(learner, "stop")
    assert (learner.max_iter, learner.tol, learner.max_time) == tuple(entry.defaults()[k]
                                                                      for k in ("max_iter", "tol", "max_time"))
    learner.set_params(max_iter=2, tol=0.0)
    assert learner.stop_rule().max_iter == 2 and learner.stop_rule().tol == 0.0
    result = learner.fit(NET, sample(200), target="C")
    assert result.n_iterations <= 3 and result.stop_reason == "max_iter"   # the start and two steps at most
    with pytest.raises(ValidationError, match="max_time"):
        learner.set_params(max_time=0)
    assert learner.max_time == entry.defaults()["max_time"]


def test_every_learner_derives_from_the_one_shape():
    for entry in EVERY:
        assert issubclass(entry.learner_class(), Learner), entry.name


# -- the structure learners: behaviour follows the class, never the name ---------------------------------------------

class RenamedConditional(ConditionalSearch):
    """bnc under another name: it must stay bnc (its CLL objective, its two-parent default, its empty start)."""

    algorithm = "renamed"


class ClimbCalledBnc(HillClimb):
    """hill-climb under bnc's name: it must stay a plain climb on its decomposable score."""

    algorithm = "bnc"


def test_a_learner_behaves_as_its_class_whatever_its_name():
    codes = sample(300)
    bnc = ConditionalSearch(seed=0).fit(codes, NAMES, STATES, target="C")
    renamed = RenamedConditional(seed=0).fit(codes, NAMES, STATES, target="C")
    assert renamed.arcs == bnc.arcs and renamed.score == bnc.score and renamed.score_name == "cll"
    assert renamed.settings["max_parents"] == bnc.settings["max_parents"] == 2
    climb = HillClimb(seed=0).fit(codes, NAMES, STATES)
    called_bnc = ClimbCalledBnc(seed=0).fit(codes, NAMES, STATES)     # no target: a climb needs none
    assert called_bnc.arcs == climb.arcs and called_bnc.score == climb.score and called_bnc.score_name == "bic"
    assert called_bnc.settings["max_parents"] is None
    with pytest.raises(ValidationError, match="cll"):
        RenamedConditional(score="bic")                     # the class's scores, not the name's
    assert ClimbCalledBnc(score="bic").score == "bic"


def test_run_algorithm_does_not_dispatch_on_the_name():
    """In addition to the behavioural test above: no name comparisons left in the shared code."""
    source = inspect.getsource(api)
    for compared in ("algorithm ==", "algorithm !=", "algorithm in", "algorithm not in"):
        assert compared not in source
    assert "algorithm ==" not in inspect.getsource(api.run_algorithm)
    assert "algorithm ==" not in inspect.getsource(api.check_settings)
