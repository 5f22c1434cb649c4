"""The names of the learners, in one light module: the learners define their behaviour under these names and
the command line offers them as choices without importing the learners (or scipy)."""
from __future__ import annotations

#: parameter-learning methods (``make_learner(method)``)
METHODS = ("ml", "mp", "em", "lgd", "clgd", "wanbia", "bagged-mp")
#: structure-learning algorithms (``learn_structure(algorithm)``)
ALGORITHMS = ("nb", "tan", "kdb", "chow-liu", "hill-climb", "bnc")
#: scores that decompose over families
DECOMPOSABLE = ("bic", "bdeu", "k2", "ll")
#: every structure score
SCORES = DECOMPOSABLE + ("cll", "cll-mdl")
