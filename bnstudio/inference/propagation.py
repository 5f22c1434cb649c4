"""Shafer–Shenoy message passing on a junction tree, batched, scaled, pulled on demand and memoised.

The message from clique i to neighbour j is (Koller & Friedman §10.2)

    μ_{i→j}(S_ij) = Σ_{C_i \\ S_ij} ψ_i · λ_i · Π_{k ∈ N(i) \\ j} μ_{k→i}

with ψ_i the product of the CPTs assigned to i and λ_i the evidence likelihoods homed there; the belief of
clique c is ψ_c · λ_c · Π_k μ_{k→c} ∝ p(C_c, e). Every array has two leading batch axes (parameter sets S,
evidence cases N; size 1 when broadcast). Each message is normalised to sum 1 per batch element and its log
normaliser carried along, so log p(e) = log Σ belief + Σ log-normalisers without underflow on large networks.

A message depends only on the evidence and parameters on the sender's side of the edge. A propagation with a
``clean`` source (the no-evidence propagation of the base parameters, kept across queries) takes every
message whose side holds no evidence and no changed parameters from that cache: a single query recomputes
only the messages on the paths from its evidence to its targets.
"""
from __future__ import annotations

import numpy as np

from bnstudio.inference.jtree import JunctionTree

Message = tuple[np.ndarray, np.ndarray]  # (normalised table, log normaliser of shape (S', N'))


class Propagation:
    """One evaluation of the tree for fixed potentials and evidence; messages and beliefs are memoised."""

    def __init__(self, jt: JunctionTree, potentials: list[np.ndarray],
                 evidence: dict[int, list[np.ndarray]] | None = None, dirty: int = 0,
                 clean: "Propagation | None" = None) -> None:
        self.jt = jt
        self.potentials = potentials
        self.evidence = evidence or {}
        self.dirty = dirty
        self.clean = clean
        self.memo: dict[tuple[int, int], Message] = {}
        self.beliefs: dict[int, Message] = {}

    def message(self, i: int, j: int) -> Message:
        """μ_{i→j}, computing the messages it needs first (iteratively: trees can be deep)."""
        memo, jt = self.memo, self.jt
        stack = [(i, j)]
        while stack:
            a, b = stack[-1]
            if (a, b) in memo:
                stack.pop()
                continue
            if self.clean is not None and not (jt.subtree_mask[(a, b)] & self.dirty):
                memo[(a, b)] = self.clean.message(a, b)
                stack.pop()
                continue
            missing = [(c, a) for c in jt.neighbours[a] if c != b and (c, a) not in memo]
            if missing:
                stack.extend(missing)
                continue
            memo[(a, b)] = self._compute_message(a, b)
            stack.pop()
        return memo[(i, j)]

    def _product(self, c: int, exclude: int) -> tuple[np.ndarray, np.ndarray | float]:
        """ψ_c · λ_c · Π_{k ≠ exclude} μ_{k→c} and the sum of the incoming log-normalisers."""
        acc = self.potentials[c]
        log_scale: np.ndarray | float = 0.0
        fresh = False
        operands = list(self.evidence.get(c, ()))
        for k in self.jt.neighbours[c]:
            if k != exclude:
                table, scale = self.message(k, c)
                operands.append(table)
                log_scale = log_scale + scale
        for op in operands:
            if fresh and np.broadcast_shapes(acc.shape, op.shape) == acc.shape:
                acc *= op
            else:
                acc = acc * op
                fresh = True
        return acc, log_scale

    def _compute_message(self, a: int, b: int) -> Message:
        acc, log_scale = self._product(a, exclude=b)
        axes = self.jt.sum_axes[(a, b)]
        table = acc.sum(axis=axes) if axes else np.array(acc)
        table = table.reshape(table.shape[:2] + self.jt.into_shape[(a, b)])
        z = table.reshape(table.shape[:2] + (-1,)).sum(axis=-1)
        return _normalise(table, z, log_scale)

    def belief(self, c: int) -> Message:
        """Normalised belief p(C_c | e) and log p(e), each per batch element."""
        if c not in self.beliefs:
            acc, log_scale = self._product(c, exclude=-1)
            z = acc.reshape(acc.shape[:2] + (-1,)).sum(axis=-1)
            self.beliefs[c] = _normalise(acc if acc is not self.potentials[c] else np.array(acc), z, log_scale)
        return self.beliefs[c]


def _normalise(table: np.ndarray, z: np.ndarray, log_scale: np.ndarray | float) -> Message:
    """Divide each batch element by its total z (zero totals stay zero) and add log z to the scale."""
    positive = z > 0
    safe = np.where(positive, z, 1.0)
    table = table / safe.reshape(safe.shape + (1,) * (table.ndim - 2))
    with np.errstate(divide="ignore"):
        log_z = np.where(positive, np.log(safe), -np.inf)
    return table, log_z + log_scale
