"""``bnstudio convert IN OUT [--json]``: read a network in one format and write it in another (by extension).

What the output format cannot keep is found by reading the written file back and comparing it with the input:
``lost`` lists the kinds of information that did not survive (for instance UAI keeps no names nor canonical
models, BIF no descriptions, XDSL no properties and its own node order).

An influence diagram (decision and utility nodes) converts between the formats that hold one: Hugin ``.net``,
GeNIe ``.xdsl``, XMLBIF (``.xmlbif``, ``.xml``, ``.bifxml``), ``.bnsproj`` and the JSON form ``.json``; to
another format it is refused in one line.

A two-slice network (pyAgrum's X0 / Xt names) converted to ``.xdsl`` is written as a GeNIe dynamic network
(``--slices T`` sets its ``numslices``, ``--plain`` keeps the plain network; :mod:`bnstudio.cli.convert_dbn`),
and a GeNIe dynamic ``.xdsl`` reads as the 2TBN, so it converts to any format.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, print_json, writing

if TYPE_CHECKING:
    from bnstudio.core.network import Network
    from bnstudio.decision.model import InfluenceDiagram
    from bnstudio.temporal.model import TwoSliceNetwork


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Convert a network file to another format, chosen by the extensions (.bif, .xmlbif, .net, .xdsl, .uai)."""
    from bnstudio.io import FORMATS

    parser.add_argument("input", type=opt.path, help=f"network file to read ({', '.join(sorted(FORMATS))})")
    parser.add_argument("output", type=opt.path, help="file to write; its extension picks the format")
    parser.add_argument("--json", action="store_true", help="print JSON")
    dynamic = parser.add_mutually_exclusive_group()
    dynamic.add_argument("--slices", type=opt.integer(1), metavar="T",
                         help="a two-slice network (X0/Xt names) to .xdsl: GeNIe's dynamic network of T slices "
                              "(numslices; default: the input's, else 10); refused for any other network")
    dynamic.add_argument("--plain", action="store_true",
                         help="a two-slice network to .xdsl: write the plain network with its X0/Xt names, not "
                              "GeNIe's dynamic form")
    add_strict_option(parser)


def _name_map(before: Network, after: Network) -> dict[str, str] | None:
    """Which variable of ``after`` each variable of ``before`` became (same name, identifier, or position)."""
    from bnstudio.io.common import identifiers

    if set(before.variables) == set(after.variables):
        return {v: v for v in before.variables}
    ids = identifiers(before.variables)
    if set(ids.values()) == set(after.variables):
        return ids
    if len(before) == len(after):
        return dict(zip(before.variables, after.variables, strict=True))
    return None


def lost_information(before: Network, after: Network) -> list[str]:
    """The kinds of information of ``before`` that ``after`` (the written file, read back) does not have."""
    import numpy as np

    from bnstudio.core.canonical import canonical_of

    names = _name_map(before, after)
    if names is None:
        return ["structure"]
    lost = []
    if before.name != after.name:
        lost.append("network name")
    if any(v != w for v, w in names.items()):
        lost.append("variable names")
    if [names[v] for v in before.variables] != after.variables:
        lost.append("variable order")
    if any(len(before.states(v)) != len(after.states(w)) or
           [names[p] for p in before.parents(v)] != list(after.parents(w)) for v, w in names.items()):
        return lost + ["structure"]
    if any(before.states(v) != after.states(w) for v, w in names.items()):
        lost.append("state names")
    if any(not np.array_equal(before.cpt(v), after.cpt(w)) for v, w in names.items()):
        lost.append("exact probabilities")
    if any(before.variable(v).description != after.variable(w).description for v, w in names.items()):
        lost.append("descriptions")
    if any(after.positions.get(names[v]) != pos for v, pos in before.positions.items()):
        lost.append("positions")
    if any(canonical_of(before, v) is not None and canonical_of(after, w) is None for v, w in names.items()):
        lost.append("canonical models")
    if any((a := before.alpha(v)) is not None and ((b := after.alpha(w)) is None or not np.array_equal(a, b))
           for v, w in names.items()):
        lost.append("Dirichlet counts")
    renamed = {f"{v}.": f"{w}." for v, w in names.items() if v != w}
    for key, value in before.properties.items():
        owner = next((old for old in renamed if key.startswith(old)), None)
        moved = renamed[owner] + key[len(owner):] if owner else key
        if after.properties.get(moved) != value:
            lost.append("properties")
            break
    return lost


def lost_diagram_information(before: InfluenceDiagram, after: InfluenceDiagram) -> list[str]:
    """What of influence diagram ``before`` the written file, read back as ``after``, does not have: the
    network's losses (:func:`lost_information`) and the decision and utility parts."""
    from bnstudio.io.common import identifiers

    lost = lost_information(before.network, after.network)
    names = identifiers(list(before.network.variables) + list(before.utility_names))
    rename = names if set(after.utility_names) != set(before.utility_names) else {n: n for n in names}
    if [rename[d] for d in before.decision_names] != list(after.decision_names) or any(
            [rename[p] for p in d.parents] != list(after.decision(rename[d.name]).parents) for d in before.decisions):
        return sorted(set(lost) | {"structure"})
    for u in before.utilities:
        if rename[u.name] not in after.utility_names or \
                [rename[p] for p in u.parents] != list(after.utility(rename[u.name]).parents):
            return sorted(set(lost) | {"structure"})
        if not (after.utility(rename[u.name]).table == u.table).all() and "exact utilities" not in lost:
            lost.append("exact utilities")
    return lost


def run(args: argparse.Namespace) -> int:
    from bnstudio.cli.convert_dbn import two_slice_target
    from bnstudio.core.network import Network
    from bnstudio.errors import FormatError, ValidationError
    from bnstudio.io import FORMATS, diagram_format_for, format_for, read_model, read_network, write_network

    out_diagram_format = diagram_format_for(args.output)
    out_format = format_for(args.output) if out_diagram_format is None or args.output.lower().endswith(
        tuple(FORMATS)) else None  # an unknown output extension fails before any work
    model = read_model(args.input)        # strict or lenient as main set it (cli.common.reading_as_asked)
    if not isinstance(model, Network):
        if args.slices is not None:
            raise ValidationError(f"--slices writes a two-slice network and {args.input} is an influence diagram")
        return _convert_diagram(args, model)
    if out_format is None:
        raise FormatError("the JSON form holds influence diagrams only; the input is a Bayesian network",
                          path=str(args.output))
    tbn = two_slice_target(args, model)
    if tbn is not None:
        return _convert_two_slice(args, model, tbn)
    with writing(args.output):
        write_network(model, args.output)
    lost = lost_information(model, read_network(args.output))
    data = {"input": str(args.input), "output": str(args.output), "variables": len(model),
            "arcs": len(model.arcs()), "lost": lost}
    return _report(args, data, out_format.name)


def _convert_two_slice(args: argparse.Namespace, net: Network, tbn: TwoSliceNetwork) -> int:
    """Write the 2TBN ``tbn`` (read as ``net``) as a GeNIe dynamic network (:mod:`bnstudio.cli.convert_dbn`)."""
    from bnstudio.cli.convert_dbn import lost_two_slice_information
    from bnstudio.errors import ValidationError
    from bnstudio.io import read_network
    from bnstudio.temporal.xdsl import dynamic_slices, write_dbn_xdsl

    slices = dynamic_slices(net, args.slices)
    with writing(args.output):
        try:
            write_dbn_xdsl(tbn, args.output, slices)
        except ValidationError as exc:
            raise ValidationError(f"{exc} (--plain writes the network with its X0/Xt names instead)") from None
    lost = lost_two_slice_information(net, read_network(args.output))
    data = {"input": str(args.input), "output": str(args.output), "variables": len(net), "arcs": len(net.arcs()),
            "slices": slices, "lost": lost}
    return _report(args, data, "GeNIe dynamic XDSL")


def _convert_diagram(args: argparse.Namespace, diagram: InfluenceDiagram) -> int:
    from bnstudio.decision.model import InfluenceDiagram
    from bnstudio.errors import FormatError
    from bnstudio.io import DIAGRAM_FORMATS, diagram_format_for, read_model, write_influence_diagram

    out_format = diagram_format_for(args.output)
    if out_format is None:
        raise FormatError(f"the input is an influence diagram (decision and utility nodes), which this format "
                          f"cannot hold; use one of {', '.join(sorted(DIAGRAM_FORMATS))}", path=str(args.output))
    with writing(args.output):
        write_influence_diagram(diagram, args.output)
    written = read_model(args.output)
    assert isinstance(written, InfluenceDiagram)  # the file holds the decisions and utilities written to it
    lost = lost_diagram_information(diagram, written)
    data = {"input": str(args.input), "output": str(args.output), "variables": len(diagram.network),
            "decisions": len(diagram.decisions), "utilities": len(diagram.utilities),
            "arcs": diagram.graph().number_of_edges(), "lost": lost}
    return _report(args, data, out_format.name)


def _report(args: argparse.Namespace, data: dict, format_name: str) -> int:
    lost = data["lost"]
    if args.json:
        print_json(data)
        return 0
    extra = f", {data['decisions']} decisions, {data['utilities']} utility nodes" if "decisions" in data else ""
    print(f"wrote {args.output} ({format_name}): {data['variables']} variables{extra}, {data['arcs']} arcs"
          + (f", {data['slices']} slices" if "slices" in data else ""))
    if lost:
        print(f"not kept by {format_name}: {', '.join(lost)}")
    return 0
