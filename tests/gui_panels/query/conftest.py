"""pytest-qt fixtures for the query panel: offscreen Qt and networks fitted from the bundled data."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before Qt is imported anywhere

from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths

QStandardPaths.setTestModeEnabled(True)

ROOT = Path(__file__).resolve().parents[3]
NETWORKS = ROOT / "resources" / "networks"


@pytest.fixture(scope="session")
def asia_mp():
    """(ASIA with mp parameters and Dirichlet counts, the fit result) from resources/data/asia.csv."""
    from tests.demos.query_panel import fitted_example

    return fitted_example("asia")


@pytest.fixture
def make_panel(qtbot):
    """Build a QueryPanel on a Document holding ``net`` (a copy); the panel keeps the document."""
    from bnstudio.gui.document import Document
    from bnstudio.gui.query_panel import QueryPanel

    def build(net, **document_kw):
        doc = Document(net.copy(), **document_kw)
        panel = QueryPanel(doc)
        panel.demo_document = doc
        qtbot.addWidget(panel)
        panel.resize(1100, 650)
        return panel
    return build
