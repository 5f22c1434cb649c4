"""Defaults that several layers and front ends share, written once (docs/architecture.md §1; the learners'
own defaults live in their constructors and the registry, :mod:`bnstudio.learn.registry`).

* :data:`CREDIBLE_LEVEL`: the credible level of every error bar — the query's normal and Beta intervals
  (Singh 2004, §3.2), the bagged spread, the tornado's, the decision's — in the API, the command line and the
  panels' first value.
"""
from __future__ import annotations

#: the default credible level of an error bar's intervals (90 %)
CREDIBLE_LEVEL = 0.9
