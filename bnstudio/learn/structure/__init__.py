"""Structure learning: decomposable scores, fixed-form classifiers, hill climbing and BNC.

Algorithms (these names in the API, the CLI and the GUI): ``nb``, ``tan``, ``kdb``, ``chow-liu``,
``hill-climb``, ``bnc``; scores ``bic``, ``bdeu``, ``k2``, ``ll`` and, for bnc, ``cll`` / ``cll-mdl``.
Each algorithm is a class with the parameter learners' shape (:mod:`.learners`):
``make_structure_learner(algorithm, **options).fit(data, target=...)`` returns a
:class:`StructureResult` holding the arcs, the score, the search history, the stop reason and a network with
fitted parameters; :func:`learn_structure` is its one-call form (every algorithm's options accepted, those the
algorithm does not use ignored). Data are a DataFrame, a Dataset or a table file (columns by name), or integer
codes (N, V), -1 = missing, with ``names`` and ``states`` in column order.

Modules: :mod:`.scores` (family scores, :class:`ScoreCache`), :mod:`.constraints` (expert knowledge),
:mod:`.learners` (one class per algorithm), :mod:`.trees` (nb, tan, kdb, chow-liu), :mod:`.hillclimb` (greedy search, tabu, restarts), :mod:`.bnc`
(conditional log-likelihood objective), :mod:`.compare` (structural Hamming distance), :mod:`.bootstrap`
(arc confidence from bootstrap resamples), :mod:`.api`.
"""
from bnstudio.learn.registry import SCORES
from bnstudio.learn.structure.api import ALGORITHMS, StructureResult, learn_structure
from bnstudio.learn.structure.bootstrap import ArcConfidence, arc_confidence
from bnstudio.learn.structure.compare import pdag, shd
from bnstudio.learn.structure.constraints import Constraints, parse_arc
from bnstudio.learn.structure.learners import (
                                               ChowLiu,
                                               ConditionalSearch,
                                               HillClimb,
                                               KDependence,
                                               NaiveBayes,
                                               StructureLearner,
                                               TreeAugmented,
                                               make_structure_learner,
)
from bnstudio.learn.structure.scores import DECOMPOSABLE, ScoreCache, bdeu, bic, family_score, k2, log_likelihood

__all__ = ["ALGORITHMS", "ArcConfidence", "ChowLiu", "ConditionalSearch", "Constraints", "DECOMPOSABLE", "HillClimb",
           "KDependence", "NaiveBayes", "SCORES", "ScoreCache", "StructureLearner", "StructureResult", "TreeAugmented",
           "arc_confidence", "bdeu", "bic", "family_score", "k2", "learn_structure", "log_likelihood",
           "make_structure_learner", "parse_arc", "pdag", "shd"]
