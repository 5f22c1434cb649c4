"""``bnstudio learn DATA.csv --algorithm A [options] -o OUT [--json]``: learn a structure and its parameters.

Algorithms: nb, tan, kdb, chow-liu, hill-climb, bnc (see :mod:`bnstudio.learn.structure`). The written network
(format by the extension of OUT) carries ML parameters, or mean-posterior ones with ``--prior``.
``--tiers FILE`` holds a JSON list of lists of variable names, or one tier per line with names separated by
commas or blanks (``#`` starts a comment). ``--start`` takes a network file or one of empty, tree, nb.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, parse_json, print_json, writing
from bnstudio.errors import FormatError, ValidationError
from bnstudio.learn.names import ALGORITHMS, SCORES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Learn a network structure (nb, tan, kdb, chow-liu, hill-climb, bnc) and its parameters from a CSV file."""

    parser.add_argument("data", type=opt.path, help="CSV file, one column per variable (empty cell = missing)")
    parser.add_argument("--algorithm", "-a", required=True, choices=ALGORITHMS, help="structure learner")
    parser.add_argument("--target", type=opt.variable, metavar="VAR", help="class variable (nb, tan, kdb, bnc)")
    parser.add_argument("--score", choices=SCORES, help="score (default: bic for hill-climb, cll for bnc, "
                        "mutual information for the trees)")
    parser.add_argument("--ess", type=opt.ess, default=1.0, metavar="A",
                        help=f"equivalent sample size (bdeu, priors), in [{opt.MIN_ESS:g}, {opt.MAX_ESS:g}] "
                             "(default 1)")
    parser.add_argument("--max-parents", type=opt.non_negative_int, metavar="K", help="at most K parents per variable (0 .. number of variables; default: "
                        "no limit)")
    parser.add_argument("--require", action="extend", nargs="+", default=[], metavar="A->B", help="required arcs")
    parser.add_argument("--forbid", action="extend", nargs="+", default=[], metavar="A->B", help="forbidden arcs")
    parser.add_argument("--tiers", type=opt.path, metavar="FILE",
                        help="tiers file (later tiers cannot be parents of earlier)")
    parser.add_argument("--start", type=opt.path, metavar="NET",
                        help="start network file, or empty / tree / nb (hill-climb, bnc)")
    parser.add_argument("--tabu", type=opt.search_steps, default=0, metavar="N",
                        help=f"tabu search: up to N moves in a row without improvement (hill-climb, bnc; "
                             f"0..{opt.MAX_SEARCH_STEPS})")
    parser.add_argument("--restarts", type=opt.search_steps, default=0, metavar="N",
                        help=f"random restarts (hill-climb, bnc; 0..{opt.MAX_SEARCH_STEPS})")
    parser.add_argument("--k", type=opt.non_negative_int, default=1, metavar="K",
                        help="attribute parents per attribute (kdb; 0 .. number of variables, default 1)")
    parser.add_argument("--root", type=opt.variable, metavar="VAR", help="root of the chow-liu / tan tree")
    parser.add_argument("--prior", choices=("laplace", "bdeu"), help="mean-posterior parameters instead of ML")
    parser.add_argument("--seed", type=opt.seed, metavar="S", help="random seed of the restarts"
                        " (0 .. 2^64 - 1; default: fresh entropy, a different result each run)")
    parser.add_argument("-o", "--output", type=opt.path, required=True, metavar="OUT",
                        help="network file to write (.bif, ...)")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    add_strict_option(parser)


def read_tiers(path: str) -> list[list[str]]:
    """Tiers from a JSON list of lists, or one tier per line (names separated by commas or blanks)."""
    from bnstudio.io.atomic import read_text

    text = read_text(path)
    if text.lstrip().startswith("["):
        tiers = parse_json(text, path)
        if not isinstance(tiers, list) or not all(isinstance(t, list) and all(isinstance(n, str) for n in t)
                                                  for t in tiers):
            raise FormatError("tiers must be a JSON list of lists of variable names", path=path)
        return tiers
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [[n for n in re.split(r"[,\s]+", line) if n] for line in lines if line]


def _start(value: str | None, names: list[str]):
    if value is None or value in ("empty", "tree", "nb"):
        return value
    from bnstudio.io import read_network

    net = read_network(value)
    unknown = [v for v in net.variables if v not in names]
    if unknown:
        raise ValidationError(f"start network variables not in the data: {', '.join(unknown)}")
    return net


def run(args: argparse.Namespace) -> int:
    from bnstudio.data import read_csv
    from bnstudio.io import format_for, write_network
    from bnstudio.learn.structure import learn_structure, parse_arc

    format_for(args.output)  # unknown output extension -> one-line error before any work
    if args.algorithm == "tan" and args.root is not None and args.root == args.target:
        raise ValidationError(f"--root must be an attribute: the tan tree spans the attributes, not the class "
                              f"variable '{args.target}'")
    dataset = read_csv(args.data)
    names, states = list(dataset.columns), [tuple(s) for s in dataset.states]
    stem = re.sub(r"\W", "_", Path(args.data).stem) or "learned"
    result = learn_structure(
        args.algorithm, dataset.codes, names, states, target=args.target, score=args.score, ess=args.ess,
        max_parents=args.max_parents, required=[parse_arc(a) for a in args.require],
        forbidden=[parse_arc(a) for a in args.forbid], tiers=read_tiers(args.tiers) if args.tiers else None,
        start=_start(args.start, names), tabu=args.tabu, restarts=args.restarts, seed=args.seed, k=args.k,
        root=args.root, prior=args.prior, name=stem)
    with writing(args.output):
        write_network(result.network, args.output)
    if args.json:
        print_json({**result.to_json(), "score_name": result.score_name, "output": args.output})
    else:
        print(f"{args.algorithm}: {len(result.arcs)} arcs, {result.score_name} = {result.score:.4f}, "
              f"{result.seconds:.2f} s; wrote {args.output}")
        for parent, child in result.arcs:
            print(f"  {parent} -> {child}")
    return 0
