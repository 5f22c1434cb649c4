"""``bnstudio fit NET DATA --method M [--dask-local N | --scheduler ADDRESS] [...] -o OUT [--json]``: learn the
parameters of a network from a table, a Parquet file or a folder of parts."""
from __future__ import annotations

import argparse
from typing import Any

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, print_iteration, print_json, writing
from bnstudio.cli.data_source import add_cluster_options, fit_data
from bnstudio.errors import ValidationError
from bnstudio.learn.names import METHODS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Learn parameters (ml, mp, em, lgd, clgd, wanbia, bagged-mp) from data."""

    parser.add_argument("network", type=opt.path, help="network file whose structure is fitted")
    parser.add_argument("data", type=opt.path, help="data table (.csv, .parquet, ...) or a folder of CSV/Parquet "
                        "parts; ml, mp and em read CSV and Parquet a piece at a time")
    parser.add_argument("--method", required=True, choices=METHODS,
                        help="ml, mp (Dirichlet mean posterior), em (missing cells), lgd, clgd (discriminative "
                             "gradient), wanbia (weighted conditional), bagged-mp")
    parser.add_argument("--target", type=opt.variable,
                        help="target (class) variable for discriminative methods and cnll")
    add_learner_options(parser)
    add_cluster_options(parser)
    parser.add_argument("-o", "--output", type=opt.path, required=True,
                        help="output network (.bnsproj keeps counts and history)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_strict_option(parser)


def add_learner_options(parser: argparse.ArgumentParser) -> None:
    """The hyper-parameters of the learners, each checked for its range (shared by ``fit`` and ``evaluate``)."""
    parser.add_argument("--prior", choices=["laplace", "bdeu"], help="Dirichlet prior (mp, em, wanbia, bagged-mp)")
    parser.add_argument("--ess", type=opt.ess, help="pseudo-counts per cell (laplace) or equivalent sample size "
                        f"(bdeu), in [{opt.MIN_ESS:g}, {opt.MAX_ESS:g}]")
    parser.add_argument("--criterion", choices=["cll", "ae", "se"], help="clgd criterion (default cll)")
    parser.add_argument("--alpha", type=opt.unit_interval,
                        help="clgd mixed objective log p(q|e) + alpha log p(e), 0..1")
    parser.add_argument("--l2", type=opt.l2, help=f"L2 penalty per case, 0..{opt.MAX_L2:g}: clgd toward its "
                        "generative start, wanbia toward w = 1 (default for both 10/N, N = rows), lgd on beta "
                        "(default 0)")
    parser.add_argument("--level", choices=["attribute", "attribute-value", "attribute-value-class", "parameter"],
                        help="wanbia weighting level")
    parser.add_argument("--bags", type=opt.bags, help=f"bagged-mp: number of bootstrap bags (1..{opt.MAX_BAGS})")
    parser.add_argument("--max-iter", type=opt.max_iter,
                        help=f"iterative methods: iteration limit (1..{opt.MAX_ITER})")
    parser.add_argument("--seed", type=opt.seed, help="seed for anything random"
                        " (0 .. 2^64 - 1; default: fresh entropy, a different result each run)")


OPTIONS = {  # method -> CLI options it accepts (name in args -> learner keyword)
    "ml": {}, "mp": {"prior": "prior", "ess": "ess"},
    "em": {"prior": "prior", "ess": "ess", "max_iter": "max_iter", "seed": "seed"},
    "lgd": {"l2": "l2", "max_iter": "max_iter"},
    "clgd": {"criterion": "criterion", "alpha": "alpha", "l2": "l2", "max_iter": "max_iter"},
    "wanbia": {"level": "level", "l2": "l2", "prior": "prior", "ess": "ess", "max_iter": "max_iter"},
    "bagged-mp": {"bags": "bags", "prior": "prior", "ess": "ess", "seed": "seed"},
}


def learner_options(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword options for the chosen method; an option the method does not take is an error."""
    accepted = OPTIONS[args.method]
    options = {}
    for name in ("prior", "ess", "criterion", "alpha", "l2", "level", "bags", "max_iter", "seed"):
        value = getattr(args, name, None)
        if value is None:
            continue
        if name not in accepted:
            raise ValidationError(f"--{name.replace('_', '-')} does not apply to method '{args.method}'")
        options[accepted[name]] = value
    if args.method == "em" and "prior" in options:
        options["m_step"] = "mp"
    return options


def save_fitted(net, result, path: str) -> None:
    """Write the fitted network; a .bnsproj also keeps the Dirichlet counts and the run's history."""
    fitted = result.network(net)
    if str(path).lower().endswith(".bnsproj"):
        from bnstudio.project import Project, save_project
        save_project(Project(fitted, runs=[result.to_json()]), path)
    else:
        from bnstudio.io import write_network
        write_network(fitted, path)


def run(args: argparse.Namespace) -> int:
    from bnstudio.io import read_network
    from bnstudio.jobs import CallbackReporter
    from bnstudio.learn.params import make_learner

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
