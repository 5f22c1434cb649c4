"""Query studies (Singh §3.6, §4.6): how close a learned network's answers p(q | e) come to the true network's.

Queries are generated once per study from its ``[queries]`` table: each has one query variable (in a random
state) and 3 to 5 evidence assignments, as Singh's 100 ALARM queries; the evidence states are those of one
forward-sampled case of the true network, so every evidence has p(e) > 0. All 2Q cases (e and (q, e) per query)
are answered in one batched propagation: p(q | e) = p(q, e) / p(e). A bagged ensemble answers with the mean of
its bags' answers, ζ^B(D) = (1/T) Σ_i q(Θ(D_i)) (Singh §4.5.1) — not with the answer of the mean CPTs.

>>> from bnstudio.core import network_from_dsl
>>> net = network_from_dsl("A->B; B->C", seed=1)
>>> qs = generate_queries(net, QuerySpec(count=2, seed=0, evidence_size=(1, 1)))
>>> len(qs), sorted(qs[0]) == ["evidence", "query"]
(2, True)
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.experiment.spec import QuerySpec
from bnstudio.inference import InferenceEngine

Query = dict[str, dict[str, str]]       # {"query": {VAR: STATE}, "evidence": {VAR: STATE, ...}}


def _roles(net: Network, spec: QuerySpec) -> tuple[list[str], list[str]]:
    """(query variables, evidence variables): as named, or the roots and the leaves of the network."""
    query = list(spec.query) if spec.query else [v for v in net.variables if not net.parents(v)]
    evidence = list(spec.evidence) if spec.evidence else [v for v in net.variables if not net.children(v)]
    unknown = [v for v in query + evidence if v not in net]
    if unknown:
        raise ValidationError(f"queries: the network has no variable '{unknown[0]}'")
    fewest = min((len([v for v in evidence if v != q]) for q in query), default=0)
    if not query or fewest < spec.evidence_size[0]:
        raise ValidationError(f"queries: need query variables and at least {spec.evidence_size[0]} evidence "
                              "variables besides the query variable")
    return query, evidence


def generate_queries(net: Network, spec: QuerySpec) -> list[Query]:
    """``spec.count`` seeded queries on ``net`` (see the module docstring)."""
    from bnstudio.sampling import forward_sample

    query_vars, evidence_vars = _roles(net, spec)
    rng = np.random.default_rng(spec.seed)
    cases = forward_sample(net, spec.count, seed=int(rng.integers(2**62)))
    out = []
    for case in cases:
        target = query_vars[int(rng.integers(len(query_vars)))]
        candidates = [v for v in evidence_vars if v != target]
        size = min(int(rng.integers(spec.evidence_size[0], spec.evidence_size[1] + 1)), len(candidates))
        chosen = sorted(rng.choice(len(candidates), size=size, replace=False))
        evidence = {candidates[k]: net.states(candidates[k])[case[net.variables.index(candidates[k])]]
                    for k in chosen}
        state = net.states(target)[int(rng.integers(net.cardinality(target)))]
        out.append({"query": {target: state}, "evidence": evidence})
    return out


def queries_digest(queries: list[Query]) -> str:
    """SHA-256 of the queries (part of every task key of a query study)."""
    return hashlib.sha256(json.dumps(queries, sort_keys=True).encode()).hexdigest()[:32]


def query_cases(net: Network, queries: list[Query]) -> np.ndarray:
    """(2Q, V) codes, -1 = unobserved: row 2i is the evidence of query i, row 2i + 1 adds its query state."""
    cases = np.full((2 * len(queries), len(net.variables)), -1, dtype=np.int64)
    for i, item in enumerate(queries):
        for rows, assignment in (((2 * i, 2 * i + 1), item["evidence"]), ((2 * i + 1,), item["query"])):
            for var, state in assignment.items():
                if state not in net.states(var):
                    raise ValidationError(f"query {i + 1}: '{var}' has no state '{state}'")
                cases[list(rows), net.variables.index(var)] = net.states(var).index(state)
    return cases


def query_answers(net: Network, cases: np.ndarray, ensemble: Mapping[str, np.ndarray] | None = None) -> np.ndarray:
    """p(q_i | e_i) for the cases of :func:`query_cases`, (Q,); the mean of the bags' answers for an ensemble."""
    log = InferenceEngine(net).log_evidence_batch(cases, parameters=ensemble)
    impossible = np.isneginf(log[..., 0::2])
    if impossible.any():
        first = int(np.argwhere(impossible)[0][-1])
        raise ValidationError(f"query {first + 1}: its evidence has probability 0 under the network, so "
                              "p(q | e) is undefined")
    answers = np.exp(log[..., 1::2] - log[..., 0::2])     # p(q, e) = 0 gives exp(-inf) = 0
    return answers.mean(axis=0) if ensemble is not None else answers


def query_scores(answers: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
    """Squared error of every answer against the true one, and their mean."""
    squared = (answers - truth) ** 2
    return {"mse": float(squared.mean()), "squared_errors": squared.tolist(), "answers": answers.tolist()}
