"""bnstudio.sklearn: scikit-learn's estimator contract (check_estimator), the long way round (make_learner + fit +
the engine's posteriors), cut points learnt per training fold, Pipeline / cross_val_score / GridSearchCV, the
registry's options as get/set_params, a given network's targets, and the import rule (nothing in the core imports
it)."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import SkipTestWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import check_estimator, parametrize_with_checks

from bnstudio.data import discretise_frame, from_frame
from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.learn.registry import PARAMETER_LEARNERS, STRUCTURE_LEARNERS, parameter_learner
from bnstudio.learn.structure import make_structure_learner
from bnstudio.resources import bundled_example
from bnstudio.sampling import forward_sample
from bnstudio.sklearn import DEFAULTS, BNClassifier, BNTransformer, learner_options

CONTRACT = [BNClassifier(), BNClassifier(structure="tan", method="clgd", l2=0.1),
            BNClassifier(structure="kdb", method="ml", discretise="equal-frequency", bins=4)]
#: sklearn runs this check only with scipy's array API switched on (an environment variable read when scipy is
#: first imported): it runs in a process of its own with the variable set
ARRAY_API_CHECK = "check_array_api_input"


def _check_name(check) -> str:
    return getattr(check, "func", check).__name__


@parametrize_with_checks(CONTRACT)
def test_the_scikit_learn_estimator_contract(estimator, check):
    if _check_name(check) == ARRAY_API_CHECK and not os.environ.get("SCIPY_ARRAY_API"):
        code = ("from sklearn.utils.estimator_checks import check_estimator\nfrom bnstudio.sklearn import "
                f"BNClassifier\nr = [x for x in check_estimator({estimator!r}, "
                f"on_fail=None) if x['check_name'] == {ARRAY_API_CHECK!r}]\nprint(sorted({{x['status'] for x in r}}))")
        env = {**os.environ, "SCIPY_ARRAY_API": "1", "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, env=env)
        assert done.stdout.strip() == "['passed']", done.stderr[-2000:]
    else:
        check(estimator)


def test_check_estimator_itself_passes():
    """The call the issue names, as a user writes it (the array-API check, skipped without SCIPY_ARRAY_API, is
    run above in its own process)."""
    if os.environ.get("SCIPY_ARRAY_API"):
        results = check_estimator(BNClassifier(), on_fail=None)
    else:
        with pytest.warns(SkipTestWarning, match=ARRAY_API_CHECK):
            results = check_estimator(BNClassifier(), on_fail=None)
    failed = [r for r in results if r["status"] == "failed"]
    assert not failed, [(r["check_name"], r["exception"]) for r in failed]
    skipped = {r["check_name"] for r in results if r["status"] == "skipped"}
    assert skipped <= {ARRAY_API_CHECK} and len(results) > 40


def _asia(n: int, seed: int) -> tuple[pd.DataFrame, pd.Series]:
    net = read_network(bundled_example("asia.bif"))
    codes = forward_sample(net, n, seed=seed)
    frame = pd.DataFrame({v: np.array(net.states(v), dtype=object)[codes[:, j]]
                          for j, v in enumerate(net.variables)})
    return frame.drop(columns=["dysp"]), frame["dysp"]


def test_predict_proba_is_the_long_way_round():
    """BNClassifier(structure="tan", method="clgd") against the structure learner, the parameter learner and one
    single-case query per test row, each made by hand."""
    X, y = _asia(600, seed=1)
    clf = BNClassifier(structure="tan", method="clgd", l2=0.05).fit(X.iloc[:500], y.iloc[:500])

    table = from_frame(pd.concat([X.iloc[:500], y.iloc[:500]], axis=1))
    structure = make_structure_learner("tan").fit(table.codes, table.columns, table.states, target="dysp")
    net = structure.network
    order = [table.columns.index(v) for v in net.variables]
    fitted = make_learner("clgd", l2=0.05).fit(net, table.codes[:, order], target="dysp").network(net)
    engine = InferenceEngine(fitted)
    test = X.iloc[500:]
    expected = np.array([engine.posterior("dysp", dict(row))["dysp"] for _, row in test.iterrows()])
    columns = [fitted.states("dysp").index(c) for c in clf.classes_]
    assert sorted(clf.network_.arcs()) == sorted(fitted.arcs())
    np.testing.assert_allclose(clf.predict_proba(test), expected[:, columns], rtol=0, atol=1e-9)
    assert list(clf.predict(test)) == [clf.classes_[k] for k in expected[:, columns].argmax(axis=1)]
    assert clf.score(test, y.iloc[500:]) == np.mean(clf.predict(test) == y.iloc[500:].to_numpy())


def _numeric(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.column_stack([y + rng.normal(0, 0.8, n), rng.normal(0, 1, n) + (y == 2), rng.integers(0, 3, n)])
    return X, y


def test_numeric_columns_are_cut_on_the_training_rows_only():
    X, y = _numeric(400, seed=2)
    clf = BNClassifier(discretise="mdl").fit(X[:300], y[:300])
    frame = pd.DataFrame(X[:300], columns=["x0", "x1", "x2"]).assign(c=y[:300])
    _, expected = discretise_frame(frame, {"x0": "mdl", "x1": "mdl"}, class_column="c")
    assert sorted(clf.cuts_) == ["x0", "x1"]           # x2: three whole numbers, categorical
    for column in ("x0", "x1"):
        np.testing.assert_array_equal(clf.cuts_[column].cuts, expected[column].cuts)
    whole = BNClassifier(discretise="mdl").fit(X, y)
    assert not np.array_equal(whole.cuts_["x0"].cuts, clf.cuts_["x0"].cuts)   # the test rows would move them


def test_cross_val_score_refits_every_fold_as_by_hand():
    """cross_val_score in a Pipeline equals fitting a fresh classifier on each fold's training rows by hand (the
    cut points of each fold from its own training rows)."""
    X, y = _numeric(300, seed=3)
    folds = KFold(4, shuffle=True, random_state=0)
    pipe = Pipeline([("id", FunctionTransformer()), ("bn", BNClassifier(structure="tan", method="mp"))])
    scores = cross_val_score(pipe, X, y, cv=folds)
    by_hand = [BNClassifier(structure="tan").fit(X[train], y[train]).score(X[test], y[test])
               for train, test in folds.split(X)]
    np.testing.assert_array_equal(scores, by_hand)
    assert scores.mean() > 0.5


def test_grid_search_over_clgd_l2():
    X, y = _numeric(240, seed=4)
    folds = KFold(3, shuffle=True, random_state=0)
    grid = GridSearchCV(BNClassifier(structure="nb", method="clgd"), {"l2": [1e-4, 0.1, 10.0]}, cv=folds,
                        scoring="neg_log_loss")
    grid.fit(X, y)
    means = [cross_val_score(BNClassifier(structure="nb", method="clgd", l2=l2), X, y, cv=folds,
                             scoring="neg_log_loss").mean() for l2 in (1e-4, 0.1, 10.0)]
    np.testing.assert_allclose(grid.cv_results_["mean_test_score"], means, rtol=1e-12)
    assert grid.best_params_ == {"l2": [1e-4, 0.1, 10.0][int(np.argmax(means))]}
    assert grid.best_estimator_.fit_result_.settings.get("l2", grid.best_params_["l2"]) == grid.best_params_["l2"]


def test_the_keywords_are_the_registrys():
    params = BNClassifier().get_params()
    expected = {"structure", "method", "discretise", "bins", "categorical_max_distinct"}
    expected |= {o.name for e in PARAMETER_LEARNERS for o in e.options}
    expected |= {"structure_" + o.name for e in STRUCTURE_LEARNERS for o in e.options}
    assert set(params) == expected
    assert params["l2"] is None and params["ess"] == parameter_learner("mp").defaults()["ess"]
    assert params["max_iter"] is None          # em 100, the gradients 200: each learner keeps its own
    em = parameter_learner("em")
    assert "max_iter" not in learner_options(em, params, "", "method")
    assert em.make(**learner_options(em, params, "", "method")).max_iter == em.defaults()["max_iter"] == 100
    clf = BNClassifier().set_params(l2=0.5, structure_max_parents=2)
    assert clf.get_params()["l2"] == 0.5 and clf.structure_max_parents == 2
    with pytest.raises(ValidationError, match="option 'l2' = 0.5 does not apply to method 'mp'"):
        clf.fit(*_numeric(50, seed=0))
    with pytest.raises(TypeError, match="unexpected keyword argument 'lambda_'"):
        BNClassifier(lambda_=1.0)
    assert set(DEFAULTS) == expected


def test_a_fitted_classifier_pickles():
    X, y = _asia(300, seed=5)
    clf = BNClassifier(structure="hill-climb", method="mp").fit(X, y)
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict_proba(X), clf.predict_proba(X))
    assert list(again.feature_names_in_) == list(X.columns) and again.n_features_in_ == X.shape[1]


def test_missing_and_unseen_values_are_unobserved():
    X, y = _asia(400, seed=6)
    clf = BNClassifier(structure="tan").fit(X, y)
    rows = X.iloc[:5].copy()
    blank = rows.copy()
    blank["xray"] = np.nan
    unseen = rows.copy()
    unseen["xray"] = "blurred"                      # a value fit never saw
    engine = InferenceEngine(clf.network_)
    expected = np.array([engine.posterior(clf.target_, {k: v for k, v in row.items() if k != "xray"})[clf.target_]
                         for _, row in rows.iterrows()])
    np.testing.assert_allclose(clf.predict_proba(blank), expected, atol=1e-12)
    np.testing.assert_allclose(clf.predict_proba(unseen), expected, atol=1e-12)


def test_a_given_structure_is_kept():
    X, y = _asia(400, seed=7)
    truth = read_network(bundled_example("asia.bif"))
    clf = BNClassifier(structure=truth, method="ml").fit(X, y)
    assert clf.target_ == "dysp" and clf.structure_result_ is None   # the class variable is named as y
    assert sorted(clf.network_.arcs()) == sorted(truth.arcs())
    unnamed = BNClassifier(structure=truth, method="ml").fit(X, y.to_numpy())
    assert unnamed.target_ == "class" and ("bronc", "dysp") not in unnamed.network_.arcs()
    assert not unnamed.network_.parents("class")


def test_any_target_of_a_given_network():
    net = read_network(bundled_example("asia.bif"))
    clf = BNClassifier.from_network(net, "lung")
    rows = pd.DataFrame({v: [net.states(v)[0], net.states(v)[-1]] for v in net.variables if v != "lung"})
    engine = InferenceEngine(net)
    expected = np.array([engine.posterior("lung", dict(row))["lung"] for _, row in rows.iterrows()])
    np.testing.assert_allclose(clf.predict_proba(rows), expected, atol=1e-12)
    assert list(clf.classes_) == list(net.states("lung"))
    some = rows[["smoke", "xray"]]                    # any of the variables: the others unobserved
    partial = np.array([engine.posterior("lung", dict(row))["lung"] for _, row in some.iterrows()])
    np.testing.assert_allclose(clf.predict_proba(some), partial, atol=1e-12)
    with pytest.raises(ValidationError, match="column 'lung' is not a variable of the network"):
        clf.predict_proba(rows.assign(lung="yes"))
    with pytest.raises(ValidationError, match="unknown target variable 'nope'"):
        BNClassifier.from_network(net, "nope")


def test_the_transformer_gives_posteriors_as_features():
    net = read_network(bundled_example("asia.bif"))
    X, y = _asia(200, seed=8)
    evidence = X[["smoke", "xray"]]
    step = BNTransformer(net, ["lung", "bronc"]).fit(evidence)
    features = step.transform(evidence)
    engine = InferenceEngine(net)
    for i in (0, 7, 199):
        answer = engine.posterior(["lung", "bronc"], dict(evidence.iloc[i]))
        np.testing.assert_allclose(features[i], np.concatenate([answer["lung"], answer["bronc"]]), atol=1e-12)
    assert list(step.get_feature_names_out()) == [f"{t}={s}" for t in ("lung", "bronc") for s in net.states(t)]
    pipe = make_pipeline(BNTransformer(net, ["lung", "bronc"]), LogisticRegression()).fit(evidence, y)
    assert pipe.score(evidence, y) > 0.5
    with pytest.raises(ValidationError, match="column 'nope' is not a variable"):
        BNTransformer(net).fit(evidence.assign(nope=1))


def test_bad_options_are_one_line_errors():
    X, y = _numeric(60, seed=9)
    for params, message in (({"structure": "forest"}, "unknown structure 'forest'"),
                            ({"method": "svm"}, "unknown method 'svm'"),
                            ({"discretise": "kmeans"}, "unknown discretise 'kmeans'"),
                            ({"method": "clgd", "l2": -1.0}, "l2")):
        with pytest.raises(ValidationError, match=message) as caught:
            BNClassifier(**params).fit(X, y)
        assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="infinity"):
        BNClassifier().fit(np.where(np.arange(60)[:, None] == 3, np.inf, X), y)


def test_nothing_in_the_core_imports_the_scikit_learn_module():
    from tests.test_layers import import_edges

    importers = sorted(file for (file, unit), modules in import_edges().items()
                       if any(m == "bnstudio.sklearn" for m in modules))
    assert importers == []
    code = ("import sys, bnstudio, bnstudio.learn.params, bnstudio.learn.structure, bnstudio.inference, "
            "bnstudio.data, bnstudio.evaluate, bnstudio.experiment, bnstudio.display, bnstudio.cli\n"
            "bnstudio.Network; bnstudio.InferenceEngine\n"
            "print(sorted(m for m in sys.modules if m == 'bnstudio.sklearn' or m.split('.')[0] == 'sklearn'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
