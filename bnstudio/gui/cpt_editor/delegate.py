"""Cell editor of the CPT table: a line edit that accepts numbers only, 0..1 for probabilities (at least 0
for Dirichlet counts), with a C-locale decimal point."""
from __future__ import annotations

from PySide6.QtCore import QLocale
from PySide6.QtGui import QDoubleValidator
from PySide6.QtWidgets import QLineEdit, QStyledItemDelegate


class NumberDelegate(QStyledItemDelegate):
    def createEditor(self, parent, option, index):  # Qt override
        editor = QLineEdit(parent)
        model = index.model()
        top = 1e12 if getattr(model, "show_counts", False) else 1.0
        validator = QDoubleValidator(0.0, top, 12, editor)
        validator.setNotation(QDoubleValidator.StandardNotation)
        validator.setLocale(QLocale.c())
        editor.setValidator(validator)
        editor.setFrame(False)
        return editor

    def setEditorData(self, editor: QLineEdit, index) -> None:  # Qt override
        value = index.data()
        editor.setText("" if value is None else str(value))
        editor.selectAll()

    def setModelData(self, editor: QLineEdit, model, index) -> None:  # Qt override
        text = editor.text().strip()
        if text:
            model.setData(index, text)
