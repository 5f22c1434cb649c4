"""The Qt face of a document's undo history (docs/architecture.md §7):
:class:`UndoStack` wraps :class:`bnstudio.app.history.History` with the calls and signals the window needs
(QUndoStack's names: ``canUndo``, ``cleanChanged``, the Undo/Redo actions), and :class:`HistoryView` lists
its steps (the History dock; a click goes back or forward to that step)."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QListView, QWidget

from bnstudio.app.history import Command, History


class UndoStack(QObject):
    """A :class:`History` seen from Qt; it does nothing the history does not."""

    indexChanged = Signal(int)
    cleanChanged = Signal(bool)
    canUndoChanged = Signal(bool)
    canRedoChanged = Signal(bool)
    undoTextChanged = Signal(str)
    redoTextChanged = Signal(str)

    def __init__(self, history: History, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.history = history
        history.index_changed.connect(self._moved)
        history.clean_changed.connect(self.cleanChanged.emit)

    def _moved(self, index: int) -> None:
        self.indexChanged.emit(index)
        self.canUndoChanged.emit(self.canUndo())
        self.canRedoChanged.emit(self.canRedo())
        self.undoTextChanged.emit(self.undoText())
        self.redoTextChanged.emit(self.redoText())

    def undo(self) -> None:
        self.history.undo()

    def redo(self) -> None:
        self.history.redo()

    def setIndex(self, index: int) -> None:  # QUndoStack's name
        self.history.set_index(index)

    def count(self) -> int:
        return self.history.count()

    def index(self) -> int:
        return self.history.index()

    def command(self, i: int) -> Command | None:
        return self.history.command(i)

    def text(self, i: int) -> str:
        return self.history.text(i)

    def canUndo(self) -> bool:
        return self.history.can_undo()

    def canRedo(self) -> bool:
        return self.history.can_redo()

    def undoText(self) -> str:
        return self.history.undo_text()

    def redoText(self) -> str:
        return self.history.redo_text()

    def isClean(self) -> bool:
        return self.history.is_clean()

    def setClean(self) -> None:
        self.history.set_clean()

    def resetClean(self) -> None:
        self.history.reset_clean()

    def createUndoAction(self, parent: QObject, prefix: str = "&Undo") -> QAction:
        """An action that undoes, named after the step it undoes and enabled while there is one."""
        return self._action(parent, prefix, self.undo, self.canUndo, self.undoText, self.undoTextChanged)

    def createRedoAction(self, parent: QObject, prefix: str = "&Redo") -> QAction:
        return self._action(parent, prefix, self.redo, self.canRedo, self.redoText, self.redoTextChanged)

    def _action(self, parent: QObject, prefix: str, trigger, can, text, text_changed) -> QAction:
        action = QAction(prefix, parent)

        def update() -> None:
            action.setEnabled(can())
            action.setText(f"{prefix} {text()}".strip())

        action.triggered.connect(trigger)
        text_changed.connect(update)
        update()
        return action


class HistoryView(QListView):
    """The steps of the history, the state before them first ("<empty>" unless :meth:`setEmptyLabel` names it),
    the current one selected; clicking a step undoes or redoes up to it (as QUndoView does)."""

    def __init__(self, stack: UndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stack = stack
        self.empty_label = "<empty>"
        self.steps = QStandardItemModel(self)
        self.setModel(self.steps)
        self.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        stack.indexChanged.connect(self.refresh)
        self.clicked.connect(lambda index: self.stack.setIndex(index.row()))
        self.refresh()

    def setEmptyLabel(self, label: str) -> None:  # QUndoView's name
        self.empty_label = label
        self.refresh()

    def refresh(self, _index: int = 0) -> None:
        self.steps.clear()
        for text in [self.empty_label] + [self.stack.text(i) for i in range(self.stack.count())]:
            self.steps.appendRow(QStandardItem(text))
        self.setCurrentIndex(self.steps.index(self.stack.index(), 0))
