"""Regenerate the data- and training-panel screenshots in docs/ (offscreen; no display needed):

    .venv/bin/python docs/screenshots_training.py

* ``screenshot-data-panel.png``: the bundled ASIA data plus a made-up numeric ``age`` column (8% missing),
  with an equal-frequency discretisation of ``age`` previewed.
* ``screenshot-training-panel.png``: ALARM learned from ``alarm_missing20.csv`` (target BP, 20% validation,
  20% test) with mp, em and clgd overlaid.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
from screenshot_script import DATA, DOCS, ROOT


def wait_for(signal, timeout_ms: int = 120000) -> None:
    loop = QEventLoop()
    signal.connect(lambda *_: loop.quit())
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()


def asia_with_age(folder: Path) -> Path:
    lines = (DATA / "asia.csv").read_text().splitlines()
    rng = np.random.default_rng(2026)
    smoke = [line.split(",")[2] == "yes" for line in lines[1:]]
    age = np.where(smoke, rng.normal(52, 12, len(smoke)), rng.normal(44, 14, len(smoke))).clip(18, 90).round()
    cells = [("" if rng.random() < 0.08 else f"{int(a)}") for a in age]
    path = folder / "asia_age.csv"
    rows = [f"{row},{a}" for row, a in zip(lines[1:], cells, strict=True)]
    path.write_text("\n".join([lines[0] + ",age"] + rows) + "\n")
    return path


def data_panel_shot(out: Path) -> None:
    from bnstudio.app.resources import demo_network
    from bnstudio.gui.data_panel import DataPanel
    from bnstudio.gui.document import Document

    panel = DataPanel(Document(demo_network()))
    panel.resize(1280, 720)
    panel.show()
    with tempfile.TemporaryDirectory() as folder:
        panel.load(asia_with_age(Path(folder)), {"target": "bronc", "validation_fraction": 0.2,
                                                 "test_fraction": 0.2, "seed": 1})
        wait_for(panel.selection_changed)
    box = panel.discretise
    box.method.setCurrentIndex(box.method.findData("equal_frequency"))
    box.bins.setValue(4)
    box.preview()
    panel.table.resizeColumnsToContents()
    panel.grab().save(str(out))
    panel.shutdown()
    panel.close()
    panel.deleteLater()


def training_panel_shot(out: Path, compare_out: Path | None = None) -> None:
    from bnstudio.gui.data_panel import DataPanel
    from bnstudio.gui.document import Document
    from bnstudio.gui.training_panel import TrainingPanel
    from bnstudio.io import read_network
    from tests.demos.training_panel import run_in_turn

    doc = Document(read_network(ROOT / "resources" / "networks" / "alarm.bif"))
    data, panel = DataPanel(doc), TrainingPanel(doc)
    data.selection_changed.connect(panel.set_selection)
    data.load(DATA / "alarm_missing20.csv", {"target": "BP", "validation_fraction": 0.2, "test_fraction": 0.2,
                                             "seed": 1})
    wait_for(data.selection_changed)
    panel.resize(1400, 820)
    panel.show()
    panel.options.set_value("max_iter", 60)
    panel.options.set_value("m_step", "mp")
    done = []
    panel.run_finished.connect(done.append)
    run_in_turn(panel, ("mp", "em", "clgd"))
    while len(done) < 3:
        wait_for(panel.run_finished)
    panel.results.select_run(2)
    panel.grab().save(str(out))
    if compare_out is not None:
        panel.tabs.setCurrentWidget(panel.compare)
        panel.compare.choose(1, 2)
        panel.grab().save(str(compare_out))
    for widget in (panel, data):
        widget.shutdown()
        widget.close()
        widget.deleteLater()


def main() -> None:
    from bnstudio.gui.app import application

    application()
    data_panel_shot(DOCS / "screenshot-data-panel.png")
    print("wrote", DOCS / "screenshot-data-panel.png")
    compare = Path(sys.argv[1]) if len(sys.argv) > 1 else None   # optional: also the compare tab
    training_panel_shot(DOCS / "screenshot-training-panel.png", compare)
    print("wrote", DOCS / "screenshot-training-panel.png")
    QCoreApplication.processEvents()   # run the deleteLater()s before the interpreter tears Qt down


if __name__ == "__main__":
    main()
