"""Defaults that several layers and front ends share, written once (docs/architecture.md §1; the learners'
own defaults live in their constructors and the registry, :mod:`bnstudio.learn.registry`).

* :data:`CREDIBLE_LEVEL`: the credible level of every error bar — the query's normal and Beta intervals
  (Singh 2004, §3.2), the bagged spread, the tornado's, the decision's — in the API, the command line and the
  panels' first value.
* :data:`DEFAULT_L2`: the discriminative learners' default L2 penalty per training case is DEFAULT_L2 / N
  (``clgd`` on β − β₀, ``wanbia`` on w − 1; N the total training weight; Zhou 2002 §5, Zaidi et al. §5.2) — in
  the learners, the registry's help and the training form's tooltip (which format it, never write it out).
"""
from __future__ import annotations

#: the default credible level of an error bar's intervals (90 %)
CREDIBLE_LEVEL = 0.9

#: the default L2 penalty is DEFAULT_L2 / N per training case, N the total training weight: a fixed
#: N(0, 1/DEFAULT_L2) prior on each parameter's shift from the generative estimate. Chosen on held-out CLL
#: (benchmarks/discriminative_bench.py --grid; docs/learning.md).
DEFAULT_L2 = 10.0
