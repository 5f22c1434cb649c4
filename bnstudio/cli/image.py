"""``bnstudio image FILE OUT.{png,svg,pdf}``: the network drawn as the app's canvas draws it (File ▸ Export
Image), without a window. Every option is checked before Qt is imported."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from bnstudio.cli import options as opt
from bnstudio.cli.common import parse_evidence
from bnstudio.errors import FormatError

FORMATS = (".png", ".svg", ".pdf")
SCALE_RANGE = (0.05, 8.0)     # PNG pixels per drawing unit


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Draw a network (as the app shows it, with beliefs) to a PNG, SVG or PDF file, without a display."""
    parser.add_argument("file", type=opt.existing_file, help="network or project file")
    parser.add_argument("out", type=opt.path, help="picture to write: .png (capped at 16,384 px a side and "
                                                   "40 Mpx), .svg or .pdf (vector)")
    parser.add_argument("--evidence", "-e", action="append", metavar="VAR=STATE", help="evidence to enter")
    parser.add_argument("--style", choices=("bars", "compact"), default="bars", help="node view (default bars)")
    parser.add_argument("--scale", type=opt.real(*SCALE_RANGE), default=2.0,
                        help=f"PNG pixels per drawing unit, {SCALE_RANGE[0]:g}..{SCALE_RANGE[1]:g} (default 2; "
                             "lowered to stay within the PNG's limits)")
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in FORMATS:
        raise FormatError(f"the picture must be a {', '.join(FORMATS)} file", path=args.out)
    if not out.parent.is_dir():
        raise FormatError("cannot save: the folder does not exist", path=args.out)
    evidence = parse_evidence(args.evidence)
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from bnstudio.gui.network_image import write_network_image  # lazily: the rest of the CLI never imports Qt

    written = write_network_image(args.file, out, args.style, args.scale, evidence)
    if args.json:
        print(json.dumps(written))
    else:
        note = " (scaled down to stay within the PNG limits; .svg or .pdf keep every detail)" if written["capped"] else ""
        print(f"wrote {written['file']}: {written['width']} x {written['height']}{note}")
    return 0
