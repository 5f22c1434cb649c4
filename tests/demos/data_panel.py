"""Open the data panel on its own with demo data: ``python -m tests.demos.data_panel``.

The bundled ASIA network with ``resources/data/asia.csv`` read in the background, target ``bronc``, 20% of
the rows held out for validation and 20% for test.
"""
from __future__ import annotations

import sys

from bnstudio.app.resources import resource_root

DEMO_SETTINGS = {"target": "bronc", "validation_fraction": 0.2, "test_fraction": 0.2, "seed": 1}


def demo_csv(name: str = "asia"):
    return resource_root() / "data" / f"{name}.csv"


def demo_panel(document=None):
    """A :class:`DataPanel` reading the bundled ASIA data (the read runs as a job: wait for ``loaded``)."""
    from bnstudio.app.resources import demo_network
    from bnstudio.gui.data_panel import DataPanel
    from bnstudio.gui.document import Document

    doc = document or Document(demo_network())
    panel = DataPanel(doc)
    panel.demo_document = doc
    panel.setWindowTitle("BN Studio — data")
    panel.load(demo_csv(), DEMO_SETTINGS, interactive=True)
    return panel


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - interactive
    from bnstudio.gui.app import application

    app = application()
    panel = demo_panel()
    panel.resize(1100, 650)
    panel.show()
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
