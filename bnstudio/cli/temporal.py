"""``bnstudio query 2TBN --slices T --target X5 --evidence B0=on`` and ``bnstudio query 2TBN --filter|--smooth
EVIDENCE.csv [--target X] [--predict K]``: dynamic Bayesian networks (docs/temporal.md).

The network is a 2TBN in pyAgrum's naming convention (X0, Xt), in any format ``bnstudio`` reads. With
``--slices T`` it is unrolled into T slices (X0 ... X{T-1}) and the query goes through the ordinary exact path
of ``bnstudio query`` (targets, evidence, ``--joint``, ``--queries``, ``--json``). With ``--filter`` or
``--smooth`` the CSV has one row per slice and one column per observed variable (by name, blank = unobserved)
and the answer is p(X_t | e_{0..t}) or p(X_t | e_{0..T-1}) for every slice by forward-backward over the
interface, without unrolling; ``--predict K`` adds p(X_{T-1+k} | e_{0..T-1}) for k = 1..K after filtering.
``--errorbars`` (with ``--target X=STATE``, ``--level``, ``--ess``) adds to each slice's belief its delta-method
error bars from the 2TBN's Dirichlet counts, tied across slices (:mod:`bnstudio.temporal.errorbars`); a
prediction's bars are filtering's over slices without evidence. numpy, pandas and the engine are imported when
the command runs.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from bnstudio.cli import options as opt
from bnstudio.cli.common import parse_evidence, print_json, print_table
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import EvidenceError

if TYPE_CHECKING:
    from bnstudio.core.network import Network
    from bnstudio.temporal import TemporalBars, TemporalBeliefs, TwoSliceNetwork


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
    group.add_argument("--errorbars", action="store_true",
                       help="with --filter/--smooth and --target X=STATE: error bars of p(X_t = STATE | evidence) "
                            "per slice from the 2TBN's Dirichlet counts (learned with mp, or --ess)")
    group.add_argument("--level", type=opt.probability, default=None,
                       help=f"with --errorbars: credible level in (0, 1) (default {CREDIBLE_LEVEL:g})")
    group.add_argument("--ess", type=opt.ess, default=None,
                       help=f"with --errorbars: expert counts, ESS A per row (α = A·θ) in [{opt.MIN_ESS:g}, "
                            f"{opt.MAX_ESS:g}], overriding the 2TBN's counts")


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
    if args.errorbars and not asked(args):
        raise EvidenceError("--errorbars needs --filter or --smooth EVIDENCE.csv (error bars over time)")
    if (args.level is not None or args.ess is not None) and not args.errorbars:
        raise EvidenceError("--level and --ess go with --errorbars")


def unrolled(net: Network, slices: int) -> Network:
    """The 2TBN ``net`` unrolled into ``slices`` slices."""
    from bnstudio.temporal import from_network, unroll

    return unroll(from_network(net), slices)


def run(args: argparse.Namespace) -> int:
    from bnstudio.io import read_network
    from bnstudio.temporal import filtering, from_network, prediction, smoothing
    from bnstudio.temporal.evidence_file import read_evidence_csv

    tbn = from_network(read_network(args.network))
    evidence = read_evidence_csv(args.filter or args.smooth)
    if args.errorbars:
        return run_error_bars(args, tbn, evidence)
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


def bar_targets(args: argparse.Namespace) -> dict[str, str]:
    """The ``--target X=STATE`` of ``--errorbars`` (at least one, each naming a state)."""
    targets = parse_evidence(args.target, "target")
    if not targets or not all(isinstance(state, str) for state in targets.values()):
        raise EvidenceError("--errorbars needs --target X=STATE (the state whose probability gets error bars)")
    return targets


def run_error_bars(args: argparse.Namespace, tbn: TwoSliceNetwork, evidence: Any) -> int:
    """Per target, p(X_t = STATE | e) with its error bars for every slice (after K blank rows with --predict)."""
    import numpy as np

    from bnstudio.temporal import temporal_error_bars
    from bnstudio.temporal.evidence import evidence_codes

    targets = bar_targets(args)
    codes = evidence_codes(tbn, evidence)
    observed = len(codes)
    if args.predict:
        codes = np.vstack([codes, np.full((args.predict, len(tbn.radicals)), -1, dtype=np.int64)])
    level = CREDIBLE_LEVEL if args.level is None else args.level
    mode = "smooth" if args.smooth else "filter"
    answers = [temporal_error_bars(tbn, codes, x, state, mode=mode, level=level, ess=args.ess)
               for x, state in targets.items()]
    if args.json:
        records = [a.to_json() for a in answers]
        for record in records:
            record["predicted_from"] = observed if args.predict else None
        print_json({"results": records})
        return 0
    for answer in answers:
        _print_bars(answer, observed if args.predict else None)
    return 0


def _interval(pair: Any) -> str:
    return "-" if pair is None or pair[0] != pair[0] else f"{pair[0]:.4f} .. {pair[1]:.4f}"


def _print_bars(bars: TemporalBars, predicted_from: int | None) -> None:
    """One row per slice: mean, sd, both intervals and the 2TBN row adding most variance; then the flags."""
    from bnstudio.uncertainty import FLAG_TEXT

    kind = "smoothing" if bars.mode == "smooth" else "filtering"
    print(f"{kind}: p({bars.variable}_t = {bars.state} | evidence{' up to t' if bars.mode == 'filter' else ''}) "
          f"with {bars.level:.0%} error bars (Dirichlet counts, tied across slices)")
    pct = f"{bars.level:.0%}"
    rows = []
    for k, t in enumerate(bars.slices.tolist()):
        top = bars.contributions[k][0] if bars.contributions[k] else None
        where = "-" if top is None else (f"{top.variable} | " + ", ".join(f"{p}={s}" for p, s in top.parents.items())
                                         if top.parents else top.variable)
        label = f"{t}*" if predicted_from is not None and t >= predicted_from else str(t)
        rows.append([label, f"{bars.mean[k]:.6f}", f"{bars.sd[k]:.6f}", _interval(bars.normal_clipped[k]),
                     _interval(bars.beta[k]), where])
    print_table(rows, ["slice", "mean", "sd", f"normal {pct} (clipped)", f"Beta {pct}", "largest row"])
    if predicted_from is not None:
        print(f"* prediction: no evidence from slice {predicted_from} on")
    flagged: dict[str, list[int]] = {}
    for t, flags in zip(bars.slices.tolist(), bars.flags, strict=True):
        for flag in flags:
            flagged.setdefault(flag, []).append(t)
    for flag, slices in flagged.items():
        print(f"slices {', '.join(map(str, slices))}: {FLAG_TEXT[flag]}")
    print()
