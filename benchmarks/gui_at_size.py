"""The app at size, as a user waits for it (issues 26 and 29): whole processes, start-up included.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/gui_bench.py --at-size [--runs 5] [--before DIR]
    .venv/bin/python benchmarks/gui_at_size.py --write-naive-bayes nb1000.bif   # the network alone

For munin (1,041 nodes), a naive Bayes of 1,000 binary attributes and ALARM, a fresh interpreter imports the
app, shows a 1366x768 main window, opens the file (read, laid out, fitted) and paints it; it reports the
seconds from its own start to that first paint (and from the window shown to it), then the seconds of one Fit
to View from 100 % (fit and repaint). A bare
PySide6 process (numpy imported, a QMainWindow shown and painted) runs in the same rounds; ratios are to it.
``--before DIR`` also runs another checkout's bnstudio (e.g. ``git archive main``) the same way. Beliefs of
a large network come later from background jobs (not waited for: the window is usable at first paint).

Then, in this process, the naive Bayes trains (clgd and mp on 5,000 sampled rows, 1,000 attributes) in the
training panel with its live curves while a 10 ms timer measures how long the event loop ever waited: the
window's longest freeze.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PROFILE = None   # a cProfile.Profile to profile the GUI thread during the training runs (for diagnosis)

BARE = """
import json, sys, time
start = time.time()
import numpy
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication([])
window = QMainWindow()
window.setCentralWidget(QLabel("bare window"))
window.resize(1366, 768)
window.show()
for _ in range(3):
    app.processEvents()
print(json.dumps({"paint": time.time() - float(sys.argv[1]), "opened": 0.0, "fit": 0.0,
                  "paint_cpu": time.process_time(), "fit_cpu": 0.0}))
"""

CHILD = """
import json, os, sys, tempfile, time
from pathlib import Path
from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtWidgets import QApplication
from bnstudio.gui import settings as cfg
from bnstudio.gui.app import application
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.recovery import Recovery

class Paints(QObject):
    count = 0
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Paint:
            Paints.count += 1
        return False

app = application()
tmp = tempfile.mkdtemp()
window = MainWindow(cfg.Settings(QSettings(str(Path(tmp) / "s.ini"), QSettings.IniFormat)), Recovery(Path(tmp) / "r"))
window.resize(1366, 768)
window.show()
paints = Paints()
window.view.viewport().installEventFilter(paints)
QApplication.processEvents()
opening = time.perf_counter()
assert window.open_path(sys.argv[2])
window.view.open_view()              # what open_window's zero-time timer does before the first paint
QApplication.processEvents()
assert Paints.count > 0
paint = time.time() - float(sys.argv[1])
paint_cpu = time.process_time()      # the process's CPU seconds from its start: steadier than wall time when loaded
opened = time.perf_counter() - opening
window.view.set_zoom(1.0)            # a user looking at a part at 100 % ...
QApplication.processEvents()
start, start_cpu = time.perf_counter(), time.process_time()
window.view.fit_to_view()            # ... asks for the whole network again
QApplication.processEvents()
fit, fit_cpu = time.perf_counter() - start, time.process_time() - start_cpu
shown = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
assert shown.adjusted(-2, -2, 2, 2).contains(window.scene.itemsBoundingRect()), "not fitted"
print(json.dumps({"paint": paint, "opened": opened, "fit": fit, "paint_cpu": paint_cpu, "fit_cpu": fit_cpu,
                  "nodes": len(window.scene.nodes),
                  "scroll_bars": window.view.horizontalScrollBar().isVisible()}))
os._exit(0)
"""


def naive_bayes_file(folder: Path, n: int = 1000) -> Path:
    """A naive Bayes (class C, ``n`` binary attributes, CPT entries in [0.2, 0.8]) written as BIF."""
    sys.path.insert(0, str(ROOT))
    from bnstudio.io import write_network

    path = folder / f"nb{n}.bif"
    write_network(naive_bayes(n), path)
    return path


def naive_bayes(n: int):
    """Class C (uniform) and ``n`` binary attributes, p(X = 0 | C) drawn from [0.2, 0.8]."""
    from bnstudio.core.network import build_network

    low = np.random.default_rng(0).uniform(0.2, 0.8, (n, 2))
    tables = np.stack([low, 1 - low], axis=2)                  # (n, |C|, |X|)
    families = [("C", ("c0", "c1"), (), np.array([0.5, 0.5]))]
    families += [(f"X{k}", ("0", "1"), ("C",), tables[k]) for k in range(n)]
    return build_network(families, f"nb{n}")


def run_child(code: list[str], env: dict[str, str], folder: Path, *args: str) -> dict:
    """Run ``python CODE START ARGS`` in ``folder`` (not the repository: ``python -c`` puts its working folder
    first on the path, which would shadow the checkout PYTHONPATH names)."""
    out = subprocess.run([sys.executable, *code, str(time.time()), *args], capture_output=True, text=True,
                         env=env, cwd=folder)
    if out.returncode:
        return {"error": (out.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def whole_processes(runs: int, before: Path | None, folder: Path,
                    names: tuple[str, ...] = ("munin", "nb1000", "alarm")) -> dict[tuple[str, str], dict[str, float]]:
    """Medians of ``runs`` interleaved rounds (after a warm-up round) of every (checkout, network) pair, printed
    and returned: {(checkout, network): {"paint", "opened", "fit", "paint_cpu", "fit_cpu"}} (seconds; the CPU
    figures are the process's: to the first paint from its start, and during Fit to View), with ("bare", "-")
    the bare window."""
    import pgmpy

    munin = Path(pgmpy.__file__).parent / "utils" / "example_models" / "munin.bif.gz"
    files = {"munin": lambda: munin, "nb1000": lambda: naive_bayes_file(folder),
             "alarm": lambda: ROOT / "resources" / "networks" / "alarm.bif"}
    networks = {name: files[name]() for name in names}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(QT_QPA_PLATFORM="offscreen", PYTHONPYCACHEPREFIX=str(folder / "pycache"))
    checkouts = {"now": {**env, "PYTHONPATH": str(ROOT)}}
    if before is not None:
        checkouts["before"] = {**env, "PYTHONPATH": str(before.resolve())}
    jobs = {("bare", "-"): (["-c", BARE], env, ())}
    for label, e in checkouts.items():
        for name, path in networks.items():
            jobs[(label, name)] = (["-c", CHILD], e, (str(path),))
    samples: dict[tuple[str, str], list[dict]] = {key: [] for key in jobs}
    for round_ in range(runs + 1):
        for key, (code, e, args) in jobs.items():
            result = run_child(code, e, folder, *args)
            if "error" in result:
                print(f"  {key}: {result['error']}")
                continue
            if round_:
                samples[key].append(result)
    found = {key: {k: statistics.median(s[k] for s in got) for k in ("paint", "opened", "fit", "paint_cpu", "fit_cpu")}
             for key, got in samples.items() if got}
    bare = found[("bare", "-")]["paint"]
    print(f"load {os.getloadavg()[0]:.2f}; medians of {runs} rounds; whole process from its start to the first "
          f"paint at 1366x768; a bare PySide6 window: {bare:.3f} s")
    for (label, name), got in samples.items():
        if label == "bare" or not got:
            continue
        paint, opened, fit, paint_cpu, fit_cpu = found[(label, name)].values()
        bars = sum(bool(s.get("scroll_bars")) for s in got)
        print(f"  {label:<6} {name:<7} first paint {paint:6.3f} s (x{paint / bare:.2f} bare; from the window "
              f"shown {opened:5.3f} s; CPU {paint_cpu:5.3f} s)   Fit to View from 100 % {fit * 1000:5.0f} ms "
              f"(CPU {fit_cpu * 1000:4.0f} ms)   scroll bars after it "
              f"{bars}/{len(got)}")
    return found


def training_freeze() -> None:
    """Train the 1,000-attribute naive Bayes in the training panel; report the event loop's longest wait."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QElapsedTimer, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from bnstudio.gui import settings as cfg
    from bnstudio.gui.app import application
    from bnstudio.gui.data_panel import DataSelection
    from bnstudio.gui.main_window import MainWindow
    from bnstudio.gui.recovery import Recovery
    from bnstudio.sampling import forward_sample

    app = application()
    with tempfile.TemporaryDirectory() as tmp:
        window = MainWindow(cfg.Settings(QSettings(str(Path(tmp) / "s.ini"), QSettings.IniFormat)),
                            Recovery(Path(tmp) / "r"))
        window.resize(1366, 768)
        window.show()
        net = naive_bayes(1000)
        window.document.replace_network(net)
        window.view.open_view()
        panel = window.training_panel
        window.show_dock("training")
        codes = forward_sample(net, 5000, seed=1)
        panel.set_selection(DataSelection.from_codes(net, codes, "C", 0.2, 0.0, seed=1))
        gaps: list[float] = []
        clock = QElapsedTimer()
        clock.start()
        last = [clock.elapsed()]

        def tick() -> None:
            now = clock.elapsed()
            gaps.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.timeout.connect(tick)
        timer.start(10)
        for method, options in (("mp", {}), ("clgd", {"max_iter": 60})):
            gaps.clear()
            panel.options.set_method(method)
            for name, value in options.items():
                panel.options.set_value(name, value)
            start = time.perf_counter()
            if PROFILE is not None:
                PROFILE.enable()
            panel.run()
            while panel.jobs.running:
                app.processEvents()
                time.sleep(0.002)
            took = time.perf_counter() - start
            if PROFILE is not None:
                PROFILE.disable()
            updates = panel.plot_updates
            print(f"  {method:<5} {took:6.2f} s, {len(panel.runs[-1].history)} iterations, plot updates so far "
                  f"{updates}; longest event-loop wait {max(gaps, default=0):.0f} ms, median "
                  f"{statistics.median(gaps) if gaps else 0:.0f} ms (10 ms timer)")
        gaps.clear()
        start = time.perf_counter()
        panel.apply_run(len(panel.runs) - 1)
        QApplication.processEvents()
        print(f"  apply the clgd parameters (one undo command, beliefs in the background): "
              f"{(time.perf_counter() - start) * 1000:.0f} ms")
        timer.stop()
        while window.document.updates.busy:    # the beliefs' background job ends before the window closes
            app.processEvents()
            time.sleep(0.01)
        window.document.mark_saved()
        window.close()


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at-size", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--write-naive-bayes", type=Path, metavar="BIF",
                        help="only write the 1,000-attribute naive Bayes to BIF (for screenshots) and stop")
    args = parser.parse_args(argv)
    if args.write_naive_bayes:
        sys.path.insert(0, str(ROOT))
        from bnstudio.io import write_network

        write_network(naive_bayes(1000), args.write_naive_bayes)
        return
    with tempfile.TemporaryDirectory() as tmp:
        whole_processes(args.runs, args.before, Path(tmp))
    print("training the 1,000-attribute naive Bayes in the window (5,000 rows, live curves):")
    training_freeze()


if __name__ == "__main__":
    main(sys.argv[1:])
