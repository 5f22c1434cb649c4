"""The junction tree the engine propagates on, for notebooks (pyAgrum's ``showJunctionTree``): a box per clique
listing its variables and its table size, a line per tree edge labelled with the separator. Neighbouring cliques
of fewer than 64 entries are merged (:data:`bnstudio.inference.jtree.MERGE_BELOW`), as the engine merges them.

>>> from bnstudio.core import network_from_dsl
>>> five = ("a", "b", "c", "d", "e")
>>> svg = junction_tree_svg(network_from_dsl("A->B; B->C; A->C; C->D", seed=0, states=dict.fromkeys("ABCD", five)))
>>> svg.count("<g>") == 2 and "{A, B, C} · 125" in svg and ">C</text>" in svg
True
"""
from __future__ import annotations

from bnstudio.core.network import Network
from bnstudio.display.graph_svg import Edge, box_graph_svg

#: cliques drawn at most; a larger tree is summarised in words (its SVG would be unreadable anyway)
MAX_CLIQUES = 200


def junction_tree_svg(net: Network) -> str:
    """The whole network's junction tree (``InferenceEngine(net).compiled.jt``) as SVG."""
    from bnstudio.inference import InferenceEngine

    jt = InferenceEngine(net).compiled.jt
    if jt is None:
        raise ValueError(f"the junction tree of '{net.name}' is too large to build; see `bnstudio info` for its size")
    if len(jt.cliques) > MAX_CLIQUES:
        raise ValueError(f"the junction tree has {len(jt.cliques)} cliques; drawing more than {MAX_CLIQUES} is "
                         f"unreadable (width {jt.width}, {jt.total_size:,} entries)")
    names = net.variables
    labels = {str(c): "{" + ", ".join(names[v] for v in clique) + "}" + f" · {jt.sizes[c]:,}"
              for c, clique in enumerate(jt.cliques)}
    edges = []
    for c, p in enumerate(jt.parent):
        if p >= 0:
            separator = sorted(set(jt.cliques[c]) & set(jt.cliques[p]))
            edges.append(Edge(str(p), str(c), label=", ".join(names[v] for v in separator) or "∅"))
    return box_graph_svg(labels, edges)
