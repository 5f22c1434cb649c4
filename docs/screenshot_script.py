"""What the docs' screenshot scripts share (docs/*screenshots*.py; docs/architecture.md §3, rule 17: "the app
is judged at 1366x768"): importing this module draws offscreen and puts this checkout's ``bnstudio`` first on the
path, and :func:`main` gives a script its command line (``--size WxH --out DIR``) and the loop that renders its
:class:`Shot` list with :func:`bnstudio.gui.screenshot.render_screenshot`, so each script states only what it
shoots. A script imports it first (``python docs/X.py`` has docs/ on the path)::

    from screenshot_script import NETWORKS, main, shot

    if __name__ == "__main__":
        main([shot("screenshot-x.png", NETWORKS / "asia.bif", docks=["query"])], __doc__)
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DOCS = ROOT / "docs"
NETWORKS = ROOT / "resources" / "networks"
DATA = ROOT / "resources" / "data"
#: the laptop the app is judged at (docs/architecture.md §3, rule 17)
LAPTOP = "1366x768"


@dataclass(frozen=True)
class Shot:
    """One image: ``name`` (a file in the output folder) of the window on ``path`` (None: an empty network), at
    ``size`` (None: the command line's ``--size``), drawn with ``options`` (render_screenshot's keywords:
    evidence, select, docks, prepare, appearance, zoom, centre, node_style), the written file then passed
    through ``then`` (e.g. :func:`small_png`)."""

    name: str
    path: Path | None
    size: tuple[int, int] | None = None
    then: Callable[[Path], Path] | None = None
    options: dict[str, Any] = field(default_factory=dict)


def shot(name: str, path: Path | None, size: tuple[int, int] | None = None,
         then: Callable[[Path], Path] | None = None, **options: Any) -> Shot:
    """A :class:`Shot` with render_screenshot's keywords given as keywords."""
    return Shot(name, path, size, then, options)


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` -> (W, H)."""
    width, height = (int(v) for v in text.lower().split("x"))
    return width, height


def arguments(description: str | None, argv: Sequence[str] | None = None, size: str = LAPTOP) -> argparse.Namespace:
    """The scripts' command line: ``--size WxH`` (for the shots that fix none) and ``--out DIR`` (docs/)."""
    parser = argparse.ArgumentParser(description=(description or "").strip().splitlines()[0] if description else None)
    parser.add_argument("--size", type=parse_size, default=parse_size(size),
                        help=f"window size WxH of the shots that fix none (default {size})")
    parser.add_argument("--out", type=Path, default=DOCS, help="folder for the images (default: docs/)")
    return parser.parse_args(argv)


def main(shots: Iterable[Shot], description: str | None = None, argv: Sequence[str] | None = None,
         size: str = LAPTOP) -> list[Path]:
    """Parse the command line, then render each of ``shots`` (read lazily: a generator may build its inputs
    after ``--help``) and print what was written. Returns the files."""
    from bnstudio.gui.screenshot import render_screenshot  # after the path is set: this checkout's package

    args = arguments(description, argv, size)
    written = []
    for each in shots:
        out = render_screenshot(args.out / each.name, each.path, each.size or args.size, **each.options)
        if each.then is not None:
            out = each.then(out)
        print("wrote", out)
        written.append(out)
    return written


def wait_until(until: Callable[[], bool], seconds: float = 120.0) -> None:
    """Run Qt's events until ``until()`` holds; TimeoutError after ``seconds``."""
    from PySide6.QtWidgets import QApplication

    end = time.monotonic() + seconds
    while not until():
        if time.monotonic() > end:
            raise TimeoutError("the window did not get there in time")
        QApplication.processEvents()
        time.sleep(0.01)


def small_png(path: Path) -> Path:
    """Rewrite ``path`` as a palette PNG (a few tens of kB). Octree keeps the runs' small colour swatches apart
    (median cut with 128 colours drew run 2's red as run 4's orange)."""
    from PIL import Image

    Image.open(path).convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)
    return path
