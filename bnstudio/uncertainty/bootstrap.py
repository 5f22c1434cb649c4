"""The bootstrap spread of p(q | e) over the bags of a bagged-mp ensemble (Singh §4.5.1).

A bagged model answers a query by averaging the query response over its T parameter sets; the central
``level`` quantile interval of the T responses is the bootstrap interval shown beside the delta-method
(Dirichlet) intervals. The bags are the engine's parameter axis: batched propagations of as many bags as fit the
memory budget (:func:`~bnstudio.uncertainty.sensitivity.query_response`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.uncertainty.sensitivity import query_response


@dataclass
class BootstrapSpread:
    """p(q | e) over the T bags: the average (the bagged answer), a central interval and every value."""

    mean: float
    low: float
    high: float
    level: float
    values: np.ndarray = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "level": self.level, "bags": len(self.values),
                "values": self.values.tolist()}


def ensemble_mismatch(net: Network, ensemble: Mapping[str, np.ndarray]) -> str:
    """Why ``ensemble`` ({var: (T, *family)}) cannot be used on ``net`` ("" when it can)."""
    for var, table in ensemble.items():
        if var not in net:
            return f"the bagged ensemble names '{var}', which is not in the network"
        if table.shape[1:] != net.family_shape(var):
            return f"the bagged ensemble no longer matches the family of '{var}' (the network was edited)"
    return ""


def bootstrap_spread(net: Network, ensemble: Mapping[str, np.ndarray], query: Mapping[str, str],
                     evidence: Mapping[str, Any] | None = None, level: float = CREDIBLE_LEVEL,
                     engine: InferenceEngine | None = None) -> BootstrapSpread:
    """The query averaged over the bags and the central ``level`` quantile interval of the bag responses."""
    reason = ensemble_mismatch(net, ensemble)
    if reason:
        raise ValidationError(reason)
    if not 0.0 < level < 1.0:
        raise ValidationError(f"the level must be between 0 and 1, got {level}")
    values = query_response(net, query, dict(evidence or {}), ensemble, engine)
    tail = (1.0 - level) / 2
    return BootstrapSpread(float(values.mean()), float(np.quantile(values, tail)),
                           float(np.quantile(values, 1 - tail)), level, values)
