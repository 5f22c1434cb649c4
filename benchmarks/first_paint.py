"""Whole processes to first paint, as ``bnstudio FILE`` starts (issue 38: large networks showed a blank window for
1–2 s): a fresh interpreter imports the app and calls ``bnstudio.gui.app.open_window(FILE)`` (what ``bnstudio gui
FILE`` does) at 1366x768, offscreen; the seconds from the process's start to the window's first painted frame
(toolbar and canvas: no longer blank) and to the first frame with the network's nodes on the canvas; "shown" is
when the window is shown (mapped on a desktop: from then on an unpainted window is a blank one).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/first_paint.py [--runs 3] [--before DIR] [FILE ...]

``--before DIR`` runs another checkout (e.g. ``/work/main``) the same way, interleaved. Default files: munin
(pgmpy's package data) and the bundled ALARM.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, os, sys, time
start = float(sys.argv[1])
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
from bnstudio.gui import app as gui_app

marks = {}

class Paints(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Show and obj is getattr(gui_app, "_bench_window", None):
            marks.setdefault("shown", time.time() - start)
        if event.type() == QEvent.Paint:
            marks.setdefault("window", time.time() - start)
            window = getattr(gui_app, "_bench_window", None)
            if window is not None and obj is window.view.viewport() and window.scene.nodes:
                marks.setdefault("network", time.time() - start)
        return False

application = gui_app.application()
paints = Paints()
application.installEventFilter(paints)
original = gui_app.MainWindow

class Window(original):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        gui_app._bench_window = self

gui_app.MainWindow = Window
window = gui_app.open_window(sys.argv[2], recovery=False)
end = time.time() + 60
while "network" not in marks and time.time() < end:
    application.processEvents()
    time.sleep(0.002)
print(json.dumps(marks))
os._exit(0)
"""


def munin() -> Path:
    import pgmpy

    return Path(pgmpy.__file__).parent / "utils" / "example_models" / "munin.bif.gz"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path)
    args = parser.parse_args()
    files = args.files or [munin(), ROOT / "resources" / "networks" / "alarm.bif"]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    checkouts = {"now": ROOT} | ({"before": args.before} if args.before else {})
    found: dict[tuple[str, str], list[dict]] = {}
    for round_ in range(args.runs + 1):
        for label, checkout in checkouts.items():
            for path in files:
                out = subprocess.run([sys.executable, "-c", CHILD, str(time.time()), str(path)], capture_output=True,
                                     text=True, env={**env, "PYTHONPATH": str(checkout)}, cwd="/")
                if out.returncode:
                    print(label, path.name, (out.stderr.strip().splitlines() or ["?"])[-1])
                    continue
                if round_:       # the first round warms the caches
                    found.setdefault((label, path.name), []).append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"load {os.getloadavg()[0]:.1f}; medians of {args.runs} runs, seconds from the process's start")
    for (label, name), marks in found.items():
        shown, window, network = (statistics.median(m.get(k, float("nan")) for m in marks)
                                  for k in ("shown", "window", "network"))
        print(f"  {label:<6} {name:<14} shown {shown:5.2f} s   first frame {window:5.2f} s   network painted "
              f"{network:5.2f} s   (unpainted after shown {window - shown:4.2f} s; no network {network - shown:4.2f} s)")


if __name__ == "__main__":
    main()
