"""Read and write XMLBIF 0.3, the XML version of the Bayesian network Interchange Format (F. Cozman's
"The Interchange Format for Bayesian Networks", XMLBIF 0.3, as used by JavaBayes, Weka, pgmpy and pyAgrum)::

    <BIF VERSION="0.3"><NETWORK>
      <NAME>net</NAME>  <PROPERTY>key = value</PROPERTY>
      <VARIABLE TYPE="nature"> <NAME>X</NAME> <OUTCOME>x1</OUTCOME> ... <PROPERTY>position = (x, y)</PROPERTY>
      </VARIABLE>
      <DEFINITION> <FOR>X</FOR> <GIVEN>P1</GIVEN> <GIVEN>P2</GIVEN> <TABLE>numbers</TABLE> </DEFINITION>
    </NETWORK></BIF>

Conventions
-----------
* ``<TABLE>`` lists, for each parent configuration (the first ``<GIVEN>`` slowest, the last fastest), the
  child's distribution: **the child varies fastest** -- exactly the row-major order of our CPT layout
  (checked against pgmpy's XMLBIFReader/XMLBIFWriter, which reshape the table in Fortran order as
  (|X|, configurations), and against JavaBayes' dog-problem: ``0.6 0.4 0.05 0.95`` is
  p(light-on | family-out=true) then p(light-on | family-out=false)).
* ``<PROPERTY>key = value</PROPERTY>`` in NETWORK goes to ``net.properties[key]``; in the VARIABLE of V,
  ``position = (x, y)`` goes to ``net.positions[V]``, ``description = text`` to V's description and any other
  property to ``net.properties["V.key"]`` (as in :mod:`bnstudio.io.bif`). The writer does the reverse.
* Tag names are accepted in either case; ``<PROBABILITY>`` (the older name of ``<DEFINITION>``) is accepted.
  Variables of TYPE ``decision`` or ``utility`` are refused. Rows are checked and rescaled as described in
  :mod:`bnstudio.io.common`; floats are written with ``repr`` so a round trip is exact.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.common import (assemble, checked_name, first_duplicate, fmt, make_cpt,
                                parse_position, probability, split_properties, split_property)
from bnstudio.io.limits import SizeBudget
from bnstudio.io.repairs import Repairs
from bnstudio.io.xmltree import XmlDocument, parse_xml, read_bytes, text


def _children(element: ET.Element, *tags: str) -> list[ET.Element]:
    return [c for c in element if c.tag in tags]


def _network_element(doc: XmlDocument) -> ET.Element:
    root = doc.root
    if root.tag == "SMILE":
        raise doc.error("this is a GeNIe (XDSL) file, not XMLBIF; give it the .xdsl extension", root, "<smile>")
    if root.tag == "NETWORK":
        return root
    if root.tag != "BIF":
        raise doc.error("expected the root element <BIF> of an XMLBIF file", root)
    networks = _children(root, "NETWORK")
    if len(networks) != 1:
        raise doc.error(f"expected one <NETWORK> element, found {len(networks)}", root)
    return networks[0]


def _one(doc: XmlDocument, parent: ET.Element, tag: str, label: str) -> ET.Element:
    found = _children(parent, tag)
    if len(found) != 1:
        raise doc.error(f"expected one <{tag}>, found {len(found)}", parent, label)
    return found[0]


def parse_xmlbif(data: bytes | str, path: str = "<string>", strict: bool = False) -> Network:
    """Parse XMLBIF ``data`` (see the module docstring); every problem is a :class:`FormatError`; ``strict``
    refuses what would need a repair (see :mod:`bnstudio.io.repairs`)."""
    repairs = Repairs(str(path), strict)
    doc = parse_xml(data, str(path), repairs, upper_tags=True)
    network = _network_element(doc)
    names = _children(network, "NAME")
    name = (text(names[0]) if names else "") or "network"
    properties: dict[str, str] = {}
    positions: dict[str, tuple[float, float]] = {}
    descriptions: dict[str, str] = {}
    states: dict[str, tuple[str, ...]] = {}
    element_of: dict[str, ET.Element] = {}
    for prop in _children(network, "PROPERTY"):
        key, value = split_property(prop.text or "")
        if key:
            properties[key] = value
    budget = SizeBudget()
    var_elements = _children(network, "VARIABLE")
    budget.variables(len(var_elements), lambda m: doc.error(m, network))
    for var_el in var_elements:
        var, outcomes, props = _variable(doc, var_el, budget)
        if var in states:
            raise doc.error(f"variable '{var}' is declared twice (first on line {doc.line(element_of[var])})",
                            var_el, f"<VARIABLE name='{var}'>")
        states[var], element_of[var] = outcomes, var_el
        for key, value in props:
            pos = parse_position(value) if key == "position" else None
            if pos is not None:
                positions[var] = pos
            elif key == "description":
                descriptions[var] = value
            elif key:
                properties[f"{var}.{key}"] = value
    definition_of: dict[str, ET.Element] = {}
    for def_el in _children(network, "DEFINITION", "PROBABILITY"):
        fors = _children(def_el, "FOR")
        if len(fors) != 1:
            raise doc.error(f"expected one <FOR> naming the child, found {len(fors)}", def_el)
        child = text(fors[0])
        label = f"<{def_el.tag}> for '{child}'"
        if child not in states:
            raise doc.error(f"<FOR> names the undeclared variable '{child}'", fors[0], label)
        if child in definition_of:
            raise doc.error(f"second definition of '{child}' (first on line {doc.line(definition_of[child])})",
                            def_el, label)
        definition_of[child] = def_el
    families = []
    for var, var_states in states.items():
        if var not in definition_of:
            raise doc.error(f"variable '{var}' has no <DEFINITION>", element_of[var], f"<VARIABLE name='{var}'>")
        families.append((var, var_states) + _family(doc, definition_of[var], var, states, budget, repairs))

    def fail_at(var: str | None, message: str) -> FormatError:
        return doc.error(message, definition_of.get(var or ""), f"<DEFINITION> for '{var}'")

    net = assemble(families, name, fail_at)
    net.properties, net.positions = properties, positions
    for var, description in descriptions.items():
        net.set_description(var, description)
    repairs.warn()
    return net


def _variable(doc: XmlDocument, var_el: ET.Element, budget: SizeBudget
              ) -> tuple[str, tuple[str, ...], list[tuple[str, str]]]:
    """(name, states, [(property key, value)]) of a <VARIABLE>, checked."""
    var = checked_name(_one(doc, var_el, "NAME", "<VARIABLE>").text, "variable",
                       lambda m: doc.error(m, var_el, "<VARIABLE>"))
    label = f"<VARIABLE name='{var}'>"
    kind = var_el.get("TYPE", var_el.get("type", "nature")).strip().lower()
    if kind != "nature":
        raise doc.error(f"variables of type '{kind}' are not supported (only 'nature')", var_el, label)
    elements = _children(var_el, "OUTCOME")
    budget.states(var, len(elements), lambda m: doc.error(m, var_el, label))
    outcomes = [checked_name(out.text, f"state of '{var}'", lambda m, e=out: doc.error(m, e, label))
                for out in elements]
    if not outcomes:
        raise doc.error(f"variable '{var}' has no <OUTCOME>", var_el, label)
    twice = first_duplicate(outcomes)
    if twice is not None:
        raise doc.error(f"variable '{var}' lists the state '{twice}' twice", var_el, label)
    return var, tuple(outcomes), [split_property(prop.text or "") for prop in _children(var_el, "PROPERTY")]


def _family(doc: XmlDocument, def_el: ET.Element, child: str, states: dict[str, tuple[str, ...]],
            budget: SizeBudget, repairs: Repairs) -> tuple:
    label = f"<{def_el.tag}> for '{child}'"
    parents: list[str] = []
    givens = _children(def_el, "GIVEN")
    budget.parents(child, len(givens), lambda m: doc.error(m, def_el, label))
    for given in givens:
        parent = text(given)
        if parent not in states:
            raise doc.error(f"unknown parent '{parent}' in <GIVEN>", given, label)
        if parent == child:
            raise doc.error(f"cycle {child} -> {child} ('{child}' is its own parent)", given, label)
        if parent in parents:
            raise doc.error(f"parent '{parent}' is listed twice", given, label)
        parents.append(parent)
    table = _one(doc, def_el, "TABLE", label)
    fail = lambda m: doc.error(m, table, label)  # noqa: E731
    values = [probability(tok, fail) for tok in (table.text or "").split()]
    cpt = make_cpt(values, child, len(states[child]), [(p, states[p]) for p in parents], fail, budget, repairs)
    return parents, cpt


def read_xmlbif(path: PathLike, strict: bool = False) -> Network:
    """Read an XMLBIF 0.3 file (``.xmlbif``, ``.xml``, ``.bifxml``); every failure is a :class:`FormatError`."""
    return parse_xmlbif(read_bytes(path), str(path), strict)


def _prop(key: str, value: str, indent: str) -> str:
    return f"{indent}<PROPERTY>{escape(f'{key} = {value}')}</PROPERTY>"


def format_xmlbif(net: Network) -> str:
    """The XMLBIF 0.3 text of ``net`` (UTF-8), floats at full precision."""
    network_props, owned = split_properties(net)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<!-- XMLBIF 0.3, written by BN Studio -->",
             '<BIF VERSION="0.3">', "<NETWORK>", f"  <NAME>{escape(net.name)}</NAME>"]
    lines += [_prop(k, v, "  ") for k, v in network_props]
    for var in net.variables:
        lines += ['  <VARIABLE TYPE="nature">', f"    <NAME>{escape(var)}</NAME>"]
        lines += [f"    <OUTCOME>{escape(s)}</OUTCOME>" for s in net.states(var)]
        if net.variable(var).description:
            lines.append(_prop("description", net.variable(var).description, "    "))
        if var in net.positions:
            x, y = net.positions[var]
            lines.append(_prop("position", f"({fmt(x)}, {fmt(y)})", "    "))
        lines += [_prop(k, v, "    ") for k, v in owned[var]]
        lines.append("  </VARIABLE>")
    for var in net.variables:
        cpt = net.cpt(var)
        lines += ["  <DEFINITION>", f"    <FOR>{escape(var)}</FOR>"]
        lines += [f"    <GIVEN>{escape(p)}</GIVEN>" for p in net.parents(var)]
        rows = cpt.reshape(-1, cpt.shape[-1])
        lines.append("    <TABLE>" + "\n      ".join(" ".join(map(fmt, row)) for row in rows) + "</TABLE>")
        lines.append("  </DEFINITION>")
    lines += ["</NETWORK>", "</BIF>"]
    return "\n".join(lines) + "\n"


def write_xmlbif(net: Network, path: PathLike) -> None:
    """Write ``net`` as XMLBIF 0.3 to ``path`` atomically."""
    atomic_write_text(path, format_xmlbif(net))
