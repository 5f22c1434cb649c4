"""The ranges of the learners' hyper-parameters, in one light module: the learners check against them
(:mod:`bnstudio.learn.params.checks`) and the command line's parser states them (:mod:`bnstudio.cli.options`)
without importing the learners."""
from __future__ import annotations

#: the largest iteration limit (L-BFGS and EM count iterations in machine integers)
MAX_ITER = 10_000_000
#: the largest equivalent sample size / pseudo-count: larger values overflow the Dirichlet moments
MAX_ESS = 1e9
#: the smallest equivalent sample size: smaller ones give pseudo-counts that underflow for large families
MIN_ESS = 1e-6
#: the largest L2 penalty per case (larger ones overflow the penalty at the first step)
MAX_L2 = 1e12
#: the largest memory budget (bytes) of one batched propagation
MAX_MEMORY_BUDGET = 2 ** 50
#: the most bootstrap bags of bagged-mp
MAX_BAGS = 100_000
#: the most random restarts of em and of a structure search
MAX_RESTARTS = 10_000
