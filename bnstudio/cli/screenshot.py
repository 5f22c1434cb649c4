"""``bnstudio screenshot OUT.png [FILE] [--size WxH]``: render the main window offscreen to a PNG (or, to
``OUT.pdf``, the network as File ▸ Export as PDF writes it: one page, vector).

Every option is checked before Qt is imported, so a bad command line costs nothing and needs no display.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bnstudio.cli import options as opt
from bnstudio.cli.common import parse_evidence
from bnstudio.display import themes  # light and dark (plain data: no Qt)
from bnstudio.display.window_docks import DOCKS  # the main window's docks (plain data: no Qt)
from bnstudio.errors import FormatError

ZOOM_RANGE = (0.1, 4.0)                    # the canvas's MIN_ZOOM, MAX_ZOOM
SIDE_RANGE = (200, 10_000)                 # pixels per side of the window


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Render the main window (optionally on FILE, with evidence) to a PNG, without a display."""
    parser.add_argument("out", type=opt.path, help="PNG file to write (a .pdf: the network on one page, as "
                                                   "File > Export as PDF writes it)")
    parser.add_argument("file", nargs="?", type=opt.existing_file,
                        help="network or project file to show (default: an empty network)")
    parser.add_argument("--size", type=parse_size, default=(1600, 1000),
                        help=f"window size WxH in pixels, {SIDE_RANGE[0]}..{SIDE_RANGE[1]} per side "
                             f"(default 1600x1000)")
    parser.add_argument("--evidence", "-e", action="append", metavar="VAR=STATE", help="evidence to enter")
    parser.add_argument("--select", type=opt.variable, metavar="VAR",
                        help="select this node (its CPT and properties show)")
    parser.add_argument("--style", choices=("bars", "compact"), help="node view")
    parser.add_argument("--zoom", type=opt.real(*ZOOM_RANGE),
                        help=f"zoom factor after opening (1 = 100%%), {ZOOM_RANGE[0]:g}..{ZOOM_RANGE[1]:g}")
    parser.add_argument("--docks", type=parse_docks,
                        help=f"comma-separated docks to show, the first named of a tab group in front: "
                             f"{','.join(DOCKS)} (or 'none'); default: as a user sees the window just opened (no dock until "
                             f"a node is selected, e.g. with --select)")
    parser.add_argument("--appearance", choices=(themes.LIGHT, themes.DARK),
                        help="draw the window light or dark (default: as the desktop is; offscreen, light)")


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` -> (W, H), each side in :data:`SIDE_RANGE`."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"malformed size {text!r}: use WxH, e.g. 1600x1000") from None
    low, high = SIDE_RANGE
    if not (low <= width <= high and low <= height <= high):
        raise argparse.ArgumentTypeError(f"size {text} is out of range ({low}..{high} pixels per side)")
    return width, height


def parse_docks(text: str) -> list[str]:
    """``properties,cpt`` -> the docks to show; ``none`` (or nothing) shows none."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected comma-separated dock names (or none), got an empty string")
    docks = [d.strip() for d in text.split(",") if d.strip() and d.strip() != "none"]
    unknown = [d for d in docks if d not in DOCKS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown dock(s) {', '.join(unknown)}; use {', '.join(DOCKS)} or none")
    return docks


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".png", ".pdf"):
        raise FormatError("the output must be a .png file (the window) or a .pdf file (the network)", path=args.out)
    if not out.parent.is_dir():
        raise FormatError("cannot save: the folder does not exist", path=args.out)
    evidence = parse_evidence(args.evidence)
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from bnstudio.gui.screenshot import render_screenshot  # lazily: the rest of the CLI never imports Qt

    written = render_screenshot(args.out, args.file, args.size, evidence, args.select, args.style, args.zoom,
                                args.docks, appearance=args.appearance)
    print(f"wrote {written}")
    return 0
