"""``bnstudio voi NET --target T [--evidence VAR=STATE ...] [--candidate VAR ...] [--cost ROWS] [--by cost]
[--json]``: every unobserved variable ranked by the value of observing it for T.

Each candidate's mutual information I(T; O | e) in bits (the expected reduction of T's entropy) and its expected
reduction of the Bayes risk for a cost matrix (``--cost "0,1;5,0"``: one row per true state of T, one column
per decision; default 0/1), all from one batched propagation (:mod:`bnstudio.inference.voi`). The JSON output
has the candidates as keys, best first.
"""
from __future__ import annotations

import argparse
import math

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, cycle_collector_paused, parse_evidence, print_json, print_table
from bnstudio.errors import EvidenceError


def _cost_rows(text: str) -> list[list[float]]:
    """``"0,1;5,0"`` -> [[0, 1], [5, 0]]: rows separated by ``;``, finite numbers by ``,``."""
    try:
        rows = [[float(x) for x in row.split(",")] for row in text.split(";")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected rows of numbers like '0,1;5,0', got {text!r}") from None
    if not all(math.isfinite(x) for row in rows for x in row):
        raise argparse.ArgumentTypeError(f"costs must be finite numbers, got {text!r}")
    return rows


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Value of information: unobserved variables ranked by what observing them tells about a target."""
    parser.add_argument("network", type=opt.path, help="network file (.bif, ...)")
    parser.add_argument("--target", type=opt.variable, required=True, metavar="VAR", help="the target variable")
    parser.add_argument("--evidence", action="append", default=[], metavar="VAR=STATE",
                        help="hard evidence VAR=STATE or likelihood evidence VAR~l1,l2,... (repeatable)")
    parser.add_argument("--candidate", type=opt.variable, action="append", default=None, metavar="VAR",
                        help="rank only these variables (repeatable; default: every unobserved one)")
    parser.add_argument("--cost", type=_cost_rows, metavar="ROWS",
                        help="cost matrix C[true state, decision] as '0,1;5,0' (default 0/1)")
    parser.add_argument("--by", choices=("information", "cost"), default="information",
                        help="rank by mutual information (default) or by the expected risk reduction")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_strict_option(parser)


def run(args: argparse.Namespace) -> int:
    with cycle_collector_paused():
        evidence = parse_evidence(args.evidence)
        from bnstudio.inference import InferenceEngine
        from bnstudio.inference.voi import value_of_information
        from bnstudio.io import read_network

        net = read_network(args.network)
        if args.target in evidence:
            raise EvidenceError(f"the target '{args.target}' is also given as evidence")
        result = value_of_information(InferenceEngine(net), args.target, evidence, args.candidate, args.cost,
                                      args.by)
    if args.json:
        print_json({"target": result.target, "evidence": evidence, "entropy_bits": result.entropy,
                    "bayes_risk": result.risk, "ranked_by": result.rank_by,
                    "mutual_information_bits": result.mutual_information(),
                    "risk_reduction": result.risk_reduction()})
        return 0
    given = ", ".join(f"{k}={v}" for k, v in evidence.items()) or "no evidence"
    print(f"value of information for {result.target} given {given}: H = {result.entropy:.6f} bits, "
          f"Bayes risk {result.risk:.6f}")
    print_table([(c.name, f"{c.mutual_information:.6f}", f"{c.risk_reduction:.6f}") for c in result.candidates],
                ["candidate", "mutual information (bits)", "risk reduction"])
    return 0
