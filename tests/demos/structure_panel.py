"""Open the structure panel on its own with demo data: ``python -m tests.demos.structure_panel``.

The demo shows the bundled ASIA network on a canvas beside the panel, with 2,000 cases sampled from it.
"""
from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter


def asia_data(n: int = 2000, seed: int = 0):
    """(network, codes, names, states): ASIA and ``n`` cases forward-sampled from it."""
    from bnstudio.app.resources import demo_network
    from bnstudio.sampling import forward_sample

    net = demo_network()
    codes = forward_sample(net, n, seed=seed)
    return net, codes, list(net.variables), [net.states(v) for v in net.variables]


def demo_widget(document=None) -> QSplitter:
    """A canvas and a :class:`StructurePanel` on ASIA with sampled data (attributes ``panel``, ``view``,
    ``scene`` and ``demo_document`` are set on the returned splitter)."""
    from bnstudio.gui.canvas import NetworkScene, NetworkView
    from bnstudio.gui.document import Document
    from bnstudio.gui.structure_panel import StructurePanel

    net, codes, names, states = asia_data()
    doc = document or Document(net)
    splitter = QSplitter(Qt.Horizontal)
    scene = NetworkScene(doc)
    view = NetworkView(scene)
    scene.setParent(view)
    panel = StructurePanel(doc, scene)
    panel.set_data(codes, names, states)
    splitter.addWidget(view)
    splitter.addWidget(panel)
    splitter.setStretchFactor(0, 1)
    splitter.panel, splitter.view, splitter.scene, splitter.demo_document = panel, view, scene, doc
    splitter.setWindowTitle("BN Studio — structure learning")
    return splitter


def render_screenshot(out, size: tuple[int, int] = (1400, 900)):
    """A hill-climbing proposal on ASIA drawn as a diff (added, removed and reversed arcs) beside the panel,
    saved as a PNG at ``out`` (for docs/screenshot-structure-panel.png). The network is edited first (one
    arc removed, one reversed) so the proposal has every kind of change."""
    from pathlib import Path

    from PySide6.QtCore import QEventLoop, QTimer

    from bnstudio.app import commands as cmd
    from bnstudio.gui.app import application

    app = application()
    widget = demo_widget()
    panel, doc = widget.panel, widget.demo_document
    doc.execute(cmd.RemoveArc(doc, "either", "dysp"))
    doc.execute(cmd.ReverseArc(doc, "either", "xray"))
    panel.add_arc_constraint("smoke", "lung", "required")
    panel.add_arc_constraint("dysp", "asia", "forbidden")
    panel.options.set_options(algorithm="hill-climb", score="bic", tabu=10, restarts=2, seed=1)
    widget.resize(*size)
    widget.show()
    loop = QEventLoop()
    panel.learning_ended.connect(lambda _status: loop.quit())
    if panel.run() is not None:
        QTimer.singleShot(60000, loop.quit)
        loop.exec()
    panel.messages.hide()
    for _ in range(5):
        app.processEvents()
    widget.view.fit_to_view()
    app.processEvents()
    path = Path(out)
    widget.grab().save(str(path))
    widget.close()
    return path


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - interactive
    from bnstudio.gui.app import application

    app = application()
    widget = demo_widget()
    widget.resize(1300, 800)
    widget.show()
    widget.view.fit_to_view()
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
