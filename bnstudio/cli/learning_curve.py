"""``bnstudio evaluate NET DATA --target T --learning-curve mp,clgd [--sizes 20,50,200] [--repeats 5]
[--test-fraction 0.3] [--seed S] [--json]``: held-out error and CLL against training size per method
(:mod:`bnstudio.evaluate.learning_curve`, Ng & Jordan 2001).

A seeded ``--test-fraction`` of the rows is held out (``--seed``, default 0, also draws the subsamples);
the methods are fitted on subsamples of the rest. A learner option given on the command line (``--max-iter``,
``--ess``, ...) applies to every chosen method that takes it.
"""
from __future__ import annotations

import argparse
from typing import Any, Callable

from bnstudio.cli import options as opt
from bnstudio.cli.common import print_json, print_table
from bnstudio.cli.fit import OPTIONS, SHOWN
from bnstudio.errors import ValidationError
from bnstudio.learn.forms import implied
from bnstudio.learn.names import METHODS
from bnstudio.learn.registry import parameter_learner

MAX_REPEATS = 1000


def _listed(item: Callable[[str], Any], what: str) -> Callable[[str], list]:
    """A comma-separated list, each item parsed by ``item``."""
    def parse(text: str) -> list:
        items = [t.strip() for t in text.split(",") if t.strip()]
        if not items:
            raise argparse.ArgumentTypeError(f"expected {what} separated by commas, got {text!r}")
        return [item(t) for t in items]
    return parse


def _method(text: str) -> str:
    if text not in METHODS:
        raise argparse.ArgumentTypeError(f"unknown method {text!r}; use {', '.join(METHODS)}")
    return text


def add_learning_curve_options(parser: argparse.ArgumentParser) -> None:
    """--learning-curve and its settings."""
    group = parser.add_argument_group("learning curve (instead of scoring the network as it is)")
    group.add_argument("--learning-curve", type=_listed(_method, "methods"), metavar="M1,M2",
                       help="fit these methods on growing subsamples of the training rows and score the held-out "
                            "rows: error and CLL against training size (mean ± sd over --repeats)")
    group.add_argument("--sizes", type=_listed(opt.integer(1), "row counts"), metavar="N1,N2,...",
                       help="training sizes (default: 8 sizes on a log scale from 10 to every training row)")
    group.add_argument("--repeats", type=opt.integer(1, MAX_REPEATS), default=5,
                       help=f"subsamples per size (1..{MAX_REPEATS}, default 5)")
    group.add_argument("--test-fraction", type=opt.real(0.0, 1.0, low_open=True, high_open=True), default=0.3,
                       help="share of the rows held out for scoring (default 0.3)")


def _options(args: argparse.Namespace, methods: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Each method with the learner options given that it takes, and what they imply (em: a prior means the mp
    M-step, :func:`bnstudio.learn.forms.implied`); an option none of them takes is an error."""
    given = {name: value for name in SHOWN if (value := getattr(args, name, None)) is not None and name != "seed"}
    unused = [name for name in given if not any(name in OPTIONS[m] for m in methods)]
    if unused:
        raise ValidationError(f"--{unused[0].replace('_', '-')} applies to none of {', '.join(methods)}")
    return [(m, implied(parameter_learner(m), {name: value for name, value in given.items() if name in OPTIONS[m]}))
            for m in methods]


def run_learning_curve(args: argparse.Namespace) -> int:
    """The learning curve of ``args.learning_curve`` (printed as a table, or JSON)."""
    from bnstudio.cli.common import load_data
    from bnstudio.data.split import train_test_indices
    from bnstudio.evaluate.learning_curve import learning_curves
    from bnstudio.io import read_network

    for flag, value in (("--folds", args.folds), ("--method", args.method), ("--figures", args.figures)):
        if value is not None:
            raise ValidationError(f"{flag} does not go with --learning-curve")
    net = read_network(args.network)
    net.variable(args.target)
    codes = load_data(net, args.data).codes
    seed = 0 if args.seed is None else args.seed
    train, test = train_test_indices(len(codes), args.test_fraction, seed)
    if len(train) == 0 or len(test) == 0:
        raise ValidationError(f"--test-fraction {args.test_fraction:g} of {len(codes)} rows leaves no training or "
                              "no held-out rows")
    result = learning_curves(net, codes[train], codes[test], args.target, _options(args, args.learning_curve),
                             args.sizes, args.repeats, seed % 2**63)
    if args.json:
        print_json(result.to_json())
        return 0
    print(f"learning curve of {args.target}: {result.n_train} training rows, {result.n_test} held out, "
          f"{result.repeats} subsample(s) per size, seed {result.seed}")
    rows = [(c.label, size, f"{c.mean('error_rate')[j]:.4f} ± {c.sd('error_rate')[j]:.4f}",
             f"{c.mean('cll')[j]:.4f} ± {c.sd('cll')[j]:.4f}")
            for c in result.curves for j, size in enumerate(result.sizes)]
    print_table(rows, ["method", "rows", "error", "CLL"])
    return 0
