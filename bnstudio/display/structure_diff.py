"""Two networks' structures compared, for notebooks (pyAgrum's ``getBNDiff``): the union of their variables and
arcs, each arc drawn by how it stands in ``other`` against ``reference``.

* **kept** (grey): A→B in both;
* **added** (green): A→B in ``other`` only, and neither direction in ``reference``;
* **missing** (red, dashed): A→B in ``reference`` only, and neither direction in ``other``;
* **reversed** (orange): B→A in ``other`` where ``reference`` has A→B (drawn as ``other`` has it).

The structural Hamming distance counts the arcs added, missing or reversed (Tsamardinos, Brown & Aliferis 2006,
§6: a reversal counts once). Variables of one network only are drawn with a red (reference only) or green fill.

>>> from bnstudio.core import network_from_dsl
>>> d = arc_diff(network_from_dsl("A->B; B->C"), network_from_dsl("B->A; A->C"))
>>> (d.reversed, d.added, d.missing, d.shd)
([('B', 'A')], [('A', 'C')], [('B', 'C')], 3)
"""
from __future__ import annotations

from dataclasses import dataclass

from bnstudio.core.network import Network
from bnstudio.display import look
from bnstudio.display.graph_svg import Edge, box_graph_svg

KEPT, ADDED, MISSING, REVERSED = look.ARC, "#2E9D5B", "#C8392E", "#E07020"
ONLY_REFERENCE, ONLY_OTHER = "#F6D5D2", "#D5EEDD"


@dataclass(frozen=True)
class ArcDiff:
    """The arcs of ``other`` against ``reference`` (module docstring); reversed arcs as ``other`` has them."""

    kept: list[tuple[str, str]]
    added: list[tuple[str, str]]
    missing: list[tuple[str, str]]
    reversed: list[tuple[str, str]]
    only_reference: list[str]
    only_other: list[str]

    @property
    def shd(self) -> int:
        return len(self.added) + len(self.missing) + len(self.reversed)


def arc_diff(reference: Network, other: Network) -> ArcDiff:
    """How ``other``'s arcs stand against ``reference``'s (variables matched by name)."""
    ref, oth = set(reference.arcs()), set(other.arcs())
    reversed_ = [(a, b) for a, b in other.arcs() if (b, a) in ref and (a, b) not in ref]
    return ArcDiff(kept=[e for e in other.arcs() if e in ref],
                   added=[(a, b) for a, b in other.arcs() if (a, b) not in ref and (b, a) not in ref],
                   missing=[(a, b) for a, b in reference.arcs() if (a, b) not in oth and (b, a) not in oth],
                   reversed=reversed_,
                   only_reference=[v for v in reference.variables if v not in other],
                   only_other=[v for v in other.variables if v not in reference])


def diff_svg(reference: Network, other: Network) -> str:
    """The union graph with every arc coloured by :func:`arc_diff`, and a legend with the counts and the SHD;
    the variables where the reference's layout puts them."""
    d = arc_diff(reference, other)
    names = list(reference.variables) + d.only_other
    edges = ([Edge(a, b, True, KEPT) for a, b in d.kept] + [Edge(a, b, True, ADDED, width=2) for a, b in d.added]
             + [Edge(a, b, True, MISSING, dash=True, width=2) for a, b in d.missing]
             + [Edge(a, b, True, REVERSED, width=2) for a, b in d.reversed])
    fills = {**{v: ONLY_REFERENCE for v in d.only_reference}, **{v: ONLY_OTHER for v in d.only_other}}
    legend = [(KEPT, f"in both ({len(d.kept)})", False), (ADDED, f"added ({len(d.added)})", False),
              (MISSING, f"missing ({len(d.missing)})", True), (REVERSED, f"reversed ({len(d.reversed)})", False),
              ("#FFFFFF", f"structural Hamming distance {d.shd}", False)]
    # placed as the reference is (the union of two DAGs may have a cycle); other's own variables by its arcs
    placing = reference.arcs() + [(a, b) for a, b in other.arcs() if a in d.only_other or b in d.only_other]
    return box_graph_svg({v: v for v in names}, edges, fills, legend, layout_arcs=placing)
