"""``bnstudio convert IN OUT [--json]``: read a network in one format and write it in another (by extension).

What the output format cannot keep is found by reading the written file back and comparing it with the input:
``lost`` lists the kinds of information that did not survive (for instance UAI keeps no names nor canonical
models, BIF no descriptions, XDSL no properties and its own node order).
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, print_json, reading_as_asked, writing

if TYPE_CHECKING:
    from bnstudio.core.network import Network


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Convert a network file to another format, chosen by the extensions (.bif, .xmlbif, .net, .xdsl, .uai)."""
    from bnstudio.io import FORMATS

    parser.add_argument("input", type=opt.path, help=f"network file to read ({', '.join(sorted(FORMATS))})")
    parser.add_argument("output", type=opt.path, help="file to write; its extension picks the format")
    parser.add_argument("--json", action="store_true", help="print JSON")
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
        return dict(zip(before.variables, after.variables))
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
    renamed = {f"{v}.": f"{w}." for v, w in names.items() if v != w}
    for key, value in before.properties.items():
        owner = next((old for old in renamed if key.startswith(old)), None)
        moved = renamed[owner] + key[len(owner):] if owner else key
        if after.properties.get(moved) != value:
            lost.append("properties")
            break
    return lost


def run(args: argparse.Namespace) -> int:
    from bnstudio.io import format_for, read_network, write_network

    out_format = format_for(args.output)  # an unknown output extension fails before any work
    with reading_as_asked(args):
        net = read_network(args.input)
    with writing(args.output):
        write_network(net, args.output)
    lost = lost_information(net, read_network(args.output))
    data = {"input": str(args.input), "output": str(args.output), "variables": len(net),
            "arcs": len(net.arcs()), "lost": lost}
    if args.json:
        print_json(data)
        return 0
    print(f"wrote {args.output} ({out_format.name}): {data['variables']} variables, {data['arcs']} arcs")
    if lost:
        print(f"not kept by {out_format.name}: {', '.join(lost)}")
    return 0
