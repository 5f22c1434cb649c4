"""Parameter learning with one estimator shape: ``make_learner(method, **options).fit(net, data, ...)``.

Methods (these names in the API, the CLI and the GUI): ``ml``, ``mp``, ``em``, ``lgd``, ``clgd``, ``wanbia``,
``bagged-mp``. Data are integer state codes aligned to ``net.variables`` (-1 = missing).
"""
from __future__ import annotations

import inspect
from typing import Any

from bnstudio.errors import ValidationError
from bnstudio.learn.params.bagging import BaggedMeanPosterior, bagged_posterior
from bnstudio.learn.params.base import FitResult
from bnstudio.learn.params.counting import MaximumLikelihood, MeanPosterior, prior_counts
from bnstudio.learn.params.em import ExpectationMaximisation
from bnstudio.learn.params.stopping import STOP_REASONS, StopRule
from bnstudio.learn.params.gradient import GradientTraining
from bnstudio.learn.params.wanbia import WeightedConditional

from bnstudio.learn.names import METHODS  # the names live in a light module


def make_learner(method: str, **options: Any):
    """The learner for ``method`` with its hyper-parameters.

    Unknown methods and options, and option values out of range, raise a one-line ValidationError naming them.
    """
    factories = {
        "ml": MaximumLikelihood, "mp": MeanPosterior, "em": ExpectationMaximisation, "lgd": _lgd,
        "clgd": GradientTraining, "wanbia": WeightedConditional, "bagged-mp": BaggedMeanPosterior,
    }
    if method not in factories:
        raise ValidationError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    learner = GradientTraining if method == "lgd" else factories[method]
    accepted = [p for p in inspect.signature(learner).parameters if not (method == "lgd" and p == "criterion")]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise ValidationError(f"method '{method}' has no option '{unknown[0]}'; its options: "
                              f"{', '.join(accepted) if accepted else 'none'}")
    return factories[method](**options)


def _lgd(**options: Any) -> GradientTraining:
    return GradientTraining(criterion="ll", **options)


__all__ = ["BaggedMeanPosterior", "ExpectationMaximisation", "FitResult", "GradientTraining", "METHODS",
           "MaximumLikelihood", "MeanPosterior", "STOP_REASONS", "StopRule", "WeightedConditional", "bagged_posterior",
           "make_learner", "prior_counts"]
