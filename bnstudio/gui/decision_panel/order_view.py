"""The decisions in the order they are taken, with what each observes, and Earlier / Later buttons.

The model requires the decisions, in order, to lie on one directed path (``docs/decisions.md``), so the order
follows the arcs: moving decision B before its predecessor A reverses the informational arc A -> B when that
arc alone orders them; when another directed path from A to B exists, the move is refused and the panel names
that path (an arc of it has to go first).
"""
from __future__ import annotations

import networkx as nx
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from bnstudio.app.commands.diagram_edits import move_decision
from bnstudio.decision.model import full_graph
from bnstudio.errors import BNStudioError
from bnstudio.gui.canvas import style as st
from bnstudio.gui.document import Document


def ordering_path(document: Document, name: str, step: int) -> list[str] | None:
    """The directed path that keeps ``name`` where it is against its neighbour (the direct informational arc
    between them excluded: the move reverses it), or None."""
    part = document.decisions
    if part is None:
        return None
    names = part.decision_names
    i = names.index(name)
    j = i + step
    if not 0 <= j < len(names):
        return None
    first, second = names[min(i, j)], names[max(i, j)]
    graph = full_graph(document.network, part.decisions, part.utilities)
    if graph.has_edge(first, second):
        graph.remove_edge(first, second)
    return nx.shortest_path(graph, first, second) if nx.has_path(graph, first, second) else None


def refusal(document: Document, name: str, step: int) -> str:
    """Why decision ``name`` cannot move one place (``step``), or "" when it can."""
    where = "earlier" if step < 0 else "later"
    part = document.decisions
    if part is None:
        return "No influence diagram is open."
    i = part.decision_names.index(name)
    if not 0 <= i + step < len(part.decisions):
        return f"{name} is already taken {'first' if step < 0 else 'last'}."
    path = ordering_path(document, name, step)
    if path is not None:
        return (f"{name} cannot be taken {where}: the path {' → '.join(path)} orders {path[0]} before "
                f"{path[-1]} (delete an arc of it first).")
    try:
        part.with_decision_moved(name, step).diagram(document.network)
    except BNStudioError as exc:
        return f"{name} cannot be taken {where}: {exc}"
    return ""


class DecisionOrder(QWidget):
    """See the module docstring; ``notice`` says why the last move was refused."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.list = QListWidget()
        self.earlier = QPushButton("Earlier")
        self.later = QPushButton("Later")
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(f"color: {st.EVIDENCE_BORDER.name()}")
        help_text = QLabel("Decisions in the order taken; each observes the nodes listed (informational arcs).")
        help_text.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.earlier)
        buttons.addWidget(self.later)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(help_text)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.notice)
        self.earlier.clicked.connect(lambda: self.move_current(-1))
        self.later.clicked.connect(lambda: self.move_current(1))
        self.list.currentRowChanged.connect(lambda _row: self.notice.clear())
        document.decisions_changed.connect(self.refresh)
        document.network_changed.connect(lambda _event: self.refresh())
        self.refresh()

    def names(self) -> list[str]:
        part = self.document.decisions
        return [] if part is None else list(part.decision_names)

    def refresh(self) -> None:
        part, row = self.document.decisions, self.list.currentRow()
        self.list.clear()
        for k, d in enumerate(() if part is None else part.decisions, 1):
            observes = f" — observes {', '.join(d.parents)}" if d.parents else " — observes nothing"
            self.list.addItem(f"{k}. {d.name}{observes}")
        self.list.setCurrentRow(min(row, self.list.count() - 1))
        for button in (self.earlier, self.later):
            button.setEnabled(self.list.count() > 1)

    def select(self, name: str) -> None:
        self.list.setCurrentRow(self.names().index(name))

    def move_current(self, step: int) -> bool:   # not move(): that is QWidget's
        """Move the current decision one place (an undoable edit), or say in ``notice`` why not."""
        row = self.list.currentRow()
        if row < 0:
            self.notice.setText("Choose a decision first.")
            return False
        name = self.names()[row]
        reason = refusal(self.document, name, step)
        if reason:
            self.notice.setText(reason)
            return False
        if not self.document.execute(move_decision(self.document, name, step)):
            return False
        self.select(name)
        self.notice.clear()
        return True
