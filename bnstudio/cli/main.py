"""``bnstudio <subcommand> ... [--json]``: every operation of the app, scriptable and headless.

Bad input (unknown file, variable or state, malformed evidence, impossible evidence, an option out of its
range) exits with status 2 and one line on stderr; a bug exits with status 1 and one line asking for a report,
never a traceback. A Python warning raised while a command runs (a reader's repair report, an ignored data
column) is printed once, as one ``bnstudio: warning: ...`` line, never with a source line.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
import warnings
from typing import Iterator, Sequence

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
        command = self.prog.partition(" ")[2]
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bnstudio", description="Build, learn and query discrete Bayesian networks.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name, module in SUBCOMMANDS.items():
        add_arguments = importlib.import_module(module).add_arguments
        add_arguments(sub.add_parser(name, help=add_arguments.__doc__))
    return parser


MAX_LINE = 2000  # characters of one error or warning line


def one_line(text: object) -> str:
    """``text`` on one line (line breaks become spaces), cut to :data:`MAX_LINE` characters."""
    line = " ".join(str(text).splitlines())
    return line if len(line) <= MAX_LINE else f"{line[:MAX_LINE]} ... ({len(line) - MAX_LINE} more characters)"


@contextlib.contextmanager
def warnings_as_lines() -> Iterator[None]:
    """While the block runs, each distinct warning goes to stderr once as ``bnstudio: warning: ...``; a numpy
    RuntimeWarning (an overflow or NaN nobody expected) says that results may be inaccurate."""
    seen: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        text = one_line(message)
        if issubclass(category, RuntimeWarning):
            text = f"numerical problem ({text}); results may be inaccurate, please report it"
        if text not in seen:
            seen.add(text)
            print(f"bnstudio: warning: {text}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show
        yield


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bnstudio`` script; returns the exit status."""
    parser = build_parser()
    try:
        with warnings_as_lines():
            args = parser.parse_args(argv)
            if args.command is None:  # no subcommand: the desktop app on the bundled ALARM example
                from bnstudio.gui.app import bundled_example, run as run_gui  # lazily: the core never imports Qt

                return run_gui(bundled_example("alarm.bif"))
            return importlib.import_module(SUBCOMMANDS[args.command]).run(args)
    except BNStudioError as exc:
        print(f"bnstudio: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help (argparse exits after printing it)
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:  # e.g. `bnstudio ... | head`: stop quietly
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("bnstudio: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: one line, no traceback
        print(f"bnstudio: internal error ({type(exc).__name__}: {one_line(exc)}); please report it", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
