"""Start-up as a user waits for it, whole processes against bare ones: the desktop app against a bare Qt
window, and ``bnstudio info NETWORK`` against a bare ``python -c "import numpy"``.

    .venv/bin/python benchmarks/startup_bench.py [--runs 5] [--network FILE] [--size 1366x768]
                                                 [--only app|info] [--before /path/to/other/checkout]

Times, as medians of ``--runs`` interleaved rounds (after one warm-up round), wall-clock and CPU seconds of

* ``python -m bnstudio screenshot OUT.png NETWORK --size WxH``: interpreter start, imports, the main window
  built and shown, the network opened, laid out and painted, the window grabbed to a PNG;
* a bare PySide6 process doing the least any such app does: ``import numpy, scipy.special``, a ``QMainWindow``
  with a label, shown, grabbed and saved to a PNG of the same size;

and prints both and the ratio (the goal of issue 23: under 2x). Both run offscreen (``QT_QPA_PLATFORM=offscreen``).
Then, the same way,

* ``python -m bnstudio info NETWORK``: interpreter start, imports, the file read, the junction tree compiled
  (for its size and width), the table printed;
* ``python -c "import numpy"``, the least any numerical Python command does;

and the ratio (the goal of issue 26: under 2x), with the modules of note (networkx, scipy, pandas) that ``info``
loads, if any.
``--before DIR`` also runs the bnstudio of another checkout (e.g. the main branch) through ``PYTHONPATH``, so one
run prints before and after.
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
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


NOTED_MODULES = ("networkx", "scipy", "pandas", "matplotlib", "PySide6")
# info run in-process (bnstudio's own exit would skip the report), then the noted modules it loaded
LOADED = ("import sys\nfrom bnstudio.cli.main import main\nmain(sys.argv[1:])\n"
          "print('modules of note loaded:', *[m for m in %r if m in sys.modules] or ['none'], file=sys.stderr)")


def app_rows(args: argparse.Namespace, py: str, folder: Path, versions: dict[str, dict[str, str]]) -> None:
    """The desktop app (screenshot process) against a bare PySide6 window."""
    width, height = args.size.split("x")
    env = versions["bnstudio (this checkout)"]
    commands = {"bare PySide6 window": ([py, "-c", BARE_WINDOW, str(folder / "bare.png"), width, height], env)}
    for label, e in versions.items():
        out = folder / f"{len(commands)}.png"
        commands[label] = ([py, "-m", "bnstudio", "screenshot", str(out), str(args.network.resolve()),
                            "--size", args.size], e)
    report("open, paint and grab the window, whole process:", medians(commands, args.runs, folder),
           "bare PySide6 window")


BARE_NUMPY = "python -c 'import numpy'"


def info_medians(py: str, network: Path, runs: int, folder: Path, versions: dict[str, dict[str, str]]
                 ) -> dict[str, tuple[float, float]]:
    """Median (wall-clock, CPU) seconds of ``bnstudio info NETWORK`` per version and of :data:`BARE_NUMPY`,
    interleaved rounds."""
    env = versions["bnstudio (this checkout)"]
    commands = {BARE_NUMPY: ([py, "-c", "import numpy"], env)}
    for label, e in versions.items():
        commands[label] = ([py, "-m", "bnstudio", "info", str(network.resolve())], e)
    return medians(commands, runs, folder)


def bytecode_env(folder: Path) -> dict[str, str]:
    """The environment with byte-code as an installed program has it, in a cache outside the source trees (see
    scaling_cli_bench), and Qt offscreen."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPYCACHEPREFIX=str(folder / "pycache"), QT_QPA_PLATFORM="offscreen")
    return env


def info_rows(args: argparse.Namespace, py: str, folder: Path, versions: dict[str, dict[str, str]]) -> None:
    """``bnstudio info NETWORK`` against ``python -c "import numpy"``."""
    report(f"bnstudio info {args.network.name}, whole process:",
           info_medians(py, args.network, args.runs, folder, versions), BARE_NUMPY)
    for label, e in versions.items():
        done = subprocess.run([py, "-c", LOADED % (NOTED_MODULES,), "info", str(args.network.resolve())], env=e,
                              cwd=folder, capture_output=True, text=True, check=True)
        print(f"  {label}: {done.stderr.strip().splitlines()[-1]}")


def report(title: str, result: dict[str, tuple[float, float]], bare: str) -> None:
    wall0, cpu0 = result[bare]
    print(title)
    for label, (wall, cpu) in result.items():
        print(f"  {label:<26} wall {wall:6.3f} s ({wall / wall0:.2f}x bare)   CPU {cpu:6.3f} s ({cpu / cpu0:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--network", type=Path, default=ALARM)
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--only", choices=("app", "info"), help="only the app's or only info's rows")
    parser.add_argument("--before", type=Path, help="another checkout whose bnstudio runs too (as 'before')")
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = bytecode_env(folder)
        versions = {"bnstudio (this checkout)": env}
        if args.before:
            versions["bnstudio (before)"] = {**env, "PYTHONPATH": str(args.before.resolve())}
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, Python "
              f"{platform.python_version()}; {args.network.name} at {args.size}, medians of {args.runs}")
        if args.only != "info":
            app_rows(args, py, folder, versions)
        if args.only != "app":
            info_rows(args, py, folder, versions)


if __name__ == "__main__":
    main()
