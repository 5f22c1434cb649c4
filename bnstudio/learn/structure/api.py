"""``learn_structure``: one entry point for every structure learner, returning a ready-to-query network.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> a = rng.integers(0, 2, 500); b = (a ^ (rng.random(500) < 0.1)).astype(int)
>>> res = learn_structure("chow-liu", np.column_stack([a, b]), ["A", "B"], [("0", "1"), ("0", "1")])
>>> res.arcs, res.network.parents("B")
([('A', 'B')], ('A',))
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np

from bnstudio import hooks
from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network, build_network
from bnstudio.errors import ValidationError
from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.bounds import MAX_RESTARTS
from bnstudio.learn.params.checks import MAX_ITER, check_ess, check_integer, check_seed
from bnstudio.learn.params.counting import prior_counts
from bnstudio.learn.params.floor import floor_rows
from bnstudio.learn.registry import ALGORITHMS, STRUCTURE_LEARNERS, structure_learner  # noqa: F401 (re-exported)
from bnstudio.learn.structure import trees
from bnstudio.learn.structure.constraints import Constraints, parse_arc
from bnstudio.learn.structure.hillclimb import DecomposableObjective, HillClimber
from bnstudio.learn.structure.scores import DECOMPOSABLE, DataColumns, ScoreCache

if TYPE_CHECKING:
    from bnstudio.learn.structure.learners import StructureLearner
MAX_CPT_CELLS = 50_000_000


@dataclass
class StructureResult:
    """A learned structure: the arcs (parent, child) by name, its score, the search history, the time and a
    network with that DAG and ML (or mean-posterior) parameters, ready to query."""

    algorithm: str
    arcs: list[tuple[str, str]]
    score: float
    history: list[dict[str, Any]]
    seconds: float
    network: Network
    score_name: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    stop_reason: str = "closed_form"   # the trees; a search: converged or max_iter (its move limit)

    def __repr__(self) -> str:
        """The run in one line: algorithm, stop reason, iterations, time, the score and the number of arcs."""
        return (f"StructureResult({self.algorithm!r}, {self.stop_reason}, {len(self.arcs)} arc"
                f"{'s' if len(self.arcs) != 1 else ''}, {self.score_name or 'score'}={self.score:.6g}, "
                f"{len(self.history)} step{'s' if len(self.history) != 1 else ''} in {self.seconds:.3g} s)")

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-safe data (what ``bnstudio learn --json`` prints)."""
        return {"algorithm": self.algorithm, "arcs": [list(a) for a in self.arcs], "score": self.score,
                "history": self.history, "seconds": self.seconds, "stop_reason": self.stop_reason}


def _check_data(codes: np.ndarray, names: Sequence[str], states: Sequence[Sequence[str]]) -> np.ndarray:
    codes = np.asarray(getattr(codes, "codes", codes))
    if codes.ndim != 2 or codes.shape[1] != len(names) or len(states) != len(names):
        raise ValidationError(f"data must be (rows, {len(names)}) codes with one state list per variable, "
                              f"got shape {codes.shape} and {len(states)} state lists")
    if codes.shape[0] == 0 or not np.issubdtype(codes.dtype, np.integer):
        raise ValidationError("data must be a non-empty table of integer state codes (-1 = missing)")
    if codes.size and codes.max() < 0:
        raise ValidationError(f"every cell of the data is missing ({codes.shape[0]} rows): nothing to learn from")
    if len(set(names)) != len(names):
        raise ValidationError("variable names must be distinct")
    unseen = [n for n, seen in zip(names, codes.max(axis=0) >= 0, strict=True) if not seen]
    if unseen:
        more = f" and {len(unseen) - 5} more" if len(unseen) > 5 else ""
        raise ValidationError(f"no observed value for {', '.join(map(repr, unseen[:5]))}{more}: the data say "
                              "nothing about their arcs (leave those columns out)")
    cards = np.array([len(s) for s in states])
    if np.any(codes.min(axis=0) < -1) or np.any(codes.max(axis=0) >= cards):   # no table-sized mask unless bad
        row, col = np.argwhere((codes < -1) | (codes >= cards[None, :]))[0]
        raise ValidationError(f"code {codes[row, col]} out of range for '{names[col]}' in row {row}")
    return codes                      # any integer type: DataColumns keeps its own narrow copy


def _check_target(target: str | None, names: Sequence[str]) -> None:
    """A given target must be a variable (a learner that needs one asks ``SearchSpace.need_target``)."""
    if target is not None and target not in names:
        raise ValidationError(f"unknown target variable '{target}'")


def default_score(algorithm: str) -> str:
    """The score ``algorithm`` uses when none is given: its class's ``default_score`` (:mod:`.learners`)."""
    learner: Any = structure_learner(algorithm).learner_class()  # a class of .learners (the registry says `type`)
    return str(learner.default_score)


def check_settings(learner: "type[StructureLearner]", score: str | None = None, ess: float = 1.0,
                   max_parents: int | None = None, start: Any = None, prior: str | None = None, tabu: int = 0,
                   restarts: int = 0, k: int = 1, seed: int | None = None, perturb: int | None = None,
                   max_iter: int | None = None) -> dict[str, Any]:
    """The options of the structure learner class ``learner`` that can be checked without data, checked
    (one-line ValidationError naming the option); returns them with the learner's default score filled in.
    What differs between learners is the class's (``default_score``, :meth:`check_score`); nothing here
    dispatches on the algorithm's name."""
    score = learner.default_score if score is None else score
    learner.check_score(score, ess, max_parents)
    if start is not None and "start" not in learner.option_names():
        taking = ", ".join(e.name for e in STRUCTURE_LEARNERS if "start" in e.option_names)
        raise ValidationError(f"a start network applies to {taking}, not {learner.algorithm}")
    if prior not in (None, "laplace", "bdeu"):
        raise ValidationError(f"unknown prior {prior!r}; use 'laplace' or 'bdeu' (or none for ML parameters)")
    if perturb is not None:
        check_integer("perturb", perturb, low=1, high=MAX_ITER)
    if max_parents is not None:
        check_integer("max_parents", max_parents, low=0)
    if max_iter is not None:
        check_integer("max_iter", max_iter, low=0, high=MAX_ITER)   # 0: keep the start structure
    return {"score": score, "ess": check_ess(ess), "max_parents": max_parents, "start": start, "prior": prior,
            "tabu": check_integer("tabu", tabu, low=0, high=MAX_ITER),
            "restarts": check_integer("restarts", restarts, low=0, high=MAX_RESTARTS),
            "k": check_integer("k", k, low=0), "seed": check_seed(seed), "perturb": perturb, "max_iter": max_iter}


def _start_parents(start: Any, names: list[str], data: DataColumns, cons: Constraints, score: str, ess: float,
                   target: int | None) -> list[frozenset[int]]:
    """Parent sets to start from: empty, 'tree' (Chow-Liu), 'nb', a Network or (parent, child) arcs."""
    index = {n: i for i, n in enumerate(names)}
    if start is None or (isinstance(start, str) and start == "empty"):
        parents: list[set[int]] = [set() for _ in names]
    elif isinstance(start, str) and start == "tree":
        tree_score = score if score in DECOMPOSABLE else "ll"
        parents = [set(p) for p in trees.chow_liu(data, cons, tree_score, ess)]
    elif isinstance(start, str) and start == "nb":
        if target is None:
            raise ValidationError("start 'nb' needs a target variable")
        parents = [set(p) for p in trees.naive_bayes(data, cons, target)]
    elif isinstance(start, str):
        raise ValidationError(f"unknown start {start!r}; use 'empty', 'tree', 'nb', a network or a list of arcs")
    else:
        arcs = start.arcs() if isinstance(start, Network) else [parse_arc(a) if isinstance(a, str) else tuple(a)
                                                                 for a in start]
        parents = [set() for _ in names]
        for p, c in arcs:
            for n in (p, c):
                if n not in index:
                    raise ValidationError(f"start network variable '{n}' is not in the data")
            parents[index[c]].add(index[p])
    cons.check_structure(parents)
    return [frozenset(p) for p in cons.with_required(parents)]


def _network(names: list[str], states: Sequence[Sequence[str]], parents: list[frozenset[int]], data: DataColumns,
             prior: str | None, ess: float, name: str) -> Network:
    """The learned DAG with ML parameters (rows with the family observed; unseen rows uniform) or, with
    ``prior`` ('laplace' / 'bdeu'), mean-posterior parameters keeping the posterior counts as ``alpha``; either
    floored at 1e-9 like the parameter learners (:func:`~bnstudio.learn.params.floor.floor_rows`)."""
    cards = [len(s) for s in states]
    for j, v in enumerate(names):
        cells = int(np.prod([cards[i] for i in parents[j]] + [cards[j]], dtype=float))
        if cells > MAX_CPT_CELLS:
            raise ValidationError(f"the learned CPT of '{v}' would have {cells:.3g} cells ({len(parents[j])} "
                                  f"parents); limit the parents with max_parents")
    families = [(v, list(states[j]), [names[i] for i in sorted(parents[j])], None) for j, v in enumerate(names)]
    net = build_network(families, name=name)
    cache = ScoreCache(data, data.cards, "ll")
    counts = {v: cache.counts(j, tuple(sorted(parents[j]))) for j, v in enumerate(names)}
    if prior is None:
        net.set_parameters({v: floor_rows(normalise_rows(c)) for v, c in counts.items()})
        return net
    pseudo = prior_counts(net, prior, ess)
    alpha = {v: pseudo[v] + counts[v] for v in names}
    net.set_parameters({v: floor_rows(normalise_rows(a)) for v, a in alpha.items()}, alpha)
    return net


def learn_structure(algorithm: str, codes: Any, names: Sequence[str] | None = None,
                    states: Sequence[Sequence[str]] | None = None, *,
                    target: str | None = None, score: str | None = None, ess: float = 1.0,
                    max_parents: int | None = None, required: Iterable = (), forbidden: Iterable = (),
                    tiers: Sequence[Sequence[str]] | None = None, start: Any = None, tabu: int = 0,
                    restarts: int = 0, seed: int | None = None, reporter: Reporter | None = None, k: int = 1,
                    root: str | None = None, perturb: int | None = None, max_iter: int | None = None,
                    prior: str | None = None, name: str = "learned") -> StructureResult:
    """Learn a DAG over ``names`` from integer codes (N, V), -1 = missing, and fit its parameters.

    Without ``names`` and ``states``, ``codes`` is a table (DataFrame, Dataset or file path) whose columns are
    the variables (:func:`bnstudio.data.tables.table_columns`).

    The one-call form of ``make_structure_learner(algorithm, **options).fit(data, target=..., reporter=...)``
    (:mod:`.learners`, one class per algorithm, described in :mod:`bnstudio.learn.registry`), not deprecated:
    it takes every algorithm's options, checks each, and ignores those ``algorithm`` does not use (what a form
    or a study holding options for several algorithms needs); the learner's ``fit`` refuses an option it does
    not take.

    Parameters
    ----------
    algorithm : {"nb", "tan", "kdb", "chow-liu", "hill-climb", "bnc"}
    score : str, optional
        hill-climb: bic (default), bdeu, k2, ll (needs ``max_parents``); chow-liu / tan: edge weights, ll
        (default, mutual information) or a penalised score; nb / kdb: only the reported value (default ll);
        bnc: cll (BNC-kP; ``max_parents`` defaults to 2, or the most required parents) or cll-mdl (BNC-MDL).
        See :mod:`bnstudio.learn.structure.scores`, :mod:`.bnc`.
    required, forbidden, tiers, max_parents
        Expert constraints, honoured by every algorithm (see :mod:`.constraints`).
    start : None | "empty" | "tree" | "nb" | Network | arcs
        Where hill-climb and bnc start. Default: hill-climb from the Chow-Liu tree (forest) under the same
        score (the tutorial's "best tree" start, MP1-130: on ALARM it avoids the poor local maxima that the
        empty start runs into); bnc from the empty network, as Grossman & Domingos.
    tabu, restarts, perturb, seed, max_iter
        Tabu patience (moves in a row without improvement; visited structures are tabu), random restarts and
        random moves per restart (see :mod:`.hillclimb`).
    k, root
        kdb's number of attribute parents; the root of chow-liu / tan trees.
    prior : {None, "laplace", "bdeu"}
        Parameters of the returned network: ML (None) or mean posterior with ``ess``.
    reporter
        Progress: one iteration per applied move with the current score; a stop request raises Cancelled.
    """
    from bnstudio.learn.structure.learners import make_structure_learner

    codes, names, states = _columns(codes, names, states)
    check_settings(structure_learner(algorithm).learner_class(), score, ess, max_parents, start, prior, tabu,
                   restarts, k, seed, perturb, max_iter)
    check_integer("k", k, low=0, high=len(names))
    if root is not None:
        _index([str(n) for n in names], root, "root")
    given = {"score": score, "ess": ess, "max_parents": max_parents, "required": required, "forbidden": forbidden,
             "tiers": tiers, "prior": prior, "start": start, "tabu": tabu, "restarts": restarts, "seed": seed,
             "k": k, "root": root, "perturb": perturb, "max_iter": max_iter}
    taken = structure_learner(algorithm).option_names   # the others were checked above and do not apply
    learner = make_structure_learner(algorithm, **{key: value for key, value in given.items() if key in taken})
    return learner.fit(codes, names, states, target=target, reporter=reporter, name=name)


@dataclass
class SearchSpace:
    """What a structure learner's parent-set step sees (``StructureLearner.parent_sets``, :mod:`.learners`): the
    data as columns and as codes, the names, the expert constraints, the target and root indices (None when not
    given) and the checked options."""

    algorithm: str
    data: DataColumns
    codes: np.ndarray
    names: list[str]
    cons: Constraints
    target: int | None
    root: int | None
    options: dict[str, Any]
    progress: Progress

    def need_target(self) -> int:
        """The target's index; a learner built around the class refuses without one."""
        if self.target is None:
            raise ValidationError(f"{self.algorithm} needs a target (class) variable")
        return self.target


@dataclass
class Found:
    """A parent-set step's outcome: a parent set per variable (indices), its score, history and stop reason."""

    parents: list[frozenset[int]]
    score: float
    history: list[dict[str, Any]]
    stop_reason: str


def closed_form(space: SearchSpace, parents: list[frozenset[int]]) -> Found:
    """The outcome of a closed-form learner (:mod:`bnstudio.learn.structure.trees`): one step, scored with the
    learner's score."""
    o = space.options
    value = ScoreCache(space.data, space.data.cards, o["score"], o["ess"]).total(parents)
    space.progress.report(1, {"score": value}, message=space.algorithm)
    return Found(parents, value, [{"iteration": 1, "score": value, "move": space.algorithm}], "closed_form")


def score_search(space: SearchSpace, objective: Any = None, start: Any = "tree") -> Found:
    """Hill climbing (tabu, restarts) on ``objective`` (default: the decomposable score of the options) from
    the options' start, or ``start`` when none is given (:mod:`.hillclimb`). A learner passes its own objective
    (``bnc``: the class's conditional log-likelihood, :mod:`.bnc`) and default start."""
    o = space.options
    start_parents = _start_parents(start if o["start"] is None else o["start"], space.names, space.data,
                                   space.cons, o["score"], o["ess"], space.target)
    if objective is None:
        objective = DecomposableObjective(ScoreCache(space.data, space.data.cards, o["score"], o["ess"]))
    climber = HillClimber(objective, space.cons, o["tabu"], o["restarts"], o["perturb"], o["max_iter"], o["seed"],
                          progress=space.progress)
    found = climber.run(start_parents)
    return Found(found.parents, found.score, found.history, found.stop_reason)


def run_algorithm(learner: "StructureLearner", codes: Any, names: Sequence[str] | None,
                  states: Sequence[Sequence[str]] | None, *, target: str | None, reporter: Reporter | None,
                  name: str, score: str | None = None, ess: float = 1.0, max_parents: int | None = None,
                  required: Iterable = (), forbidden: Iterable = (), tiers: Sequence[Sequence[str]] | None = None,
                  start: Any = None,
                  tabu: int = 0, restarts: int = 0, seed: int | None = None, k: int = 1, root: str | None = None,
                  perturb: int | None = None, max_iter: int | None = None,
                  prior: str | None = None) -> StructureResult:
    """What every structure learner's ``fit`` runs (:mod:`.learners`) with its options: check the data and the
    options, learn the parent sets with the learner's own ``parent_sets`` step, fit the parameters. Whatever
    differs between algorithms is asked of ``learner`` (its checks, its default parent limit, its step)."""
    t0 = time.perf_counter()
    algorithm = learner.algorithm
    codes, names, states = _columns(codes, names, states)
    names = [str(n) for n in names]
    codes = _check_data(codes, names, states)
    checked = check_settings(type(learner), score, ess, max_parents, start, prior, tabu, restarts, k, seed,
                             perturb, max_iter)
    _check_target(target, names)
    score, ess, tabu, restarts, seed = (checked[key] for key in ("score", "ess", "tabu", "restarts", "seed"))
    cons = Constraints.build(names, required, forbidden, tiers, max_parents)
    if max_parents is None:
        cons.max_parents = max_parents = learner.default_max_parents(score, cons)
    k = check_integer("k", k, low=0, high=len(names))
    data = DataColumns(codes, [len(s) for s in states])
    t = None if target is None else names.index(target)
    r = None if root is None else _index(names, root, "root")
    settings = {"score": score, "ess": ess, "max_parents": max_parents, "tabu": tabu, "restarts": restarts,
                "seed": seed, "k": k, "prior": prior}
    progress = Progress(reporter, algorithm)
    space = SearchSpace(algorithm, data, codes, names, cons, t, r,
                        {**settings, "start": start, "perturb": perturb, "max_iter": max_iter}, progress)
    found = learner.parent_sets(space)
    progress.done()
    net = _network(names, states, found.parents, data, prior, ess, name)
    arcs = [(names[i], names[j]) for j in range(len(names)) for i in sorted(found.parents[j])]
    return StructureResult(algorithm, arcs, float(found.score), found.history, time.perf_counter() - t0, net, score,
                           settings, found.stop_reason)


def _columns(codes: Any, names: Sequence[str] | None, states: Sequence[Sequence[str]] | None) -> tuple:
    """``(codes, names, states)``: as given, or read off a table (DataFrame, Dataset, file path) given alone."""
    if names is None and states is None:
        return hooks.table_columns(codes)   # bnstudio.data.tables.table_columns
    if names is None or states is None:
        raise ValidationError("give both names and states with integer codes (or a table for both)")
    return codes, names, states


def _index(names: list[str], name: str, what: str) -> int:
    if name not in names:
        raise ValidationError(f"unknown {what} variable '{name}'")
    return names.index(name)

