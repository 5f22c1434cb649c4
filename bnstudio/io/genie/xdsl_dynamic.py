"""GeNIe's dynamic Bayesian networks in XDSL, read into a 2TBN in pyAgrum's naming convention (docs/temporal.md).

The format, as SMILE writes it (verified on two files SMILE wrote for its Tutorial 6,
github.com/HocSinhNghiemTuc/BNs and github.com/JixTheCat/my_first_bn, ``tutorial6.xdsl``, with the tutorial's
code for the meaning of the numbers; BayesFusion's SMILE Wrappers manual, "Dynamic Bayesian networks")::

    <nodes>
      <cpt id="Location"> ... </cpt>                       a contemporal node (no dynamic attribute)
      <cpt id="Rain" dynamic="plate">                      a node of the temporal plate
        <state .../> <parents>Location</parents>           arcs inside a slice
        <probabilities>...</probabilities>                 its table in slice 0
      </cpt>
    </nodes>
    <dynamic numslices="5">
      <cpt id="Rain" order="1">                            its table in slices t >= 1
        <parents>Rain</parents>                            the parents in slice t-1 (temporal arcs of order 1)
        <probabilities>...</probabilities>                 over the <nodes> parents, then these, child fastest
      </cpt>
    </dynamic>
    <extensions><genie ...><plate leftwidth=".." rightwidth="..">l t r b</plate> ...

A plate node without a ``<dynamic>`` table uses its ``<nodes>`` table in every slice. Read as a 2TBN: plate node
X gives ``X0`` (the ``<nodes>`` family) and ``Xt`` (the order-1 family: the ``<nodes>`` parents in slice t, then
the temporal parents as ``Y0``). A contemporal node C (constant over time) gives ``C0`` with its family and
``Ct`` a copy of ``C0`` (the identity table): the unrolled network then carries one value of C through every
slice, which is what a contemporal node means. ``numslices`` (GeNIe's number of slices, a whole number >= 1)
is kept as the network property ``numslices`` (:func:`slice_count`), so the app's Time panel starts with it
and writing the 2TBN back to XDSL keeps it. Refused, one line each: a ``dynamic`` attribute other than
``plate`` (anchor and terminal nodes), temporal arcs of order other than 1, a temporal table for a node outside
the plate or naming a parent outside it, and a contemporal node with a parent in the plate.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.bulk import probabilities
from bnstudio.io.common import Family, assemble, make_cpt, probability
from bnstudio.io.limits import SizeBudget
from bnstudio.io.repairs import Repairs
from bnstudio.io.xml.xmltree import XmlDocument, describe, text

PLATE = "plate"
#: the network property that keeps a dynamic XDSL file's ``numslices``
NUMSLICES = "numslices"
#: the horizontal distance between the centres of the right-most slice-0 node and the left-most transition node
#: (a node is drawn up to about 170 wide, so the two slices' frames keep apart)
SLICE_GAP = 300.0


def is_dynamic(root: ET.Element) -> bool:
    """Whether an XDSL document describes a dynamic network (a ``<dynamic>`` element or a plate node)."""
    nodes = root.find("nodes")
    return root.find("dynamic") is not None or (
        nodes is not None and any(node.get("dynamic") is not None for node in nodes))


def slice_count(net: Network) -> int | None:
    """The number of slices kept with ``net`` (property :data:`NUMSLICES`, read from a dynamic XDSL file), or
    None when it has none or not a whole number >= 1."""
    text = net.properties.get(NUMSLICES, "").strip()
    return int(text) if text.isdigit() and int(text) >= 1 else None


def two_slice(doc: XmlDocument, static: Network, repairs: Repairs,
              element_of: dict[str, ET.Element]) -> Network:
    """The 2TBN (pyAgrum's names, module docstring) of a dynamic XDSL document whose ``<nodes>`` read as
    ``static``."""
    plate = []
    for var in static.variables:
        kind = element_of[var].get("dynamic")
        if kind is not None and kind != PLATE:
            raise doc.error(f"node '{var}' is a GeNIe '{kind}' node: only plate nodes and contemporal nodes (no "
                            f"dynamic attribute) convert to a two-slice network", element_of[var])
        if kind == PLATE:
            plate.append(var)
    for var in static.variables:
        inside = [p for p in static.parents(var) if p in plate]
        if var not in plate and inside:
            raise doc.error(f"contemporal node '{var}' has the plate node '{inside[0]}' as a parent",
                            element_of[var])
    temporal = _temporal_tables(doc, static, set(plate), repairs)
    families: list[Family] = []
    for var in static.variables:
        families.append((var + "0", static.states(var), [p + "0" for p in static.parents(var)], static.cpt(var)))
    for var in static.variables:
        if var not in plate:
            families.append((var + "t", static.states(var), [var + "0"], np.eye(len(static.states(var)))))
        elif var in temporal:
            lagged, cpt = temporal[var]
            families.append((var + "t", static.states(var),
                             [p + "t" for p in static.parents(var)] + [p + "0" for p in lagged], cpt))
        else:
            families.append((var + "t", static.states(var), [p + "t" for p in static.parents(var)],
                             static.cpt(var)))
    net = assemble(families, static.name, lambda v, m: doc.error(m))
    _place(static, net)
    for var in static.variables:
        if static.variable(var).description:
            for copy in (var + "0", var + "t"):
                net.set_description(copy, static.variable(var).description)
    dynamic = doc.root.find("dynamic")
    slices = (dynamic.get(NUMSLICES) or "").strip() if dynamic is not None else ""
    if slices.isdigit() and int(slices) >= 1:
        net.properties[NUMSLICES] = str(int(slices))
    return net


def _temporal_tables(doc: XmlDocument, static: Network, plate: set[str],
                     repairs: Repairs) -> dict[str, tuple[list[str], np.ndarray]]:
    """X -> (its parents in slice t-1, its table for slices t >= 1), from ``<dynamic>``."""
    found = doc.root.findall("dynamic")
    if len(found) > 1:
        raise doc.error(f"expected at most one <dynamic> element, found {len(found)}", found[1])
    tables: dict[str, tuple[list[str], np.ndarray]] = {}
    budget = SizeBudget()
    for node in found[0] if found else []:
        var = (node.get("id") or "").strip()
        if var in tables:
            raise doc.error(f"node '{var}' has two temporal tables of order 1", node)
        tables[var] = _temporal_table(doc, node, var, static, plate, repairs, budget)
    return tables


def _temporal_table(doc: XmlDocument, node: ET.Element, var: str, static: Network, plate: set[str],
                    repairs: Repairs, budget: SizeBudget) -> tuple[list[str], np.ndarray]:
    """(parents in slice t-1, table for slices t >= 1) of one ``<dynamic>`` entry."""
    def fail(message: str) -> FormatError:
        return doc.error(message, node)

    if node.tag != "cpt":
        raise fail(f"temporal node '{var}' has type '{node.tag}': only 'cpt' temporal tables are read")
    if var not in static:
        raise fail(f"temporal table for the unknown node '{var}'")
    if var not in plate:
        raise fail(f"temporal table for '{var}', which is not in the temporal plate (dynamic=\"plate\")")
    order = (node.get("order") or "").strip()
    if order != "1":
        raise fail(f"temporal arcs of order {order or '?'} into '{var}' are not supported: a two-slice "
                   f"network has arcs from slice t-1 only (order 1)")
    lagged = [p for el in node.findall("parents") for p in text(el).split()]
    for p in lagged:
        if p not in plate:
            raise fail(f"temporal parent '{p}' of '{var}' is not a node of the temporal plate")
    if len(set(lagged)) != len(lagged):
        raise fail(f"a temporal parent of '{var}' is listed twice")
    rows = node.findall("probabilities")
    if len(rows) != 1:
        raise fail(f"expected one <probabilities>, found {len(rows)}")

    def row_fail(message: str) -> FormatError:
        return doc.error(message, rows[0], describe(node))

    tokens = text(rows[0]).split()
    values = probabilities(tokens, lambda: [probability(tok, row_fail) for tok in tokens])
    parents = [(p, static.states(p)) for p in static.parents(var)] + \
              [(f"{p}[t-1]", static.states(p)) for p in lagged]
    return lagged, make_cpt(values, var, len(static.states(var)), parents, row_fail, budget, repairs)


def _place(static: Network, net: Network) -> None:
    """``X0`` where GeNIe drew X, ``Xt`` to the right of every slice-0 node (nothing if a node has no position)."""
    if not static.positions or any(v not in static.positions for v in static.variables):
        return
    xs = [static.positions[v][0] for v in static.variables]
    shift = max(xs) - min(xs) + SLICE_GAP
    for var in static.variables:
        x, y = static.positions[var]
        net.positions[var + "0"] = (x, y)
        net.positions[var + "t"] = (x + shift, y)
