"""``bnstudio decide DIAGRAM.json [--evidence VAR=STATE ...] [--method auto] [--memory-budget GIB] [--errorbars
--ess N] [--json]``.

Solves an influence diagram read from a Hugin ``.net``, GeNIe ``.xdsl``, XMLBIF (``.xmlbif``, ``.xml``, ``.bifxml``)
file, a ``.bnsproj`` project or the JSON form of :mod:`bnstudio.decision.serial` (``.json``; see
:func:`bnstudio.io.read_model`): for the decisions in order, the expected
utility of every option under the evidence and the optimal policy (exact under no-forgetting, or LIMID single
policy updating when the exact tables exceed the memory budget, ``--memory-budget`` GiB, sized before any is
made -- for a JSON, NET or XDSL file before its tables are even parsed, :mod:`bnstudio.io.diagram_outline`; ``--method``
chooses). Evidence on a decision
(``--evidence Test=yes``) is a decision already taken. ``--errorbars`` adds the delta-method error bar of the
expected utility under Dirichlet uncertainty of the chance CPTs: stored counts (``alpha``) or ``--ess N`` per
row; ``--mc R`` checks it with R Monte-Carlo parameter draws. ``--voi DECISION`` adds the value of information
of every chance variable not yet seen by that decision (:mod:`bnstudio.decision.information`).

numpy and the solver are imported when the command runs, never when the parser is built.
"""
from __future__ import annotations

import argparse
from typing import Any

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, parse_evidence, print_json, print_table
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import EvidenceError, FormatError

METHODS = ("auto", "no-forgetting", "limid")
DEFAULT_BUDGET_GIB = 2.0  # bnstudio.inference.DEFAULT_MEMORY_BUDGET (not imported: numpy waits for run)
MAX_BUDGET_GIB = 1024.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Solve an influence diagram: expected utility of every option, optimal policies, error bars."""
    parser.add_argument("diagram", type=opt.path,
                        help="influence diagram (.net, .xdsl, .xmlbif/.xml/.bifxml, .bnsproj or .json)")
    parser.add_argument("--evidence", action="append", default=[], metavar="VAR=STATE",
                        help="hard evidence VAR=STATE, likelihood evidence VAR~l1,l2,..., or DECISION=OPTION for "
                             "a decision already taken (repeatable)")
    parser.add_argument("--method", choices=METHODS, default="auto",
                        help="auto (exact; LIMID when the exact tables exceed memory or the decisions are not "
                             "on one directed path), no-forgetting or limid "
                             "(default auto)")
    parser.add_argument("--max-time", type=opt.real(0.0, 86_400.0, low_open=True), default=120.0,
                        metavar="SECONDS", help="stop solving after this many seconds, in (0, 86400] (default 120)")
    parser.add_argument("--memory-budget", type=opt.real(0.0, MAX_BUDGET_GIB, low_open=True),
                        default=DEFAULT_BUDGET_GIB, metavar="GIB",
                        help="memory budget in GiB, in (0, 1024]: the exact solution is sized against it before any "
                             f"table is made (default {DEFAULT_BUDGET_GIB:g})")
    parser.add_argument("--errorbars", action="store_true",
                        help="delta-method error bar of the expected utility (needs counts or --ess)")
    parser.add_argument("--ess", type=opt.ess, help="with --errorbars: Dirichlet effective sample size per CPT row "
                        f"(overrides stored counts), in [{opt.MIN_ESS:g}, {opt.MAX_ESS:g}]")
    parser.add_argument("--level", type=opt.probability, default=CREDIBLE_LEVEL,
                        help=f"credible level in (0, 1) (default {CREDIBLE_LEVEL:g})")
    parser.add_argument("--mc", type=opt.draws, default=0, metavar="R",
                        help=f"with --errorbars: Monte-Carlo check with R parameter draws (0..{opt.MAX_DRAWS})")
    parser.add_argument("--seed", type=opt.seed, help="seed of the Monte-Carlo draws (0 .. 2^64 - 1)")
    parser.add_argument("--top", type=opt.non_negative_int, default=5,
                        help="how many CPT rows adding most variance to list (default 5)")
    parser.add_argument("--voi", type=opt.variable, metavar="DECISION",
                        help="value of information: how much observing each unobserved chance variable before "
                             "DECISION would raise the maximum expected utility (one solve per candidate)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_strict_option(parser)


def load_diagram(path: str):
    """The influence diagram in ``path``; every problem (a Bayesian network without decisions included) is one
    line naming the file."""
    from bnstudio.decision import InfluenceDiagram
    from bnstudio.io import read_model

    model = read_model(path)
    if not isinstance(model, InfluenceDiagram):
        raise FormatError("this is a Bayesian network without decision or utility nodes: nothing to decide "
                          "(use 'bnstudio query')", path)
    return model


def run(args: argparse.Namespace) -> int:
    if not args.errorbars and (args.ess is not None or args.mc or args.seed is not None):
        raise EvidenceError("--ess, --mc and --seed need --errorbars")
    from bnstudio.decision import solve
    from bnstudio.decision.errorbar import utility_error_bar
    from bnstudio.decision.solve import presize
    from bnstudio.io.diagram_outline import read_outline

    budget = int(args.memory_budget * 2**30)
    outline = read_outline(args.diagram)  # a .json, .net or .xdsl structure, sized before its tables are parsed
    if outline is not None:
        presize(outline, parse_evidence(args.evidence), args.method, budget, listed=True)
    diagram = load_diagram(args.diagram)   # strict or lenient as main set it (cli.common.reading_as_asked)
    solution = solve(diagram, parse_evidence(args.evidence), args.method, memory_budget=budget,
                     max_time=args.max_time, listed=True)
    record = solution.to_json()
    if args.voi:
        from bnstudio.decision.information import decision_information

        values = decision_information(diagram, args.voi, parse_evidence(args.evidence), method=args.method,
                                      memory_budget=budget, max_time=args.max_time)
        record["value_of_information"] = {"decision": args.voi, "values": {v.variable: v.value for v in values}}
    if args.errorbars:
        bar = utility_error_bar(diagram, solution, ess=args.ess, level=args.level, mc=args.mc, seed=args.seed,
                                memory_budget=budget)
        record["errorbar"] = bar.to_json(diagram, args.top)
    if args.json:
        print_json(record)
        return 0
    _print(diagram.name, record)
    return 0


def _print(name: str, r: dict[str, Any]) -> None:
    evidence = ", ".join(f"{k}={v}" for k, v in r["evidence"].items()) or "no evidence"
    print(f"{name}: expected utility {r['expected_utility']:.6g} given {evidence} ({r['method']}"
          + (f", {r['iterations']} sweeps" if r["iterations"] else "") + ")")
    for d in r["decisions"]:
        note = f" (taken: {d['taken']})" if d["taken"] else ""
        print(f"\n{d['name']}{note}")
        rows = [(option, "impossible" if eu is None else _number(eu), "best" if option == d["best"] else "")
                for option, eu in d["options"].items()]
        print_table(rows, ["option", "expected utility", ""])
        if d["policy"] and d["policy"][0]["past"]:
            print("  policy: " + "; ".join(
                ", ".join(f"{k}={v}" for k, v in row["past"].items()) + f" -> {row['choice']}"
                for row in d["policy"]))
    if "value_of_information" in r:
        voi = r["value_of_information"]
        print(f"\nvalue of information before {voi['decision']} (rise of the maximum expected utility):")
        print_table([(name, _number(value)) for name, value in voi["values"].items()], ["observe", "value"])
    if "errorbar" in r:
        e = r["errorbar"]
        print(f"\nerror bar: sd {e['sd']:.6g}, {e['level']:.0%} normal interval [{e['normal'][0]:.6g}, "
              f"{e['normal'][1]:.6g}]")
        for c in e["contributions"]:
            row = ", ".join(f"{p}={s}" for p, s in c["parents"].items())
            share = c["variance"] / e["variance"] if e["variance"] > 0 else 0.0
            print(f"  {share:6.1%}  {c['variable']}({row})")
        if "mc" in e:
            print(f"  Monte Carlo (r = {e['mc']['r']}): mean {e['mc']['mean']:.6g}, variance {e['mc']['variance']:.6g} "
                  f"(delta {e['variance']:.6g})")


def _number(value: float) -> str:
    """Six decimals, or six significant digits beyond 1e15 (a 300-digit number is no table cell)."""
    return f"{value:.6f}" if abs(value) < 1e15 else f"{value:.6g}"
