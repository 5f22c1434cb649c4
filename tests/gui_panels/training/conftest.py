"""pytest-qt fixtures for the data and training panels: offscreen Qt, the bundled ASIA network and data."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before Qt is imported anywhere

import warnings
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QStandardPaths

QStandardPaths.setTestModeEnabled(True)

ROOT = Path(__file__).resolve().parents[3]
ASIA_BIF = ROOT / "resources" / "networks" / "asia.bif"
ASIA_CSV = ROOT / "resources" / "data" / "asia.csv"


def asia_network():
    from bnstudio.io import read_network

    return read_network(ASIA_BIF)


def cpts_of(net) -> dict[str, np.ndarray]:
    return {v: np.array(net.cpt(v)) for v in net.variables}


def same_cpts(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[v], b[v]) for v in a)


@pytest.fixture
def document():
    from bnstudio.gui.document import Document

    return Document(asia_network())


@pytest.fixture
def asia_selection():
    """ASIA data aligned to the network: 60% train, 20% validation, 20% test, target bronc."""
    from bnstudio.data import BNStudioDataWarning, align, read_csv
    from bnstudio.gui.data_panel import DataSelection

    net = asia_network()
    with warnings.catch_warnings():
        warnings.simplefilter("error", BNStudioDataWarning)  # the bundled data fit the network exactly
        aligned = align(read_csv(ASIA_CSV), net)
    return DataSelection.from_codes(net, aligned.codes, "bronc", 0.2, 0.2, seed=1, source=str(ASIA_CSV))


def sampled_selection(n: int, target: str = "either", hidden: float = 0.0, seed: int = 1,
                      validation: float = 0.0):
    """``n`` rows forward-sampled from ASIA (a fraction ``hidden`` of the cells hidden at random)."""
    from bnstudio.gui.data_panel import DataSelection
    from bnstudio.sampling import forward_sample, hide_at_random

    net = asia_network()
    codes = forward_sample(net, n, seed=seed)
    if hidden:
        codes = hide_at_random(codes, hidden, seed=seed + 1)
    return DataSelection.from_codes(net, codes, target, validation, 0.0, seed=seed)


@pytest.fixture
def data_panel(qtbot, document):
    from bnstudio.gui.data_panel import DataPanel

    panel = DataPanel(document)
    qtbot.addWidget(panel)
    panel.resize(1100, 650)
    yield panel
    panel.shutdown()


@pytest.fixture
def training_panel(qtbot, document):
    from bnstudio.gui.training_panel import TrainingPanel

    panel = TrainingPanel(document)
    qtbot.addWidget(panel)
    panel.resize(1200, 760)
    yield panel
    panel.shutdown()


@pytest.fixture(autouse=True)
def no_error_dialogs(monkeypatch):
    """An unexpected error would open a modal dialog: fail the test instead (inside a Qt slot, pytest-qt
    reports the exception)."""
    from bnstudio.gui import dialogs

    def fail(parent, title, summary, details=""):
        raise AssertionError(f"unexpected error dialog: {title}: {summary}")

    monkeypatch.setattr(dialogs, "show_error", fail)
