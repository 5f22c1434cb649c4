"""``bnstudio <subcommand> ... [--json]``: every operation of the app, scriptable and headless.

Bad input (unknown file, variable or state, malformed evidence, impossible evidence) exits with status 2 and
one line on stderr; a bug exits with status 1 and one line asking for a report, never a traceback.
"""
from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

from bnstudio.cli import info, query
from bnstudio.errors import BNStudioError

SUBCOMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "info": (info.add_arguments, info.run),
    "query": (query.add_arguments, query.run),
}


class UsageError(BNStudioError):
    """Command-line arguments that do not parse."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit status 2 (via UsageError)
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bnstudio", description="Build, learn and query discrete Bayesian networks.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name, (add_arguments, _) in SUBCOMMANDS.items():
        add_arguments(sub.add_parser(name, help=add_arguments.__doc__))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bnstudio`` script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
        return SUBCOMMANDS[args.command][1](args)
    except BNStudioError as exc:
        print(f"bnstudio: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bnstudio: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: one line, no traceback
        print(f"bnstudio: internal error ({type(exc).__name__}: {exc}); please report it", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
