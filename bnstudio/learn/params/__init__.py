"""Parameter learning with one estimator shape: ``make_learner(method, **options).fit(net, data, ...)``.

Methods (these names in the API, the CLI and the GUI): ``ml``, ``mp``, ``em``, ``lgd``, ``clgd``, ``wanbia``,
``bagged-mp``. Data are integer state codes aligned to ``net.variables`` (-1 = missing).
"""
from __future__ import annotations

from typing import Any

from bnstudio.learn.params.bagging import BaggedMeanPosterior, bagged_posterior
from bnstudio.learn.params.base import FitResult
from bnstudio.learn.params.counting import MaximumLikelihood, MeanPosterior, prior_counts
from bnstudio.learn.params.em import ExpectationMaximisation
from bnstudio.learn.params.gradient import GradientTraining
from bnstudio.learn.params.stopping import STOP_REASONS, StopRule
from bnstudio.learn.params.wanbia import WeightedConditional
from bnstudio.learn.registry import METHODS, PARAMETER_LEARNERS, document_options, parameter_learner

document_options(PARAMETER_LEARNERS)     # help(MeanPosterior) lists its options, as the registry describes them


def make_learner(method: str, **options: Any):
    """The learner for ``method`` with its hyper-parameters, as its registry entry describes it
    (:mod:`bnstudio.learn.registry`).

    Unknown methods and options, and option values out of range, raise a one-line ValidationError naming them.
    """
    return parameter_learner(method).make(**options)


__all__ = ["BaggedMeanPosterior", "ExpectationMaximisation", "FitResult", "GradientTraining", "METHODS",
           "MaximumLikelihood", "MeanPosterior", "STOP_REASONS", "StopRule", "WeightedConditional", "bagged_posterior",
           "make_learner", "prior_counts"]
