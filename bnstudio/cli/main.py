"""``bnstudio <subcommand> ... [--json]``: every operation of the app, scriptable and headless.

Bad input (unknown file, variable or state, malformed evidence, impossible evidence, an option out of its
range) exits with status 2 and one line on stderr; a bug exits with status 1 and one line asking for a report,
never a traceback. A Python warning raised while a command runs (a reader's repair report, an ignored data
column) is printed once, as one ``bnstudio: warning: ...`` line, never with a source line.

Start-up stays short: a command builds the parser of its own subcommand only, and every subcommand module imports
only light things (argparse, :mod:`bnstudio.cli.options`, :mod:`bnstudio.cli.common`, :mod:`bnstudio.errors`)
at top level; what its work needs (numpy, the engine, the learners, pandas, scipy) is imported when it runs. So
``bnstudio --help`` and ``bnstudio X --help`` load no numerical library, and ``bnstudio info`` loads no
pandas or scipy (``tests/test_architecture.py`` checks it).
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import re
import sys
import warnings
from typing import Iterable, Iterator, NoReturn, Sequence

from bnstudio.errors import BNStudioError

# subcommand -> module defining add_arguments(parser) (its docstring is the help line) and run(args) -> int
SUBCOMMANDS: dict[str, str] = {
    "info": "bnstudio.cli.info",
    "query": "bnstudio.cli.query",
    "voi": "bnstudio.cli.voi",
    "sample": "bnstudio.cli.sample",
    "convert": "bnstudio.cli.convert",
    "fit": "bnstudio.cli.fit",
    "evaluate": "bnstudio.cli.evaluate",
    "errorbars": "bnstudio.cli.errorbars",
    "decide": "bnstudio.cli.decide",
    "learn": "bnstudio.cli.learn",
    "experiment": "bnstudio.cli.experiment",
    "report": "bnstudio.cli.report",
    "gui": "bnstudio.cli.gui",
    "screenshot": "bnstudio.cli.screenshot",
    "image": "bnstudio.cli.image",
}
#: subcommands running a Qt application: their process ends through Python's normal shutdown (see run_program)
QT_COMMANDS = frozenset({"gui", "screenshot", "image"})


class UsageError(BNStudioError):
    """Command-line arguments that do not parse."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit status 2 (via UsageError)
        command = self.prog.partition(" ")[2]
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser(commands: Iterable[str] | None = None, with_arguments: bool = True) -> argparse.ArgumentParser:
    """The ``bnstudio`` parser listing ``commands`` (default: every subcommand, in :data:`SUBCOMMANDS` order), each
    with its arguments unless ``with_arguments`` is false (enough for the top-level help or an unknown command)."""
    parser = _Parser(prog="bnstudio", description="Build, learn and query discrete Bayesian networks.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name in SUBCOMMANDS if commands is None else commands:
        add_arguments = importlib.import_module(SUBCOMMANDS[name]).add_arguments
        child = sub.add_parser(name, help=add_arguments.__doc__)
        if with_arguments:
            add_arguments(child)
    return parser


def _parser_for(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser ``argv`` needs: its subcommand's alone when it starts with one (the top level takes no option
    but ``--help``, so a subcommand comes first), else the list of subcommands without their arguments."""
    if argv and argv[0] in SUBCOMMANDS:
        return build_parser([argv[0]])
    return build_parser(with_arguments=False)


MAX_LINE = 2000  # characters of one error or warning line


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # what a terminal would act on, not show


def one_line(text: object) -> str:
    """``text`` on one line (line breaks become spaces, other control characters such as a NUL byte read
    from a file ``\\x00``), cut to :data:`MAX_LINE` characters."""
    line = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", " ".join(str(text).splitlines()))
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
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        with warnings_as_lines():
            args = _parser_for(argv).parse_args(argv)
            if args.command is None:  # no subcommand: the desktop app on the bundled ALARM example
                from bnstudio.gui.app import run as run_gui  # lazily: the core never imports Qt
                from bnstudio.resources import bundled_example

                return run_gui(bundled_example("alarm.bif"))
            module = importlib.import_module(SUBCOMMANDS[args.command])
            if not hasattr(args, "strict"):
                return module.run(args)
            from bnstudio.cli.common import reading_as_asked
            with reading_as_asked(args):          # --strict: every network read refuses what needs a repair
                return module.run(args)
    except BNStudioError as exc:
        print(f"bnstudio: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help (argparse exits after printing it)
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:  # e.g. `bnstudio ... | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("bnstudio: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: one line, no traceback
        print(f"bnstudio: internal error ({type(exc).__name__}: {one_line(exc)}); please report it", file=sys.stderr)
        return 1


def run_program() -> NoReturn:
    """The ``bnstudio`` program: :func:`main` on the process's command line, then the end of the process.

    After a subcommand other than the desktop app's the process ends at once (``os._exit``) once stdout and stderr
    are flushed: Python's own shutdown would spend 30-60 ms tearing down numpy and networkx and collecting every
    object, which nobody waits for. A command that used multiprocessing (a study's local workers and their
    forkserver) exits normally instead: multiprocessing's exit handlers remove its ``pymp-*`` folder from the
    temporary folder (``os._exit`` left one behind after every study); its objects are frozen first
    (``gc.freeze``), so the shutdown's garbage collections do not walk them all. A flush that fails (a full disk)
    is one error line and status 2. The desktop app, the top-level help and a mistyped command exit normally.
    """
    status = main()
    if len(sys.argv) < 2 or sys.argv[1] not in SUBCOMMANDS or sys.argv[1] in QT_COMMANDS:
        sys.exit(status)
    try:
        sys.stdout.flush()
    except OSError as exc:
        print(f"bnstudio: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        status = 2
    try:
        sys.stderr.flush()
    finally:
        if "multiprocessing.util" in sys.modules:
            gc.freeze()     # the shutdown's collections then skip every object: 0.15-0.3 s less after a study
            sys.exit(status)
        os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    run_program()
