"""Every learner of the registry, parameter and structure, through the same checks (in the spirit of
scikit-learn's ``check_estimator``; docs/architecture.md §4): its registry entry matches its constructor, the
declared ranges are the ones it enforces, it fits tiny and degenerate data without returning a broken network
(or refuses in one line), it honours cancellation (raises Cancelled, changes nothing) and its seed, its options
round-trip through the command line, the form and the result, and its stop reason is true.

A new learner gets all of this by adding its registry entry (bnstudio/learn/registry.py)."""
from __future__ import annotations

import argparse
import inspect
import math

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import Cancelled, ValidationError
from bnstudio.jobs import RecordingReporter
from bnstudio.learn import registry
from bnstudio.learn.params.floor import row_floor
from bnstudio.learn.params.stopping import STOP_REASONS
from bnstudio.learn.structure.scores import DataColumns, ScoreCache

PARAMETERS = registry.PARAMETER_LEARNERS
STRUCTURES = registry.STRUCTURE_LEARNERS
EVERY = PARAMETERS + STRUCTURES
IDS = [e.name for e in EVERY]
#: small settings so that every check runs in a fraction of a second
QUICK = {"em": {"max_iter": 5}, "lgd": {"max_iter": 5}, "clgd": {"max_iter": 5}, "wanbia": {"max_iter": 5},
         "bagged-mp": {"bags": 3, "seed": 0}, "hill-climb": {"restarts": 1, "seed": 0},
         "bnc": {"restarts": 1, "seed": 0}}
#: the class C is a root and every attribute has at most one attribute parent: a structure every learner takes
NET = network_from_dsl("C->A,B,D; A->B", seed=1, states={"C": ["c0", "c1", "c2"]})
NAMES = list(NET.variables)
STATES = [tuple(NET.states(v)) for v in NAMES]


def sample(n: int, seed: int = 2) -> np.ndarray:
    from bnstudio.sampling import forward_sample

    return forward_sample(NET, n, seed=seed)


def fit(entry: registry.LearnerEntry, codes: np.ndarray, reporter=None, net=NET, **options):
    """Fit ``entry`` with its quick settings (and ``options``); the fitted network and the result."""
    learner = entry.make(**{**QUICK.get(entry.name, {}), **options})
    if entry.kind == "parameters":
        result = learner.fit(net, codes, target="C", reporter=reporter)
        return result.network(net), result
    names = list(net.variables)
    result = learner.fit(codes, names, [tuple(net.states(v)) for v in names], target="C", reporter=reporter)
    return result.network, result


def assert_not_broken(net) -> None:
    """Every CPT finite, at least the documented floor, its rows summing to 1; the graph acyclic."""
    for v in net.variables:
        table = net.cpt(v)
        assert np.all(np.isfinite(table)), v
        np.testing.assert_allclose(table.sum(axis=-1), 1.0, atol=1e-9, err_msg=v)
        assert table.min() >= row_floor(table.shape[-1]) * (1 - 1e-9), v
    assert len(net.topological_order()) == len(net.variables)


def learned(result) -> tuple:
    """What a run learned, to compare two runs: the CPTs (and arcs of a structure)."""
    if hasattr(result, "cpts"):
        return tuple(np.asarray(result.cpts[v]).tobytes() for v in sorted(result.cpts))
    net = result.network
    return tuple(result.arcs), tuple(net.cpt(v).tobytes() for v in net.variables)


# -- the registry entry is the learner -------------------------------------------------------------------------------

@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_the_entry_lists_exactly_the_constructor_options(entry):
    parameters = inspect.signature(entry.learner_class()).parameters
    taken = [p for p, spec in parameters.items() if p not in entry.fixed
             and spec.kind not in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)]
    assert sorted(taken) == sorted(entry.option_names)
    defaults = entry.defaults()
    assert entry.make(**defaults).__class__ is entry.learner_class()   # its own defaults are accepted
    for option in entry.options:
        default = defaults[option.name]
        if option.kind == "choice" and default is not None:
            assert default in option.choices + option.api_choices, option.name
        if option.optional:
            assert default is None or option.name in ("score", "prior"), option.name


def test_names_are_unique_and_the_light_module_agrees():
    from bnstudio.learn import names

    assert len(set(IDS)) == len(IDS)
    assert names.METHODS == tuple(e.name for e in PARAMETERS) and names.ALGORITHMS == tuple(e.name for e in STRUCTURES)


def _range_cases():
    for entry in EVERY:
        for option in entry.options:
            if option.kind in ("int", "float") and (option.low is not None or option.high is not None):
                yield entry, option


def _context(entry, option) -> dict:
    """Other options that must accompany a value (hill-climb's ll score needs max_parents)."""
    return {"max_parents": 2} if entry.name == "hill-climb" and option.name != "max_parents" else {}


@pytest.mark.parametrize("entry, option", list(_range_cases()),
                         ids=[f"{e.name}-{o.name}" for e, o in _range_cases()])
def test_the_declared_range_is_the_range_the_learner_enforces(entry, option):
    step = 1 if option.kind == "int" else max(1e-9, 1e-6 * abs(option.low or 0.0))
    context = _context(entry, option)
    if option.low is not None:
        if not option.low_open:
            entry.make(**context, **{option.name: option.low})
        with pytest.raises(ValidationError, match=option.name):
            entry.make(**context, **{option.name: option.low - (0 if option.low_open else step)})
    if option.high is not None:
        entry.make(**context, **{option.name: option.high})
        beyond = option.high + 1 if option.kind == "int" else option.high + max(0.01 * abs(option.high), 1e-3)
        with pytest.raises(ValidationError, match=option.name):
            entry.make(**context, **{option.name: beyond})
    if option.optional:
        entry.make(**context, **{option.name: None})


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_every_declared_choice_is_accepted_and_no_other(entry):
    for option in (o for o in entry.options if o.kind == "choice"):
        context = {} if option.name == "score" and entry.name != "hill-climb" else _context(entry, option)
        for choice in option.choices + option.api_choices:
            entry.make(**context, **{option.name: choice})
        with pytest.raises(ValidationError):
            entry.make(**context, **{option.name: "no-such-choice"})


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_an_unknown_option_is_a_one_line_error_naming_it(entry):
    with pytest.raises(ValidationError) as info:
        entry.make(no_such_option=1)
    assert "no_such_option" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_needs_target_is_true(entry):
    """A learner the registry says needs a target refuses to fit without one, in one line naming it; the others
    fit without one."""
    learner = entry.make(**QUICK.get(entry.name, {}))
    codes = sample(30)

    def fit_without_target():
        if entry.kind == "parameters":
            return learner.fit(NET, codes)
        return learner.fit(codes, NAMES, STATES)
    if entry.needs_target:
        with pytest.raises(ValidationError, match="target") as info:
            fit_without_target()
        assert "\n" not in str(info.value)
    else:
        fit_without_target()


# -- fitting: tiny and degenerate data, never a broken network ------------------------------------------------------

DEGENERATE = {
    "one row": lambda: sample(1),
    "three rows": lambda: sample(3),
    "a constant column": lambda: np.where(np.arange(4)[None, :] == NAMES.index("B"), 0, sample(12)),
    "a weightless class state": lambda: sample(40)[sample(40)[:, NAMES.index("C")] != 2],
}


@pytest.mark.parametrize("case", list(DEGENERATE))
@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_tiny_and_degenerate_data_give_a_valid_network(entry, case):
    codes = DEGENERATE[case]()
    fitted, result = fit(entry, codes)
    assert_not_broken(fitted)
    assert result.history and all(math.isfinite(h["score" if entry.kind == "structure" else "nll"])
                                  for h in result.history)


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_a_single_state_variable_and_missing_cells_fit_or_are_refused_in_one_line(entry):
    net = network_from_dsl("C->A,B,D; A->B", seed=1, states={"C": ["c0", "c1", "c2"], "D": ["only"]})
    from bnstudio.sampling import forward_sample, hide_at_random

    codes = hide_at_random(forward_sample(net, 30, seed=3), 0.2, seed=4)
    codes[0] = 0                                 # every column observed somewhere
    try:
        fitted, _ = fit(entry, codes, net=net)
    except ValidationError as exc:               # e.g. wanbia and bnc need complete attribute values
        assert "\n" not in str(exc)
        return
    assert_not_broken(fitted)


# -- the job protocol: cancellation and seeds -------------------------------------------------------------------------

@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_a_stop_request_raises_cancelled_and_changes_nothing(entry):
    codes = sample(60)
    before, data_before = [NET.cpt(v).copy() for v in NAMES], codes.copy()
    reporter = RecordingReporter(stop_after=1)
    with pytest.raises(Cancelled):
        fit(entry, codes, reporter=reporter)
    assert len(reporter.infos) == 1                  # it stopped at the first report
    assert all(np.array_equal(a, NET.cpt(v)) for a, v in zip(before, NAMES, strict=True))
    assert np.array_equal(codes, data_before)


@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_the_same_seed_gives_the_same_result(entry):
    codes = sample(60)
    seed = {"seed": 7} if entry.seeded else {}
    assert learned(fit(entry, codes, **seed)[1]) == learned(fit(entry, codes, **seed)[1])


def test_the_seed_is_used():
    """bagged-mp's bags come from its seed: two seeds, two ensembles."""
    entry = registry.parameter_learner("bagged-mp")
    first, second = (fit(entry, sample(60), seed=s)[1] for s in (1, 2))
    assert not all(np.array_equal(first.ensemble[v], second.ensemble[v]) for v in NAMES)


# -- options round-trip through the front ends and the result --------------------------------------------------------

#: values that go with the others' sample values (an mp M-step uses the prior; alpha mixes the cll criterion)
CONSISTENT = {"m_step": "mp", "criterion": "cll"}


def sample_value(option: registry.Option):
    """A valid value other than the usual default."""
    if option.kind == "choice":
        return option.choices[-1]
    if option.kind == "bool":
        return True
    if option.kind == "int":
        return int(option.low or 0) + 2
    return 0.5 if option.high is None or option.high >= 1 else option.high / 2


@pytest.mark.parametrize("entry", PARAMETERS, ids=[e.name for e in PARAMETERS])
def test_options_round_trip_through_the_command_line_and_the_result(entry):
    from bnstudio.cli.fit import add_learner_options, learner_options

    parser = argparse.ArgumentParser()
    parser.add_argument("--method")
    add_learner_options(parser)
    for option in entry.shown_options:
        value = sample_value(option)
        argv = ["--method", entry.name, option.flag] + ([] if option.kind == "bool" else [str(value)])
        options = learner_options(parser.parse_args(argv))
        assert options.pop(option.name) == value
        assert options in ({}, {"m_step": "mp"})     # em: a prior means the mp M-step
    chosen = {o.name: sample_value(o) for o in entry.shown_options if o.name != "patience"}
    chosen.update({k: v for k, v in CONSISTENT.items() if k in chosen})
    result = entry.make(**chosen).fit(NET, sample(40), target="C")
    recorded = {k: v for k, v in result.settings.items() if k in chosen}
    assert recorded == {k: chosen[k] for k in recorded}
    assert result.to_json()["settings"] == result.settings


@pytest.mark.parametrize("entry", PARAMETERS, ids=[e.name for e in PARAMETERS])
def test_options_round_trip_through_the_form(entry):
    from bnstudio.learn.forms import FIELDS, learner_options

    assert FIELDS[entry.name] == tuple(o.name for o in entry.shown_options)
    values = {o.name: sample_value(o) for o in registry.PARAMETER_LEARNERS[2].options}   # every field present
    values.update({o.name: sample_value(o) for e in PARAMETERS for o in e.shown_options})
    values.update(m_step="mp", criterion="cll")
    options = learner_options(entry.name, values)
    assert options == {k: values[k] for k in FIELDS[entry.name]}
    entry.make(**options)


@pytest.mark.parametrize("entry", STRUCTURES, ids=[e.name for e in STRUCTURES])
def test_structure_options_round_trip_through_the_learner(entry):
    chosen = {o.name: sample_value(o) for o in entry.options if o.kind in ("int", "float", "choice", "bool")}
    if entry.name == "hill-climb":
        chosen["score"] = "bic"
    learner = entry.make(**chosen)
    assert {k: learner.get_params()[k] for k in chosen} == chosen
    result = learner.fit(sample(40), NAMES, STATES, target="C")
    recorded = {k: v for k, v in result.settings.items() if k in chosen}
    assert recorded == {k: chosen[k] for k in recorded} and recorded


def test_a_study_accepts_exactly_the_structure_options():
    from bnstudio.experiment.spec import _structure_options

    assert _structure_options() == {o.name for e in STRUCTURES for o in e.options}


# -- the stop reason is true -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("entry", EVERY, ids=IDS)
def test_the_stop_reason_is_one_of_the_vocabulary_and_says_whether_it_iterated(entry):
    _, result = fit(entry, sample(60))
    assert result.stop_reason in STOP_REASONS
    assert (result.stop_reason == "closed_form") == (not entry.iterative)


@pytest.mark.parametrize("entry", [e for e in EVERY if e.iterative], ids=[e.name for e in EVERY if e.iterative])
def test_an_iteration_limit_reached_says_max_iter(entry):
    low = entry.option("max_iter").low
    _, result = fit(entry, sample(200), max_iter=int(low), **({"start": "empty"} if entry.kind == "structure" else {}))
    assert result.stop_reason == "max_iter"
    if entry.kind == "structure":
        assert result.arcs == []                    # no move: the empty start is kept


def test_a_converged_climb_is_a_local_maximum():
    """hill-climb's "converged": no single arc addition or deletion improves the BIC score (brute force)."""
    codes = sample(300)
    _, result = fit(registry.structure_learner("hill-climb"), codes, score="bic", restarts=0)
    assert result.stop_reason == "converged"
    data = DataColumns(codes, [len(s) for s in STATES])
    cache = ScoreCache(data, data.cards, "bic")
    index = {n: i for i, n in enumerate(NAMES)}
    parents = [set() for _ in NAMES]
    for p, c in result.arcs:
        parents[index[c]].add(index[p])
    best = cache.total([frozenset(p) for p in parents])
    assert best == pytest.approx(result.score)
    for child in range(len(NAMES)):
        for parent in range(len(NAMES)):
            if parent == child:
                continue
            changed = [set(p) for p in parents]
            changed[child] ^= {parent}
            if _acyclic(changed):
                assert cache.total([frozenset(p) for p in changed]) <= best + 1e-9 * abs(best)


def _acyclic(parents: list[set[int]]) -> bool:
    done: set[int] = set()
    while len(done) < len(parents):
        free = [v for v in range(len(parents)) if v not in done and parents[v] <= done]
        if not free:
            return False
        done.update(free)
    return True
