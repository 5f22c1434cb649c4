"""Render docs/screenshot-study-view.png: the study view (File > Open Study...) at 1366x768 on its Ranks tab
(offscreen; no display needed). The study is the ``papers`` suite's results file:

    .venv/bin/bnstudio experiment --suite papers --workers 1 --store papers.sqlite --no-report
    .venv/bin/python docs/study_view_screenshot.py papers.sqlite
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bnstudio.gui.study_view import StudyView  # noqa: E402


def main(store: str, out: Path = ROOT / "docs" / "screenshot-study-view.png") -> None:
    app = QApplication.instance() or QApplication([])
    view = StudyView(store)
    loop = QEventLoop()
    view.loaded.connect(loop.quit)
    view.load_failed.connect(lambda message: (print(message, file=sys.stderr), loop.quit()))
    QTimer.singleShot(120_000, loop.quit)
    loop.exec()
    view.resize(1366, 768)
    view.tabs.setCurrentWidget(view.ranks)
    view.show()
    for _ in range(20):                  # let the layout and the diagrams settle
        app.processEvents()
    view.grab().save(str(out))
    print("wrote", out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "papers.sqlite")
