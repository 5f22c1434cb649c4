"""Shafer–Shenoy message passing on a junction tree, batched, scaled, pulled on demand and memoised.

The message from clique i to neighbour j is (Koller & Friedman §10.2)

    μ_{i→j}(S_ij) = Σ_{C_i \\ S_ij} ψ_i · λ_i · Π_{k ∈ N(i) \\ j} μ_{k→i}

with ψ_i the product of the CPTs assigned to i and λ_i the evidence likelihoods homed there; the belief of
clique c is ψ_c · λ_c · Π_k μ_{k→c} ∝ p(C_c, e). Every array has two trailing batch axes (parameter sets S,
evidence cases N; size 1 when broadcast). Each message is normalised to sum 1 per batch element and its log
normaliser carried along, so log p(e) = log Σ belief + Σ log-normalisers without underflow on large networks.

Normalised messages keep a chain of cliques finite, but one clique's product can still underflow: a naive
Bayes class clique multiplies in a message per child, and 1,000 of them take p(x | c) products to about 1e-400.
Every operand is at most 1 (potentials, likelihoods scaled to max 1, messages summing to 1), so a product only
shrinks and is exact unless its total ends below :data:`~bnstudio.inference.variable_elimination.TINY`
(1e-200). Then — and only then, for that message or belief — it is recomputed with :func:`scaled_product`:
rescaled to max 1 per batch element after each operand, the log of each scale added to the log normaliser
(docs/inference.md §6). Both products are vectorised over the batch; evidence is impossible only when the
rescaled product is exactly 0. A clique potential whose CPT product is that small carries its own log scale
(``scales``), added to every product of that clique.

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

from typing import Literal, overload

import numpy as np

from bnstudio.inference.jtree import JunctionTree
from bnstudio.inference.variable_elimination import TINY

Message = tuple[np.ndarray, np.ndarray]  # (normalised table, log normaliser of shape (S', N'))


class Propagation:
    """One evaluation of the tree for fixed potentials and evidence; messages and beliefs are memoised."""

    def __init__(self, jt: JunctionTree, potentials: list[np.ndarray],
                 evidence: dict[int, list[np.ndarray]] | None = None, dirty: int = 0,
                 clean: "Propagation | None" = None, scales: dict[int, np.ndarray] | None = None) -> None:
        self.jt = jt
        self.potentials = potentials
        self.scales = scales or {}  # clique -> log scale of its potential (only the rescaled ones)
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

    def _product(self, c: int, exclude: int, safe: bool = False) -> tuple[np.ndarray, np.ndarray | float]:
        """ψ_c · λ_c · Π_{k ≠ exclude} μ_{k→c} and its log scale (the incoming log-normalisers, the
        potential's own); with ``safe`` rescaled after each operand (:func:`scaled_product`)."""
        acc = self.potentials[c]
        log_scale: np.ndarray | float = self.scales.get(c, 0.0)
        fresh = False
        operands = list(self.evidence.get(c, ()))
        for k in self.jt.neighbours[c]:
            if k != exclude:
                table, scale = self.message(k, c)
                operands.append(table)
                log_scale = log_scale + scale
        if safe:
            return scaled_product(acc, operands, log_scale)
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
        """μ_{a→b}; recomputed from a rescaled product when it is tiny (see module docstring)."""
        acc, log_scale = self._product(a, exclude=b)
        return (self._message_from(a, b, acc, log_scale, final=False)
                or self._message_from(a, b, *self._product(a, b, safe=True), final=True))

    def product(self, c: int) -> tuple[np.ndarray, np.ndarray | float, np.ndarray]:
        """The unnormalised belief ψ_c · λ_c · Π_k μ_{k→c} (not to be modified), its log scale and its total
        per batch element; recomputed with rescaling when a total is below TINY (see module docstring)."""
        acc, log_scale = self._product(c, exclude=-1)
        z = _totals(acc)
        if _tiny(z):
            acc, log_scale = self._product(c, exclude=-1, safe=True)
            z = _totals(acc)
        return acc, log_scale, z

    def belief(self, c: int) -> Message:
        """Normalised belief p(C_c | e) and log p(e), each per batch element."""
        if c not in self.beliefs:
            acc, log_scale, z = self.product(c)
            self.beliefs[c] = _normalise(acc if acc is not self.potentials[c] else np.array(acc), z, log_scale)
        return self.beliefs[c]

    def calibrate(self) -> None:
        """Every message of the tree: collect to the root, then each clique sends to its children together.
        Messages taken from the ``clean`` source are made there the same way, together: a hub's messages
        made one at a time would cost O(d²) products (a naive Bayes of 1,000 attributes: seconds)."""
        jt = self.jt
        for c in reversed(jt.preorder):
            if jt.parent[c] >= 0:
                self.message(c, jt.parent[c])
        for c in jt.preorder:
            children = [k for k in jt.neighbours[c] if k != jt.parent[c] and (c, k) not in self.memo]
            if self.clean is not None:
                reused = [k for k in children if not (jt.side(c, k) & self.dirty)]
                self.clean.send(c, reused)
                self.memo.update({(c, k): self.clean.memo[(c, k)] for k in reused})
                children = [k for k in children if (c, k) not in self.memo]
            self.send(c, children)

    def send(self, c: int, targets: list[int]) -> None:
        """The messages from c to each of ``targets``, memoised; products shared when there are more than two
        (:meth:`_send_many`)."""
        missing = [k for k in targets if (c, k) not in self.memo]
        if len(missing) > 2:
            self._send_many(c, missing)
        for k in missing:
            self.message(c, k)

    def _send_many(self, c: int, targets: list[int], safe: bool = False) -> None:
        """Messages from c to each of ``targets`` (whose incoming messages exist), sharing products. When a
        message comes out tiny, all of them are made again with rescaled products (``safe``): still
        O(d log d) products, where recomputing each message alone would cost O(d²)."""
        incoming = {k: self.message(k, c) for k in self.jt.neighbours[c]}
        log_scale = self.scales.get(c, 0.0)
        operands = list(self.evidence.get(c, ()))
        for k, (table, scale) in incoming.items():
            if k not in targets:
                operands.append(table)
                log_scale = log_scale + scale
        acc, log_scale = _times(self.potentials[c], operands, log_scale, safe)
        stack = [(targets, acc, log_scale)]
        sent = {}
        while stack:
            group, acc, log_scale = stack.pop()
            if len(group) == 1:
                message = self._message_from(c, group[0], acc, log_scale, final=safe)
                if message is None:
                    return self._send_many(c, targets, safe=True)
                sent[(c, group[0])] = message
                continue
            half = len(group) // 2
            for mine, other in ((group[:half], group[half:]), (group[half:], group[:half])):
                part_scale = log_scale + sum(incoming[k][1] for k in other)
                part, part_scale = _times(acc, [incoming[k][0] for k in other], part_scale, safe)
                stack.append((mine, part, part_scale))
        self.memo.update(sent)

    @overload
    def _message_from(self, a: int, b: int, acc: np.ndarray, log_scale, final: Literal[True]) -> Message: ...

    @overload
    def _message_from(self, a: int, b: int, acc: np.ndarray, log_scale, final: bool) -> Message | None: ...

    def _message_from(self, a: int, b: int, acc: np.ndarray, log_scale, final: bool) -> Message | None:
        """μ_{a→b} from the product ``acc`` of clique a (all but b's message): summed onto the separator and
        normalised to sum 1 per batch element; None when a total is below TINY, unless ``final``. (Normalising by the largest entry would keep a hub of a thousand
        uninformative messages from shrinking, but numpy's maximum is twice as slow as its sum over
        (separator, S, N) tables with few cases, and the bnlearn networks never need the rescaled path.)"""
        axes, into = self.jt.plan(a, b)
        table = np.add.reduce(acc, axis=axes) if axes else np.array(acc)
        batch = table.shape[-2:]
        z = np.add.reduce(table.reshape((-1,) + batch), axis=0)  # _totals and _tiny, inlined: a query's hot path
        if not final and not (z.item() >= TINY if z.size == 1 else z.size == 0 or z.min() >= TINY):
            return None
        return _normalise(table.reshape(into + batch), z, log_scale)


def _times(acc: np.ndarray, operands: list[np.ndarray], log_scale, safe: bool):
    """(acc · Π operands, log scale): plain products, or with ``safe`` rescaled after each
    (:func:`scaled_product`). ``acc`` is not modified."""
    if safe:
        return scaled_product(acc, operands, log_scale)
    for op in operands:
        acc = acc * op
    return acc, log_scale


def _tiny(z: np.ndarray) -> bool:
    """Whether some batch element's total is below TINY (or 0: exact zeros are confirmed the same way)."""
    if z.size == 1:  # a single case: no numpy reduction (its call costs more than the query's arithmetic)
        return not z.item() >= TINY
    return z.size > 0 and not z.min() >= TINY


def largest(table: np.ndarray) -> np.ndarray:
    """The largest entry of a (*clique, S', N') table per batch element: (S', N')."""
    return np.maximum.reduce(table.reshape((-1,) + table.shape[-2:]), axis=0)


def _totals(table: np.ndarray) -> np.ndarray:
    """Σ over a (*clique, S', N') table's clique axes: (S', N')."""
    return np.add.reduce(table.reshape((-1,) + table.shape[-2:]), axis=0)


def scaled_product(acc: np.ndarray, operands, log_scale: np.ndarray | float
                   ) -> tuple[np.ndarray, np.ndarray | float]:
    """acc · Π operands (arrays with batch axes last, broadcasting), rescaled to max 1 per batch element
    after each product; returns (table, log scale + Σ log of the scales). A product that is exactly 0 for
    an element keeps log scale -inf there: p(e) = 0 for that element. ``acc`` is not modified."""
    for op in operands:
        acc = acc * op
        top = largest(acc)
        positive = top > 0
        safe = np.where(positive, top, 1.0)
        acc /= safe
        log_scale = log_scale + np.where(positive, np.log(safe), -np.inf)
    return acc, log_scale


def _normalise(table: np.ndarray, z: np.ndarray, log_scale: np.ndarray | float) -> Message:
    """Divide each batch element by its total z (zero totals stay zero) and add log z to the scale."""
    if z.all():
        table /= z  # callers pass a fresh array, shaped like the result
        return table, np.log(z) + log_scale
    positive = z > 0
    safe = np.where(positive, z, 1.0)
    table /= safe
    return table, np.where(positive, np.log(safe), -np.inf) + log_scale
