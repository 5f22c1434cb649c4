"""Open any panel on its own with demo data: ``python -m tests.demos.standalone cpt_editor``.

Every dock and panel of the app is listed in :data:`PANELS` (a smoke test opens each one).
"""
from __future__ import annotations

import sys
from typing import Callable

from PySide6.QtWidgets import QWidget

from bnstudio.app.resources import demo_network
from bnstudio.gui.document import Document
from bnstudio.gui.history import HistoryView


def _canvas(doc: Document) -> QWidget:
    from bnstudio.gui.canvas import NetworkScene, NetworkView

    scene = NetworkScene(doc)
    view = NetworkView(scene)
    scene.setParent(view)  # the view owns its scene
    return view


def _cpt_editor(doc: Document) -> QWidget:
    from bnstudio.gui.cpt_editor import CptEditor

    editor = CptEditor(doc)
    editor.set_variable("dysp")
    return editor


def _properties(doc: Document) -> QWidget:
    from bnstudio.gui.properties import PropertiesPanel

    panel = PropertiesPanel(doc)
    panel.set_variable("either")
    return panel


def _history(doc: Document) -> QWidget:
    return HistoryView(doc.undo_stack)


def _message_bar(doc: Document) -> QWidget:
    from bnstudio.gui.message_bar import MessageBar

    bar = MessageBar()
    bar.show_message("warning", "arc dysp -> smoke would create the cycle smoke -> bronc -> dysp -> smoke")
    return bar


def _main_window(doc: Document) -> QWidget:
    from bnstudio.gui.main_window import MainWindow

    window = MainWindow()
    window.document.replace_network(doc.network)
    return window


def _data(doc: Document) -> QWidget:
    from tests.demos.data_panel import demo_panel
    return demo_panel(doc)


def _training(doc: Document) -> QWidget:
    from tests.demos.training_panel import demo_panel
    return demo_panel(doc)


def _query(_doc: Document) -> QWidget:
    from tests.demos.query_panel import demo_panel
    return demo_panel()          # a network fitted with mp, so that error bars exist


def _structure(doc: Document) -> QWidget:
    from tests.demos.structure_panel import demo_widget
    return demo_widget(doc)


#: panel name -> factory(document) returning the widget
PANELS: dict[str, Callable[[Document], QWidget]] = {
    "canvas": _canvas, "cpt_editor": _cpt_editor, "properties": _properties, "history": _history,
    "message_bar": _message_bar, "main_window": _main_window, "data_panel": _data,
    "training_panel": _training, "query_panel": _query, "structure_panel": _structure,
}


def open_panel(name: str, document: Document | None = None) -> QWidget:
    """The panel ``name`` on ``document`` (the demo network if None); the document is kept on the widget."""
    doc = document or Document(demo_network())
    widget = PANELS[name](doc)
    widget.setWindowTitle(f"BN Studio — {name}")
    widget.demo_document = doc  # keep it alive as long as the widget
    return widget


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - interactive
    from bnstudio.gui.app import application

    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] not in PANELS:
        print(f"usage: python -m tests.demos.standalone {{{','.join(PANELS)}}}", file=sys.stderr)
        return 2
    app = application()
    widget = open_panel(argv[0])
    widget.resize(900, 600)
    widget.show()
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
