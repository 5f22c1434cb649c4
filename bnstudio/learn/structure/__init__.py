"""Structure learning: decomposable scores, fixed-form classifiers, hill climbing and BNC.

Algorithms (these names in the API, the CLI and the GUI): ``nb``, ``tan``, ``kdb``, ``chow-liu``,
``hill-climb``, ``bnc``; scores ``bic``, ``bdeu``, ``k2``, ``ll`` and, for bnc, ``cll`` / ``cll-mdl``.
Everything goes through :func:`learn_structure`, which returns a :class:`StructureResult` holding the arcs,
the score, the search history and a network with fitted parameters. Data are integer codes (N, V), -1 =
missing, one column per variable in ``names`` order.

Modules: :mod:`.scores` (family scores, :class:`ScoreCache`), :mod:`.constraints` (expert knowledge),
:mod:`.trees` (nb, tan, kdb, chow-liu), :mod:`.hillclimb` (greedy search, tabu, restarts), :mod:`.bnc`
(conditional log-likelihood objective), :mod:`.compare` (structural Hamming distance), :mod:`.bootstrap`
(arc confidence from bootstrap resamples), :mod:`.api`.
"""
from bnstudio.learn.structure.api import ALGORITHMS, SCORES, StructureResult, learn_structure
from bnstudio.learn.structure.bootstrap import ArcConfidence, arc_confidence
from bnstudio.learn.structure.compare import pdag, shd
from bnstudio.learn.structure.constraints import Constraints, parse_arc
from bnstudio.learn.structure.scores import DECOMPOSABLE, ScoreCache, bdeu, bic, family_score, k2, log_likelihood

__all__ = ["ALGORITHMS", "ArcConfidence", "Constraints", "DECOMPOSABLE", "SCORES", "ScoreCache", "StructureResult",
           "arc_confidence", "bdeu", "bic", "family_score", "k2", "learn_structure", "log_likelihood", "parse_arc",
           "pdag", "shd"]
