"""Render the docks at 1366x768 with the bundled 20k example loaded, and the switch from one network to another
(before and after), into docs/ (offscreen; no display needed):

    .venv/bin/python docs/dock_screenshots.py
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from screenshot_script import DOCS

from bnstudio.app.resources import bundled_example, resource_root
from bnstudio.gui import settings as cfg
from bnstudio.gui.app import application

SIZE = (1366, 768)


def wait(app, until=lambda: True, seconds: float = 60.0, at_least: float = 0.1) -> None:
    start = time.time()
    while time.time() - start < seconds and (time.time() - start < at_least or not until()):
        app.processEvents()
        time.sleep(0.01)


def small_png(image, path: Path) -> Path:
    """Save a QImage/QPixmap as a palette PNG (a few tens of kB)."""
    from PIL import Image

    raw = Path(tempfile.mkstemp(suffix=".png")[1])
    image.save(str(raw))
    Image.open(raw).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    raw.unlink()
    print("wrote", path)
    return path


def new_window(app, folder: Path):
    from bnstudio.gui.main_window import MainWindow

    window = MainWindow(cfg.Settings(QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)))
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(*SIZE)
    window.show()
    wait(app)
    return window


def docks(app, folder: Path) -> None:
    w = new_window(app, folder)
    w.open_path(bundled_example("alarm-20k-missing.bnsproj"))
    wait(app, lambda: w.data_panel.selection is not None)
    w.query_panel.set_target({"HYPOVOLEMIA": "TRUE"})
    w.query_panel.set_ess(10.0)
    for key in ("data", "query", "structure"):
        w.show_dock(key)
        wait(app, at_least=0.3)
        small_png(w.docks[key].grab(), DOCS / f"dock-1366-{key}.png")
    w.open_path(bundled_example("alarm-tan-clgd-20k.bnsproj"))
    wait(app, lambda: w.data_panel.selection is not None)
    w.show_dock("training")
    panel = w.training_panel
    panel.run()
    wait(app, lambda: panel.live is not None and len(panel.live.history) >= 6, seconds=120)
    wait(app, at_least=0.2)
    small_png(w.docks["training"].grab(), DOCS / "dock-1366-training.png")   # live: curves, progress, Cancel
    panel.cancel()
    wait(app, lambda: panel.live is None)
    w.document.mark_saved()
    w.close()


def switch(app, folder: Path) -> None:
    """ALARM with a bagged-mp run and a query with intervals, then ASIA opened: nothing of ALARM stays."""
    w = new_window(app, folder)
    w.open_path(bundled_example("alarm.bif"))
    w.data_panel.load(resource_root() / "data" / "alarm.csv", interactive=False, with_file=True)
    wait(app, lambda: w.data_panel.selection is not None)
    training = w.training_panel
    training.options.set_method("bagged-mp")
    training.options.set_value("bags", 200)
    done = []
    training.run_finished.connect(done.append)
    training.run()
    wait(app, lambda: bool(done), seconds=120)
    w.query_panel.set_target({"HYPOVOLEMIA": "TRUE"})
    w.query_panel.set_ess(10.0)           # intervals beside the bootstrap spread
    w.document.set_evidence("BP", "LOW")
    window_shots(app, w, {"query": "switch-1-alarm-before.png", "training": "switch-2-alarm-training.png"})
    w.document.mark_saved()
    w.open_path(bundled_example("asia.bif"))
    window_shots(app, w, {"query": "switch-3-asia-after.png", "training": "switch-4-asia-training.png"})
    w.document.mark_saved()
    w.close()


def window_shots(app, w, names: dict[str, str]) -> None:
    """The whole window with each dock of ``names`` in front, saved under its file name."""
    for key, name in names.items():
        w.show_dock(key)
        wait(app, at_least=0.3)
        small_png(w.grab(), DOCS / name)


def main() -> None:
    app = application()
    for step in (docks, switch):   # each window with settings of its own: the layout of a first start
        with tempfile.TemporaryDirectory() as folder:
            step(app, Path(folder))


if __name__ == "__main__":
    main()
