"""A method's L2 that follows each fold's training size (``l2_scale`` = c: L2 = c / N) or is chosen on an inner
hold-out of the training rows (``l2_choices``), and the ``defaults`` suite built on them (docs/experiments.md
"Choosing clgd's default")."""
from __future__ import annotations

from pathlib import Path

import pytest

from bnstudio.data.split import train_test_indices
from bnstudio.errors import FormatError, ValidationError
from bnstudio.experiment.evaluation import INNER_HOLDOUT, chosen_l2_scale, derived_seed, split_rows
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import plan, run_study
from bnstudio.experiment.scores import classification_scores
from bnstudio.experiment.spec import MethodSpec, load_study, study_from_dict
from bnstudio.experiment.store import StudyStore
from bnstudio.experiment.suite import DEFAULTS_L2_SCALES, defaults_suite, suite
from bnstudio.learn.params import make_learner
from bnstudio.learn.structure.api import learn_structure
from tests.experiment.helpers import write_study

RULES = """
name = "rules"
folds = 3
structures = ["tan"]
methods = ["mp", "clgd", {label = "c10", method = "clgd", l2_scale = 10}, {label = "c0", method = "clgd", l2_scale = 0},
           {label = "auto", method = "clgd", l2_choices = [0, 1, 10]}]
metrics = ["error", "cll"]

[[datasets]]
generator = "corral"
rows = 64
seed = 5
"""


@pytest.fixture(scope="module")
def rules_store(tmp_path_factory):
    path = write_study(tmp_path_factory.mktemp("rules"), RULES, "rules")
    run_study(load_study(path), SerialExecutor())
    with StudyStore(path.with_suffix(".sqlite"), create=False) as store:
        rows = {(r["method"], r["fold"]): r for r in store.rows(status="done")}
    return path, rows


def test_l2_scale_ten_is_the_default_penalty_ten_over_n(rules_store):
    _, rows = rules_store
    for fold in range(3):   # clgd's default L2 is DEFAULT_L2 / N = 10 / N: the same fit, the same numbers
        assert rows["c10", fold]["metrics"]["cll"] == pytest.approx(rows["clgd", fold]["metrics"]["cll"], rel=1e-9)


def _fold(path: Path, fold: int):
    study = load_study(path)
    context, tasks = plan(study)
    task = next(t for t in tasks if t.method == "auto" and t.fold == fold)
    data = context.datasets["corral"]
    train, test = split_rows(len(data.codes), task.spec["split"], fold, task.seed)
    net = learn_structure("tan", data.codes[train], data.names, data.states, target="Class").network
    return data, task, train, test, net


def test_l2_scale_zero_is_the_unpenalised_fit(rules_store):
    path, rows = rules_store
    data, _, train, test, net = _fold(path, 1)
    fit = make_learner("clgd", l2=0.0).fit(net, data.codes[train], target="Class")
    expected = classification_scores(fit.network(net), data.codes[test], "Class")
    assert rows["c0", 1]["metrics"]["cll"] == pytest.approx(expected["cll"], rel=1e-9)


def test_l2_choices_picks_by_the_inner_hold_out_as_a_hand_made_search_does(rules_store):
    path, rows = rules_store
    for fold in range(3):
        data, task, train, test, net = _fold(path, fold)
        codes = data.codes[train]
        keep, held = train_test_indices(len(codes), INNER_HOLDOUT, derived_seed(task.seed, fold, 3))
        scored = []
        for c in (0.0, 1.0, 10.0):        # brute force: every choice fitted on 3/4, scored on the other 1/4
            fit = make_learner("clgd", l2=c / len(keep)).fit(net, codes[keep], target="Class")
            s = classification_scores(fit.network(net), codes[held], "Class")
            scored.append((s["error"], -s["cll"], -c))
        chosen = -min(scored)[2]
        assert rows["auto", fold]["metrics"]["l2_scale"] == chosen
        assert chosen_l2_scale(net, codes, "Class", task.spec["method"], {}, derived_seed(task.seed, fold, 3)) \
            == chosen
        refit = make_learner("clgd", l2=chosen / len(codes)).fit(net, codes, target="Class")
        expected = classification_scores(refit.network(net), data.codes[test], "Class")
        assert rows["auto", fold]["metrics"]["cll"] == pytest.approx(expected["cll"], rel=1e-9)
        assert rows["auto", fold]["metrics"]["time"] > 0       # the choice counted in the method's time


def test_l2_choices_refuses_an_inner_hold_out_without_an_observed_class(rules_store):
    path, _ = rules_store
    data, task, train, _, net = _fold(path, 0)
    codes = data.codes[train].copy()
    seed = derived_seed(task.seed, 0, 3)
    _, held = train_test_indices(len(codes), INNER_HOLDOUT, seed)
    codes[held, data.names.index("Class")] = -1     # nothing left to score the choices on
    with pytest.raises(ValidationError, match="no row of the inner hold-out has the target observed"):
        chosen_l2_scale(net, codes, "Class", task.spec["method"], {}, seed)


@pytest.mark.parametrize("method, message", [
    ({"method": "mp", "l2_scale": 1}, "methods[0]: l2_scale and l2_choices apply to clgd, lgd and wanbia"),
    ({"method": "clgd", "l2_scale": -1}, "methods[0].l2_scale: must be a number in [0, 1e12], got -1"),
    ({"method": "clgd", "l2_choices": []}, "methods[0].l2_choices: must be a non-empty list"),
    ({"method": "clgd", "l2_scale": 1, "options": {"l2": 0.1}}, "give one of options.l2, l2_scale and l2_choices"),
])
def test_l2_rule_mistakes_are_one_line_naming_the_key(tmp_path, method, message):
    doc = {"methods": [method], "datasets": [{"generator": "corral", "rows": 20}]}
    with pytest.raises(FormatError) as raised:
        study_from_dict(doc, tmp_path)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_a_method_without_a_rule_keeps_its_old_task_key():
    assert "l2_scale" not in MethodSpec("clgd", "clgd").to_json()
    assert MethodSpec("c", "clgd", l2_choices=(0.0, 10.0)).to_json()["l2_choices"] == [0.0, 10.0]


def test_the_defaults_suite_is_24_data_sets_of_100_to_5000_rows_and_five_rules():
    study = defaults_suite()
    names = [d.name for d in study.datasets]
    assert len(names) == len(set(names)) == 24
    assert {d.kind for d in study.datasets} == {"generator", "csv", "network"}
    networks = [d for d in study.datasets if d.kind == "network"]
    assert min(d.rows for d in networks) == 100 and max(d.rows for d in networks) == 5000
    assert len({(Path(d.source).stem, d.target) for d in networks}) == len(networks)
    assert [m.label for m in study.methods] == ["mp", "clgd-c0", "clgd-c1", "clgd-c10", "clgd-auto"]
    assert study.methods[-1].l2_choices == DEFAULTS_L2_SCALES and study.baseline == "mp"
    assert all(Path(spec.source).is_file() for spec in study.datasets if spec.kind != "generator")


def test_defaults_seeds_is_the_same_study_over_three_seeds():
    once, thrice = suite("defaults"), suite("defaults-seeds")
    assert (once.name, once.seeds, thrice.name, thrice.seeds) == ("defaults", [0], "defaults-seeds", [0, 1, 2])
    assert thrice.datasets == once.datasets and thrice.methods == once.methods


def test_l2_choices_without_a_target_is_one_line(rules_store):
    path, _ = rules_store
    data, task, train, _, net = _fold(path, 0)
    with pytest.raises(ValidationError, match="l2_choices picks c by held-out error: it needs"):
        chosen_l2_scale(net, data.codes[train], None, task.spec["method"], {}, 0)
