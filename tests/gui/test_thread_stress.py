"""Background jobs never make Qt objects die on their thread (docs/architecture.md §3.14,
:mod:`bnstudio.gui.collector`).

The defect this guards against: the cyclic garbage collector, started by an allocation on a worker thread,
finalised widgets and menu actions there; the app (and ``make test``) deadlocked or crashed. The stress test runs
many short jobs of the three kinds the panels run (hill climbing, clgd, a Monte-Carlo check) through the app's
job slot while the GUI thread builds and drops panels, menus with actions and whole main windows, many of them
in reference cycles so only the collector can free them. Without the GUI-thread collector this crashed within
seconds here (``Garbage-collecting`` on the worker thread, then SIGSEGV or a hang); the watchdogs in
pyproject.toml turn a hang into a failure with every thread's stack.
"""
from __future__ import annotations

import gc
import time
from functools import partial

import pytest
from PySide6.QtWidgets import QMenu, QPushButton, QVBoxLayout, QWidget

from bnstudio.app.query.compute import monte_carlo_job
from bnstudio.gui import collector
from bnstudio.gui.data_panel import DataPanel
from bnstudio.gui.document import Document
from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.query_panel import QueryPanel
from bnstudio.gui.structure_panel.panel import learning_job
from bnstudio.gui.training_panel import TrainingPanel
from bnstudio.gui.workers import JobWorker, qt_references
from bnstudio.learn.params import make_learner
from tests.demos.query_panel import fitted_example
from tests.demos.structure_panel import asia_data

SECONDS = 12.0      # at least this long ...
MIN_JOBS = 60       # ... and at least this many jobs


def clgd_job(net, codes, reporter):
    return make_learner("clgd", max_iter=20).fit(net, codes, target="dysp", reporter=reporter)


def cyclic_garbage(window_factory, round_: int) -> None:
    """Qt objects only the cyclic collector can free: each refers to itself through a Python attribute."""
    menu = QMenu()
    for i in range(8):
        action = menu.addAction(f"action {i}", lambda m=menu: m.close())
        action.menu_ref = menu
    menu.me = menu
    widget = QWidget()
    button = QPushButton("x", widget)
    QVBoxLayout(widget).addWidget(button)
    widget.me, button.owner = widget, widget
    if round_ % 4 == 0:
        window = window_factory()
        window.me = window


def test_many_jobs_while_widgets_come_and_go(qtbot, qapp, settings, recovery):
    guard = collector.installed()
    assert guard is not None and not gc.isenabled()
    net, codes, names, states = asia_data(1500)
    mc_net, _ = fitted_example("asia")
    jobs = [learning_job(codes, names, states, {"algorithm": "hill-climb", "score": "bic", "restarts": 2,
                                                "seed": 1}),
            partial(clgd_job, net.copy(), codes.copy()),
            monte_carlo_job(mc_net.copy(), {"dysp": "yes"}, {"smoke": "yes"}, 0.9, None, 300, 0)]
    panels = [TrainingPanel, DataPanel, QueryPanel]
    slot = JobSlot()
    outcomes: list[str] = []
    collections, off_thread = guard.collections, guard.off_thread
    start, n = time.monotonic(), 0
    while n < MIN_JOBS or time.monotonic() - start < SECONDS:
        ended: list[str] = []
        slot.start(jobs[n % len(jobs)], finished=lambda _r, ended=ended: ended.append("finished"),
                   failed=lambda exc, ended=ended: ended.append(f"failed: {exc!r}"),
                   cancelled=lambda ended=ended: ended.append("cancelled"))
        round_ = 0
        while not ended:
            cyclic_garbage(lambda: MainWindow(settings=settings, recovery=recovery), round_)
            panel = panels[round_ % len(panels)](Document(net.copy()))
            panel.deleteLater()
            if n % 5 == 4 and round_ == 2:
                slot.cancel()
            qapp.processEvents()
            round_ += 1
        outcomes += ended
        n += 1
    assert all(o in ("finished", "cancelled") for o in outcomes), [o for o in outcomes if o.startswith("failed")]
    assert outcomes.count("finished") >= MIN_JOBS // 2
    assert guard.collections > collections   # the GUI thread did collect meanwhile ...
    assert guard.off_thread == off_thread    # ... and no other thread ever did
    assert not gc.isenabled()


def test_a_job_holding_a_qt_object_is_refused(qtbot):
    widget = QWidget()
    qtbot.addWidget(widget)

    def job(reporter):
        return widget.width()
    assert qt_references(job) == ["closure 'widget': QWidget"]
    with pytest.raises(TypeError, match="must not reference Qt objects"):
        JobWorker(job)
    with pytest.raises(TypeError, match="partial argument 0: QWidget"):
        JobWorker(partial(lambda w, reporter: w, widget))
    with pytest.raises(TypeError, match="bound self: QWidget"):
        JobWorker(widget.width)
    assert qt_references(partial(clgd_job, None, [1, 2])) == []


def test_the_collector_runs_what_is_due_on_the_gui_thread(qapp):
    guard = collector.installed()
    assert collector.install(qapp) is guard          # one per application
    gc.enable()                                       # something switched automatic collection back on ...
    guard.collect_due()
    assert not gc.isenabled()                         # ... and the next tick switched it off again
    garbage = []
    for _ in range(gc.get_threshold()[0] + 10):
        node: dict = {}
        node["self"] = node
        garbage.append(node)
    del garbage, node
    assert guard.collect_due() is not None and gc.get_count()[0] < gc.get_threshold()[0]
