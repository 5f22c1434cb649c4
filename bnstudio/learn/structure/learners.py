"""Structure learners with the parameter learners' shape (docs/architecture.md §2): the constructor stores and
checks the options, ``fit(data, names=None, states=None, target=None, reporter=None)`` (a DataFrame, a Dataset, a
file or codes with their names and states) returns a
:class:`~bnstudio.learn.structure.api.StructureResult` (arcs, score, history, stop reason, a network with fitted
parameters), progress and cancellation go through the one job protocol (:mod:`bnstudio.jobs`).

Each algorithm is one class and one entry of :mod:`bnstudio.learn.registry`, which the command line, the forms
and the study files read; the class's :meth:`~StructureLearner.parent_sets` is its algorithm, and what else differs
between algorithms is the class's too (``default_score``, the ``scores`` it accepts and :meth:`check_score`,
:meth:`default_max_parents`; a search's :meth:`HillClimb.objective` and ``default_start``): nothing dispatches on
its name. Options are attributes of their own names (:class:`~bnstudio.learn.shape.Learner`: ``get_params``,
``set_params``). Data are integer codes (N, V), -1 = missing, one column per name.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> a = rng.integers(0, 2, 500); b = (a ^ (rng.random(500) < 0.1)).astype(int)
>>> result = make_structure_learner("chow-liu").fit(np.column_stack([a, b]), ["A", "B"], [("0", "1")] * 2)
>>> result.arcs, result.stop_reason
([('A', 'B')], 'closed_form')
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from bnstudio.errors import ValidationError
from bnstudio.jobs import Reporter
from bnstudio.learn.registry import STRUCTURE_LEARNERS, document_options, structure_learner
from bnstudio.learn.shape import Learner
from bnstudio.learn.structure import trees
from bnstudio.learn.structure.api import (
    Found,
    SearchSpace,
    StructureResult,
    check_settings,
    closed_form,
    run_algorithm,
    score_search,
)
from bnstudio.learn.structure.bnc import ConditionalObjective, complete_rows
from bnstudio.learn.structure.constraints import Constraints
from bnstudio.learn.structure.hillclimb import DecomposableObjective
from bnstudio.learn.structure.scores import DECOMPOSABLE, DataColumns, ScoreCache, check_score

#: the options checked without data (the others: arcs, tiers and a root, checked against the data's names)
UNCHECKED = ("required", "forbidden", "tiers", "root")


class StructureLearner(Learner):
    """What every structure learner shares: the constraints, the parameters of the returned network and ``fit``.

    ``required`` / ``forbidden`` arcs, ``tiers`` and ``max_parents`` are expert constraints honoured by every
    algorithm (:mod:`.constraints`); ``prior`` chooses ML (None) or mean-posterior parameters with ``ess``.
    """

    kind = "algorithm"
    algorithm = ""
    #: the score used when none is given (for a closed form: the value it reports)
    default_score = "ll"
    #: the scores it accepts
    scores: tuple[str, ...] = DECOMPOSABLE

    def __init__(self, score: str | None = None, ess: float = 1.0, max_parents: int | None = None,
                 required: Iterable = (), forbidden: Iterable = (), tiers: Sequence[Sequence[str]] | None = None,
                 prior: str | None = None) -> None:
        self.required = required if isinstance(required, list) else list(required)
        self.forbidden = forbidden if isinstance(forbidden, list) else list(forbidden)
        self.tiers = tiers
        self._set(score=score, ess=ess, max_parents=max_parents, prior=prior)

    def _set(self, **options: Any) -> None:
        """Check ``options`` with those already set (one-line ValidationError naming the option) and keep each
        as an attribute, checked (``ess`` a float, counts ints; ``score`` None stays None: the default)."""
        given = {**{k: v for k, v in vars(self).items() if k in self.option_names()}, **options}
        checked = check_settings(type(self), **{k: v for k, v in given.items() if k not in UNCHECKED})
        for key, value in options.items():
            setattr(self, key, checked[key] if key in checked and key != "score" else value)

    @property
    def name(self) -> str:  # type: ignore[override]  # read-only: the registry name is the algorithm
        return self.algorithm

    @classmethod
    def check_score(cls, score: str, ess: float, max_parents: int | None) -> None:
        """Refuse a ``score`` this learner does not take (or, for a decomposable score, a bad ``ess``)."""
        if score not in cls.scores:
            raise ValidationError(f"unknown score {score!r} for {cls.algorithm}; use one of {', '.join(cls.scores)}")
        if score in DECOMPOSABLE:
            check_score(score, ess)

    def default_max_parents(self, score: str, cons: Constraints) -> int | None:
        """The parent limit when ``max_parents`` is not given (None: no limit)."""
        return None

    def fit(self, data: Any, names: Sequence[str] | None = None, states: Sequence[Sequence[str]] | None = None,
            *, target: str | None = None, reporter: Reporter | None = None, name: str = "learned"
            ) -> StructureResult:
        """Learn a DAG and fit its parameters (ML, or mean posterior with ``prior``).

        Parameters
        ----------
        data : DataFrame, Dataset, path of a table file, or integer codes (N, V)
            A table's columns are the variables, by name (:func:`bnstudio.data.tables.table_columns`); codes
            (-1 = missing) need ``names`` and ``states``, one per column, in column order.
        names : list of str, optional
            The variables, one per column of codes (with codes only).
        states : list of lists of str, optional
            The ordered state names of each variable (with codes only).
        target : str, optional
            The class variable (required by the classifiers nb, tan, kdb, bnc).
        reporter : optional
            Progress (:mod:`bnstudio.jobs`): one iteration per move of a search; a stop request raises Cancelled.
        name : str
            The returned network's name.

        Returns
        -------
        StructureResult
            The arcs, the score, the history, the stop reason and the network with fitted parameters.
        """
        return run_algorithm(self, data, names, states, target=target, reporter=reporter, name=name,
                             **self.get_params())

    def parent_sets(self, space: SearchSpace) -> Found:
        """The algorithm: a parent set per variable from the data and constraints of ``space`` (checked options
        in ``space.options``), e.g. ``closed_form(space, parents)`` or ``score_search(space)``."""
        raise NotImplementedError(f"{type(self).__name__} defines no parent_sets(space): the algorithm itself")


class NaiveBayes(StructureLearner):
    """``nb``: the class is the only parent of every attribute (Friedman, Geiger & Goldszmidt 1997 §2)."""

    algorithm = "nb"

    def parent_sets(self, space: SearchSpace) -> Found:
        return closed_form(space, trees.naive_bayes(space.data, space.cons, space.need_target()))


class _Tree(StructureLearner):
    """A spanning-tree learner: the tree is directed away from ``root`` (default: the first variable)."""

    def __init__(self, score: str | None = None, ess: float = 1.0, max_parents: int | None = None,
                 required: Iterable = (), forbidden: Iterable = (), tiers: Sequence[Sequence[str]] | None = None,
                 prior: str | None = None, root: str | None = None) -> None:
        super().__init__(score, ess, max_parents, required, forbidden, tiers, prior)
        self._set(root=root)


class TreeAugmented(_Tree):
    """``tan``: naive Bayes plus a maximum-weight spanning tree over the attributes, weighted by the mutual
    information given the class (score ll) or a penalised score (Friedman, Geiger & Goldszmidt 1997 §3)."""

    algorithm = "tan"

    def parent_sets(self, space: SearchSpace) -> Found:
        o = space.options
        return closed_form(space, trees.tan(space.data, space.cons, space.need_target(), o["score"], o["ess"],
                                            space.root))


class ChowLiu(_Tree):
    """``chow-liu``: the maximum-weight spanning tree, weighted by the mutual information (score ll) or a
    penalised score (Chow & Liu 1968)."""

    algorithm = "chow-liu"

    def parent_sets(self, space: SearchSpace) -> Found:
        o = space.options
        return closed_form(space, trees.chow_liu(space.data, space.cons, o["score"], o["ess"], space.root))


class KDependence(StructureLearner):
    """``kdb``: the class and up to ``k`` attribute parents per attribute, by conditional mutual information
    (Sahami 1996)."""

    algorithm = "kdb"

    def __init__(self, score: str | None = None, ess: float = 1.0, max_parents: int | None = None,
                 required: Iterable = (), forbidden: Iterable = (), tiers: Sequence[Sequence[str]] | None = None,
                 prior: str | None = None, k: int = 1) -> None:
        super().__init__(score, ess, max_parents, required, forbidden, tiers, prior)
        self._set(k=k)

    def parent_sets(self, space: SearchSpace) -> Found:
        return closed_form(space, trees.kdb(space.data, space.cons, space.need_target(), int(space.options["k"])))


class HillClimb(StructureLearner):
    """``hill-climb``: greedy add / delete / reverse moves on a decomposable score, with tabu patience, random
    restarts of ``perturb`` random moves and at most ``max_iter`` moves (:mod:`.hillclimb`); ``seed`` fixes the
    restarts. Stops ``converged`` (no improving move) or at ``max_iter``."""

    algorithm = "hill-climb"
    default_score = "bic"
    #: where the climb starts when ``start`` is not given: the Chow-Liu tree (the tutorial's "best tree" start)
    default_start = "tree"

    def __init__(self, score: str | None = None, ess: float = 1.0, max_parents: int | None = None,
                 required: Iterable = (), forbidden: Iterable = (), tiers: Sequence[Sequence[str]] | None = None,
                 prior: str | None = None, start: Any = None, tabu: int = 0, restarts: int = 0,
                 perturb: int | None = None, seed: int | None = None, max_iter: int | None = None) -> None:
        super().__init__(score, ess, max_parents, required, forbidden, tiers, prior)
        self._set(start=start, tabu=tabu, restarts=restarts, perturb=perturb, seed=seed, max_iter=max_iter)

    @classmethod
    def check_score(cls, score: str, ess: float, max_parents: int | None) -> None:
        super().check_score(score, ess, max_parents)
        if score == "ll" and max_parents is None:
            raise ValidationError("the 'll' score always favours more arcs: give max_parents with it")

    def objective(self, space: SearchSpace) -> Any:
        """What the climb maximises: the decomposable score of the options (:mod:`.hillclimb`)."""
        o = space.options
        return DecomposableObjective(ScoreCache(space.data, space.data.cards, o["score"], o["ess"]))

    def parent_sets(self, space: SearchSpace) -> Found:
        return score_search(space, self.objective(space), self.default_start)


class ConditionalSearch(HillClimb):
    """``bnc``: the same search on the conditional log-likelihood of the class (Grossman & Domingos 2004),
    BNC-kP (score cll, ``max_parents`` default 2) or BNC-MDL (cll-mdl)."""

    algorithm = "bnc"
    default_score = "cll"
    scores = ("cll", "cll-mdl")
    default_start = "empty"           # as Grossman & Domingos

    @classmethod
    def check_score(cls, score: str, ess: float, max_parents: int | None) -> None:
        if score not in cls.scores:
            raise ValidationError(f"{cls.algorithm} scores with 'cll' (BNC-kP) or 'cll-mdl' (BNC-MDL), not "
                                  f"{score!r}")

    def default_max_parents(self, score: str, cons: Constraints) -> int | None:
        """BNC-2P with the cll score: two parents, unless more are required."""
        return max([2] + [len(p) for p in cons.required_parents()]) if score == "cll" else None

    def objective(self, space: SearchSpace) -> Any:
        """The class's conditional log-likelihood on the complete rows, MDL-penalised for cll-mdl (:mod:`.bnc`)."""
        complete = DataColumns(complete_rows(space.codes), space.data.cards)
        return ConditionalObjective(complete, space.need_target(), mdl=space.options["score"] == "cll-mdl")


def make_structure_learner(algorithm: str, **options: Any) -> StructureLearner:
    """The structure learner for ``algorithm`` with its options, as its registry entry describes it.

    Unknown algorithms and options, and option values out of range, raise a one-line ValidationError naming them.
    """
    return structure_learner(algorithm).make(**options)


document_options(STRUCTURE_LEARNERS)     # help(HillClimb) lists its options, as the registry describes them
