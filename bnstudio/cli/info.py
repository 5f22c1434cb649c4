"""``bnstudio info NET [--json]``: variables, states, parents, parameters and the compiled plan's treewidth."""
from __future__ import annotations

import argparse

from bnstudio.cli.common import print_json, print_table
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Describe a network: variables, states, parents, parameters, treewidth."""
    parser.add_argument("network", help="network file (.bif, ...)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def network_info(path: str) -> dict:
    """Everything ``info`` prints, as a JSON-ready dict."""
    net = read_network(path)
    compiled = InferenceEngine(net).compiled
    return {
        "name": net.name,
        "file": str(path),
        "n_variables": len(net),
        "n_arcs": len(net.arcs()),
        "n_parameters": net.n_parameters(),
        "treewidth": compiled.jt.treewidth,
        "junction_tree": {"cliques": len(compiled.jt.cliques), "total_size": compiled.jt.total_size,
                          "largest_clique": max(compiled.jt.sizes), "heuristic": compiled.order.heuristic},
        "variables": [{"name": v, "states": list(net.states(v)), "parents": list(net.parents(v))}
                      for v in net.variables],
    }


def run(args: argparse.Namespace) -> int:
    data = network_info(args.network)
    if args.json:
        print_json(data)
        return 0
    jt = data["junction_tree"]
    print(f"{data['name']} ({data['file']}): {data['n_variables']} variables, {data['n_arcs']} arcs, "
          f"{data['n_parameters']} free parameters")
    print(f"junction tree: treewidth {data['treewidth']}, {jt['cliques']} cliques, {jt['total_size']} entries "
          f"(largest clique {jt['largest_clique']}; {jt['heuristic']} order)\n")
    print_table([(v["name"], ", ".join(v["states"]), ", ".join(v["parents"]) or "-") for v in data["variables"]],
                ["variable", "states", "parents"])
    return 0
