"""Error bars where exact inference cannot hold the network: the delta method (Singh Theorem 2) on
likelihood-weighting estimates of its terms, with the estimate's own sampling error beside it.

Theorem 2 needs D_{v,f} = p(v, f, q | e) − p(q | e)·p(v, f | e) for every CPT row. One likelihood-weighting run
(:func:`bnstudio.inference.sampled.family_terms`) estimates all of them: with weights w and the indicator 1[q]
of each sample, p̂(v, f | e) = Σ w 1[v, f] / Σ w and p̂(v, f, q | e) = Σ w 1[v, f] 1[q] / Σ w; a CPT outside the
ancestors of q and e has D = 0 exactly (it is barren). The two errors are different things and are reported
apart (docs/uncertainty.md, "Beyond exact inference"): the **parameter** error sd = √σ² (how far p(q | e) may
be from the truth given the counts behind the CPTs) and the **sampling** error se of p̂(q | e) (how far the
estimate may be from the exact p(q | e) of these CPTs). σ² is itself estimated, so it carries sampling noise
too, which shrinks with the number of samples.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.inference.sampled import family_terms
from bnstudio.uncertainty.delta import QueryVariance, theorem2

#: likelihood-weighting samples for error bars that exact inference cannot give
SAMPLES = 100_000


@dataclass(frozen=True)
class SamplingError:
    """The Monte-Carlo standard error ``se`` of p̂(q | e), from ``samples`` (worth ``effective_samples``
    unweighted ones), and why the answer was estimated."""

    se: float
    samples: int
    effective_samples: float
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"se": self.se, "samples": self.samples, "effective_samples": self.effective_samples,
                "reason": self.reason}


def sampled_delta(net: Network, alpha: Mapping[str, np.ndarray], query: Mapping[str, str],
                  evidence: Mapping | None = None, samples: int = SAMPLES, seed: int | None = 0,
                  reason: str = "") -> tuple[QueryVariance, SamplingError]:
    """σ²(q) by Theorem 2 on sampled family terms, and the sampling error of p̂(q | e) (module docstring)."""
    terms = family_terms(net, query, evidence, samples, seed)
    d_terms = {var: terms.joint[var] - terms.p_q * terms.family[var] for var in terms.family}
    delta = theorem2(net, alpha, terms.p_q, d_terms)
    return delta, SamplingError(terms.se_q, terms.samples, terms.effective_samples, reason)
