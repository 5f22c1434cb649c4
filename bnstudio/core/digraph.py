"""The network's arcs as plain dictionaries: what :class:`bnstudio.core.network.Network` needs of a directed graph
(cycle checks, a deterministic topological order) without importing networkx, which would cost a command-line
process more than numpy does (docs/architecture.md §3.18). ``Network.graph()`` still hands out a networkx
``DiGraph``, built on demand by :meth:`DiGraph.to_networkx`.

>>> g = DiGraph()
>>> g.add_edges_from([("A", "B"), ("B", "C")])
>>> g.shortest_path("A", "C"), g.shortest_path("C", "A")
(['A', 'B', 'C'], None)
"""
from __future__ import annotations

import heapq
from collections import deque
from typing import Callable, Generic, Hashable, Iterable, Mapping, TypeVar

#: a node: any hashable value (the network's nodes are variable names)
N = TypeVar("N", bound=Hashable)


class DiGraph(Generic[N]):
    """Nodes with successor and predecessor sets, both kept in insertion order."""

    __slots__ = ("_succ", "_pred")

    def __init__(self) -> None:
        self._succ: dict[N, dict[N, None]] = {}
        self._pred: dict[N, dict[N, None]] = {}

    def __contains__(self, node: object) -> bool:
        return node in self._succ

    def __len__(self) -> int:
        return len(self._succ)

    def add_node(self, node: N) -> None:
        if node not in self._succ:
            self._succ[node] = {}
            self._pred[node] = {}

    def add_edge(self, tail: N, head: N) -> None:
        self.add_node(tail)
        self.add_node(head)
        self._succ[tail][head] = None
        self._pred[head][tail] = None

    def add_edges_from(self, edges: Iterable[tuple[N, N]]) -> None:
        for tail, head in edges:
            self.add_edge(tail, head)

    def remove_edge(self, tail: N, head: N) -> None:
        """Remove tail -> head (KeyError if there is no such arc)."""
        del self._succ[tail][head]
        del self._pred[head][tail]

    def remove_edges_from(self, edges: Iterable[tuple[N, N]]) -> None:
        for tail, head in edges:
            self.remove_edge(tail, head)

    def remove_node(self, node: N) -> None:
        """Remove ``node`` and every arc at it."""
        for head in self._succ.pop(node):
            del self._pred[head][node]
        for tail in self._pred.pop(node):
            del self._succ[tail][node]

    def edges(self) -> list[tuple[N, N]]:
        return [(tail, head) for tail, heads in self._succ.items() for head in heads]

    def copy(self) -> "DiGraph[N]":
        new: DiGraph[N] = DiGraph()
        new._succ = {node: dict(heads) for node, heads in self._succ.items()}
        new._pred = {node: dict(tails) for node, tails in self._pred.items()}
        return new

    def relabel(self, mapping: Mapping[N, N]) -> "DiGraph[N]":
        """A copy with nodes renamed by ``mapping`` (nodes not in it keep their names)."""
        new: DiGraph[N] = DiGraph()
        for node in self._succ:
            new.add_node(mapping.get(node, node))
        new.add_edges_from((mapping.get(t, t), mapping.get(h, h)) for t, h in self.edges())
        return new

    def shortest_path(self, source: N, target: N) -> list[N] | None:
        """A shortest directed path [source, ..., target] (breadth-first), or None when there is none."""
        if source not in self._succ or target not in self._succ:
            return None
        came_from: dict[N, N | None] = {source: None}
        queue = deque([source])
        while queue:
            node = queue.popleft()
            if node == target:
                path = [node]
                previous = came_from[node]
                while previous is not None:
                    path.append(previous)
                    previous = came_from[previous]
                return path[::-1]
            for head in self._succ[node]:
                if head not in came_from:
                    came_from[head] = node
                    queue.append(head)
        return None

    def topological_order(self, key: Callable[[N], object]) -> list[N]:
        """Kahn's algorithm taking, among the nodes whose predecessors are all placed, the one with the
        smallest ``key`` first: the unique order networkx's ``lexicographical_topological_sort`` gives.
        Raises ValueError on a cycle."""
        waiting = {node: len(tails) for node, tails in self._pred.items()}
        ready = [(key(node), k, node) for k, node in enumerate(self._succ) if not waiting[node]]
        heapq.heapify(ready)
        rank = {node: k for k, node in enumerate(self._succ)}
        order: list[N] = []
        while ready:
            _, _, node = heapq.heappop(ready)
            order.append(node)
            for head in self._succ[node]:
                waiting[head] -= 1
                if not waiting[head]:
                    heapq.heappush(ready, (key(head), rank[head], head))
        if len(order) != len(self._succ):
            raise ValueError("the graph has a cycle")
        return order

    def to_networkx(self):
        """The same graph as a networkx ``DiGraph`` (networkx is imported here, on first use)."""
        import networkx as nx
        graph = nx.DiGraph()
        graph.add_nodes_from(self._succ)
        graph.add_edges_from(self.edges())
        return graph
