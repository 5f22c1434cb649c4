"""``bnstudio errorbars NET --target VAR=STATE [...] [--evidence VAR=STATE ...] [--level 0.9] [--mc R] [--json]``.

NET is a ``.bnsproj`` (or any network) with Dirichlet counts; or any network plus ``--data DATA.csv --prior
laplace|bdeu [--ess A]`` (its parameters are fitted with ``mp`` first; laplace = ``--ess`` pseudo-counts per
cell, default 1); or any network plus ``--ess A`` for expert CPTs (α = A · θ for every row).

What the query panel shows beside the intervals is here too: ``--sensitivity VAR=STATE [--row PARENT=STATE ...]``
adds the exact one-way sensitivity curve of each query to that CPT entry (by default in the row of VAR that adds
most variance) with its tangent, ``--tornado K`` the K parameters that move each query most over their credible
intervals (:func:`bnstudio.uncertainty.tornado`), and ``--data ... --bags T`` fits bagged-mp as well and adds each query's
bootstrap spread over the T bags (Singh §4.5.1).
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, load_data, load_json_list, parse_evidence, print_json
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import EvidenceError, FormatError, UnknownVariableError

if TYPE_CHECKING:
    import numpy as np

    from bnstudio.core.network import Network
    from bnstudio.inference import InferenceEngine
    from bnstudio.uncertainty import ErrorBars


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Error bars on p(q|e): delta-method variance, normal and Beta intervals, where the variance comes from."""
    parser.add_argument("network", type=opt.path, help=".bnsproj with counts, or any network with --data/--ess")
    parser.add_argument("--target", action="append", default=[], metavar="VAR=STATE",
                        help="query state (repeat for a joint configuration)")
    parser.add_argument("--evidence", action="append", default=[], metavar="VAR=STATE",
                        help="hard evidence VAR=STATE or likelihood evidence VAR~l1,l2,... (repeatable)")
    parser.add_argument("--queries", type=opt.path, metavar="FILE.json",
                        help='a JSON list of {"target": {"VAR": "STATE", ...}, "evidence": {...}}')
    parser.add_argument("--level", type=opt.probability, default=CREDIBLE_LEVEL,
                        help=f"credible level in (0, 1) (default {CREDIBLE_LEVEL:g})")
    parser.add_argument("--mc", type=opt.draws, default=0, metavar="R",
                        help=f"Monte-Carlo check with R parameter draws (0..{opt.MAX_DRAWS}, default 0: none)")
    parser.add_argument("--seed", type=opt.seed, help="seed of the Monte-Carlo draws and the bags"
                        " (0 .. 2^64 - 1; default: fresh entropy, a different result each run)")
    parser.add_argument("--data", type=opt.path, help="learn mean-posterior counts from this data first")
    parser.add_argument("--prior", choices=["laplace", "bdeu"], default=None,
                        help="with --data: the Dirichlet prior of the mean-posterior counts (default laplace)")
    parser.add_argument("--ess", type=opt.ess, help="with --data: prior strength; without: expert ESS per row; "
                        f"in [{opt.MIN_ESS:g}, {opt.MAX_ESS:g}]")
    parser.add_argument("--top", type=opt.non_negative_int, default=10,
                        help="how many contributing rows to list (default 10)")
    parser.add_argument("--sensitivity", action="append", default=[], metavar="VAR=STATE",
                        help="sensitivity curve of each query to θ(VAR=STATE | row) (repeatable)")
    parser.add_argument("--row", action="append", default=[], metavar="PARENT=STATE",
                        help="the CPT row for --sensitivity of a variable with this parent (default: the row "
                             "adding most variance)")
    parser.add_argument("--points", type=opt.points, default=41,
                        help=f"sensitivity grid points on [0, 1] (2..{opt.MAX_POINTS}, default 41)")
    parser.add_argument("--tornado", type=opt.positive_int, metavar="K",
                        help="the K parameters that move each query most over their credible intervals, exact at "
                             "both ends (a tornado chart's bars)")
    parser.add_argument("--bags", type=opt.bags, metavar="T",
                        help=f"with --data: bootstrap spread over T bagged-mp bags (1..{opt.MAX_BAGS})")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_strict_option(parser)


def _queries(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.queries:
        if args.target or args.evidence:
            raise EvidenceError("use either --queries FILE or --target/--evidence, not both")
        return [_normalise_query(q, args.queries, k) for k, q in enumerate(_load(args.queries))]
    if not args.target:
        raise EvidenceError("give at least one --target VAR=STATE (or --queries FILE.json)")
    target = parse_evidence(args.target, "target")
    if not all(isinstance(state, str) for state in target.values()):
        raise EvidenceError("a --target names a state: use VAR=STATE")
    return [{"target": target, "evidence": parse_evidence(args.evidence)}]


def _load(path: str) -> list[dict[str, Any]]:
    """The queries file: a JSON list of {"target": {VAR: STATE, ...}, "evidence": {...}}."""
    data = load_json_list(path)
    if not all(isinstance(q, dict) for q in data):
        raise FormatError("expected a JSON list of query objects", path)
    return data


def _normalise_query(q: dict[str, Any], path: str, k: int) -> dict[str, Any]:
    target, evidence = q.get("target"), q.get("evidence", {})
    if not isinstance(evidence, dict):
        raise FormatError(f"query {k}: 'evidence' must be an object", path)
    if not isinstance(target, dict) or not target or not all(isinstance(s, str) for s in target.values()):
        raise FormatError(f"query {k}: 'target' must be an object {{\"VAR\": \"STATE\", ...}}", path)
    return {"target": target, "evidence": evidence}


def _network_with_counts(args: argparse.Namespace) -> tuple[Network, float | None, dict[str, np.ndarray] | None]:
    """(network with Dirichlet counts or expert ESS, that ESS, the bagged ensemble when --bags is given)."""
    from bnstudio.io import read_network
    from bnstudio.learn.params import make_learner

    net = read_network(args.network)
    if args.bags is not None and not args.data:
        raise EvidenceError("--bags needs --data")
    if args.data:
        data = load_data(net, args.data)
        prior = {"prior": args.prior or "laplace", "ess": args.ess if args.ess is not None else 1.0}
        fitted = make_learner("mp", **prior).fit(net, data.codes, data.weights).network(net)
        ensemble = None
        if args.bags is not None:
            bagged = make_learner("bagged-mp", bags=args.bags, seed=args.seed, **prior)
            ensemble = bagged.fit(net, data.codes, data.weights).ensemble
        return fitted, None, ensemble
    if args.prior:
        raise EvidenceError("--prior needs --data")
    return net, args.ess, None


def _entry(item: str) -> tuple[str, str]:
    """``VAR=STATE`` of a --sensitivity option."""
    name, sep, state = item.partition("=")
    if not sep or not name.strip() or not state.strip():
        raise EvidenceError(f"malformed --sensitivity {item!r}: use VAR=STATE")
    return name.strip(), state.strip()


def _sensitivities(args: argparse.Namespace, net: Network, bars: ErrorBars, engine: InferenceEngine
                   ) -> list[dict[str, Any]]:
    """The --sensitivity curves of one query: in the row given by the --row entries naming VAR's parents (all of
    them), else in the row of VAR adding most variance."""
    import numpy as np

    from bnstudio.uncertainty import row_index, sensitivity, state_position

    given = parse_evidence(args.row, "--row")
    if not all(isinstance(state, str) for state in given.values()):
        raise EvidenceError("malformed --row: use PARENT=STATE")
    wanted = [_entry(item) for item in args.sensitivity]
    parents = {p for var, _ in wanted if var in net for p in net.parents(var)}
    stray = [p for p in given if p not in parents]
    if stray:
        raise EvidenceError(f"--row {stray[0]}=...: not a parent of any --sensitivity variable")
    out = []
    for var, state in wanted:
        if var not in net:
            raise UnknownVariableError(f"--sensitivity: unknown variable '{var}'")
        named = {p: s for p, s in given.items() if p in net.parents(var)}
        if named or not net.parents(var):
            row = row_index(net, var, named)
        else:
            variance = bars.delta.row_variance[var]
            row = tuple(int(i) for i in np.unravel_index(int(np.argmax(variance)), variance.shape))
        curve = sensitivity(net, bars, var, row, state_position(net, var, state), args.points, engine)
        out.append(curve.to_json())
    return out


def run(args: argparse.Namespace) -> int:
    from bnstudio.inference import InferenceEngine
    from bnstudio.uncertainty import bootstrap_spread, dirichlet_counts, error_bars

    queries = _queries(args)
    net, ess, ensemble = _network_with_counts(args)
    alpha = dirichlet_counts(net, ess)
    engine = InferenceEngine(net)
    results = []
    for k, q in enumerate(queries):
        try:
            bars = error_bars(net, q["target"], q["evidence"], args.level, alpha=alpha, mc=args.mc,
                              seed=None if args.seed is None else args.seed + k, engine=engine)
        except EvidenceError as exc:
            raise type(exc)(f"query {k}: {exc}" if len(queries) > 1 else str(exc)) from None
        record = bars.to_json(top=args.top)
        if args.sensitivity:
            record["sensitivity"] = _sensitivities(args, net, bars, engine)
        if args.tornado:
            from bnstudio.uncertainty import tornado

            record["tornado"] = tornado(net, q["target"], q["evidence"], args.tornado, args.level, alpha=alpha,
                                        engine=engine).to_json()
        if ensemble is not None:
            spread = bootstrap_spread(net, ensemble, q["target"], q["evidence"], args.level, engine)
            record["bootstrap"] = spread.to_json()
        results.append(record)
    if args.json:
        print_json({"results": results})
        return 0
    for r in results:
        _print_result(r)
    return 0


def _print_result(r: dict[str, Any]) -> None:
    target = ", ".join(f"{k}={v}" for k, v in r["target"].items())
    evidence = ", ".join(f"{k}={v}" for k, v in r["evidence"].items()) or "no evidence"
    print(f"p({target} | {evidence}) = {r['mean']:.6f}   sd {r['sd']:.6f}")
    level = f"{r['level']:.0%}"
    lo, hi = r["normal_clipped"]
    print(f"  normal {level} interval: [{lo:.6f}, {hi:.6f}]" + ("  (clipped to [0, 1])"
                                                                if r["normal"] != r["normal_clipped"] else ""))
    if r["beta"]:
        a, b = r["beta_params"]
        print(f"  Beta   {level} interval: [{r['beta'][0]:.6f}, {r['beta'][1]:.6f}]   (a = {a:.3g}, b = {b:.3g})")
    if "sampling" in r:
        sampling = r["sampling"]
        print(f"  sampling error of the estimate: se {sampling['se']:.6f} (likelihood weighting, "
              f"{sampling['samples']} samples); the sd above is the parameter error")
        print(f"  why estimated: {sampling['reason']}")
    for text in r["flag_text"]:
        print(f"  note: {text}")
    if r["contributions"]:
        print("  variance comes from:")
        for c in r["contributions"]:
            row = ", ".join(f"{p}={s}" for p, s in c["parents"].items())
            share = c["variance"] / r["variance"] if r["variance"] > 0 else 0.0
            print(f"    {share:6.1%}  {c['variable']}({row})   ess {c['ess']:.3g}")
    for c in r.get("sensitivity", []):
        row = ", ".join(f"{p}={s}" for p, s in c["parents"].items())
        given = f" | {row}" if row else ""
        print(f"  sensitivity to θ({c['variable']}={c['state']}{given}) = {c['theta0']:.4g}: slope {c['slope']:.4g}, "
              f"q from {min(c['exact']):.6f} to {max(c['exact']):.6f} over θ in [0, 1]")
    if "tornado" in r:
        t = r["tornado"]
        print(f"  tornado (each parameter over its {t['range']} interval, exact at both ends):")
        for bar in t["bars"]:
            row = ", ".join(f"{p}={s}" for p, s in bar["parents"].items())
            print(f"    θ({bar['variable']}={bar['state']}{' | ' + row if row else ''}) "
                  f"{bar['theta_low']:.4g}..{bar['theta_high']:.4g}: q {bar['q_low']:.6f}..{bar['q_high']:.6f}")
    if "bootstrap" in r:
        b = r["bootstrap"]
        print(f"  bootstrap {b['level']:.0%} interval ({b['bags']} bags): [{b['low']:.6f}, {b['high']:.6f}]   "
              f"bagged answer {b['mean']:.6f}")
    if "mc" in r:
        mc = r["mc"]
        beta_cov = "-" if mc["coverage_beta"] is None else f"{mc['coverage_beta']:.3f}"
        print(f"  Monte Carlo (r = {mc['r']}): mean {mc['mean']:.6f}, variance {mc['variance']:.3g} "
              f"(delta {r['variance']:.3g}); coverage normal {mc['coverage_normal']:.3f}, Beta {beta_cov}")
    print()
