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
  property to ``net.properties["V.key"]`` (as in :mod:`bnstudio.io.bif.reader`). The writer does the reverse.
* Tag names are accepted in either case; ``<PROBABILITY>`` (the older name of ``<DEFINITION>``) is accepted.
  Variables of TYPE ``decision`` or ``utility`` make an influence diagram (:func:`parse_xmlbif_model`, see
  :mod:`bnstudio.io.influence`), as pyAgrum writes it: a decision's ``<DEFINITION>`` lists its informational
  parents (a table there is not read); a utility variable has at most one (dummy) ``<OUTCOME>`` and one
  ``<TABLE>`` entry per parent configuration, the first ``<GIVEN>`` slowest. :func:`parse_xmlbif` refuses them.
  Rows are checked and rescaled as described in :mod:`bnstudio.io.common`; floats are written with ``repr`` so
  a round trip is exact.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Hashable, Literal, overload

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.bulk import number_text, probabilities, tables_rows, untouched_tables
from bnstudio.io.common import (
    Family,
    assemble,
    checked_name,
    first_duplicate,
    fmt,
    make_cpt,
    parse_position,
    probability,
    split_properties,
    split_property,
)
from bnstudio.io.influence import diagram_with, not_a_network, utility_table
from bnstudio.io.limits import SizeBudget
from bnstudio.io.repairs import Repairs
from bnstudio.io.xml.xmltree import XmlDocument, parse_xml, read_bytes, text

if TYPE_CHECKING:
    import numpy as np

    from bnstudio.decision.model import InfluenceDiagram


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
    refuses what would need a repair (see :mod:`bnstudio.io.repairs`). A file with variables of TYPE
    ``decision`` or ``utility`` is refused (see :func:`parse_xmlbif_model`)."""
    return _parse(data, path, strict, model=False)


def parse_xmlbif_model(data: bytes | str, path: str = "<string>", strict: bool = False
                       ) -> Network | InfluenceDiagram:
    """As :func:`parse_xmlbif`, but decision and utility variables give an influence diagram."""
    return _parse(data, path, strict, model=True)


@overload
def _parse(data: bytes | str, path: str, strict: bool, model: Literal[False]) -> Network: ...
@overload
def _parse(data: bytes | str, path: str, strict: bool, model: bool) -> Network | InfluenceDiagram: ...


def _parse(data: bytes | str, path: str, strict: bool, model: bool) -> Network | InfluenceDiagram:
    repairs = Repairs(str(path), strict)
    doc = parse_xml(data, str(path), repairs, upper_tags=True)
    network = _network_element(doc)
    names = _children(network, "NAME")
    name = (text(names[0]) if names else "") or "network"
    properties: dict[str, str] = {}
    positions: dict[str, tuple[float, float]] = {}
    descriptions: dict[str, str] = {}
    states: dict[str, tuple[str, ...]] = {}
    kinds: dict[str, str] = {}
    element_of: dict[str, ET.Element] = {}
    for prop in _children(network, "PROPERTY"):
        key, value = split_property(prop.text or "")
        if key:
            properties[key] = value
    budget = SizeBudget()
    var_elements = _children(network, "VARIABLE")
    budget.variables(len(var_elements), lambda m: doc.error(m, network))
    for var_el in var_elements:
        var, kind, outcomes, props = _variable(doc, var_el, budget)
        if var in kinds:
            raise doc.error(f"variable '{var}' is declared twice (first on line {doc.line(element_of[var])})",
                            var_el, f"<VARIABLE name='{var}'>")
        states[var], kinds[var], element_of[var] = outcomes, kind, var_el
        if kind == "utility":
            continue  # a utility node is not a variable of the network: no properties nor position kept
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
    decisions = [v for v, k in kinds.items() if k == "decision"]
    utilities = [v for v, k in kinds.items() if k == "utility"]
    if (decisions or utilities) and not model:
        first = next(v for v in kinds if v in decisions or v in utilities)
        raise doc.error(not_a_network(decisions, utilities), element_of[first], f"<VARIABLE name='{first}'>")
    families: list[Family] = []
    decision_parts, utility_parts = [], []
    untouched = _untouched(definition_of, states, kinds)
    for var, var_states in states.items():
        if var not in definition_of and kinds[var] != "decision":
            raise doc.error(f"variable '{var}' has no <DEFINITION>", element_of[var], f"<VARIABLE name='{var}'>")
        if kinds[var] == "decision":
            given = _given(doc, definition_of[var], var, kinds, budget) if var in definition_of else []
            families.append((var, var_states, (), None))
            decision_parts.append((var, given))
        elif kinds[var] == "utility":
            utility_parts.append((var,) + _utility(doc, definition_of[var], var, states, kinds, budget))
        else:
            families.append((var, var_states) + _family(doc, definition_of[var], var, states, kinds, budget,
                                                        repairs, untouched))

    def fail_at(var: str | None, message: str) -> FormatError:
        return doc.error(message, definition_of.get(var or ""), f"<DEFINITION> for '{var}'")

    net = assemble(families, name, fail_at)
    net.properties, net.positions = properties, positions
    for var, description in descriptions.items():
        net.set_description(var, description)
    result = diagram_with(net, decision_parts, utility_parts, fail_at) if decisions or utilities else net
    repairs.warn(result)
    return result


def _variable(doc: XmlDocument, var_el: ET.Element, budget: SizeBudget
              ) -> tuple[str, str, tuple[str, ...], list[tuple[str, str]]]:
    """(name, kind, states, [(property key, value)]) of a <VARIABLE>, checked; a utility variable has no
    states (pyAgrum writes one dummy <OUTCOME>, which is ignored)."""
    var = checked_name(_one(doc, var_el, "NAME", "<VARIABLE>").text, "variable",
                       lambda m: doc.error(m, var_el, "<VARIABLE>"))
    label = f"<VARIABLE name='{var}'>"
    kind = var_el.get("TYPE", var_el.get("type", "nature")).strip().lower()
    if kind not in ("nature", "decision", "utility"):
        raise doc.error(f"variables of type '{kind}' are not supported (only 'nature', 'decision' and "
                        f"'utility')", var_el, label)
    elements = _children(var_el, "OUTCOME")
    props = [split_property(prop.text or "") for prop in _children(var_el, "PROPERTY")]
    if kind == "utility":
        if len(elements) > 1:
            raise doc.error(f"utility variable '{var}' has {len(elements)} <OUTCOME>s, expected at most one",
                            var_el, label)
        return var, kind, (), props
    budget.states(var, len(elements), lambda m: doc.error(m, var_el, label))
    # the ignore: mypy infers no type for a lambda with a default argument
    outcomes = [checked_name(out.text, f"state of '{var}'",
                             lambda m, e=out: doc.error(m, e, label))  # type: ignore[misc]
                for out in elements]
    if not outcomes:
        raise doc.error(f"variable '{var}' has no <OUTCOME>", var_el, label)
    twice = first_duplicate(outcomes)
    if twice is not None:
        raise doc.error(f"variable '{var}' lists the state '{twice}' twice", var_el, label)
    return var, kind, tuple(outcomes), props


def _given(doc: XmlDocument, def_el: ET.Element, child: str, kinds: dict[str, str], budget: SizeBudget
           ) -> list[str]:
    """The parents a <DEFINITION> lists in <GIVEN>, checked (a utility variable is nobody's parent)."""
    label = f"<{def_el.tag}> for '{child}'"
    parents: list[str] = []
    givens = _children(def_el, "GIVEN")
    budget.parents(child, len(givens), lambda m: doc.error(m, def_el, label))
    for given in givens:
        parent = text(given)
        if parent not in kinds:
            raise doc.error(f"unknown parent '{parent}' in <GIVEN>", given, label)
        if kinds[parent] == "utility":
            raise doc.error(f"utility node '{parent}' has a child '{child}'; utility nodes cannot have children",
                            given, label)
        if parent == child:
            raise doc.error(f"cycle {child} -> {child} ('{child}' is its own parent)", given, label)
        if parent in parents:
            raise doc.error(f"parent '{parent}' is listed twice", given, label)
        parents.append(parent)
    return parents


def _untouched(definition_of: dict[str, ET.Element], states: dict[str, tuple[str, ...]], kinds: dict[str, str]
               ) -> dict[Hashable, np.ndarray]:
    """The tables of the chance variables whose <GIVEN> and <TABLE> are plain and need no repair, all read at
    once (:func:`~bnstudio.io.bulk.untouched_tables`); nothing is judged here (:func:`_family` reads and judges
    every variable in order, taking these tables as they are)."""
    tables = []
    for var, def_el in definition_of.items():
        parents = [text(given) for given in _children(def_el, "GIVEN")]
        table = _children(def_el, "TABLE")
        if kinds[var] != "nature" or len(table) != 1 or var in parents or len(set(parents)) != len(parents) \
                or not all(kinds.get(p) in ("nature", "decision") for p in parents):
            continue
        shape = tuple(len(states[p]) for p in parents) + (len(states[var]),)
        tables.append((var, (table[0].text or "").split(), shape))
    return untouched_tables(tables)


def _family(doc: XmlDocument, def_el: ET.Element, child: str, states: dict[str, tuple[str, ...]],
            kinds: dict[str, str], budget: SizeBudget, repairs: Repairs,
            untouched: dict[Hashable, np.ndarray] | None = None) -> tuple:
    label = f"<{def_el.tag}> for '{child}'"
    parents = _given(doc, def_el, child, kinds, budget)
    table = _one(doc, def_el, "TABLE", label)
    fail = lambda m: doc.error(m, table, label)  # noqa: E731
    if untouched and child in untouched:
        budget.family(child, untouched[child].shape, fail)  # as make_cpt does first
        return parents, untouched[child]
    tokens = (table.text or "").split()
    values = probabilities(tokens, lambda: [probability(tok, fail) for tok in tokens])
    cpt = make_cpt(values, child, len(states[child]), [(p, states[p]) for p in parents], fail, budget, repairs)
    return parents, cpt


def _utility(doc: XmlDocument, def_el: ET.Element, child: str, states: dict[str, tuple[str, ...]],
             kinds: dict[str, str], budget: SizeBudget) -> tuple:
    """(parents, table) of a utility variable: one number per parent configuration, the first <GIVEN> slowest
    (pyAgrum's order: checked in tests/io/test_influence_io.py)."""
    label = f"<{def_el.tag}> for '{child}'"
    parents = _given(doc, def_el, child, kinds, budget)
    table = _one(doc, def_el, "TABLE", label)
    return parents, utility_table((table.text or "").split(), child, [(p, states[p]) for p in parents],
                                  lambda m: doc.error(m, table, label), budget)


def read_xmlbif(path: PathLike, strict: bool = False) -> Network:
    """Read an XMLBIF 0.3 file (``.xmlbif``, ``.xml``, ``.bifxml``); every failure is a :class:`FormatError`."""
    return parse_xmlbif(read_bytes(path), str(path), strict)


def read_xmlbif_model(path: PathLike, strict: bool = False) -> Network | InfluenceDiagram:
    """Read an XMLBIF 0.3 file into a network or an influence diagram."""
    return parse_xmlbif_model(read_bytes(path), str(path), strict)


def _prop(key: str, value: str, indent: str) -> str:
    from xml.sax.saxutils import escape  # here: it imports urllib, http and email
    return f"{indent}<PROPERTY>{escape(f'{key} = {value}')}</PROPERTY>"


def format_xmlbif(net: Network) -> str:
    """The XMLBIF 0.3 text of ``net`` (UTF-8), floats at full precision."""
    return _format(net, {}, [])


def format_xmlbif_diagram(diagram: InfluenceDiagram) -> str:
    """The XMLBIF 0.3 text of an influence diagram as pyAgrum writes one: ``TYPE="decision"`` variables whose
    ``<DEFINITION>`` lists the informational parents without a table, ``TYPE="utility"`` variables with one
    dummy ``<OUTCOME>`` and one table entry per parent configuration (the first ``<GIVEN>`` slowest)."""
    return _format(diagram.network, {d.name: d.parents for d in diagram.decisions},
                   [(u.name, u.parents, u.table) for u in diagram.utilities])


def _format(net: Network, decisions: dict[str, tuple[str, ...]],
            utilities: list[tuple[str, tuple[str, ...], np.ndarray]]) -> str:
    from xml.sax.saxutils import escape  # here: it imports urllib, http and email
    network_props, owned = split_properties(net)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<!-- XMLBIF 0.3, written by BN Studio -->",
             '<BIF VERSION="0.3">', "<NETWORK>", f"  <NAME>{escape(net.name)}</NAME>"]
    lines += [_prop(k, v, "  ") for k, v in network_props]
    for var in net.variables:
        kind = "decision" if var in decisions else "nature"
        lines += [f'  <VARIABLE TYPE="{kind}">', f"    <NAME>{escape(var)}</NAME>"]
        lines += [f"    <OUTCOME>{escape(s)}</OUTCOME>" for s in net.states(var)]
        if net.variable(var).description:
            lines.append(_prop("description", net.variable(var).description, "    "))
        if var in net.positions:
            x, y = net.positions[var]
            lines.append(_prop("position", f"({fmt(x)}, {fmt(y)})", "    "))
        lines += [_prop(k, v, "    ") for k, v in owned[var]]
        lines.append("  </VARIABLE>")
    for name, _, _ in utilities:
        lines += ['  <VARIABLE TYPE="utility">', f"    <NAME>{escape(name)}</NAME>", "    <OUTCOME>0</OUTCOME>",
                  "  </VARIABLE>"]
    chance = [v for v in net.variables if v not in decisions]
    rows = dict(zip(chance, tables_rows([net.cpt(v) for v in chance]), strict=True))
    for var in net.variables:
        parents = decisions.get(var, net.parents(var))
        lines += ["  <DEFINITION>", f"    <FOR>{escape(var)}</FOR>"]
        lines += [f"    <GIVEN>{escape(p)}</GIVEN>" for p in parents]
        if var not in decisions:
            lines.append("    <TABLE>" + "\n      ".join(rows[var]) + "</TABLE>")
        lines.append("  </DEFINITION>")
    for name, parents, table in utilities:
        lines += ["  <DEFINITION>", f"    <FOR>{escape(name)}</FOR>"]
        lines += [f"    <GIVEN>{escape(p)}</GIVEN>" for p in parents]
        lines += ["    <TABLE>" + number_text(table) + "</TABLE>", "  </DEFINITION>"]
    lines += ["</NETWORK>", "</BIF>"]
    return "\n".join(lines) + "\n"


def write_xmlbif(net: Network, path: PathLike) -> None:
    """Write ``net`` as XMLBIF 0.3 to ``path`` atomically."""
    atomic_write_text(path, format_xmlbif(net))


def write_xmlbif_diagram(diagram: InfluenceDiagram, path: PathLike) -> None:
    """Write an influence diagram as XMLBIF 0.3 to ``path`` atomically."""
    atomic_write_text(path, format_xmlbif_diagram(diagram))
