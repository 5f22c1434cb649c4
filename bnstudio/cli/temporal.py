"""``bnstudio query 2TBN --slices T --target X5 --evidence B0=on`` and ``bnstudio query 2TBN --filter|--smooth
EVIDENCE.csv [--target X] [--predict K]``: dynamic Bayesian networks (docs/temporal.md).

The network is a 2TBN in pyAgrum's naming convention (X0, Xt), in any format ``bnstudio`` reads. With
``--slices T`` it is unrolled into T slices (X0 ... X{T-1}) and the query goes through the ordinary exact path
of ``bnstudio query`` (targets, evidence, ``--joint``, ``--queries``, ``--json``). With ``--filter`` or
``--smooth`` the CSV has one row per slice and one column per observed variable (by name, blank = unobserved)
and the answer is p(X_t | e_{0..t}) or p(X_t | e_{0..T-1}) for every slice by forward-backward over the
interface, without unrolling; ``--predict K`` adds p(X_{T-1+k} | e_{0..T-1}) for k = 1..K after filtering.
numpy, pandas and the engine are imported when the command runs.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from bnstudio.cli import options as opt
from bnstudio.cli.common import print_json, print_table
from bnstudio.errors import EvidenceError, FormatError

if TYPE_CHECKING:
    from bnstudio.core.network import Network
    from bnstudio.temporal import TemporalBeliefs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The dynamic (2TBN) options of ``bnstudio query``."""
    group = parser.add_argument_group("dynamic networks (a 2TBN named X0 / Xt, docs/temporal.md)")
    group.add_argument("--slices", type=opt.positive_int, metavar="T",
                       help="unroll the 2TBN into T slices (X0 ... X{T-1}) and answer --target/--evidence on it")
    mode = group.add_mutually_exclusive_group()
    mode.add_argument("--filter", type=opt.path, metavar="EVIDENCE.csv",
                      help="p(X_t | evidence up to t) for every slice: one CSV row per slice, a column per "
                           "observed variable")
    mode.add_argument("--smooth", type=opt.path, metavar="EVIDENCE.csv",
                      help="p(X_t | all the evidence) for every slice (same CSV)")
    group.add_argument("--predict", type=opt.positive_int, metavar="K",
                       help="with --filter: also the K slices after the evidence, without evidence")


def asked(args: argparse.Namespace) -> bool:
    """Whether the command is a forward-backward one (``--filter`` / ``--smooth``)."""
    return bool(args.filter or args.smooth)


def check(args: argparse.Namespace) -> None:
    """Refuse combinations that mean nothing, in one line."""
    if args.predict and not args.filter:
        raise EvidenceError("--predict needs --filter EVIDENCE.csv")
    if asked(args) and (args.slices or args.evidence or args.queries or args.joint or args.do):
        raise EvidenceError("--filter/--smooth take the evidence from the CSV: drop --slices, --evidence, "
                            "--queries, --joint and --do")


def unrolled(net: Network, slices: int) -> Network:
    """The 2TBN ``net`` unrolled into ``slices`` slices."""
    from bnstudio.temporal import from_network, unroll

    return unroll(from_network(net), slices)


def read_evidence(path: str) -> Any:
    """The evidence CSV as text columns (state names; blank cells unobserved)."""
    import pandas as pd

    try:
        return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])
    except FileNotFoundError:
        raise FormatError("no such file", path) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read the evidence table: {' '.join(str(exc).split())}", path) from None


def run(args: argparse.Namespace) -> int:
    from bnstudio.io import read_network
    from bnstudio.temporal import filtering, from_network, prediction, smoothing

    tbn = from_network(read_network(args.network))
    evidence = read_evidence(args.filter or args.smooth)
    targets = list(args.target) or None
    if args.smooth:
        answers = [smoothing(tbn, evidence, targets)]
    else:
        answers = [filtering(tbn, evidence, targets)]
        if args.predict:
            answers.append(prediction(tbn, evidence, args.predict, targets))
    if args.json:
        print_json({"results": [_record(tbn, a) for a in answers]})
        return 0
    for answer in answers:
        _print(tbn, answer)
    return 0


def _record(tbn, answer: TemporalBeliefs) -> dict[str, Any]:
    return {"kind": answer.kind, "log_likelihood": answer.log_likelihood, "slices": answer.slices.tolist(),
            "beliefs": {x: {"states": list(tbn.states(x)), "probabilities": p.tolist()}
                        for x, p in answer.beliefs.items()}}


def _print(tbn, answer: TemporalBeliefs) -> None:
    names = list(answer.beliefs)
    header = ["slice"] + [f"{x}={s}" for x in names for s in tbn.states(x)]
    rows = [[str(t)] + [f"{p:.6f}" for x in names for p in answer.beliefs[x][k]]
            for k, t in enumerate(answer.slices.tolist())]
    print(f"{answer.kind}: p(X_t | evidence{' up to t' if answer.kind == 'filtering' else ''})"
          f"{', log p(evidence) = %.6f' % answer.log_likelihood if answer.kind != 'prediction' else ''}")
    print_table(rows, header)
    print()
