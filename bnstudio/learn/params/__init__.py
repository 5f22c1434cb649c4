"""Parameter learning with one estimator shape: ``make_learner(method, **options).fit(net, data, ...)``.

Methods (these names in the API, the CLI and the GUI): ``ml``, ``mp``, ``em``, ``lgd``, ``clgd``, ``wanbia``,
``bagged-mp``. Data are integer state codes aligned to ``net.variables`` (-1 = missing).
"""
from __future__ import annotations

from typing import Any

from bnstudio.errors import ValidationError
from bnstudio.learn.params.bagging import BaggedMeanPosterior, bagged_posterior
from bnstudio.learn.params.base import FitResult, StopRule
from bnstudio.learn.params.counting import MaximumLikelihood, MeanPosterior, prior_counts
from bnstudio.learn.params.em import ExpectationMaximisation
from bnstudio.learn.params.gradient import GradientTraining
from bnstudio.learn.params.wanbia import WeightedConditional

METHODS = ("ml", "mp", "em", "lgd", "clgd", "wanbia", "bagged-mp")


def make_learner(method: str, **options: Any):
    """The learner for ``method`` with its hyper-parameters (unknown options raise a ValidationError)."""
    factories = {
        "ml": MaximumLikelihood, "mp": MeanPosterior, "em": ExpectationMaximisation,
        "lgd": lambda **kw: GradientTraining(criterion="ll", **kw), "clgd": GradientTraining,
        "wanbia": WeightedConditional, "bagged-mp": BaggedMeanPosterior,
    }
    if method not in factories:
        raise ValidationError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    try:
        return factories[method](**options)
    except TypeError as exc:
        raise ValidationError(f"method '{method}': {exc}") from None


__all__ = ["BaggedMeanPosterior", "ExpectationMaximisation", "FitResult", "GradientTraining", "METHODS",
           "MaximumLikelihood", "MeanPosterior", "StopRule", "WeightedConditional", "bagged_posterior",
           "make_learner", "prior_counts"]
