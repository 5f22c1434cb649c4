"""``bnstudio fit NET DATA --method M [--dask-local N | --scheduler ADDRESS] [...] -o OUT [--json]``: learn the
parameters of a network from a table, a Parquet file or a folder of parts."""
from __future__ import annotations

import argparse
import math
from typing import Any, Callable

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, print_iteration, print_json, writing
from bnstudio.cli.data_source import add_cluster_options, fit_data
from bnstudio.errors import ValidationError
from bnstudio.learn.forms import implied
from bnstudio.learn.registry import METHODS, PARAMETER_LEARNERS, Option, parameter_learner, shown_options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Learn parameters (ml, mp, em, lgd, clgd, wanbia, bagged-mp) from data."""

    parser.add_argument("network", type=opt.path, help="network file whose structure is fitted")
    parser.add_argument("data", type=opt.path, help="data table (.csv, .parquet, ...) or a folder of CSV/Parquet "
                        "parts; ml, mp and em read CSV and Parquet a piece at a time")
    parser.add_argument("--method", required=True, choices=METHODS,
                        help=", ".join(f"{e.name} ({e.summary})" for e in PARAMETER_LEARNERS))
    parser.add_argument("--target", type=opt.variable,
                        help="target (class) variable for discriminative methods and cnll")
    add_learner_options(parser)
    add_cluster_options(parser)
    parser.add_argument("-o", "--output", type=opt.path, required=True,
                        help="output network (.bnsproj keeps counts and history)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_strict_option(parser)


#: the command line's own caps where they are tighter or wider than the learners' (cli/options.py says why):
#: bags up to the learner's own bound (learn/bounds.py); evaluate's --seed also splits the folds (0 .. 2^64 - 1)
CLI_TYPES: dict[str, tuple[Callable[[str], Any], str]] = {"bags": (opt.bags, f"1..{opt.MAX_BAGS}"),
                                                          "seed": (opt.seed, "0 .. 2^64 - 1")}
#: every learner option the command line offers, with the methods that take it (from the learner registry)
SHOWN = shown_options(PARAMETER_LEARNERS)
#: method -> the CLI options it accepts (name in args -> learner keyword)
OPTIONS = {e.name: {o.name: o.name for o in e.shown_options} for e in PARAMETER_LEARNERS}


def add_learner_options(parser: argparse.ArgumentParser) -> None:
    """The hyper-parameters of the learners, each checked for its range (shared by ``fit`` and ``evaluate``);
    generated from the learner registry (:mod:`bnstudio.learn.registry`)."""
    for name, (option, methods) in SHOWN.items():
        used_by = f" ({', '.join(methods)})"
        if option.kind == "bool":
            parser.add_argument(option.flag, action="store_true", default=None, help=option.help + used_by)
        elif option.kind == "choice":
            parser.add_argument(option.flag, choices=option.choices, help=option.help + used_by)
        else:
            kind, accepted = CLI_TYPES.get(name, (parser_type(option), option.describe_range()))
            parser.add_argument(option.flag, type=kind, help=f"{option.help}{used_by}, {accepted}")


def parser_type(option: Option) -> Callable[[str], Any]:
    """An argparse type checking the option's kind and range, in the command line's words."""
    low = option.low if option.low is not None else -math.inf
    high = option.high if option.high is not None else math.inf
    if option.kind == "int":
        return opt.integer(int(low), None if math.isinf(high) else int(high))
    return opt.real(low, high, low_open=option.low_open)


def learner_options(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword options for the chosen method; an option the method does not take is an error, and an option
    that matters only with another's value implies that value (the registry's ``applies_when``,
    :func:`bnstudio.learn.forms.implied`)."""
    accepted = OPTIONS[args.method]
    options = {}
    for name in SHOWN:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name not in accepted:
            raise ValidationError(f"--{name.replace('_', '-')} does not apply to method '{args.method}'")
        options[accepted[name]] = value
    return implied(parameter_learner(args.method), options)   # em: a prior means the mp M-step


def save_fitted(net, result, path: str) -> None:
    """Write the fitted network; a .bnsproj also keeps the Dirichlet counts and the run's history."""
    fitted = result.network(net)
    if str(path).lower().endswith(".bnsproj"):
        from bnstudio.io.project import Project, save_project
        save_project(Project(fitted, runs=[result.to_json()]), path)
    else:
        from bnstudio.io import write_network
        write_network(fitted, path)


def run(args: argparse.Namespace) -> int:
    from bnstudio.io import format_for, read_network
    from bnstudio.jobs import CallbackReporter
    from bnstudio.learn.params import make_learner

    format_for(args.output)  # unknown output extension -> one-line error before any work
    net = read_network(args.network)
    if args.target is not None:
        net.variable(args.target)
    reporter = None if args.json else CallbackReporter(print_iteration)
    learner = make_learner(args.method, **learner_options(args))
    with fit_data(net, args) as (data, weights):
        result = learner.fit(net, data, weights, target=args.target, reporter=reporter)
    with writing(args.output):
        save_fitted(net, result, args.output)
    if args.json:
        print_json({"method": result.method, "history": result.history, "stop_reason": result.stop_reason,
                    "seconds": result.seconds, "output": args.output})
    else:
        print(f"{result.method}: {result.stop_reason} after {result.n_iterations} iteration(s), "
              f"{result.seconds:.2f} s -> {args.output}")
    return 0
