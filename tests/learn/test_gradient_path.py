"""clgd's l2 = 'path' / 'path-fine' (issue 24; docs/experiments.md, "A cheaper automatic rule"): c of
L2 = c / N chosen on one inner hold-out along a warm-started penalty path."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.data.split import train_test_indices
from bnstudio.errors import ValidationError
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.gradient import PATH_SCALES, GradientTraining
from bnstudio.sampling import forward_sample
from tests.learn.conftest import naive_bayes


def nb_error(net, fit, xt, yt):
    """0/1 error of an NB over class C (codes: C first) on attribute rows xt, by the posterior's argmax."""
    log = np.log(fit.cpts["C"])[None, :].repeat(len(xt), axis=0)
    for i, a in enumerate(net.variables[1:]):
        log = log + np.log(fit.cpts[a][:, xt[:, i]]).T
    return float(np.mean(log.argmax(axis=1) != yt))


@pytest.mark.parametrize("rule", ["path", "path-fine"])
def test_a_noise_free_concept_gets_a_weak_penalty_and_no_error(mofn, rule):
    net, train, xt, yt = mofn
    fit = GradientTraining(l2=rule).fit(net, train, target="C")
    assert fit.settings["l2_scale"] < 10                       # the hold-out prefers a weaker pull than the default
    assert nb_error(net, fit, xt, yt) == 0.0                   # Zhou Table 4-2: NB + CLGD 0.00 on mofn-3-7-10


@pytest.mark.parametrize("rule", ["path", "path-fine"])
def test_the_choice_is_the_best_held_out_cll_and_the_l2_follows_it(mofn, rule):
    net, train, _, _ = mofn
    fit = GradientTraining(l2=rule).fit(net, train, target="C")
    found = fit.settings["path_cll"]
    assert sorted(found) == sorted(f"{c:g}" for c in PATH_SCALES[rule])
    best = max(found.values())
    assert found[f"{fit.settings['l2_scale']:g}"] == best
    assert fit.settings["l2"] == pytest.approx(fit.settings["l2_scale"] / len(train))


def nb_cll(net, fit, rows):
    """Mean log p(C | attributes) of an NB over class C (codes: C first), by hand."""
    log = np.log(fit.cpts["C"])[None, :].repeat(len(rows), axis=0)
    for i, a in enumerate(net.variables[1:]):
        log = log + np.log(fit.cpts[a][:, rows[:, i + 1]]).T
    norm = np.logaddexp.reduce(log, axis=1)
    return float(np.mean(log[np.arange(len(rows)), rows[:, 0]] - norm))


def test_each_candidate_is_scored_as_a_separate_fit_on_three_quarters_would_be():
    net, _ = naive_bayes(6, states=3, seed=3)
    rows = forward_sample(net, 240, seed=4)
    fit = GradientTraining(l2="path-fine").fit(net, rows, target="C")
    keep, held = train_test_indices(len(rows), 0.25, 0)
    for c in PATH_SCALES["path-fine"]:
        alone = GradientTraining(l2=c / len(keep), tol=1e-12).fit(net, rows[keep], target="C")
        # c = 10 starts where a fixed fit starts; the warm-started 1 and 0.1 reach the same optimum
        assert fit.settings["path_cll"][f"{c:g}"] == pytest.approx(nb_cll(net, alone, rows[held]), abs=1e-4), c


def test_the_rule_is_clgds_cll_without_alpha_and_needs_a_target(mofn):
    with pytest.raises(ValidationError, match="without alpha"):
        GradientTraining(l2="path", alpha=0.5)
    with pytest.raises(ValidationError, match="without alpha"):
        make_learner("lgd", l2="path")
    with pytest.raises(ValidationError, match="l2 must be a number or one of path, path-fine, got 'cv'"):
        make_learner("clgd", l2="cv")
    net, train, _, _ = mofn
    with pytest.raises(ValidationError, match="needs a target"):
        GradientTraining(l2="path").fit(net, train)
    fit = make_learner("clgd", l2="path").fit(net, train, target="C")       # through the registry as it is
    assert fit.settings["l2_rule"] == "path" and "l2_scale" in fit.settings


def test_too_few_rows_to_hold_out_a_quarter_is_one_line(mofn):
    net, train, _, _ = mofn
    with pytest.raises(ValidationError, match="needs at least 4, got 3"):
        GradientTraining(l2="path").fit(net, train[:3], target="C")
