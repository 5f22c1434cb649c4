"""pytest-qt fixtures for the GUI: offscreen Qt, isolated settings and app-data folders, demo networks."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before Qt is imported anywhere

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings, QStandardPaths

from bnstudio.core.network import Network
from bnstudio.gui import dialogs
from bnstudio.gui import settings as cfg
from bnstudio.gui.document import Document
from bnstudio.gui.recovery import Recovery
from bnstudio.io import read_network

QStandardPaths.setTestModeEnabled(True)  # anything not isolated below lands in Qt's test folders

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"
ALARM = NETWORKS / "alarm.bif"
ASIA = NETWORKS / "asia.bif"


def sprinkler() -> Network:
    """A small network with a v-structure and a shared child (Cloudy -> Sprinkler, Rain -> Wet)."""
    net = Network("sprinkler")
    net.add_variable("Cloudy", ["yes", "no"], cpt=[0.5, 0.5], position=(0, 0))
    net.add_variable("Sprinkler", ["on", "off"], ["Cloudy"], [[0.1, 0.9], [0.5, 0.5]], position=(-150, 120))
    net.add_variable("Rain", ["yes", "no"], ["Cloudy"], [[0.8, 0.2], [0.2, 0.8]], position=(150, 120))
    net.add_variable("Wet", ["yes", "no"], ["Sprinkler", "Rain"],
                     [[[0.99, 0.01], [0.9, 0.1]], [[0.9, 0.1], [0.0, 1.0]]], position=(0, 240))
    return net


@pytest.fixture(scope="module")
def study_file(tmp_path_factory) -> Path:
    """A small study (tests.experiment.helpers.SMALL), run serially once per test module."""
    from bnstudio.experiment.executors import SerialExecutor
    from bnstudio.experiment.runner import run_study
    from bnstudio.experiment.spec import load_study
    from tests.experiment.helpers import write_study

    path = write_study(tmp_path_factory.mktemp("study"))
    run_study(load_study(path), SerialExecutor())
    return path


@pytest.fixture
def settings(tmp_path) -> cfg.Settings:
    return cfg.Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat))


@pytest.fixture
def recovery(tmp_path) -> Recovery:
    return Recovery(tmp_path / "recovery")


@pytest.fixture
def no_dialogs(monkeypatch):
    """Fail loudly if a test opens an unexpected modal dialog; record errors shown."""
    shown: list[tuple] = []

    def unexpected(*args, **kwargs):
        raise AssertionError(f"unexpected dialog: {args}")

    monkeypatch.setattr(dialogs, "show_error", lambda *a: shown.append(a))
    monkeypatch.setattr(dialogs, "ask_save_changes", unexpected)
    monkeypatch.setattr(dialogs, "ask_normalise_before_save", unexpected)
    monkeypatch.setattr(dialogs, "ask_restore", unexpected)
    return shown


@pytest.fixture
def window(qtbot, settings, recovery, no_dialogs):
    from bnstudio.gui.main_window import MainWindow

    win = MainWindow(settings, recovery)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.document.mark_saved()  # nothing to ask about when the test closes it
    win.close()
    win.deleteLater()


@pytest.fixture
def alarm_window(window):
    assert window.open_path(ALARM)
    return window


@pytest.fixture
def sprinkler_doc(qtbot) -> Document:
    return Document(sprinkler())


def alarm() -> Network:
    return read_network(ALARM)


def assert_same_tables(a: Network, b: Network) -> None:
    assert a.variables == b.variables  # the order too: it is the column order of tables and files
    for v in a.variables:
        assert a.states(v) == b.states(v)
        assert a.parents(v) == b.parents(v), v
        np.testing.assert_array_equal(a.cpt(v), b.cpt(v))
        if a.alpha(v) is None:
            assert b.alpha(v) is None
        else:
            np.testing.assert_array_equal(a.alpha(v), b.alpha(v))


def fully_visible(widget) -> bool:
    """Whether ``widget`` is shown whole: not clipped by any ancestor (scroll areas' viewports included)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QAbstractScrollArea

    if not widget.isVisible() or widget.visibleRegion().isEmpty():
        return False
    window = widget.window()
    rect = widget.rect().translated(widget.mapTo(window, QPoint(0, 0)))
    parent = widget.parentWidget()
    while parent is not None and not parent.isWindow():
        shown = parent.viewport() if isinstance(parent, QAbstractScrollArea) else parent
        rect = rect.intersected(shown.rect().translated(shown.mapTo(window, QPoint(0, 0))))
        parent = parent.parentWidget()
    return rect.size() == widget.size()
