"""``bnstudio sample NET -n N [--seed S] [--missing FRAC] [--hide VAR ...] -o OUT.csv [--json]``.

Forward-samples ``N`` complete cases, blanks the ``--hide`` columns (latent variables), then blanks each
remaining cell with probability ``FRAC`` (missing completely at random). One random stream seeded with
``S`` feeds both steps, so the same seed gives the same complete cases with or without ``--missing``.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from bnstudio.cli.common import print_json
from bnstudio.errors import FormatError, ValidationError
from bnstudio.io import read_network
from bnstudio.sampling import forward_sample, hide_at_random, hide_variables, write_samples_csv


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sample cases from a network into a CSV file (optionally with missing cells or hidden variables)."""
    parser.add_argument("network", help="network file (.bif, ...)")
    parser.add_argument("-n", type=int, required=True, metavar="N", help="number of cases (rows)")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="random seed (reproducible output)")
    parser.add_argument("--missing", type=float, default=0.0, metavar="FRAC",
                        help="fraction of cells left empty at random (MCAR), 0 <= FRAC < 1")
    parser.add_argument("--hide", action="extend", nargs="+", default=[], metavar="VAR",
                        help="variables whose whole column is left empty (latent)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.csv", help="output CSV file")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    if args.n <= 0:
        raise ValidationError(f"-n must be a positive number of cases, got {args.n}")
    if not 0.0 <= args.missing < 1.0:
        raise ValidationError(f"--missing must be a fraction in [0, 1), got {args.missing:g}")
    if not args.output.lower().endswith(".csv"):
        raise FormatError("the output must be a .csv file", path=args.output)
    net = read_network(args.network)
    for name in args.hide:
        net.variable(name)  # unknown variable -> one-line error before any work
    rng = np.random.default_rng(args.seed)
    codes = forward_sample(net, args.n, rng)
    codes = hide_variables(codes, net, args.hide)
    if args.missing > 0:
        codes = hide_at_random(codes, args.missing, rng)
    try:
        write_samples_csv(net, codes, args.output)
    except OSError as exc:
        raise FormatError(f"cannot write the file: {exc.strerror or exc}", path=args.output) from None
    summary = {"output": args.output, "rows": int(codes.shape[0]), "columns": int(codes.shape[1]),
               "missing_fraction": float((codes < 0).mean()) if codes.size else 0.0,
               "seconds": round(time.perf_counter() - start, 4)}
    if args.json:
        print_json(summary)
    else:
        print(f"wrote {summary['rows']} cases x {summary['columns']} variables to {args.output} "
              f"({100 * summary['missing_fraction']:.1f}% of cells missing)")
    return 0
