"""``bnstudio sample NET -n N [--seed S] [--missing FRAC] [--hide VAR ...] -o OUT.csv [--json]``.

Forward-samples ``N`` complete cases, blanks the ``--hide`` columns (latent variables), then blanks each
remaining cell with probability ``FRAC`` (missing completely at random); see :func:`bnstudio.sampling.sample_csv`.
The cases are written chunk by chunk, so memory stays bounded whatever ``N``; a file that cannot fit the
output folder's free space is refused before any work. The same seed gives the same complete cases with or
without ``--missing``.
"""
from __future__ import annotations

import argparse
import time

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, print_json, writing
from bnstudio.errors import FormatError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sample cases from a network into a CSV file (optionally with missing cells or hidden variables)."""
    parser.add_argument("network", type=opt.path, help="network file (.bif, ...)")
    parser.add_argument("-n", type=opt.positive_int, required=True, metavar="N",
                        help="number of cases (rows), a positive integer")
    parser.add_argument("--seed", type=opt.seed, default=None, metavar="S", help="random seed (reproducible output)"
                        " (0 .. 2^64 - 1; default: fresh entropy, a different result each run)")
    parser.add_argument("--missing", type=opt.fraction, default=0.0, metavar="FRAC",
                        help="fraction of cells left empty at random (MCAR), 0 <= FRAC < 1")
    parser.add_argument("--hide", type=opt.variable, action="extend", nargs="+", default=[], metavar="VAR",
                        help="variables whose whole column is left empty (latent)")
    parser.add_argument("-o", "--output", type=opt.path, required=True, metavar="OUT.csv", help="output CSV file")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    add_strict_option(parser)


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    if not args.output.lower().endswith(".csv"):
        raise FormatError("the output must be a .csv file", path=args.output)
    from bnstudio.io import read_network
    from bnstudio.sampling import sample_csv

    net = read_network(args.network)
    with writing(args.output):
        written = sample_csv(net, args.n, args.output, args.seed, args.missing, args.hide)
    summary = {"output": args.output, "rows": written.rows, "columns": written.columns,
               "missing_fraction": written.missing_fraction, "seconds": round(time.perf_counter() - start, 4)}
    if args.json:
        print_json(summary)
    else:
        print(f"wrote {summary['rows']} cases x {summary['columns']} variables to {args.output} "
              f"({100 * summary['missing_fraction']:.1f}% of cells missing)")
    return 0
