"""``bnstudio evaluate NET DATA.csv --target VAR [--folds K --method M ...] [--json]``."""
from __future__ import annotations

import argparse

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, load_data, print_json, print_table
from bnstudio.cli.fit import OPTIONS, add_learner_options, learner_options
from bnstudio.errors import ValidationError
from bnstudio.learn.names import METHODS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Score a network on data (LL, CLL, error, AE, SE, Brier, confusion) or cross-validate a method."""

    parser.add_argument("network", type=opt.path, help="network file (.bif, .bnsproj, ...) whose parameters are "
                        "scored, or whose structure --method fits in each fold")
    parser.add_argument("data", type=opt.path, help="data table (.csv, ...), aligned to the network by column name")
    parser.add_argument("--target", type=opt.variable, required=True, metavar="VAR",
                        help="the class variable for CLL, error, AE, SE, Brier and the confusion matrix")
    parser.add_argument("--folds", type=opt.integer(2), metavar="K",
                        help="k-fold cross-validation of --method instead (K >= 2, at most the number of rows; "
                             "default: score the network as it is)")
    parser.add_argument("--method", choices=METHODS, help="the learner cross-validated with --folds (required there)")
    add_learner_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_strict_option(parser)


def run(args: argparse.Namespace) -> int:
    from bnstudio.evaluate import cross_validate, evaluate
    from bnstudio.io import read_network

    net = read_network(args.network)
    net.variable(args.target)
    data = load_data(net, args.data)
    if args.folds is not None:
        if args.method is None:
            raise ValidationError("--folds needs --method (the fitting method to cross-validate)")
        # --seed splits the folds; it also seeds the learner when the method uses one
        uses_seed = "seed" in OPTIONS[args.method]
        options = learner_options(argparse.Namespace(**{**vars(args), "seed": args.seed if uses_seed else None}))
        payload = cross_validate(net, data.codes, args.target, args.method, options, args.folds, args.seed)
    else:
        if args.method is not None:
            raise ValidationError("--method is used with --folds (cross-validation)")
        payload = evaluate(net, data.codes, args.target, data.weights).to_json()
    if args.json:
        print_json({k: v for k, v in payload.items() if k != "per_fold"} | ({"per_fold": payload["per_fold"]}
                                                                          if "per_fold" in payload else {}))
        return 0
    rows = [(k, f"{payload[k]:.6g}" + (f" ± {payload[k + '_sd']:.3g}" if k + "_sd" in payload else ""))
            for k in ("n", "ll", "cll", "error_rate", "ae", "se", "brier") if k in payload]
    print_table(rows, ["score", "value"])
    print("\nconfusion (rows: true, columns: predicted):")
    for row in payload["confusion"]:
        print("  " + " ".join(f"{c:6d}" for c in row))
    return 0
