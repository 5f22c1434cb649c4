"""Render the training panel's validation pictures into docs/ (offscreen; no display needed):

    .venv/bin/python docs/validation_screenshots.py [--size 1366x768 --out DIR]

A naive Bayes network over ``resources/data/suite/breast-wisconsin.csv`` (target ``Class``; 20% validation, 20%
test rows, seed 1) is trained with ml, mp, clgd and wanbia, then shown with "Compare runs":

* ``screenshot-training-roc.png``: the ROC & calibration tab (ROC of ``benign``, reliability diagram), the
  results table with AUC and ECE below;
* ``screenshot-training-convergence.png``: the convergence tab of the same four runs;
* ``screenshot-learning-curve.png``: the learning-curves tab, mp against clgd (5 subsamples per size).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from bnstudio.gui.screenshot import render_screenshot  # noqa: E402

DATA = ROOT / "resources" / "data" / "suite" / "breast-wisconsin.csv"
TARGET = "Class"
METHODS = ("ml", "mp", "clgd", "wanbia")


def naive_bayes(folder: Path) -> Path:
    """The naive Bayes structure of the data (parameters by ml; the runs learn their own), as a BIF file."""
    from bnstudio.data import read_csv
    from bnstudio.io import write_network
    from bnstudio.learn.structure import learn_structure

    data = read_csv(DATA)
    net = learn_structure("nb", data.codes, data.columns, data.states, target=TARGET, name="breast").network
    path = folder / "breast-nb.bif"
    write_network(net, path)
    return path


def wait(until, seconds: float = 300.0) -> None:
    app = QApplication.instance()
    end = time.monotonic() + seconds
    while not until() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    if not until():
        raise RuntimeError("timed out")


def four_runs(window) -> None:
    """Align the data, train the four methods one after the other, select the clgd run."""
    data, panel = window.data_panel, window.training_panel
    data.load(DATA, {"target": TARGET, "validation_fraction": 0.2, "test_fraction": 0.2, "seed": 1})
    wait(lambda: panel.selection is not None)
    for method in METHODS:
        panel.options.set_method(method)
        count = len(panel.runs)
        panel.run()
        wait(lambda count=count: len(panel.runs) > count and not panel.jobs.running)
    panel.results.select_run(METHODS.index("clgd"))
    panel.curves.compare.setChecked(True)


def roc_tab(window) -> None:
    four_runs(window)
    window.training_panel.views.setCurrentWidget(window.training_panel.curves)


def convergence_tab(window) -> None:
    four_runs(window)
    window.training_panel.views.setCurrentWidget(window.training_panel.plot)


def learning_tab(window) -> None:
    four_runs(window)
    view = window.training_panel.learning
    window.training_panel.views.setCurrentWidget(view)
    view.set_methods(["mp", "clgd"])
    view.start()
    wait(lambda: view.result is not None and not view.jobs.running)


def small_png(path: Path) -> Path:
    """Rewrite ``path`` as a palette PNG (a few tens of kB). Octree keeps the runs' small colour swatches apart
    (median cut with 128 colours drew run 2's red as run 4's orange)."""
    from PIL import Image

    Image.open(path).convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    out = Path(args.out)
    with tempfile.TemporaryDirectory() as folder:
        network = naive_bayes(Path(folder))
        for name, prepare in (("screenshot-training-roc.png", roc_tab),
                              ("screenshot-training-convergence.png", convergence_tab),
                              ("screenshot-learning-curve.png", learning_tab)):
            shot = render_screenshot(out / name, network, size, docks=["training"], prepare=prepare)
            print("wrote", small_png(shot))


if __name__ == "__main__":
    main()
