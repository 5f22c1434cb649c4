"""Value of information: which unobserved variable to look at next for a target T, given the findings e.

For every candidate O (by default each unobserved variable other than T) two scores are computed from the
pairwise joints p(t, o | e):

* the **mutual information** I(T; O | e) = Σ_{t,o} p(t,o|e) log2 [p(t,o|e) / (p(t|e) p(o|e))], in bits: the
  expected reduction of T's entropy H(T | e) when O is observed (Cover & Thomas 2006, §2.4);
* the **expected reduction of the Bayes risk** (misclassification cost) for a cost matrix C[t, d] (cost of
  deciding d when T = t; default 0/1): R(e) = min_d Σ_t p(t|e) C[t,d] before, and
  E_o[R(e, o)] = Σ_o min_d Σ_t p(t,o|e) C[t,d] after observing O, so the value is R(e) - E_o[R(e, o)] ≥ 0
  (with 0/1 costs: the expected gain in the probability of classifying T correctly).

All pairwise joints come from **one batched propagation** of |T| cases, e ∪ {T = t} for each state t with
p(t | e) > 0 (:meth:`InferenceEngine.posterior_batch` of every candidate): p(t, o | e) = p(t | e) p(o | t, e).
That is |T| cases for all candidates together, never one inference per candidate or per candidate state. A
candidate d-separated from T by the findings scores 0 (up to rounding, clipped at 0); so does a one-state one.

>>> from bnstudio.core import network_from_dsl
>>> from bnstudio.inference import InferenceEngine
>>> net = network_from_dsl("T->A; T->B", cpts={"T": [0.5, 0.5], "A": [[1, 0], [0, 1]], "B": [[0.5, 0.5], [0.5, 0.5]]})
>>> [(c.name, round(c.mutual_information, 6)) for c in value_of_information(InferenceEngine(net), "T").candidates]
[('A', 1.0), ('B', 0.0)]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from bnstudio.errors import EvidenceError, MemoryBudgetExceeded
from bnstudio.inference import evidence as ev
from bnstudio.inference.engine import InferenceEngine

RANKINGS = ("information", "cost")


@dataclass(frozen=True)
class Candidate:
    """One candidate observation: I(T; O | e) in bits and the expected reduction of the Bayes risk."""

    name: str
    mutual_information: float
    risk_reduction: float


@dataclass(frozen=True)
class ValueOfInformation:
    """Candidates ranked by ``rank_by`` (best first; ties by the other score, then in the network's order),
    with H(T | e) in bits and the Bayes risk R(e) before any new observation."""

    target: str
    entropy: float
    risk: float
    rank_by: str
    candidates: list[Candidate]

    def mutual_information(self) -> dict[str, float]:
        """{candidate: I(T; O | e) in bits}, in ranked order."""
        return {c.name: c.mutual_information for c in self.candidates}

    def risk_reduction(self) -> dict[str, float]:
        """{candidate: R(e) - E_o R(e, o)}, in ranked order."""
        return {c.name: c.risk_reduction for c in self.candidates}


def value_of_information(engine: InferenceEngine, target: str, evidence: ev.Evidence | None = None,
                         candidates: Sequence[str] | None = None, cost: np.ndarray | Sequence | None = None,
                         rank_by: str = "information") -> ValueOfInformation:
    """Rank candidate observations for ``target`` given ``evidence`` (see the module docstring).

    ``cost``: a |T| x |T| matrix C[true state, decided state] (default 1 - identity); ``rank_by``:
    ``"information"`` (mutual information) or ``"cost"`` (risk reduction). Raises EvidenceError for an observed
    target or candidate, UnknownVariableError for an unknown name, ImpossibleEvidence when p(e) = 0."""
    if rank_by not in RANKINGS:
        raise ValueError(f"unknown ranking {rank_by!r}; use one of {RANKINGS}")
    evidence = dict(evidence or {})
    names = _candidates(engine, target, evidence, candidates)
    prior = engine.posterior(target, evidence)[target]
    costs = _cost_matrix(cost, prior.size, target)
    joints = pairwise_joints(engine, target, names, evidence, prior)
    mi = _mutual_information(joints)
    risk_by_decision = prior @ costs
    best = int(np.argmin(risk_by_decision))
    gain = {name: _risk_reduction(joint, costs, best) for name, joint in joints.items()}
    found = [Candidate(name, mi[name], gain[name]) for name in names]
    if rank_by == "information":
        key = lambda c: (-c.mutual_information, -c.risk_reduction)  # noqa: E731
    else:
        key = lambda c: (-c.risk_reduction, -c.mutual_information)  # noqa: E731
    positive = prior[prior > 0]
    entropy = float(-(positive * np.log2(positive)).sum())
    return ValueOfInformation(target, entropy, float(risk_by_decision[best]), rank_by, sorted(found, key=key))


def pairwise_joints(engine: InferenceEngine, target: str, names: Sequence[str], evidence: dict,
                    prior: np.ndarray) -> dict[str, np.ndarray]:
    """{O: p(T, O | e) as a (|T|, |O|) array} for every candidate, from one batch of the |T| cases
    e ∪ {T = t} with p(t | e) > 0 (rows of impossible states are 0)."""
    states = np.flatnonzero(prior > 0)
    if not names:
        return {}
    cases = _cases(engine, target, evidence, states)
    try:
        post = engine.posterior_batch(list(names), cases)
    except MemoryBudgetExceeded:  # no tree for the batch: one pruned query per target state instead
        rows = [engine.posterior(list(names), {**evidence, target: int(t)}) for t in states]
        post = {name: np.stack([r[name] for r in rows]) for name in names}
    out = {}
    for name in names:
        joint = np.zeros((prior.size, post[name].shape[-1]))
        joint[states] = prior[states, None] * post[name]
        out[name] = joint
    return out


def _cases(engine: InferenceEngine, target: str, evidence: dict, states: np.ndarray) -> dict[str, np.ndarray]:
    """The batch: T = t for each state in ``states``, every finding of e repeated (codes or likelihoods)."""
    index = engine.compiled.index
    n = states.size
    cases: dict[str, np.ndarray] = {target: states.astype(np.int64)}
    for name, spec in evidence.items():
        var = index.index(name)
        if isinstance(spec, (str, int, np.integer)) and not isinstance(spec, bool):
            cases[name] = np.full(n, index.state_index(var, spec), dtype=np.int64)
        else:
            cases[name] = np.repeat(ev.likelihood_vector(index, var, spec), n, axis=0)
    return cases


def _candidates(engine: InferenceEngine, target: str, evidence: dict, candidates: Sequence[str] | None) -> list[str]:
    """The candidates, checked: known, not the target, not observed (default: every such variable)."""
    index = engine.compiled.index
    index.index(target)
    if target in evidence:
        raise EvidenceError(f"the target '{target}' is observed: nothing is left to learn about it")
    if candidates is None:
        return [v for v in index.names if v != target and v not in evidence]
    names = list(candidates)
    for name in names:
        index.index(name)
        if name == target or name in evidence:
            raise EvidenceError(f"candidate '{name}' is {'the target' if name == target else 'already observed'}")
    if len(set(names)) != len(names):
        raise EvidenceError("a candidate is listed twice")
    return names


def _cost_matrix(cost: np.ndarray | Sequence | None, n: int, target: str) -> np.ndarray:
    """C[t, d] checked: (|T|, |T|) and finite; default 0/1 (1 - identity)."""
    if cost is None:
        return 1.0 - np.eye(n)
    try:
        costs = np.asarray(cost, dtype=float)
    except (TypeError, ValueError):
        raise EvidenceError(f"the cost matrix for '{target}' must be numbers") from None
    if costs.shape != (n, n) or not np.all(np.isfinite(costs)):
        raise EvidenceError(f"the cost matrix for '{target}' must be {n} x {n} finite numbers "
                            f"(true state x decision), got shape {costs.shape}")
    return costs


def _risk_reduction(joint: np.ndarray, costs: np.ndarray, best: int) -> float:
    """R(e) - Σ_o min_d Σ_t p(t,o|e) C[t,d], summed per o as (cost of the prior decision d*) - (cost of the best
    decision given o): every term is ≥ 0, and exactly 0 where observing o would not change the decision."""
    by_decision = joint.T @ costs                                   # (|O|, decisions)
    return float((by_decision[:, best] - by_decision.min(axis=1)).sum())


def _mutual_information(joints: dict[str, np.ndarray]) -> dict[str, float]:
    """I(T; O) in bits for each (|T|, |O|) joint, vectorised over the candidates of each cardinality."""
    out: dict[str, float] = {}
    by_card: dict[int, list[str]] = {}
    for name, joint in joints.items():
        by_card.setdefault(joint.shape[1], []).append(name)
    for names in by_card.values():
        stack = np.stack([joints[name] for name in names])                    # (K, |T|, |O|)
        outer = stack.sum(axis=2, keepdims=True) * stack.sum(axis=1, keepdims=True)
        positive = stack > 0
        ratio = np.where(positive, stack, 1.0) / np.where(positive, outer, 1.0)
        mi = np.where(positive, stack * np.log2(ratio), 0.0).sum(axis=(1, 2))
        out.update(zip(names, np.maximum(mi, 0.0).tolist(), strict=True))
    return out
