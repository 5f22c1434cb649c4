"""The names of the learners and scores, for modules that need only the names (the command line offers them as
choices without importing the learners or scipy). They are read from the learner registry
(:mod:`bnstudio.learn.registry`), where each learner is described once."""
from __future__ import annotations

from bnstudio.learn.registry import ALGORITHMS, DECOMPOSABLE, METHODS, SCORES

__all__ = ["ALGORITHMS", "DECOMPOSABLE", "METHODS", "SCORES"]
