"""Bayesian-network classifiers as scikit-learn estimators: ``Pipeline``, ``cross_val_score``, ``GridSearchCV``.

:class:`BNClassifier` learns a structure (:func:`~bnstudio.learn.structure.make_structure_learner`) and its
parameters (:func:`~bnstudio.learn.params.make_learner`) from a table and a class column, and predicts
p(class | row) with the exact engine (:meth:`~bnstudio.inference.InferenceEngine.posterior_batch`). Its
keywords are the learner registry's (:mod:`bnstudio.learn.registry`, docs/architecture.md §4): every parameter
learner's option under its own name (``l2``, ``ess``, ``prior``, ...) and every structure learner's option
with the prefix ``structure_`` (``structure_score``, ``structure_max_parents``, ``structure_k``, ...); a
default shared by every learner taking the option is the signature's default, and None where the learners'
defaults differ (``max_iter``: em 100, the gradients 200) means "the learner's own". An option the chosen
learner does not take must stay at its default (a one-line ValidationError otherwise).

Rows are coded as the rest of BN Studio codes tables (:func:`bnstudio.data.read.from_frame`): a DataFrame's
columns are the variables by name (a bare array's are ``x0``, ``x1``, ...); numeric columns other than
few-valued integer ones (:func:`bnstudio.data.columns_to_cut`) are cut by ``discretise`` on the training rows
only, inside ``fit`` (docs/architecture.md §3.26), and new rows are cut at the same points; NaN/None cells
are unobserved, and a value ``fit`` never saw is unobserved too (as scikit-learn's ``handle_unknown="ignore"``).

:meth:`BNClassifier.from_network` makes a fitted classifier for any variable of a given network, and
:class:`BNTransformer` turns rows into the posteriors of chosen targets (a feature step of a pipeline).

scikit-learn is an optional dependency (the ``sklearn`` extra); nothing in the core imports this module.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 2, 300); X = np.column_stack([y + rng.normal(0, 0.5, 300), rng.normal(0, 1, 300)])
>>> clf = BNClassifier(structure="tan", method="clgd", l2=0.01).fit(X, y)
>>> clf.classes_.tolist(), clf.predict_proba(X[:2]).shape, clf.score(X, y) > 0.8
([0, 1], (2, 2), True)
"""
from __future__ import annotations

import inspect
from typing import Any, Sequence

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    assert_all_finite,
    check_array,
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
    validate_data,
)

from bnstudio.core.network import Network, build_network
from bnstudio.data.discretise import Discretiser, columns_to_cut, discretise_frame
from bnstudio.data.states import label_text
from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.learn.params import make_learner
from bnstudio.learn.registry import (
    ALGORITHMS,
    METHODS,
    PARAMETER_LEARNERS,
    STRUCTURE_LEARNERS,
    LearnerEntry,
    parameter_learner,
    structure_learner,
)

#: ``discretise``: how numeric columns are cut (the study files' names, :mod:`bnstudio.experiment.spec`)
DISCRETISATIONS = ("mdl", "equal-width", "equal-frequency")
#: the keyword prefix of the structure learner's options
STRUCTURE_PREFIX = "structure_"
#: the classifier's own keywords and defaults (the learners' options follow, :func:`registry_defaults`)
OWN_DEFAULTS: dict[str, Any] = {"structure": "nb", "method": "mp", "discretise": "mdl", "bins": 3,
                                "categorical_max_distinct": 10}


def registry_defaults(entries: Sequence[LearnerEntry], prefix: str = "") -> dict[str, Any]:
    """``{prefix + option: default}`` over ``entries``, in registry order: the learners' common default, or None
    where their defaults differ (then None means each learner's own)."""
    seen: dict[str, list[Any]] = {}
    for entry in entries:
        for name, value in entry.defaults().items():
            seen.setdefault(name, []).append(value)
    return {prefix + name: values[0] if all(_same(v, values[0]) for v in values) else None
            for name, values in seen.items()}


def _same(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and not isinstance(a, Network) and bool(a == b))


#: every keyword of :class:`BNClassifier` with its default: its own, the parameter learners', the structure ones'
DEFAULTS: dict[str, Any] = {**OWN_DEFAULTS, **registry_defaults(PARAMETER_LEARNERS),
                            **registry_defaults(STRUCTURE_LEARNERS, STRUCTURE_PREFIX)}


def learner_options(entry: LearnerEntry, params: dict[str, Any], prefix: str, kind: str) -> dict[str, Any]:
    """The keywords to build ``entry`` with from the classifier's ``params``: its options as set (None for an
    option whose learners disagree on a default: the learner's own), and a ValidationError naming an option set
    away from its default that ``entry`` does not take."""
    own = entry.defaults()
    out = {}
    for key, default in DEFAULTS.items():
        if not key.startswith(prefix) or key in OWN_DEFAULTS:
            continue
        name, value = key[len(prefix):], params[key]
        if name in own:
            if not (value is None and default is None and own[name] is not None):
                out[name] = value
        elif not _same(value, default):
            raise ValidationError(f"option '{key}' = {value!r} does not apply to {kind} '{entry.name}'; its "
                                  f"options: {', '.join(prefix + o for o in entry.option_names) or 'none'}")
    return out


def _signature() -> inspect.Signature:
    self = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return inspect.Signature([self] + [inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=value)
                                       for key, value in DEFAULTS.items()])


class BNClassifier(ClassifierMixin, BaseEstimator):
    """A Bayesian-network classifier: ``structure`` (a structure algorithm of the registry, or a Network whose
    arcs are kept) learnt around the class, parameters by ``method``, p(class | row) by exact inference.

    Parameters
    ----------
    structure : str or Network, default "nb"
        One of :data:`bnstudio.learn.registry.ALGORITHMS` (nb, tan, kdb, chow-liu, hill-climb, bnc), or a
        network whose variables include the columns and the class: its arcs are kept, structure learning skipped.
    method : str, default "mp"
        A parameter learner of :data:`bnstudio.learn.registry.METHODS` (ml, mp, em, lgd, clgd, wanbia, bagged-mp).
    discretise : {"mdl", "equal-width", "equal-frequency"} or None, default "mdl"
        How numeric columns are cut, on the training rows only (Fayyad & Irani 1993 for mdl); None: every
        column is categorical as it is.
    bins : int, default 3
        Intervals of the equal-width and equal-frequency cuts.
    categorical_max_distinct : int, default 10
        A numeric column of whole numbers with at most this many values stays categorical (0: always cut).
    **options
        The registry's options: a parameter learner's by name (``l2``, ``ess``, ``max_iter``, ...), a structure
        learner's prefixed ``structure_`` (``structure_max_parents``, ...); see the module docstring.

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_, feature_names_in_ :
        scikit-learn's (``feature_names_in_`` only for a table with string column names).
    network_ : Network
        The fitted network; the class variable is ``target_``, the columns ``variables_``.
    structure_result_, fit_result_ :
        The structure learner's :class:`~bnstudio.learn.structure.StructureResult` (None for a given
        structure) and the parameter learner's :class:`~bnstudio.learn.params.FitResult`.
    cuts_ : dict
        The :class:`~bnstudio.data.Discretiser` of every cut column.
    """

    def __init__(self, **params: Any) -> None:
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise TypeError(f"BNClassifier got an unexpected keyword argument '{unknown[0]}'")
        for key, default in DEFAULTS.items():
            setattr(self, key, params.get(key, default))

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True       # a missing cell is an unobserved variable
        tags.input_tags.string = True          # categorical columns hold state names
        tags.input_tags.categorical = True
        return tags

    # -- fitting ---------------------------------------------------------------------------------------------------
    def fit(self, X: Any, y: Any) -> "BNClassifier":
        """Learn the structure and parameters from the rows ``X`` (table or array) and their classes ``y``."""
        if y is None:
            raise ValueError("BNClassifier requires y to be passed, but the target y is None")
        frame = self._frame(X, reset=True)
        name = getattr(y, "name", None)
        y = column_or_1d(y, warn=True)
        if y.dtype.kind in "fc":
            assert_all_finite(y, input_name="y")
        check_consistent_length(frame, y)
        check_classification_targets(y)
        self.classes_, classes = np.unique(y, return_inverse=True)
        self.variables_ = [str(c) for c in frame.columns]
        self.target_ = name if isinstance(name, str) and name not in self.variables_ else \
            _free_name("class", self.variables_)
        method = self._method_entry()
        cut, self.cuts_ = self._cut_training(frame, classes)
        codes, states = _coded(cut)
        self.states_ = states
        class_states = _class_states(self.classes_)
        names = self.variables_ + [self.target_]
        all_codes = np.column_stack([codes, classes.astype(np.int64)])
        all_states = states + [class_states]
        net, self.structure_result_ = self._structure(all_codes, names, all_states)
        order = [names.index(v) for v in net.variables]
        learner = make_learner(method.name, **learner_options(method, self.get_params(), "", "method"))
        self.fit_result_ = learner.fit(net, np.ascontiguousarray(all_codes[:, order]), target=self.target_)
        self.network_ = self.fit_result_.network(net)
        self.n_iter_ = max(1, self.fit_result_.n_iterations)
        return self

    def _method_entry(self) -> LearnerEntry:
        if self.method not in METHODS:
            raise ValidationError(f"unknown method {self.method!r}; use one of {', '.join(METHODS)}")
        return parameter_learner(self.method)

    def _structure(self, codes: np.ndarray, names: list[str], states: list[tuple[str, ...]]
                   ) -> tuple[Network, Any]:
        """The DAG over ``names`` (with ML parameters): learnt by ``structure``, or a given network's arcs."""
        from bnstudio.learn.structure import make_structure_learner

        if isinstance(self.structure, Network):
            missing = [n for n in names if n != self.target_ and n not in self.structure.variables]
            if missing:
                raise ValidationError(f"column '{missing[0]}' is not a variable of the structure network")
            kept = set(names)
            parents = {v: [p for p in self.structure.parents(v) if p in kept] if v in self.structure.variables
                       else [] for v in names}
            families = [(v, list(s), parents[v], None) for v, s in zip(names, states, strict=True)]
            return build_network(families, name="classifier"), None
        if self.structure not in ALGORITHMS:
            raise ValidationError(f"unknown structure {self.structure!r}; use one of {', '.join(ALGORITHMS)} "
                                  "or a Network")
        entry = structure_learner(self.structure)
        options = learner_options(entry, self.get_params(), STRUCTURE_PREFIX, "structure")
        result = make_structure_learner(entry.name, **options).fit(codes, names, states, target=self.target_,
                                                                   name="classifier")
        return result.network, result

    def _cut_training(self, frame: Any, classes: np.ndarray) -> tuple[Any, dict[str, Discretiser]]:
        """``frame`` with its numeric columns cut at points learnt on these rows (mdl: with their classes)."""
        if self.discretise is None:
            return frame, {}
        if self.discretise not in DISCRETISATIONS:
            raise ValidationError(f"unknown discretise {self.discretise!r}; use one of "
                                  f"{', '.join(DISCRETISATIONS)} or None")
        columns = columns_to_cut(frame, categorical_max_distinct=self.categorical_max_distinct)
        if not columns:
            return frame, {}
        method: Any = "mdl" if self.discretise == "mdl" else (self.discretise.replace("-", "_"), self.bins)
        with_class = frame.assign(**{self.target_: classes})
        cut, fitted = discretise_frame(with_class, dict.fromkeys(columns, method), class_column=self.target_)
        return cut.drop(columns=[self.target_]), fitted

    # -- predicting --------------------------------------------------------------------------------------------------
    def predict_proba(self, X: Any) -> np.ndarray:
        """p(class | row) for each row, (N, ``len(classes_)``): exact inference, unobserved cells summed out."""
        check_is_fitted(self)
        if getattr(self, "any_columns_", False):
            X = _all_columns(X, self.variables_)
        frame = self._frame(X, reset=False)
        cut, _ = discretise_frame(frame, self.cuts_) if self.cuts_ else (frame, {})
        codes = _recoded(cut, self.states_)
        engine = InferenceEngine(self.network_)
        return engine.posterior_batch(self.target_, codes, columns=self.variables_)[self.target_]

    def predict(self, X: Any) -> np.ndarray:
        """The most probable class of each row (the first in ``classes_`` order on a tie)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    # -- a given network -------------------------------------------------------------------------------------------------
    @classmethod
    def from_network(cls, net: Network, target: str) -> "BNClassifier":
        """A fitted classifier predicting ``target`` from the other variables of ``net`` as it is (no training):
        columns by variable name, cells by state name; ``classes_`` are ``target``'s states. A DataFrame may
        hold any of the variables (``any_columns_``): those it lacks are unobserved. Refitting it (a clone in
        ``cross_val_score``) learns parameters for ``net``'s structure."""
        if target not in net.variables:
            raise ValidationError(f"unknown target variable '{target}'")
        clf = cls(structure=net, discretise=None)
        clf.variables_ = [v for v in net.variables if v != target]
        clf.target_ = target
        clf.classes_ = np.array(net.states(target), dtype=object)
        clf.states_ = [tuple(net.states(v)) for v in clf.variables_]
        clf.cuts_, clf.structure_result_, clf.fit_result_ = {}, None, None
        clf.network_ = net
        clf.any_columns_ = True
        clf.n_features_in_ = len(clf.variables_)
        clf.feature_names_in_ = np.array(clf.variables_, dtype=object)
        return clf

    # -- tables --------------------------------------------------------------------------------------------------------
    def _frame(self, X: Any, reset: bool) -> Any:
        return as_frame(self, X, reset)


def _all_columns(X: Any, variables: list[str]) -> Any:
    """A DataFrame ``X`` with every one of ``variables`` as a column (those it lacks all unobserved); a column
    that is not one of them is refused naming it."""
    import pandas as pd

    if not isinstance(X, pd.DataFrame):
        return X
    unknown = [c for c in X.columns if c not in variables]
    if unknown:
        raise ValidationError(f"column '{unknown[0]}' is not a variable of the network (or is the target)")
    return X.reindex(columns=variables)


def _free_name(name: str, taken: Sequence[str]) -> str:
    while name in taken:
        name += "_"
    return name


def _class_states(classes: np.ndarray) -> tuple[str, ...]:
    """The class variable's state names: the labels' text (:func:`~bnstudio.data.states.label_text`), or
    ``class 0``, ``class 1``, ... when two labels read the same."""
    names = tuple(label_text(c) for c in classes)
    return names if len(set(names)) == len(names) else tuple(f"class {k}" for k in range(len(names)))


def as_frame(estimator: BaseEstimator, X: Any, reset: bool) -> Any:
    """``X`` as a DataFrame whose columns are named as in ``fit`` (a bare array's ``x0``, ``x1``, ...), after
    scikit-learn's checks of the number and names of the columns (``reset``: this is ``fit``); columns of
    numbers held as objects become numbers, and an infinite value is refused naming its column."""
    import pandas as pd

    if isinstance(X, pd.DataFrame):
        if X.shape[0] == 0 or X.shape[1] == 0:
            raise ValueError(f"Found array with {X.shape[0]} sample(s) and {X.shape[1]} feature(s) (shape="
                             f"{X.shape}) while a minimum of 1 is required.")
        validate_data(estimator, X, reset=reset, skip_check_array=True)
        names = [str(c) for c in X.columns] if all(isinstance(c, str) for c in X.columns) else None
        frame = X.reset_index(drop=True)
    else:
        array = check_array(X, dtype=None, ensure_all_finite="allow-nan")
        validate_data(estimator, array, reset=reset, skip_check_array=True)
        frame, names = pd.DataFrame(array), None
    frame.columns = names or [f"x{j}" for j in range(frame.shape[1])]
    return _numbers(frame)


def _numbers(frame: Any) -> Any:
    """``frame`` with object columns holding only numbers as float columns; inf refused (one line)."""
    import pandas as pd

    out = frame.copy()
    for column in out.columns:
        series = out[column]
        if series.dtype == object and pd.api.types.infer_dtype(series, skipna=True) in ("integer", "floating",
                                                                                        "mixed-integer-float"):
            out[column] = series = pd.to_numeric(series)
        if pd.api.types.is_float_dtype(series) and np.isinf(series.to_numpy(dtype=float)).any():
            row = int(np.flatnonzero(np.isinf(series.to_numpy(dtype=float)))[0])
            raise ValidationError(f"column '{column}' holds an infinite value (row {row + 1}); input contains "
                                  "infinity")
    return out


def _coded(frame: Any) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    """(codes (N, V), states per column) of a table, coded as BN Studio codes every table."""
    from bnstudio.data.read import from_frame

    table = from_frame(frame, require_observed=False)
    return np.asarray(table.codes, dtype=np.int64), [tuple(s) for s in table.states]


def _recoded(frame: Any, states: Sequence[tuple[str, ...]]) -> np.ndarray:
    """Codes of ``frame`` in the given ``states`` of each column, matched by state name; a value outside them is
    unobserved (-1)."""
    codes, found = _coded(frame)
    out = np.empty_like(codes)
    for j, (known, seen) in enumerate(zip(states, found, strict=True)):
        index = {s: k for k, s in enumerate(known)}
        lookup = np.array([index.get(s, -1) for s in seen] + [-1], dtype=np.int64)
        out[:, j] = lookup[codes[:, j]]
    return out


BNClassifier.__init__.__signature__ = _signature()   # type: ignore[attr-defined]  # what get_params reads


class BNTransformer(TransformerMixin, BaseEstimator):
    """The posteriors p(T | row) of ``targets`` of a given ``network``, as features (e.g. before a linear model).

    ``transform(X)`` takes a table whose columns are variables of the network (matched by name; state names or
    codes, NaN = unobserved: :mod:`bnstudio.inference.cases`) and returns (N, Σ|T|) probabilities, the columns
    named ``T=state`` by :meth:`get_feature_names_out`. ``fit`` learns nothing (the network is given); it records
    the columns. ``targets`` None: every variable of the network that is not a column.
    """

    def __init__(self, network: Network | None = None, targets: Sequence[str] | None = None) -> None:
        self.network = network
        self.targets = targets

    def fit(self, X: Any, y: Any = None) -> "BNTransformer":
        """Check the network and the columns of ``X`` (a DataFrame, columns named as the variables)."""
        import pandas as pd

        if not isinstance(self.network, Network):
            raise ValidationError("BNTransformer needs a network (network=...)")
        if not isinstance(X, pd.DataFrame):
            raise ValidationError("BNTransformer reads a DataFrame whose columns are variables of the network")
        validate_data(self, X, reset=True, skip_check_array=True)
        unknown = [c for c in X.columns if c not in self.network.variables]
        if unknown:
            raise ValidationError(f"column '{unknown[0]}' is not a variable of the network")
        targets = self.targets if self.targets is not None else [v for v in self.network.variables
                                                                  if v not in set(X.columns)]
        bad = [t for t in targets if t not in self.network.variables]
        if bad or not targets:
            raise ValidationError(f"unknown target variable '{bad[0]}'" if bad else "no target variable left")
        self.targets_ = list(targets)
        return self

    def transform(self, X: Any) -> np.ndarray:
        """(N, Σ|T|): p(T = t | row) for each target T and state t, targets in ``targets_`` order."""
        check_is_fitted(self)
        assert isinstance(self.network, Network)     # fit checked it
        validate_data(self, X, reset=False, skip_check_array=True)
        posteriors = InferenceEngine(self.network).posterior_batch(self.targets_, X)
        return np.hstack([posteriors[t] for t in self.targets_])

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """``T=state`` for each column of :meth:`transform`."""
        check_is_fitted(self)
        assert isinstance(self.network, Network)
        return np.array([f"{t}={s}" for t in self.targets_ for s in self.network.states(t)], dtype=object)


__all__ = ["BNClassifier", "BNTransformer", "DEFAULTS", "DISCRETISATIONS", "learner_options", "registry_defaults"]
