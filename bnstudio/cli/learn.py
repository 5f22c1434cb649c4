"""``bnstudio learn DATA.csv --algorithm A [options] -o OUT [--json]``: learn a structure and its parameters.

Algorithms: nb, tan, kdb, chow-liu, hill-climb, bnc (see :mod:`bnstudio.learn.structure`). The written network
(format by the extension of OUT) carries ML parameters, or mean-posterior ones with ``--prior``.
``--tiers FILE`` holds a JSON list of lists of variable names, or one tier per line with names separated by
commas or blanks (``#`` starts a comment). ``--start`` takes a network file or one of empty, tree, nb.

The algorithms' options are generated from the learner registry (:mod:`bnstudio.learn.registry`): each is
offered once, with the algorithms that take it; an option an algorithm does not use is checked and ignored
(as :func:`~bnstudio.learn.structure.learn_structure` does).
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any, Callable

from bnstudio.cli import options as opt
from bnstudio.cli.common import add_strict_option, parse_json, print_json, writing
from bnstudio.cli.fit import CLI_TYPES, parser_type
from bnstudio.errors import FormatError, ValidationError
from bnstudio.learn.registry import ALGORITHMS, STRUCTURE_LEARNERS, Option

#: flags that keep their older, shorter spelling (``--require A->B`` for the option ``required``)
FLAGS = {"required": "--require", "forbidden": "--forbid"}
#: the command line's own caps where they differ from the learners' (cli/options.py says why)
TYPES: dict[str, tuple[Callable[[str], Any], str]] = {
    **CLI_TYPES, "tabu": (opt.search_steps, f"0..{opt.MAX_SEARCH_STEPS}"),
    "restarts": (opt.search_steps, f"0..{opt.MAX_SEARCH_STEPS}")}
#: what the command line takes for the options that are not numbers or choices, by kind
KIND_ARGUMENTS: dict[str, dict[str, Any]] = {
    "arcs": {"action": "extend", "nargs": "+", "default": [], "metavar": "A->B"},
    "tiers": {"type": opt.path, "metavar": "FILE"},
    "start": {"type": opt.path, "metavar": "NET"},
    "variable": {"type": opt.variable, "metavar": "VAR"},
}
KIND_HELP = {"tiers": " (a file: a JSON list of lists, or one tier per line)",
             "start": " (here a network file, or empty / tree / nb)"}


def structure_options() -> dict[str, list[tuple[Option, tuple[str, ...]]]]:
    """Every option the structure learners offer, by keyword: each distinct description of it (learners may
    share a keyword with their own help, range or choices) with the algorithms that describe it so."""
    out: dict[str, list[tuple[Option, tuple[str, ...]]]] = {}
    for entry in STRUCTURE_LEARNERS:
        for option in entry.shown_options:
            variants = out.setdefault(option.name, [])
            k = next((i for i, (o, _names) in enumerate(variants) if o == option), None)
            if k is None:
                variants.append((option, (entry.name,)))
            else:
                variants[k] = (option, variants[k][1] + (entry.name,))
    return out


def _help(variants: list[tuple[Option, tuple[str, ...]]], accepted: str = "") -> str:
    """One help text: the option's help with the algorithms taking it (unless all do) and the ``accepted``
    values, or each variant's help in turn."""
    if len(variants) > 1:
        return "; ".join(f"{', '.join(names)}: {option.help}" for option, names in variants)
    option, names = variants[0]
    said = [", ".join(names)] if names != ALGORITHMS else []
    said += [accepted] if accepted else []
    return option.help + (f" ({'; '.join(said)})" if said else "")


def add_structure_options(parser: argparse.ArgumentParser) -> None:
    """The structure learners' options, from the learner registry, each checked for its range."""
    for name, variants in structure_options().items():
        option = variants[0][0]
        flag = FLAGS.get(name, option.flag)
        if option.kind == "choice":
            choices = tuple(dict.fromkeys(c for o, _names in variants for c in o.choices))
            parser.add_argument(flag, dest=name, choices=choices, help=_help(variants))
        elif option.kind in KIND_ARGUMENTS:
            parser.add_argument(flag, dest=name, **KIND_ARGUMENTS[option.kind],
                                help=_help(variants) + KIND_HELP.get(option.kind, ""))
        else:
            kind, accepted = TYPES.get(name, (parser_type(option), option.describe_range()))
            parser.add_argument(flag, dest=name, type=kind, help=_help(variants, accepted))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Learn a network structure (nb, tan, kdb, chow-liu, hill-climb, bnc) and its parameters from a CSV file."""

    parser.add_argument("data", type=opt.path, help="table file (CSV, TSV, Excel, Parquet, Arrow), one column per variable (empty cell = missing)")
    parser.add_argument("--algorithm", "-a", required=True, choices=ALGORITHMS,
                        help=", ".join(f"{e.name} ({e.summary})" for e in STRUCTURE_LEARNERS))
    parser.add_argument("--target", type=opt.variable, metavar="VAR", help="class variable ("
                        + ", ".join(e.name for e in STRUCTURE_LEARNERS if e.needs_target) + ")")
    add_structure_options(parser)
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


def structure_keywords(args: argparse.Namespace, names: list[str]) -> dict[str, Any]:
    """The learner options given on the command line, as ``learn_structure`` keywords (arcs parsed, the tiers
    file read, a start network read and checked against the data's ``names``)."""
    from bnstudio.learn.structure import parse_arc

    options = {name: getattr(args, name) for name in structure_options() if getattr(args, name) is not None}
    options.update(required=[parse_arc(a) for a in args.required], forbidden=[parse_arc(a) for a in args.forbidden],
                   start=_start(args.start, names), tiers=read_tiers(args.tiers) if args.tiers else None)
    return options


def run(args: argparse.Namespace) -> int:
    from bnstudio.data import read_table
    from bnstudio.io import format_for, write_network
    from bnstudio.learn.structure import learn_structure

    format_for(args.output)  # unknown output extension -> one-line error before any work
    if args.algorithm == "tan" and args.root is not None and args.root == args.target:
        raise ValidationError(f"--root must be an attribute: the tan tree spans the attributes, not the class "
                              f"variable '{args.target}'")
    dataset = read_table(args.data)     # CSV, TSV, Excel, Parquet or Arrow, by extension
    names, states = list(dataset.columns), [tuple(s) for s in dataset.states]
    stem = re.sub(r"\W", "_", Path(args.data).stem) or "learned"
    result = learn_structure(args.algorithm, dataset.codes, names, states, target=args.target, name=stem,
                             **structure_keywords(args, names))
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
