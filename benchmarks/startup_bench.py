"""Opening the desktop app as a user waits for it: a whole process, against a bare Qt window's whole process.

    .venv/bin/python benchmarks/startup_bench.py [--runs 5] [--network FILE] [--size 1366x768]
                                                 [--before /path/to/other/checkout]

Times, as medians of ``--runs`` interleaved rounds (after one warm-up round), wall-clock and CPU seconds of

* ``python -m bnstudio screenshot OUT.png NETWORK --size WxH``: interpreter start, imports, the main window
  built and shown, the network opened, laid out and painted, the window grabbed to a PNG;
* a bare PySide6 process doing the least any such app does: ``import numpy, scipy.special``, a ``QMainWindow``
  with a label, shown, grabbed and saved to a PNG of the same size;

and prints both and the ratio (the goal of issue 23: under 2x). Both run offscreen (``QT_QPA_PLATFORM=offscreen``).
``--before DIR`` also runs the bnstudio of another checkout (e.g. the main branch) through ``PYTHONPATH``, so one
run prints before and after.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from pathlib import Path

from scaling_cli_bench import medians  # interleaved rounds, median wall-clock and CPU per command

ALARM = Path(__file__).resolve().parents[1] / "resources" / "networks" / "alarm.bif"

BARE_WINDOW = """
import sys
import numpy, scipy.special
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication([])
window = QMainWindow()
window.setCentralWidget(QLabel("bare window"))
window.resize(int(sys.argv[2]), int(sys.argv[3]))
window.show()
for _ in range(5):
    app.processEvents()
assert window.grab().save(sys.argv[1])
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--network", type=Path, default=ALARM)
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--before", type=Path, help="another checkout whose bnstudio runs too (as 'before')")
    args = parser.parse_args()
    width, height = args.size.split("x")
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # byte-code as an installed program has it, in a cache outside the source trees (see scaling_cli_bench)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPYCACHEPREFIX=str(folder / "pycache"), QT_QPA_PLATFORM="offscreen")
        versions = {"bnstudio (this checkout)": env}
        if args.before:
            versions["bnstudio (before)"] = {**env, "PYTHONPATH": str(args.before.resolve())}
        commands = {"bare PySide6 window": ([py, "-c", BARE_WINDOW, str(folder / "bare.png"), width, height], env)}
        for label, e in versions.items():
            out = folder / f"{len(commands)}.png"
            commands[label] = ([py, "-m", "bnstudio", "screenshot", str(out), str(args.network.resolve()),
                                "--size", args.size], e)
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, Python "
              f"{platform.python_version()}; {args.network.name} at {args.size}, medians of {args.runs}")
        result = medians(commands, args.runs, folder)
    wall0, cpu0 = result["bare PySide6 window"]
    print("open, paint and grab the window, whole process:")
    for label, (wall, cpu) in result.items():
        print(f"  {label:<26} wall {wall:6.3f} s ({wall / wall0:.2f}x bare)   CPU {cpu:6.3f} s ({cpu / cpu0:.2f}x)")


if __name__ == "__main__":
    main()
