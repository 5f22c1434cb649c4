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
  :mod:`bnstudio.io.genie.xdsl_canonical`: their model is kept in ``net.canonical`` and written back as it was read);
  ``equation``, ``mau`` and every other node type are refused with the node id and its type.
* Influence diagrams (:func:`read_xdsl_model`, see :mod:`bnstudio.io.influence`): ``<decision>`` nodes (states,
  ``<parents>`` = informational parents) and ``<utility>`` nodes (``<parents>``, ``<utilities>`` in the order of
  ``<probabilities>`` without the child: the last parent fastest). :func:`read_xdsl` refuses them in one line.
* Positions: ``net.positions[X]`` is the centre of the ``<position>`` rectangle; the writer draws an 80 x 40
  rectangle around the position rounded to whole pixels (GeNIe wants integers). Positions inside submodels
  are read as they are (relative to their submodel).
* Names: the genie ``<name>`` of a node becomes its description unless it just repeats the id (a genie
  ``<comment>`` wins over it); the network name is the genie ``name`` attribute, else the smile ``id``.
  GeNIe requires identifiers (a letter, then letters, digits, ``_``) for node and state ids: the writer
  replaces other names (see ``common.identifiers``) and puts the node's original name in ``<name>``.
* Dynamic networks (a ``<dynamic>`` element, ``dynamic="plate"`` nodes) read as a two-slice network in
  pyAgrum's naming convention (:mod:`bnstudio.io.genie.xdsl_dynamic`); :func:`bnstudio.temporal.xdsl.write_dbn_xdsl`
  writes one back.
* The writer lists nodes in a topological order (GeNIe wants parents defined before their children), so a
  network whose variables are not in such an order reads back reordered. Properties are not stored.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from functools import partial
from typing import TYPE_CHECKING, Hashable

from bnstudio.core.canonical import canonical_of
from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.bulk import number_text, probabilities, tables_text, untouched_tables
from bnstudio.io.common import (
    NUMBER,
    Family,
    assemble,
    checked_name,
    first_duplicate,
    identifiers,
    make_cpt,
    probability,
)
from bnstudio.io.genie.xdsl_canonical import TAGS as CANONICAL_TAGS
from bnstudio.io.genie.xdsl_canonical import canonical_tag, format_canonical, read_canonical
from bnstudio.io.genie.xdsl_dynamic import is_dynamic, two_slice
from bnstudio.io.influence import diagram_with, node_order, not_a_network, utility_table
from bnstudio.io.limits import SizeBudget
from bnstudio.io.repairs import Repairs
from bnstudio.io.xml.xmltree import XmlDocument, describe, parse_xml, read_bytes, text

if TYPE_CHECKING:
    import numpy as np

    from bnstudio.decision.model import InfluenceDiagram

NODE_WIDTH, NODE_HEIGHT = 80, 40


def parse_xdsl(data: bytes | str, path: str = "<string>", strict: bool = False) -> Network:
    """Parse XDSL ``data`` (see the module docstring); every problem is a :class:`FormatError`; ``strict``
    refuses what would need a repair (see :mod:`bnstudio.io.repairs`). A file with decision or utility nodes is
    refused (see :func:`parse_xdsl_model`)."""
    parsed = _Parsed(data, str(path), strict)
    if parsed.decisions or parsed.utilities:
        decisions, utilities = [d for d, _ in parsed.decisions], [u for u, _, _ in parsed.utilities]
        first = min(decisions + utilities, key=lambda v: parsed.doc.line(parsed.element_of[v]) or 0)
        raise parsed.fail_at(first, not_a_network(decisions, utilities))
    net = parsed.model()
    assert isinstance(net, Network)  # without decision and utility nodes (refused above)
    return net


def parse_xdsl_model(data: bytes | str, path: str = "<string>", strict: bool = False
                     ) -> Network | InfluenceDiagram:
    """As :func:`parse_xdsl`, but ``<decision>`` and ``<utility>`` nodes give an influence diagram."""
    return _Parsed(data, str(path), strict).model()


class _Parsed:
    """The nodes of an XDSL document: chance/decision families, decisions' and utilities' parts."""

    def __init__(self, data: bytes | str, path: str, strict: bool) -> None:
        self.repairs = repairs = Repairs(path, strict, normaliser="GeNIe")
        self.doc = doc = parse_xml(data, path, repairs)
        root = doc.root
        if root.tag != "smile":
            hint = " (this looks like XMLBIF: give it the .xmlbif extension)" if root.tag.upper() == "BIF" else ""
            raise doc.error(f"expected the root element <smile> of an XDSL file{hint}", root)
        nodes = root.findall("nodes")
        if len(nodes) != 1:
            raise doc.error(f"expected one <nodes> element, found {len(nodes)}", root)
        states: dict[str, tuple[str, ...]] = {}
        element_of: dict[str, ET.Element] = {}
        self.element_of = element_of
        budget = SizeBudget()
        budget.variables(len(nodes[0]), lambda m: doc.error(m, nodes[0]))
        utilities: dict[str, ET.Element] = {}
        for node in nodes[0]:
            # the ignores: mypy infers no type for a lambda with a default argument
            var = checked_name(node.get("id"), "node id", lambda m, n=node: doc.error(m, n))  # type: ignore[misc]
            if node.tag == "mau":
                raise doc.error(f"multi-attribute utility node '{var}' (<mau>) is not supported: only plain "
                                f"<utility> nodes, whose tables are added", node)
            if node.tag not in ("cpt", "decision", "utility") + CANONICAL_TAGS:
                raise doc.error(f"node '{var}' has type '{node.tag}', which is not supported (only 'cpt' chance, "
                                f"'noisymax' and 'deterministic' nodes, 'decision' and 'utility' nodes)", node)
            if var in element_of:
                raise doc.error(f"node '{var}' is defined twice (first on line {doc.line(element_of[var])})", node)
            element_of[var] = node
            if node.tag == "utility":
                utilities[var] = node
                continue
            elements = node.findall("state")
            budget.states(var, len(elements), partial(doc.error, element=node))
            names = [checked_name(s.get("id"), f"state of '{var}'",
                                  lambda m, s=s, node=node: doc.error(m, s, describe(node)))  # type: ignore[misc]
                     for s in elements]
            if not names:
                raise doc.error(f"node '{var}' has no <state>", node)
            twice = first_duplicate(names)
            if twice is not None:
                raise doc.error(f"node '{var}' lists the state '{twice}' twice", node)
            states[var] = tuple(names)
        self.models: dict = {}
        self.families: list[Family] = []
        self.decisions: list[tuple[str, list[str]]] = []
        self.utilities: list[tuple[str, list[str], np.ndarray]] = []
        untouched = _untouched(element_of, states)
        for var in states:
            node = element_of[var]
            parents = _parents(doc, node, states, set(utilities), budget)
            if node.tag == "decision":
                self.families.append((var, states[var], (), None))
                self.decisions.append((var, parents))
            else:
                self.families.append((var, states[var], parents,
                                      _table(doc, node, parents, states, budget, repairs, self.models,
                                             untouched)))
        for var, node in utilities.items():
            parents = _parents(doc, node, states, set(utilities), budget)
            tables = node.findall("utilities")
            if len(tables) != 1:
                raise doc.error(f"expected one <utilities>, found {len(tables)}", node)
            fail = lambda m, tables=tables, node=node: doc.error(m, tables[0], describe(node))  # noqa: E731
            self.utilities.append((var, parents, utility_table(text(tables[0]).split(), var,
                                                               [(p, states[p]) for p in parents], fail, budget)))

    def fail_at(self, var: str | None, message: str) -> FormatError:
        return self.doc.error(message, self.element_of.get(var or ""))

    def model(self) -> Network | InfluenceDiagram:
        net = assemble(self.families, network_name(self.doc.root), self.fail_at)
        net.canonical.update(self.models)
        _read_genie(self.doc, net)
        if is_dynamic(self.doc.root):
            if self.decisions or self.utilities:
                raise self.doc.error("a dynamic network with decision or utility nodes is not supported")
            net = two_slice(self.doc, net, self.repairs, self.element_of)
        model = diagram_with(net, self.decisions, self.utilities, self.fail_at) \
            if self.decisions or self.utilities else net
        self.repairs.warn(model)
        return model


def _parents(doc: XmlDocument, node: ET.Element, states: dict[str, tuple[str, ...]], utilities: set[str],
             budget: SizeBudget) -> list[str]:
    var = node.get("id", "").strip()
    parents: list[str] = []
    for el in node.findall("parents"):
        names = text(el).split()
        budget.parents(var, len(parents) + len(names), partial(doc.error, element=el, label=describe(node)))
        for parent in names:
            if parent in utilities:
                raise doc.error(f"utility node '{parent}' has a child '{var}'; utility nodes cannot have children",
                                el, describe(node))
            if parent not in states:
                raise doc.error(f"unknown parent '{parent}' in <parents>", el, describe(node))
            if parent == var:
                raise doc.error(f"cycle {var} -> {var} ('{var}' is its own parent)", el, describe(node))
            if parent in parents:
                raise doc.error(f"parent '{parent}' is listed twice", el, describe(node))
            parents.append(parent)
    return parents


def _untouched(element_of: dict[str, ET.Element], states: dict[str, tuple[str, ...]]) -> dict[Hashable, np.ndarray]:
    """The tables of the ``cpt`` nodes whose <parents> and <probabilities> are plain and need no repair, all read
    at once (:func:`~bnstudio.io.bulk.untouched_tables`); nothing is judged here (:func:`_table` reads and judges
    every node in order, taking these tables as they are)."""
    tables = []
    for var in states:
        node = element_of[var]
        if node.tag != "cpt":
            continue
        parents = [p for el in node.findall("parents") for p in text(el).split()]
        found = node.findall("probabilities")
        if len(found) == 1 and var not in parents and len(set(parents)) == len(parents) \
                and all(p in states for p in parents):
            shape = tuple(len(states[p]) for p in parents) + (len(states[var]),)
            tables.append((var, text(found[0]).split(), shape))
    return untouched_tables(tables)


def _table(doc: XmlDocument, node: ET.Element, parents: list[str], states: dict[str, tuple[str, ...]],
           budget: SizeBudget, repairs: Repairs, models: dict, untouched: dict[Hashable, np.ndarray] | None = None):
    """The CPT of a chance node (a canonical model is kept in ``models`` and expanded)."""
    var = node.get("id", "").strip()
    if node.tag in CANONICAL_TAGS:  # the model (kept in models), expanded to the CPT
        fail = lambda m: doc.error(m, node)  # noqa: E731
        budget.family(var, tuple(len(states[p]) for p in parents) + (len(states[var]),), fail)
        models[var] = read_canonical(node, var, states[var], [(p, states[p]) for p in parents], repairs, fail)
        return models[var].expand()
    tables = node.findall("probabilities")
    if len(tables) != 1:
        raise doc.error(f"expected one <probabilities>, found {len(tables)}", node)
    fail = lambda m: doc.error(m, tables[0], describe(node))  # noqa: E731
    if untouched and var in untouched:
        budget.family(var, untouched[var].shape, fail)  # as make_cpt does first
        return untouched[var]
    tokens = text(tables[0]).split()
    values = probabilities(tokens, lambda: [probability(tok, fail) for tok in tokens])
    return make_cpt(values, var, len(states[var]), [(p, states[p]) for p in parents], fail, budget, repairs)


def network_name(root: ET.Element) -> str:
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


def read_xdsl_model(path: PathLike, strict: bool = False) -> Network | InfluenceDiagram:
    """Read a GeNIe ``.xdsl`` file into a network or an influence diagram."""
    return parse_xdsl_model(read_bytes(path), str(path), strict)


def format_xdsl(net: Network) -> str:
    """The XDSL text of ``net`` (nodes in topological order, floats at full precision)."""
    return _format(net, net.topological_order(), {}, {})


def format_xdsl_diagram(diagram: InfluenceDiagram) -> str:
    """The XDSL text of an influence diagram: ``<decision>`` nodes with their informational parents in
    ``<parents>``, ``<utility>`` nodes with ``<utilities>`` (the last parent fastest, as in ``<probabilities>``);
    every node after its parents."""
    return _format(diagram.network, node_order(diagram), {d.name: d.parents for d in diagram.decisions},
                   {u.name: u for u in diagram.utilities})


def _format(net: Network, order: list[str], decisions: dict[str, tuple[str, ...]], utilities: dict) -> str:
    from xml.sax.saxutils import escape, quoteattr  # here: it imports urllib, http and email
    ids = identifiers(list(net.variables) + list(utilities))
    net_id = identifiers([net.name])[net.name]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<!-- written by BN Studio -->",
             f'<smile version="1.0" id={quoteattr(net_id)} numsamples="10000" discsamples="10000">',
             "  <nodes>"]
    chance = [v for v in net.variables if v not in decisions]
    tables = dict(zip(chance, tables_text([net.cpt(v) for v in chance]), strict=True))
    for var in order:
        if var in utilities:
            u = utilities[var]
            lines.append(f"    <utility id={quoteattr(ids[var])}>")
            if u.parents:
                lines.append(f"      <parents>{' '.join(ids[p] for p in u.parents)}</parents>")
            lines += [f"      <utilities>{number_text(u.table)}</utilities>", "    </utility>"]
            continue
        state_ids = identifiers(net.states(var))
        model = canonical_of(net, var)
        tag = "decision" if var in decisions else "cpt" if model is None else canonical_tag(model)
        parents = decisions[var] if var in decisions else net.parents(var)
        lines.append(f"    <{tag} id={quoteattr(ids[var])}>")
        lines += [f"      <state id={quoteattr(state_ids[s])} />" for s in net.states(var)]
        if parents:
            lines.append(f"      <parents>{' '.join(ids[p] for p in parents)}</parents>")
        if tag == "cpt":
            lines.append(f"      <probabilities>{tables[var]}</probabilities>")
        elif tag != "decision":
            assert model is not None  # the tag of a canonical model
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
        if var in net and net.variable(var).description:
            lines.append(f"        <comment>{escape(net.variable(var).description)}</comment>")
        lines.append("      </node>")
    lines += ["    </genie>", "  </extensions>", "</smile>"]
    return "\n".join(lines) + "\n"


def write_xdsl(net: Network, path: PathLike) -> None:
    """Write ``net`` as a GeNIe ``.xdsl`` file to ``path`` atomically."""
    atomic_write_text(path, format_xdsl(net))


def write_xdsl_diagram(diagram: InfluenceDiagram, path: PathLike) -> None:
    """Write an influence diagram as a GeNIe ``.xdsl`` file to ``path`` atomically."""
    atomic_write_text(path, format_xdsl_diagram(diagram))
