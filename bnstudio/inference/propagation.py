"""Shafer–Shenoy message passing on a junction tree, batched, scaled, pulled on demand and memoised.

The message from clique i to neighbour j is (Koller & Friedman §10.2)

    μ_{i→j}(S_ij) = Σ_{C_i \\ S_ij} ψ_i · λ_i · Π_{k ∈ N(i) \\ j} μ_{k→i}

with ψ_i the product of the CPTs assigned to i and λ_i the evidence likelihoods homed there; the belief of
clique c is ψ_c · λ_c · Π_k μ_{k→c} ∝ p(C_c, e). Every array has two trailing batch axes (parameter sets S,
evidence cases N; size 1 when broadcast). Each message is normalised to sum 1 per batch element and its log
normaliser carried along, so log p(e) = log Σ belief + Σ log-normalisers without underflow on large networks.

For every marginal at once, :meth:`Propagation.calibrate` collects towards the root and then distributes: a
clique sends to all its children together, each message leaving out one child's incoming message. Products
are shared by halving the list of children (the message to one half multiplies in the other half's messages
once), so a clique with d children costs O(d log d) table products instead of d² — pathfinder's hub clique
has 57 neighbours.

A message depends only on the evidence and parameters on the sender's side of the edge. A propagation with a
``clean`` source (the no-evidence propagation of the base parameters, kept across queries) takes every
message whose side holds no evidence and no changed parameters from that cache: a query recomputes only the
messages on the paths from its evidence to its targets.
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
            if self.clean is not None and not (jt.side(a, b) & self.dirty):
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
            if fresh:
                try:
                    acc *= op  # in place when op broadcasts to acc's shape
                    continue
                except ValueError:
                    pass
            acc = acc * op
            fresh = True
        return acc, log_scale

    def _compute_message(self, a: int, b: int) -> Message:
        acc, log_scale = self._product(a, exclude=b)
        return self._sum_message(a, b, acc, log_scale)

    def product(self, c: int) -> tuple[np.ndarray, np.ndarray | float]:
        """The unnormalised belief ψ_c · λ_c · Π_k μ_{k→c} (not to be modified) and its log scale."""
        return self._product(c, exclude=-1)

    def belief(self, c: int) -> Message:
        """Normalised belief p(C_c | e) and log p(e), each per batch element."""
        if c not in self.beliefs:
            acc, log_scale = self._product(c, exclude=-1)
            z = acc.reshape((-1,) + acc.shape[-2:]).sum(axis=0)
            self.beliefs[c] = _normalise(acc if acc is not self.potentials[c] else np.array(acc), z, log_scale)
        return self.beliefs[c]

    def calibrate(self) -> None:
        """Every message of the tree: collect to the root, then each clique sends to its children together."""
        jt = self.jt
        for c in reversed(jt.preorder):
            if jt.parent[c] >= 0:
                self.message(c, jt.parent[c])
        for c in jt.preorder:
            children = [k for k in jt.neighbours[c] if k != jt.parent[c] and (c, k) not in self.memo]
            fresh = []
            for k in children:
                if self.clean is not None and not (jt.side(c, k) & self.dirty):
                    self.memo[(c, k)] = self.clean.message(c, k)
                else:
                    fresh.append(k)
            if len(fresh) > 2:
                self._send_many(c, fresh)
            for k in fresh:
                self.message(c, k)

    def _send_many(self, c: int, targets: list[int]) -> None:
        """Messages from c to each of ``targets`` (whose incoming messages exist), sharing products."""
        incoming = {k: self.message(k, c) for k in self.jt.neighbours[c]}
        acc, log_scale = self.potentials[c], 0.0
        for op in self.evidence.get(c, ()):
            acc = acc * op
        for k, (table, scale) in incoming.items():
            if k not in targets:
                acc, log_scale = acc * table, log_scale + scale
        stack = [(targets, acc, log_scale)]
        while stack:
            group, acc, log_scale = stack.pop()
            if len(group) == 1:
                self.memo[(c, group[0])] = self._sum_message(c, group[0], acc, log_scale)
                continue
            half = len(group) // 2
            for mine, other in ((group[:half], group[half:]), (group[half:], group[:half])):
                part, part_scale = acc, log_scale
                for k in other:
                    table, scale = incoming[k]
                    part, part_scale = part * table, part_scale + scale
                stack.append((mine, part, part_scale))

    def _sum_message(self, a: int, b: int, acc: np.ndarray, log_scale) -> Message:
        axes, into = self.jt.plan(a, b)
        table = np.add.reduce(acc, axis=axes) if axes else np.array(acc)
        batch = table.shape[-2:]
        table = table.reshape(into + batch)
        z = np.add.reduce(table.reshape((-1,) + batch), axis=0)
        return _normalise(table, z, log_scale)


def _normalise(table: np.ndarray, z: np.ndarray, log_scale: np.ndarray | float) -> Message:
    """Divide each batch element by its total z (zero totals stay zero) and add log z to the scale."""
    if z.all():
        table /= z  # callers pass a fresh array, shaped like the result
        return table, np.log(z) + log_scale
    positive = z > 0
    safe = np.where(positive, z, 1.0)
    table /= safe
    return table, np.where(positive, np.log(safe), -np.inf) + log_scale
