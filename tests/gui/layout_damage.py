"""Helpers of the damaged-layout tests (issue 42 item 10): a window started offscreen in a process of its own on
a given settings file, so that a crash in Qt fails the test instead of killing the test run."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: save: open a window, move the training dock to the left, save its layout. open: open a window on the
#: settings and say where the training dock is and what message the window shows
SCRIPT = r"""
import json, sys
from PySide6.QtCore import QSettings, Qt
from bnstudio.gui.app import application
from bnstudio.gui import settings as cfg
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.recovery import Recovery
app = application()
out = []
for path in sys.argv[2:]:
    settings = cfg.Settings(QSettings(path, QSettings.IniFormat))
    window = MainWindow(settings, Recovery(path + ".recovery"))
    window.resize(1200, 800)
    if sys.argv[1] == "save":
        window.addDockWidget(Qt.LeftDockWidgetArea, window.docks["training"])
        window.save_settings()
    window.show()
    app.processEvents()
    out.append({"left": window.dockWidgetArea(window.docks["training"]) == Qt.LeftDockWidgetArea,
                "message": window.statusBar().currentMessage(),
                "state": len(bytes(settings.value(cfg.WINDOW_STATE)))})
    window.document.mark_saved()
    window.close()
print(json.dumps(out))
"""


def run_windows(mode: str, *settings_files: Path) -> subprocess.CompletedProcess:
    """``mode`` ("save" or "open") on each settings file in turn, in one offscreen process."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", SCRIPT, mode, *map(str, settings_files)], capture_output=True,
                          text=True, env=env, timeout=300, cwd=ROOT)


def results(done: subprocess.CompletedProcess) -> list[dict]:
    """The windows' reports; a crash (a negative status: killed by a signal) or an error fails here."""
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])
