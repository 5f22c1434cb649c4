"""``bnstudio screenshot OUT.png [FILE] [--size WxH]``: render the main window offscreen to a PNG."""
from __future__ import annotations

import argparse
import os
import sys

from bnstudio.cli.common import parse_evidence
from bnstudio.errors import BNStudioError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Render the main window (optionally on FILE, with evidence) to a PNG, without a display."""
    parser.add_argument("out", help="PNG file to write")
    parser.add_argument("file", nargs="?", help="network or project file to show (default: an empty network)")
    parser.add_argument("--size", default="1600x1000", help="window size WxH in pixels (default 1600x1000)")
    parser.add_argument("--evidence", "-e", action="append", metavar="VAR=STATE", help="evidence to enter")
    parser.add_argument("--select", metavar="VAR", help="select this node (its CPT and properties show)")
    parser.add_argument("--style", choices=("bars", "compact"), help="node view")
    parser.add_argument("--zoom", type=float, help="zoom factor after fitting (1 = 100%%)")
    parser.add_argument("--docks", help="comma-separated docks to show: properties,history,cpt (or 'none')")


def parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise BNStudioError(f"malformed --size {text!r}: use WxH, e.g. 1600x1000") from None
    if not (200 <= width <= 10000 and 200 <= height <= 10000):
        raise BNStudioError(f"--size {text} is out of range (200..10000 pixels per side)")
    return width, height


def run(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    evidence = parse_evidence(args.evidence)
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from bnstudio.gui.screenshot import render_screenshot  # lazily: the rest of the CLI never imports Qt

    docks = None if args.docks is None else [d for d in args.docks.split(",") if d and d != "none"]
    out = render_screenshot(args.out, args.file, size, evidence, args.select, args.style, args.zoom, docks)
    print(f"wrote {out}")
    return 0
