"""``bnstudio query NET --target VAR [--evidence VAR=STATE ...] [--joint] [--json]`` and ``--queries FILE.json``;
explanations with ``--mpe [--top K]`` and ``--map VAR [--map VAR ...]`` (:mod:`bnstudio.cli.explain`); dynamic
networks with ``--slices T`` (the 2TBN unrolled) or ``--filter``/``--smooth EVIDENCE.csv`` (:mod:`bnstudio.cli.temporal`).

One query is answered on its own (:meth:`InferenceEngine.posterior`: the junction tree, or pruned variable
elimination when the tree does not fit the memory budget, as on munin1). With ``--queries``, the queries that
share a target and have hard evidence are answered in one batched propagation per target
(:meth:`InferenceEngine.posterior_batch`) when the engine's junction tree fits its budget; the others (soft
evidence, joint targets, or every query when there is no tree to batch on) one by one.

The engine and numpy are imported when the command runs, never when the parser is built (see
:mod:`bnstudio.cli.main`).
"""
from __future__ import annotations

import argparse
import itertools
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Sequence, cast

from bnstudio.cli import explain, temporal
from bnstudio.cli import options as opt
from bnstudio.cli.common import (
    add_strict_option,
    cycle_collector_paused,
    load_json_list,
    parse_evidence,
    print_json,
    print_table,
)
from bnstudio.errors import EvidenceError, FormatError, ImpossibleEvidence, UnknownStateError, UnknownVariableError

if TYPE_CHECKING:
    import numpy as np

    from bnstudio.inference import InferenceEngine


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Posterior marginals (or the joint) of target variables given evidence."""
    parser.add_argument("network", type=opt.path, help="network file (.bif, ...)")
    parser.add_argument("--target", type=opt.variable, action="append", default=[], metavar="VAR",
                        help="target variable (repeatable)")
    parser.add_argument("--evidence", action="append", default=[], metavar="VAR=STATE",
                        help="hard evidence VAR=STATE or likelihood evidence VAR~l1,l2,... (repeatable)")
    parser.add_argument("--queries", type=opt.path, metavar="FILE.json",
                        help='a JSON list of {"target": "VAR" or ["A", "B"], "evidence": {"VAR": "STATE"}}')
    parser.add_argument("--joint", action="store_true", help="joint distribution of all targets")
    add_approximate_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_intervention_argument(parser)
    add_strict_option(parser)
    explain.add_arguments(parser)
    temporal.add_arguments(parser)


def add_approximate_arguments(parser: argparse.ArgumentParser) -> None:
    """``--approximate [likelihood-weighting|loopy-bp] --samples N --seed S`` (docs/inference.md §12)."""
    parser.add_argument("--approximate", nargs="?", const="likelihood-weighting", default=None,
                        choices=("likelihood-weighting", "loopy-bp"),
                        help="answer approximately (likelihood weighting with Monte-Carlo standard errors, or loopy "
                             "belief propagation); without it a query that does not fit the memory budget is "
                             "answered by likelihood weighting, and says so")
    parser.add_argument("--samples", type=opt.samples, default=100_000, metavar="N",
                        help="samples for likelihood weighting (default 100000)")
    parser.add_argument("--seed", type=opt.seed, default=0, metavar="S",
                        help="random seed of likelihood weighting (default 0: the same command prints the same numbers)")


def load_queries(path: str) -> list[dict[str, Any]]:
    """Read and check a queries file; errors name the file and the query number."""
    data = load_json_list(path)
    queries = []
    for k, q in enumerate(data):
        target = q.get("target") if isinstance(q, dict) else None
        evidence = q.get("evidence", {}) if isinstance(q, dict) else None
        targets = [target] if isinstance(target, str) else target
        if not (isinstance(targets, list) and targets and all(isinstance(t, str) for t in targets)):
            raise FormatError(f"query {k}: 'target' must be a variable name or a list of names", path)
        if not isinstance(evidence, dict):
            raise FormatError(f"query {k}: 'evidence' must be an object {{\"VAR\": \"STATE\"}}", path)
        queries.append({"target": targets, "evidence": evidence})
    return queries


def _posterior_results(states: Sequence[str], target: str, evidences: Sequence[dict], probs: np.ndarray
                       ) -> list[dict[str, Any]]:
    """One ``{"target", "evidence", "posterior": {state: p}}`` record per row of ``probs`` (N, |X|), the floats
    converted in bulk."""
    return [{"target": target, "evidence": evidence, "posterior": dict(zip(states, row, strict=True))}
            for evidence, row in zip(evidences, probs.tolist(), strict=True)]


def _joint_result(net, targets: list[str], evidence: dict, table: np.ndarray) -> dict[str, Any]:
    rows = [{"states": dict(zip(targets, (net.states(t)[i] for t, i in zip(targets, idx, strict=True)), strict=True)),
             "probability": float(table[idx])}
            for idx in itertools.product(*(range(n) for n in table.shape))]
    return {"target": targets, "evidence": evidence, "joint": rows}


def answer_queries(engine: InferenceEngine, queries: list[dict[str, Any]], joint: bool = False,
                   numbered: bool = True, approximate: str | None = None, samples: int = 100_000,
                   seed: int = 0) -> list[dict]:
    """Answer many queries; single-target hard-evidence queries are batched per target when there are several
    and the engine has a junction tree within its budget. A posterior that does not fit the memory budget, or
    every posterior with ``approximate`` (the method), is estimated (:func:`approximate_records`). Errors name
    the query number (``query 3: ...``) when ``numbered``."""
    net = engine.net
    label = (lambda k: f"query {k}: ") if numbered else (lambda k: "")
    batching = len(queries) > 1 and approximate is None and engine.fits_budget
    results: list[list[dict] | None] = [None] * len(queries)
    batches: dict[str, list[int]] = defaultdict(list)
    for k, q in enumerate(queries):
        targets, evidence = q["target"], q["evidence"]
        try:
            if joint and len(targets) > 1:
                results[k] = [_joint_result(net, targets, evidence, engine.joint(targets, evidence))]
            elif batching and len(targets) == 1 and all(isinstance(s, str) for s in evidence.values()):
                batches[targets[0]].append(k)
            else:
                results[k] = approximate_records(engine, targets, evidence, approximate, samples, seed)
        except (EvidenceError, UnknownStateError, UnknownVariableError) as exc:
            raise type(exc)(f"{label(k)}{exc}") from None
    for target, members in batches.items():
        evidences = [queries[k]["evidence"] for k in members]
        probs = _batched_posterior(engine, target, evidences, [label(k) for k in members])
        for k, record in zip(members, _posterior_results(net.states(target), target, evidences, probs), strict=True):
            results[k] = [record]
    answered = cast("list[list[dict]]", results)  # every query: alone above or in its batch
    return [record for r in answered for record in r]


def approximate_records(engine: InferenceEngine, targets: list[str], evidence: dict, method: str | None,
                        samples: int, seed: int) -> list[dict]:
    """One record per target of :func:`bnstudio.inference.approximate.answer_posterior` (exact unless
    ``method`` or the memory budget says otherwise); an estimate carries ``method``, ``standard_error`` per
    state (likelihood weighting), the reason it is not exact and its details (samples, effective samples;
    loopy BP's convergence)."""
    from bnstudio.inference.approximate import answer_posterior

    answer = answer_posterior(engine, targets, evidence, method or "auto", samples, seed)
    records = []
    for t in targets:
        record = _posterior_results(engine.net.states(t), t, [evidence], answer.posteriors[t][None])[0]
        if not answer.exact:
            record["method"] = answer.method
            if answer.standard_errors is not None:
                record["standard_error"] = dict(zip(engine.net.states(t), answer.standard_errors[t].tolist(),
                                                    strict=True))
            record.update({"reason": answer.reason, **answer.details} if answer.reason else answer.details)
        records.append(record)
    return records


def _batched_posterior(engine: InferenceEngine, target: str, evidences: list[dict[str, str]],
                       labels: list[str]) -> np.ndarray:
    """p(target | e_n) for hard-evidence cases in one call; errors start with the query's label."""
    import numpy as np

    from bnstudio.inference.evidence import describe

    net = engine.net
    n = len(evidences)
    seen: dict[tuple[str, str], int] = {}  # (variable, state) -> code, looked up once per pair
    columns: dict[str, list[int]] = {}
    for row, (evidence, label) in enumerate(zip(evidences, labels, strict=True)):
        for name, state in evidence.items():
            code = seen.get((name, state))
            if code is None:
                try:
                    code = seen[name, state] = net.variable(name).index(state)
                except (KeyError, ValueError) as exc:
                    raise EvidenceError(f"{label}{exc}") from None
            columns.setdefault(name, [-1] * n)[row] = code
    coded = {name: np.array(codes, dtype=np.int64) for name, codes in columns.items()}
    if not coded:
        return np.broadcast_to(engine.posterior(target)[target], (n, net.cardinality(target)))
    try:
        return engine.posterior_batch(target, coded)[target]
    except ImpossibleEvidence:
        for evidence, label in zip(evidences, labels, strict=True):  # name the first impossible query
            if engine.log_evidence(evidence) == -np.inf:
                raise ImpossibleEvidence(f"{label}impossible evidence: p({describe(engine.compiled.index, evidence)}) "
                                         f"= 0") from None
        raise


def run(args: argparse.Namespace) -> int:
    with cycle_collector_paused():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    temporal.check(args)
    if temporal.asked(args):
        return temporal.run(args)
    if explain.asked(args):
        if args.slices:
            raise EvidenceError("--slices does not combine with --mpe or --map")
        return explain.run(args)
    if args.queries and (args.target or args.evidence):
        raise EvidenceError("use either --queries FILE or --target/--evidence, not both")
    if args.queries:
        queries = load_queries(args.queries)
    elif args.target:
        queries = [{"target": list(args.target), "evidence": parse_evidence(args.evidence)}]
    else:
        raise EvidenceError("give at least one --target VAR (or --queries FILE.json)")
    from bnstudio.inference import InferenceEngine
    from bnstudio.io import read_network

    net = read_network(args.network)
    engine = InferenceEngine(temporal.unrolled(net, args.slices) if args.slices else net)
    estimate = {"approximate": args.approximate, "samples": args.samples, "seed": args.seed}
    if args.do:
        results = answer_under_interventions(engine, queries, parse_interventions(args.do), args.joint,
                                             bool(args.queries), **estimate)
    else:
        results = answer_queries(engine, queries, joint=args.joint, numbered=bool(args.queries), **estimate)
    if args.json:
        print_json({"results": results})
        return 0
    for r in results:
        evidence = ", ".join([f"do({k}={v})" for k, v in r.get("do", {}).items()]
                             + [f"{k}={v}" for k, v in r["evidence"].items()]) or "no evidence"
        if "joint" in r:
            print(f"p({', '.join(r['target'])} | {evidence})")
            print_table([[*row["states"].values(), f"{row['probability']:.6f}"] for row in r["joint"]],
                        [*r["target"], "probability"])
        else:
            _print_posterior(r, evidence)
        print()
    return 0


def _print_posterior(record: dict[str, Any], evidence: str) -> None:
    """The posterior table; an estimate adds its standard errors and a line saying how it was obtained."""
    print(f"p({record['target']} | {evidence})")
    se = record.get("standard_error")
    if se is None:
        print_table([(s, f"{p:.6f}") for s, p in record["posterior"].items()], ["state", "probability"])
    else:
        print_table([(s, f"{p:.6f}", f"{se[s]:.6f}") for s, p in record["posterior"].items()],
                    ["state", "probability", "standard error"])
    if record.get("method") == "likelihood-weighting":
        print(f"approximate: likelihood weighting, {record['samples']} samples "
              f"(worth {record['effective_samples']:.0f} unweighted); the standard error is the sampling error")
    elif record.get("method") == "loopy-bp":
        state = "converged" if record["converged"] else "did NOT converge"
        print(f"approximate: loopy belief propagation, {state} after {record['iterations']} sweeps "
              f"(no error estimate)")
    if record.get("reason"):
        print(f"why: {record['reason']}")


# ---------------------------------------------------------------------- interventions: --do VAR=STATE
def add_intervention_argument(parser: argparse.ArgumentParser) -> None:
    """``--do VAR=STATE``: the queries are answered on the network mutilated by the interventions."""
    parser.add_argument("--do", action="append", default=[], metavar="VAR=STATE",
                        help="intervention do(VAR=STATE): VAR's parent arcs are cut and VAR set to STATE; "
                             "the evidence is observed after it (repeatable)")


def parse_interventions(items: Sequence[str]) -> dict[str, str]:
    """``["X=x"]`` -> ``{"X": "x"}``; an intervention sets a state, never a likelihood."""
    interventions = parse_evidence(items, "intervention")
    for name, spec in interventions.items():
        if not isinstance(spec, str):
            raise EvidenceError(f"an intervention sets one state: use --do {name}=STATE, not a likelihood")
    return interventions


def answer_under_interventions(engine: InferenceEngine, queries: list[dict[str, Any]], interventions: dict[str, str],
                               joint: bool, numbered: bool, **estimate: Any) -> list[dict]:
    """:func:`answer_queries` for p(Y | do(x), e) on the mutilated network; each record gets ``"do"``. A variable
    both observed and set, or evidence impossible under the do(), is a one-line error."""
    from bnstudio.inference.intervention import check_findings, describe

    for k, q in enumerate(queries):
        try:
            check_findings(interventions, q["evidence"])
        except EvidenceError as exc:
            raise EvidenceError(f"{f'query {k}: ' if numbered else ''}{exc}") from None
    try:
        results = answer_queries(engine.intervened(interventions), queries, joint=joint, numbered=numbered,
                                 **estimate)
    except ImpossibleEvidence as exc:
        raise ImpossibleEvidence(f"{exc} under {describe(interventions)}") from None
    for record in results:
        record["do"] = dict(interventions)
    return results
