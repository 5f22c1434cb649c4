"""Cell editor of the CPT table: a plain line edit. What was typed goes to the model, which refuses anything
that is not a number in range with a message saying why ("'abc' is not a number", "1.5 is out of range: use
a number between 0 and 1"); a validator would swallow the keystrokes without a word."""
from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QStyledItemDelegate, QWidget


class NumberDelegate(QStyledItemDelegate):
    def createEditor(self, parent, option, index):  # Qt override
        editor = QLineEdit(parent)
        editor.setFrame(False)
        return editor

    def setEditorData(self, editor: QWidget, index) -> None:  # Qt override
        if not isinstance(editor, QLineEdit):    # not made by createEditor
            super().setEditorData(editor, index)
            return
        value = index.data()
        editor.setText("" if value is None else str(value))
        editor.selectAll()

    def setModelData(self, editor: QWidget, model, index) -> None:  # Qt override
        if not isinstance(editor, QLineEdit):
            super().setModelData(editor, model, index)
            return
        text = editor.text().strip()
        if text:
            model.setData(index, text)
