"""Open the training panel on its own with demo data: ``python -m tests.demos.training_panel [run]``.

The bundled ASIA network with ``resources/data/asia.csv`` aligned to it (target ``bronc``, 20% validation,
20% test, seed 1). With ``run``, three methods are trained one after the other (mp, em, clgd).
"""
from __future__ import annotations

import sys
import warnings

from tests.demos.data_panel import DEMO_SETTINGS, demo_csv


def demo_selection(net, settings: dict | None = None):
    """The bundled ASIA data aligned to ``net`` as a :class:`DataSelection` (``DEMO_SETTINGS`` split)."""
    from bnstudio.data import BNStudioDataWarning, align, read_csv
    from bnstudio.gui.data_panel import DataSelection

    s = dict(DEMO_SETTINGS, **(settings or {}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BNStudioDataWarning)
        aligned = align(read_csv(demo_csv()), net)
    return DataSelection.from_codes(net, aligned.codes, s["target"], s["validation_fraction"],
                                    s["test_fraction"], s["seed"], source=str(demo_csv()), settings=s)


def demo_panel(document=None):
    """A :class:`TrainingPanel` on the demo network with the demo data selected (the document is kept)."""
    from bnstudio.app.resources import demo_network
    from bnstudio.gui.document import Document
    from bnstudio.gui.training_panel import TrainingPanel

    doc = document or Document(demo_network())
    panel = TrainingPanel(doc)
    panel.demo_document = doc
    panel.set_selection(demo_selection(doc.network))
    panel.setWindowTitle("BN Studio — training")
    return panel


def run_in_turn(panel, methods=("mp", "em", "clgd")) -> None:
    """Train ``methods`` one after the other (each starts when the previous one has finished)."""
    queue = list(methods)

    def next_run(*_args) -> None:
        if queue:
            panel.options.set_method(queue.pop(0))
            panel.run()

    panel.run_finished.connect(next_run)
    next_run()


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - interactive
    from bnstudio.gui.app import application

    argv = sys.argv[1:] if argv is None else argv
    app = application()
    panel = demo_panel()
    panel.resize(1200, 760)
    panel.show()
    if argv[:1] == ["run"]:
        run_in_turn(panel)
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
