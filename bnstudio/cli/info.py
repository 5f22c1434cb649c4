"""``bnstudio info NET [--json]``: variables, states, parents, parameters and the compiled junction tree; for an
influence diagram (a file with decision and utility nodes), its decisions in the order taken with what is observed
before each, its utility nodes and its chance variables.

What is said of the junction tree is what the engine built, not the network's treewidth (which is NP-hard to
compute): ``triangulation_width`` is the width of the heuristic elimination order (variables in its largest clique
− 1), an upper bound on the treewidth; the tree then merges neighbouring small cliques (at most
:data:`~bnstudio.inference.jtree.MERGE_BELOW` entries together) so a small network answers with a few numpy
calls, so its largest clique (``largest_clique_variables``) can hold more variables (asia: width 2, the true
treewidth; one merged clique of 6 variables).

The junction tree is compiled under the engine's memory budget: when no elimination order keeps every clique
within it (a 60×60 grid), the search stops at the first clique too big and ``info`` says so in a note instead
(single queries on such a network use pruned variable elimination).
"""
from __future__ import annotations

import argparse

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, cycle_collector_paused, print_json, print_table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Describe a network or an influence diagram: variables, states, parents, parameters, junction tree."""
    parser.add_argument("network", type=opt.path, help="network or influence-diagram file (.bif, .net, ...)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_graph_query_arguments(parser)
    add_strict_option(parser)


def network_info(path: str) -> dict:
    """Everything ``info`` prints, as a JSON-ready dict (``triangulation_width`` and ``junction_tree`` are None,
    with a ``note``, when the junction tree does not fit the memory budget); ``kind`` is ``"Bayesian network"``
    or ``"influence diagram"`` (see :func:`diagram_info`)."""
    from bnstudio.core.network import Network
    from bnstudio.inference import InferenceEngine
    from bnstudio.io import read_model

    net = read_model(path)
    if not isinstance(net, Network):
        return diagram_info(net, path)
    engine = InferenceEngine(net)
    compiled = engine.compiled
    info = {"name": net.name, "file": str(path), "kind": "Bayesian network", "n_variables": len(net),
            "n_arcs": len(net.arcs()),
            "n_parameters": net.n_parameters(), "triangulation_width": None, "junction_tree": None, "note": None}
    jt = compiled.jt
    if jt is None:
        info["note"] = (f"no junction tree: every elimination order tried needs a bigger clique than the memory "
                        f"budget of {engine.memory_budget / 2**30:.3g} GiB allows ({compiled.too_large}); single "
                        f"queries use pruned variable elimination")
    else:
        assert compiled.order is not None  # found with the tree
        info["triangulation_width"] = compiled.order.width
        info["junction_tree"] = {"cliques": len(jt.cliques), "total_size": jt.total_size,
                                 "largest_clique": max(jt.sizes, default=0),
                                 "largest_clique_variables": jt.width + 1, "heuristic": compiled.order.heuristic}
    info["variables"] = [{"name": v, "states": list(net.states(v)), "parents": list(net.parents(v))}
                         for v in net.variables]
    return info


def diagram_info(diagram, path: str) -> dict:
    """What ``info`` says of an influence diagram: decisions in the order taken (options, informational
    parents), utility nodes (parents, range of the table) and chance variables."""
    return {"name": diagram.name, "file": str(path), "kind": "influence diagram",
            "n_chance": len(diagram.chance_names), "n_decisions": len(diagram.decisions),
            "n_utilities": len(diagram.utilities),
            "decisions": [{"name": d.name, "states": list(diagram.states(d.name)), "parents": list(d.parents)}
                          for d in diagram.decisions],
            "utilities": [{"name": u.name, "parents": list(u.parents),
                           "range": [float(u.table.min()), float(u.table.max())]} for u in diagram.utilities],
            "variables": [{"name": v, "states": list(diagram.states(v)), "parents": list(diagram.parents(v))}
                          for v in diagram.chance_names]}


def _print_diagram(data: dict) -> None:
    print(f"{data['name']} ({data['file']}): influence diagram, {data['n_chance']} chance variables, "
          f"{data['n_decisions']} decisions, {data['n_utilities']} utility nodes\n")
    if data["decisions"]:
        print("decisions, in the order taken:")
        print_table([(d["name"], ", ".join(d["states"]), ", ".join(d["parents"]) or "-") for d in data["decisions"]],
                    ["decision", "options", "observed before"])
    if data["utilities"]:
        print("\nutility nodes (their sum is the utility):")
        print_table([(u["name"], ", ".join(u["parents"]) or "-", f"{u['range'][0]:g} .. {u['range'][1]:g}")
                     for u in data["utilities"]], ["utility", "parents", "range"])
    if data["variables"]:
        print("\nchance variables:")
        print_table([(v["name"], ", ".join(v["states"]), ", ".join(v["parents"]) or "-") for v in data["variables"]],
                    ["variable", "states", "parents"])


def run(args: argparse.Namespace) -> int:
    if args.dsep or args.given or args.markov_blanket:
        return run_graph_queries(args)
    with cycle_collector_paused():         # strict or lenient as main set it (cli.common.reading_as_asked)
        data = network_info(args.network)
    if args.json:
        print_json(data)
        return 0
    if data["kind"] == "influence diagram":
        _print_diagram(data)
        return 0
    jt = data["junction_tree"]
    print(f"{data['name']} ({data['file']}): {data['n_variables']} variables, {data['n_arcs']} arcs, "
          f"{data['n_parameters']} free parameters")
    if jt is None:
        print(f"{data['note']}\n")
    else:
        merged = "; small cliques merged" if jt["largest_clique_variables"] > data["triangulation_width"] + 1 else ""
        print(f"junction tree: {jt['cliques']} cliques, {jt['total_size']} entries, largest clique "
              f"{jt['largest_clique_variables']} variables ({jt['largest_clique']} entries{merged})\n"
              f"{jt['heuristic']} elimination order: triangulation width {data['triangulation_width']} (an upper "
              f"bound on the treewidth)\n")
    if data["variables"]:
        print_table([(v["name"], ", ".join(v["states"]), ", ".join(v["parents"]) or "-")
                     for v in data["variables"]], ["variable", "states", "parents"])
    return 0


# ---------------------------------------------------------------------- graph queries: d-separation, Markov blanket
def add_graph_query_arguments(parser: argparse.ArgumentParser) -> None:
    """``--dsep A B [--given C ...]`` and ``--markov-blanket X``: answered instead of the description."""
    parser.add_argument("--dsep", nargs=2, type=opt.variable, metavar=("A", "B"),
                        help="whether A and B are d-separated (given the --given variables)")
    parser.add_argument("--given", type=opt.variable, action="append", default=[], metavar="VAR",
                        help="a conditioning variable of --dsep (repeatable)")
    parser.add_argument("--markov-blanket", type=opt.variable, action="append", default=[], metavar="VAR",
                        help="the Markov blanket of VAR: parents, children, children's other parents (repeatable)")


def graph_queries(path: str, dsep: list[str] | None, given: list[str], blankets: list[str]) -> dict:
    """What ``info --dsep`` / ``--markov-blanket`` print, JSON-ready: ``{"dsep": {"a", "b", "given",
    "d_separated"}, "markov_blanket": {VAR: {"parents", "children", "spouses", "members"}}}``."""
    from bnstudio.core.dseparation import d_separated, markov_blanket
    from bnstudio.errors import EvidenceError
    from bnstudio.io import read_network

    if given and not dsep:
        raise EvidenceError("--given goes with --dsep A B")
    net = read_network(path)
    out: dict = {"name": net.name, "file": str(path)}
    if dsep:
        out["dsep"] = {"a": dsep[0], "b": dsep[1], "given": list(given),
                       "d_separated": d_separated(net, [dsep[0]], [dsep[1]], given)}
    if blankets:
        found = {v: markov_blanket(net, v) for v in blankets}
        out["markov_blanket"] = {v: {"parents": mb.parents, "children": mb.children, "spouses": mb.spouses,
                                     "members": mb.members} for v, mb in found.items()}
    return out


def run_graph_queries(args: argparse.Namespace) -> int:
    with cycle_collector_paused():
        data = graph_queries(args.network, args.dsep, args.given, args.markov_blanket)
    if args.json:
        print_json(data)
        return 0
    if "dsep" in data:
        q = data["dsep"]
        given = f" given {', '.join(q['given'])}" if q["given"] else " (given nothing)"
        verdict = "d-separated" if q["d_separated"] else "d-connected (not d-separated)"
        print(f"{q['a']} and {q['b']} are {verdict}{given}")
    for var, mb in data.get("markov_blanket", {}).items():
        print(f"Markov blanket of {var}: {', '.join(mb['members']) or '(empty)'}")
        print_table([("parents", ", ".join(mb["parents"]) or "-"), ("children", ", ".join(mb["children"]) or "-"),
                     ("spouses", ", ".join(mb["spouses"]) or "-")], ["role", "variables"])
    return 0
