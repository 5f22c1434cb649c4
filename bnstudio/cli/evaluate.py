"""``bnstudio evaluate NET DATA.csv --target VAR [--folds K --method M ...] [--json]``."""
from __future__ import annotations

import argparse
from pathlib import Path

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, load_data, print_json, print_table
from bnstudio.cli.fit import OPTIONS, add_learner_options, learner_options
from bnstudio.cli.learning_curve import add_learning_curve_options, run_learning_curve
from bnstudio.errors import FormatError, ValidationError
from bnstudio.learn.names import METHODS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Score a network on data (LL, CLL, error, AE, SE, Brier, AUC, ECE, confusion) or cross-validate a method;
    --figures writes its ROC and reliability diagrams."""

    parser.add_argument("network", type=opt.path, help="network file (.bif, .bnsproj, ...) whose parameters are "
                        "scored, or whose structure --method fits in each fold")
    parser.add_argument("data", type=opt.path, help="data table (.csv, ...), aligned to the network by column name")
    parser.add_argument("--target", type=opt.variable, required=True, metavar="VAR",
                        help="the class variable for CLL, error, AE, SE, Brier and the confusion matrix")
    parser.add_argument("--folds", type=opt.integer(2), metavar="K",
                        help="k-fold cross-validation of --method instead (K >= 2, at most the number of rows; "
                             "default: score the network as it is)")
    parser.add_argument("--method", choices=METHODS, help="the learner cross-validated with --folds (required there)")
    parser.add_argument("--figures", type=opt.path, metavar="DIR",
                        help="write the ROC curves (one-vs-rest, a line per state) and the reliability diagram "
                             "(with cases per bin) as PNG and SVG into DIR: roc-TARGET.* and reliability-TARGET.*; "
                             "with --folds, of every row's held-out posterior")
    add_learner_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_strict_option(parser)
    add_learning_curve_options(parser)


def figure_folder(folder: str) -> Path:
    """The --figures folder, made before any fitting so that a bad path fails at once."""
    stem = Path(folder)
    try:
        stem.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FormatError(f"cannot make the figures folder ({exc.strerror or exc})", path=folder) from None
    return stem


def write_figures(stem: Path, target: str, validation, title: str) -> list[str]:
    """roc-TARGET.{png,svg} and reliability-TARGET.{png,svg} in the folder ``stem``."""
    from bnstudio.figures import validation as figures

    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in target)
    written = figures.roc([validation.roc_series(c.state, c.state) for c in validation.rocs],
                          stem / f"roc-{safe}", title=f"ROC of {target}, {title}")
    written += figures.reliability([validation.reliability_series(target)], stem / f"reliability-{safe}",
                                   title=f"Reliability of {target}, {title}")
    return [str(p) for p in written]


def run(args: argparse.Namespace) -> int:
    if args.learning_curve is not None:
        return run_learning_curve(args)
    from bnstudio.evaluate.crossval import cross_validate_scored
    from bnstudio.evaluate.metrics import evaluate_scored
    from bnstudio.io import read_network

    net = read_network(args.network)
    net.variable(args.target)
    folder = None if args.figures is None else figure_folder(args.figures)
    data = load_data(net, args.data)
    if args.folds is not None:
        if args.method is None:
            raise ValidationError("--folds needs --method (the fitting method to cross-validate)")
        # --seed splits the folds; it also seeds the learner when the method uses one
        uses_seed = "seed" in OPTIONS[args.method]
        options = learner_options(argparse.Namespace(**{**vars(args), "seed": args.seed if uses_seed else None}))
        payload, scored = cross_validate_scored(net, data.codes, args.target, args.method, options, args.folds,
                                                args.seed)
        title = f"{args.method}, {args.folds}-fold held-out"
    else:
        if args.method is not None:
            raise ValidationError("--method is used with --folds (cross-validation)")
        metrics, scored = evaluate_scored(net, data.codes, args.target, data.weights)
        payload, title = metrics.to_json(), "as given"
    if folder is not None:
        payload["figures"] = write_figures(folder, args.target, scored.validation(), title)
    if args.json:
        print_json({k: v for k, v in payload.items() if k != "per_fold"} | ({"per_fold": payload["per_fold"]}
                                                                          if "per_fold" in payload else {}))
        return 0
    rows = [(k, "n/a (one target state in the data)" if payload[k] is None else
             f"{payload[k]:.6g}" + (f" ± {payload[k + '_sd']:.3g}" if k + "_sd" in payload else ""))
            for k in ("n", "ll", "cll", "error_rate", "ae", "se", "brier", "auc", "ece") if k in payload]
    print_table(rows, ["score", "value"])
    for path in payload.get("figures", []):
        print(f"wrote {path}")
    print("\nconfusion (rows: true, columns: predicted):")
    for row in payload["confusion"]:
        print("  " + " ".join(f"{c:6d}" for c in row))
    return 0
