"""The explanation forms of ``bnstudio query``: ``--mpe [--top K]`` and ``--map VAR [--map VAR ...]``.

``query NET --mpe`` prints the most probable explanation of every unobserved variable given ``--evidence``
(``--top K``: the K most probable, in descending order); ``query NET --map A --map B`` the most probable states
of A and B with the other variables summed out — exact, or, when the constrained elimination does not fit the
memory budget, a local search labelled approximate with its bounds. With ``--json`` each explanation is
``{"assignment": {VAR: STATE}, "probability", "log_probability", "log_joint"}`` (MAP adds ``exact``, ``method``,
``lower``, ``upper``). When the network has Dirichlet counts for every variable (a ``.bnsproj`` learned with
mp), each explanation also gets the delta-method sd of its probability and a 90 % interval (Singh Theorem 2).
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from bnstudio.cli import options as opt
from bnstudio.cli.common import parse_evidence, print_json, print_table
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import EvidenceError

if TYPE_CHECKING:
    from bnstudio.inference import InferenceEngine
    from bnstudio.inference.explanations import Explanation

MAX_TOP = 10_000
top_count = opt.integer(1, MAX_TOP)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The explanation options of ``query``."""
    parser.add_argument("--mpe", action="store_true",
                        help="the most probable explanation of every unobserved variable given the evidence")
    parser.add_argument("--top", type=top_count, metavar="K",
                        help=f"with --mpe: the K most probable explanations, most probable first (1..{MAX_TOP})")
    parser.add_argument("--map", type=opt.variable, action="append", default=[], metavar="VAR",
                        help="MAP: the most probable states of these variables, the others summed out (repeatable)")


def asked(args: argparse.Namespace) -> bool:
    """Whether the command asks for an explanation (then the explanation options are checked)."""
    return bool(args.mpe or args.map or args.top is not None)


def _check(args: argparse.Namespace) -> None:
    if args.mpe and args.map:
        raise EvidenceError("use either --mpe or --map VAR, not both")
    if args.top is not None and not args.mpe:
        raise EvidenceError("--top K goes with --mpe")
    if args.target or args.queries or args.joint:
        raise EvidenceError(f"{'--mpe' if args.mpe else '--map'} explains the evidence: leave out "
                            "--target, --queries and --joint")


def run(args: argparse.Namespace) -> int:
    """Answer ``--mpe`` or ``--map`` and print the result (a table, or JSON with ``--json``)."""
    _check(args)
    evidence = parse_evidence(args.evidence)
    from bnstudio.inference import InferenceEngine
    from bnstudio.io import read_network

    engine = InferenceEngine(read_network(args.network))
    if args.mpe:
        found: list[Explanation] = list(engine.mpe(evidence, top=args.top or 1))
        key = "mpe"
    else:
        found = [engine.map(args.map, evidence)]
        key = "map"
    records = [_with_error_bar(engine, e, evidence) for e in found]
    if args.json:
        print_json({"evidence": evidence, key: records})
        return 0
    _print(key, evidence, records)
    return 0


def _with_error_bar(engine: InferenceEngine, explanation: Explanation, evidence: dict) -> dict[str, Any]:
    """The explanation's JSON record, with the delta-method sd and interval of p(x | e) when the network has
    Dirichlet counts for every variable (a joint query q = x: Singh Theorem 2)."""
    record = explanation.to_json()
    net = engine.net
    if all(net.alpha(v) is not None for v in net.variables):
        from bnstudio.uncertainty import error_bars
        bars = error_bars(net, explanation.assignment, evidence, level=CREDIBLE_LEVEL, engine=engine)
        record.update(sd=bars.sd, level=CREDIBLE_LEVEL, interval=list(bars.intervals.beta or bars.intervals.normal_clipped))
    return record


def _print(key: str, evidence: dict, records: list[dict[str, Any]]) -> None:
    given = ", ".join(f"{k}={v}" for k, v in evidence.items()) or "no evidence"
    for rank, r in enumerate(records, 1):
        label = "MPE" if key == "mpe" else ("MAP" if r["exact"] else "MAP (approximate: local search)")
        sure = f" ± {r['sd']:.3g} (sd)" if "sd" in r else ""
        print(f"{label}{f' #{rank}' if len(records) > 1 else ''} given {given}: p = {r['probability']:.6g}{sure}, "
              f"log p = {r['log_probability']:.6g}")
        if key == "map" and not r["exact"]:
            print(f"  the MAP probability lies in [{r['lower']:.6g}, {r['upper']:.6g}]")
        print_table(list(r["assignment"].items()), ["variable", "state"])
        print()
