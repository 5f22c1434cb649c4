"""``bnstudio <subcommand> ... [--json]``: every operation of the app, scriptable and headless.

Bad input (unknown file, variable or state, malformed evidence, impossible evidence) exits with status 2 and
one line on stderr; a bug exits with status 1 and one line asking for a report, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from bnstudio.errors import BNStudioError

# subcommand -> module defining add_arguments(parser) (its docstring is the help line) and run(args) -> int
SUBCOMMANDS: dict[str, str] = {
    "info": "bnstudio.cli.info",
    "query": "bnstudio.cli.query",
    "sample": "bnstudio.cli.sample",
    "convert": "bnstudio.cli.convert",
    "fit": "bnstudio.cli.fit",
    "evaluate": "bnstudio.cli.evaluate",
    "errorbars": "bnstudio.cli.errorbars",
    "learn": "bnstudio.cli.learn",
    "gui": "bnstudio.cli.gui",
    "screenshot": "bnstudio.cli.screenshot",
}


class UsageError(BNStudioError):
    """Command-line arguments that do not parse."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit status 2 (via UsageError)
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bnstudio", description="Build, learn and query discrete Bayesian networks.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name, module in SUBCOMMANDS.items():
        add_arguments = importlib.import_module(module).add_arguments
        add_arguments(sub.add_parser(name, help=add_arguments.__doc__))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bnstudio`` script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:  # no subcommand: the desktop app on the bundled ALARM example
            from bnstudio.gui.app import bundled_example, run as run_gui  # lazily: the core never imports Qt

            return run_gui(bundled_example("alarm.bif"))
        return importlib.import_module(SUBCOMMANDS[args.command]).run(args)
    except BNStudioError as exc:
        print(f"bnstudio: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `bnstudio ... | head`: stop quietly
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("bnstudio: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: one line, no traceback
        print(f"bnstudio: internal error ({type(exc).__name__}: {exc}); please report it", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
