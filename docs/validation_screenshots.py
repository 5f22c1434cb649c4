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

import tempfile
from pathlib import Path

from screenshot_script import DATA, main, shot, small_png, wait_until

SUITE_DATA = DATA / "suite" / "breast-wisconsin.csv"
TARGET = "Class"
METHODS = ("ml", "mp", "clgd", "wanbia")


def naive_bayes(folder: Path) -> Path:
    """The naive Bayes structure of the data (parameters by ml; the runs learn their own), as a BIF file."""
    from bnstudio.data import read_csv
    from bnstudio.io import write_network
    from bnstudio.learn.structure import learn_structure

    data = read_csv(SUITE_DATA)
    net = learn_structure("nb", data.codes, data.columns, data.states, target=TARGET, name="breast").network
    path = folder / "breast-nb.bif"
    write_network(net, path)
    return path


def four_runs(window) -> None:
    """Align the data, train the four methods one after the other, select the clgd run."""
    data, panel = window.data_panel, window.training_panel
    data.load(SUITE_DATA, {"target": TARGET, "validation_fraction": 0.2, "test_fraction": 0.2, "seed": 1})
    wait_until(lambda: panel.selection is not None, 300.0)
    for method in METHODS:
        panel.options.set_method(method)
        count = len(panel.runs)
        panel.run()
        wait_until(lambda count=count: len(panel.runs) > count and not panel.jobs.running, 300.0)
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
    wait_until(lambda: view.result is not None and not view.jobs.running, 300.0)


def shots():
    """The three tabs, on the naive Bayes network written to a folder that lasts as long as the shots."""
    with tempfile.TemporaryDirectory() as folder:
        network = naive_bayes(Path(folder))
        for name, prepare in (("screenshot-training-roc.png", roc_tab),
                              ("screenshot-training-convergence.png", convergence_tab),
                              ("screenshot-learning-curve.png", learning_tab)):
            yield shot(name, network, docks=["training"], prepare=prepare, then=small_png)


if __name__ == "__main__":
    main(shots(), __doc__)
