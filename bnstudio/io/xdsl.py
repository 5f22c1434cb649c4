"""Read and write GeNIe/SMILE XDSL files (BayesFusion's XML format for GeNIe networks)::

    <smile version="1.0" id="Net" numsamples="10000" discsamples="10000">
      <nodes>
        <cpt id="X"> <state id="a"/> <state id="b"/> <parents>P1 P2</parents>
                     <probabilities>numbers</probabilities> </cpt>
      </nodes>
      <extensions><genie version="1.0" app="..." name="Net">
        <node id="X"> <name>X</name> ... <position>left top right bottom</position> </node>
      </genie></extensions>
    </smile>

Conventions
-----------
* ``<probabilities>`` lists, for each configuration of the parents in the order of ``<parents>`` (the first
  slowest), the child's distribution: **the child varies fastest**, the row-major order of our CPT layout
  (the same reading as pgmpy's XDSL reader and writer; pyAgrum 3.3.1 instead varies the *first*
  parent fastest after the child -- its reader's comment says it means to reverse the parents -- so its
  multi-parent tables read here with the parent axes permuted).
* ``<cpt>`` (chance) nodes are read, and the canonical ``<noisymax>`` and ``<deterministic>`` nodes (see
  :mod:`bnstudio.io.xdsl_canonical`: their model is kept in ``net.canonical`` and written back as it was read);
  ``decision``, ``utility``, ``equation`` and every other node type are refused with the node id and its type.
* Positions: ``net.positions[X]`` is the centre of the ``<position>`` rectangle; the writer draws an 80 x 40
  rectangle around the position rounded to whole pixels (GeNIe wants integers). Positions inside submodels
  are read as they are (relative to their submodel).
* Names: the genie ``<name>`` of a node becomes its description unless it just repeats the id (a genie
  ``<comment>`` wins over it); the network name is the genie ``name`` attribute, else the smile ``id``.
  GeNIe requires identifiers (a letter, then letters, digits, ``_``) for node and state ids: the writer
  replaces other names (see ``common.identifiers``) and puts the node's original name in ``<name>``.
* The writer lists nodes in a topological order (GeNIe wants parents defined before their children), so a
  network whose variables are not in such an order reads back reordered. Properties are not stored.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

from bnstudio.core.canonical import canonical_of
from bnstudio.core.network import Network
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.common import (NUMBER, assemble, checked_name, first_duplicate, fmt, identifiers,
                                make_cpt, probability)
from bnstudio.io.limits import SizeBudget
from bnstudio.io.repairs import Repairs
from bnstudio.io.xdsl_canonical import TAGS as CANONICAL_TAGS, canonical_tag, format_canonical, read_canonical
from bnstudio.io.xmltree import XmlDocument, describe, parse_xml, read_bytes, text

NODE_WIDTH, NODE_HEIGHT = 80, 40


def parse_xdsl(data: bytes | str, path: str = "<string>", strict: bool = False) -> Network:
    """Parse XDSL ``data`` (see the module docstring); every problem is a :class:`FormatError`; ``strict``
    refuses what would need a repair (see :mod:`bnstudio.io.repairs`)."""
    repairs = Repairs(str(path), strict, normaliser="GeNIe")
    doc = parse_xml(data, str(path), repairs)
    root = doc.root
    if root.tag != "smile":
        hint = " (this looks like XMLBIF: give it the .xmlbif extension)" if root.tag.upper() == "BIF" else ""
        raise doc.error(f"expected the root element <smile> of an XDSL file{hint}", root)
    nodes = root.findall("nodes")
    if len(nodes) != 1:
        raise doc.error(f"expected one <nodes> element, found {len(nodes)}", root)
    states: dict[str, tuple[str, ...]] = {}
    element_of: dict[str, ET.Element] = {}
    budget = SizeBudget()
    budget.variables(len(nodes[0]), lambda m: doc.error(m, nodes[0]))
    for node in nodes[0]:
        var = checked_name(node.get("id"), "node id", lambda m, n=node: doc.error(m, n))
        if node.tag not in ("cpt",) + CANONICAL_TAGS:
            raise doc.error(f"node '{var}' has type '{node.tag}', which is not supported (only 'cpt' chance, "
                            f"'noisymax' and 'deterministic' nodes)", node)
        if var in states:
            raise doc.error(f"node '{var}' is defined twice (first on line {doc.line(element_of[var])})", node)
        elements = node.findall("state")
        budget.states(var, len(elements), lambda m: doc.error(m, node))
        names = [checked_name(s.get("id"), f"state of '{var}'", lambda m, s=s: doc.error(m, s, describe(node)))
                 for s in elements]
        if not names:
            raise doc.error(f"node '{var}' has no <state>", node)
        twice = first_duplicate(names)
        if twice is not None:
            raise doc.error(f"node '{var}' lists the state '{twice}' twice", node)
        states[var], element_of[var] = tuple(names), node
    models: dict = {}
    families = [(var, states[var]) + _family(doc, element_of[var], states, budget, repairs, models)
                for var in states]
    net = assemble(families, _network_name(root), lambda v, m: doc.error(m, element_of.get(v or "")))
    net.canonical.update(models)
    _read_genie(doc, net)
    repairs.warn()
    return net


def _family(doc: XmlDocument, node: ET.Element, states: dict[str, tuple[str, ...]], budget: SizeBudget,
            repairs: Repairs, models: dict) -> tuple:
    var = node.get("id", "").strip()
    parents: list[str] = []
    for el in node.findall("parents"):
        names = text(el).split()
        budget.parents(var, len(parents) + len(names), lambda m: doc.error(m, el, describe(node)))
        for parent in names:
            if parent not in states:
                raise doc.error(f"unknown parent '{parent}' in <parents>", el, describe(node))
            if parent == var:
                raise doc.error(f"cycle {var} -> {var} ('{var}' is its own parent)", el, describe(node))
            if parent in parents:
                raise doc.error(f"parent '{parent}' is listed twice", el, describe(node))
            parents.append(parent)
    if node.tag in CANONICAL_TAGS:  # the model (kept in models), expanded to the CPT
        fail = lambda m: doc.error(m, node)  # noqa: E731
        budget.family(var, tuple(len(states[p]) for p in parents) + (len(states[var]),), fail)
        models[var] = read_canonical(node, var, states[var], [(p, states[p]) for p in parents], repairs, fail)
        return parents, models[var].expand()
    tables = node.findall("probabilities")
    if len(tables) != 1:
        raise doc.error(f"expected one <probabilities>, found {len(tables)}", node)
    fail = lambda m: doc.error(m, tables[0], describe(node))  # noqa: E731
    values = [probability(tok, fail) for tok in text(tables[0]).split()]
    return parents, make_cpt(values, var, len(states[var]), [(p, states[p]) for p in parents], fail, budget,
                             repairs)


def _network_name(root: ET.Element) -> str:
    genie = root.find("extensions/genie")
    name = (genie.get("name") if genie is not None else None) or root.get("id") or "network"
    return name.strip() or "network"


def _read_genie(doc: XmlDocument, net: Network) -> None:
    genie = doc.root.find("extensions/genie")
    if genie is None:
        return
    for node in genie.iter("node"):
        var = (node.get("id") or "").strip()
        if var not in net:
            continue
        comment, name = text(node.find("comment")), text(node.find("name"))
        description = comment or (name if name != var else "")
        if description:
            net.set_description(var, description)
        corners = text(node.find("position")).split()
        if len(corners) != 4 or not all(NUMBER.fullmatch(c) for c in corners):
            if corners:
                raise doc.error(f"the position of '{var}' must be 'left top right bottom'", node.find("position"),
                                describe(node))
            continue
        left, top, right, bottom = map(float, corners)
        net.positions[var] = ((left + right) / 2, (top + bottom) / 2)


def read_xdsl(path: PathLike, strict: bool = False) -> Network:
    """Read a GeNIe ``.xdsl`` file; every failure is a :class:`FormatError`."""
    return parse_xdsl(read_bytes(path), str(path), strict)


def format_xdsl(net: Network) -> str:
    """The XDSL text of ``net`` (nodes in topological order, floats at full precision)."""
    ids = identifiers(net.variables)
    net_id = identifiers([net.name])[net.name]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<!-- written by BN Studio -->",
             f'<smile version="1.0" id={quoteattr(net_id)} numsamples="10000" discsamples="10000">',
             "  <nodes>"]
    order = net.topological_order()
    for var in order:
        state_ids = identifiers(net.states(var))
        model = canonical_of(net, var)
        tag = "cpt" if model is None else canonical_tag(model)
        lines.append(f"    <{tag} id={quoteattr(ids[var])}>")
        lines += [f"      <state id={quoteattr(state_ids[s])} />" for s in net.states(var)]
        if net.parents(var):
            lines.append(f"      <parents>{' '.join(ids[p] for p in net.parents(var))}</parents>")
        if model is None:
            lines.append(f"      <probabilities>{' '.join(map(fmt, net.cpt(var).ravel()))}</probabilities>")
        else:
            lines += format_canonical(model, ids[var], [state_ids[s] for s in net.states(var)],
                                      [ids[p] for p in net.parents(var)])
        lines.append(f"    </{tag}>")
    lines += ["  </nodes>", "  <extensions>",
              f'    <genie version="1.0" app="BN Studio" name={quoteattr(net.name)}>']
    for var in order:
        lines += [f"      <node id={quoteattr(ids[var])}>", f"        <name>{escape(var)}</name>",
                  '        <interior color="e5f6f7" />', '        <outline color="000080" />',
                  '        <font color="000000" name="Arial" size="8" />']
        if var in net.positions and all(map(math.isfinite, net.positions[var])):
            x, y = (round(c) for c in net.positions[var])
            left, top = x - NODE_WIDTH // 2, y - NODE_HEIGHT // 2
            lines.append(f"        <position>{left} {top} {left + NODE_WIDTH} {top + NODE_HEIGHT}</position>")
        if net.variable(var).description:
            lines.append(f"        <comment>{escape(net.variable(var).description)}</comment>")
        lines.append("      </node>")
    lines += ["    </genie>", "  </extensions>", "</smile>"]
    return "\n".join(lines) + "\n"


def write_xdsl(net: Network, path: PathLike) -> None:
    """Write ``net`` as a GeNIe ``.xdsl`` file to ``path`` atomically."""
    atomic_write_text(path, format_xdsl(net))
