"""Suite-wide fixtures: the QApplication of every GUI test collects garbage on the GUI thread only, as the app
does (:mod:`bnstudio.gui.collector`), and no test may let a collection run on another thread.

Property tests (hypothesis) draw the same examples on every run (``derandomize``, no example database), so a
run of ``make test`` is repeatable and CI cannot turn red on a draw nobody can replay; set
``BNSTUDIO_HYPOTHESIS=explore`` to draw fresh examples while working on a reader.

The processes the run starts (xdist workers, and what they start: CLI runs, study workers, Dask clusters,
processes a test kills) share a temporary folder of the run's own, removed when the run ends, so the suite
leaves nothing in the system's temporary folder (multiprocessing's ``pymp-*`` folders of killed processes
stayed). The run's own process keeps the system's folder: what it leaves there is a defect to see."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", database=None)
settings.load_profile(os.environ.get("BNSTUDIO_HYPOTHESIS", "repeatable"))


_CHILD_TEMP: dict[str, str | None] = {}


def pytest_configure(config):
    """The run's child processes get TMPDIR = a folder of the run's own (xdist workers inherit it)."""
    if hasattr(config, "workerinput"):      # an xdist worker: its controller made the folder
        return
    folder = tempfile.mkdtemp(prefix="bnstudio-suite-")
    _CHILD_TEMP.update(folder=folder, previous=os.environ.get("TMPDIR"))
    os.environ["TMPDIR"] = folder


def pytest_unconfigure(config):
    """After every child has ended, remove the folder with whatever they left in it."""
    if not _CHILD_TEMP:
        return
    if _CHILD_TEMP["previous"] is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = _CHILD_TEMP["previous"]
    shutil.rmtree(_CHILD_TEMP["folder"], ignore_errors=True)


def _guard():
    """The installed GUI-thread collector (None before any GUI test made one)."""
    module = sys.modules.get("bnstudio.gui.collector")
    return module.installed() if module is not None else None


@pytest.fixture(scope="session")
def qapp(qapp_args, qapp_cls, pytestconfig):
    """pytest-qt's application, with the app's GUI-thread garbage collector installed."""
    from bnstudio.gui import collector

    app = qapp_cls.instance() or qapp_cls(qapp_args)
    app.setApplicationName(pytestconfig.getini("qt_qapp_name"))
    collector.install(app)
    return app


@pytest.fixture(autouse=True)
def collections_stay_on_the_gui_thread():
    """After each test, run the collection that is due (a test without an event loop gets no timer ticks) and
    fail the test if any collection ran off the GUI thread meanwhile."""
    guard = _guard()
    before = guard.off_thread if guard is not None else 0
    yield
    guard = _guard()
    if guard is not None:
        guard.collect_due()
        assert guard.off_thread == before, "a garbage collection ran off the GUI thread during this test"
