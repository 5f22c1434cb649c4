"""``bnstudio gui [FILE]``: open the desktop app (on FILE if given)."""
from __future__ import annotations

import argparse

from bnstudio.cli import options as opt


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Open the desktop app on a network or project file."""
    parser.add_argument("file", nargs="?", type=opt.existing_file,
                        help="network or project file to open (.bnsproj, .bif, ...)")


def run(args: argparse.Namespace) -> int:
    from bnstudio.gui.app import run as run_gui  # lazily: the rest of the CLI never imports Qt

    return run_gui(args.file)
