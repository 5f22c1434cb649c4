"""The CPT editor panel: the virtualised table, its row tools (normalise, uniform, random, paste), the
Dirichlet-counts view (a toggle whose menu sets or removes the counts) and the noisy-MAX / plain-table switch.
Every tool is one undo command on the whole table."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMenu,
    QSplitter,
    QTableView,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app import commands as cmd
from bnstudio.app import cpt_operations as ops
from bnstudio.gui.cpt_editor.canonical import CanonicalEditor
from bnstudio.gui.cpt_editor.delegate import NumberDelegate
from bnstudio.gui.cpt_editor.model import CptTableModel
from bnstudio.gui.document import Document
from bnstudio.gui.message_bar import MessageBar
from bnstudio.gui.theme import PaletteFollower, text_style

ROW_HEIGHT = 22


class CptEditor(QWidget):
    """Edits the CPT of one variable of ``document`` (see :meth:`set_variable`)."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.model = CptTableModel(document, self)
        self.rng = np.random.default_rng()
        self.title = QLabel()
        self.status = QLabel()
        self.messages = MessageBar()   # a refused cell says why right above the table (not over the canvas)
        self.toolbar = QToolBar()
        self.table = QTableView()
        self.canonical = CanonicalEditor(document)  # a noisy-MAX's few parameters, above its expanded CPT
        self.actions_by_name: dict[str, QAction] = {}
        self._compose()
        self.model.variable_changed.connect(self._refresh_labels)
        self.model.modelReset.connect(self._refresh_labels)
        self.model.modelReset.connect(self._fit_columns)
        self.model.dataChanged.connect(self._refresh_labels)
        self.model.modelReset.connect(self.canonical.refresh)
        self.model.dataChanged.connect(self.canonical.refresh)
        self.canonical.changed.connect(self._refresh_labels)
        self.model.rejected.connect(lambda text: self.messages.show_message("warning", text))
        self.model.variable_changed.connect(self.messages.hide)
        document.undo_stack.indexChanged.connect(self._edited)
        self._refresh_labels()

    def _edited(self, _index: int) -> None:
        self.messages.hide()      # an edit went through: a refusal shown before is over

    def _compose(self) -> None:
        self.table.setModel(self.model)
        self.table.setItemDelegate(NumberDelegate(self.table))
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(False)
        edit = QAbstractItemView.EditTrigger
        self.table.setEditTriggers(edit.DoubleClicked | edit.EditKeyPressed | edit.AnyKeyPressed)
        vertical = self.table.verticalHeader()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform rows: no per-row size queries
        vertical.setDefaultSectionSize(ROW_HEIGHT)
        vertical.setResizeContentsPrecision(20)  # column widths look at 20 rows, never the whole table
        horizontal = self.table.horizontalHeader()
        horizontal.setDefaultSectionSize(96)
        horizontal.setResizeContentsPrecision(20)
        PaletteFollower(self.status, lambda: self.status.setStyleSheet(text_style("error")))
        self.title.setStyleSheet("font-weight: bold;")
        for name, text, tip, slot in (
                ("normalise_rows", "Normalise rows", "Divide the selected rows by their sums", self.normalise_rows),
                ("normalise_all", "Normalise all", "Divide every row by its sum", self.normalise_all),
                ("uniform", "Uniform", "Make the selected rows uniform", self.uniform_rows),
                ("random", "Random", "Fill the selected rows (all if none) with random distributions",
                 self.random_rows),
                ("paste", "Paste", "Paste a tab-separated block from a spreadsheet at the current cell",
                 lambda: self.paste())):
            self.actions_by_name[name] = self.toolbar.addAction(text, slot)
            self.actions_by_name[name].setToolTip(tip)
        self.actions_by_name["paste"].setShortcut(QKeySequence.StandardKey.Paste)
        self.actions_by_name["paste"].setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.addAction(self.actions_by_name["paste"])
        self.toolbar.addSeparator()
        self.toolbar.addWidget(self._counts_button())
        self.toolbar.addSeparator()
        self.actions_by_name["noisy_max"] = self.toolbar.addAction("Noisy-MAX", self.canonical.make_noisy_max)
        self.actions_by_name["noisy_max"].setToolTip("Replace the table by the closest noisy-MAX: a few parameters "
                                                     "per parent and a leak, edited above the table")
        self.actions_by_name["plain"] = self.toolbar.addAction("Plain table", self.canonical.make_plain)
        self.actions_by_name["plain"].setToolTip("Keep the expanded table and edit it freely")
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addStretch(1)
        top.addWidget(self.status)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.messages)
        self.canonical.table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)  # rows as compact as the CPT's
        tables = QSplitter(Qt.Orientation.Vertical)  # a noisy-MAX's parameters above its CPT, the handle between them
        tables.setChildrenCollapsible(False)
        tables.addWidget(self.canonical)
        tables.addWidget(self.table)
        tables.setStretchFactor(0, 1)
        tables.setStretchFactor(1, 2)
        layout.addWidget(tables, 1)

    def _counts_button(self) -> QToolButton:
        """"Show counts (α)" as a toggle, with Set ESS… and Remove counts in its menu (one button: the whole
        toolbar fits the dock at 1366x768)."""
        counts = self.actions_by_name["counts"] = QAction("Show counts (α)", self)
        counts.setCheckable(True)
        counts.toggled.connect(self.model.set_show_counts)
        counts.setToolTip("Show and edit the Dirichlet counts and each row's effective sample size (ESS); "
                          "the arrow: set or remove them")
        menu = QMenu(self)
        self.actions_by_name["set_ess"] = menu.addAction("Set ESS…", self.ask_ess)
        self.actions_by_name["set_ess"].setToolTip("Set Dirichlet counts = CPT × effective sample size")
        self.actions_by_name["remove_counts"] = menu.addAction("Remove counts", self.remove_counts)
        menu.setToolTipsVisible(True)
        button = QToolButton()
        button.setDefaultAction(counts)
        button.setMenu(menu)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        return button

    def _fit_columns(self) -> None:
        """Columns as wide as their header and the first rows (never scans a whole large table)."""
        header = self.table.horizontalHeader()
        for column in range(self.model.columnCount()):
            self.table.resizeColumnToContents(column)
            header.resizeSection(column, max(72, min(220, header.sectionSize(column) + 12)))

    # ------------------------------------------------------------------ binding
    def set_variable(self, name: str | None) -> None:
        self.model.set_variable(name or None)
        self.canonical.set_variable(name or None)

    @property
    def variable(self) -> str | None:
        return self.model.variable

    def _refresh_labels(self, *_args) -> None:
        var = self.model.variable
        for action in self.actions_by_name.values():
            action.setEnabled(var is not None)
        if var is None:
            self.title.setText("Select a node to edit its probability table")
            self.status.setText("")
            return
        parents = self.model._parents
        self.title.setText(f"P({var} | {', '.join(parents)})" if parents else f"P({var})")
        bad = len(self.model.unnormalised_rows())
        self.status.setText(f"{bad} row{'s' if bad != 1 else ''} do{'es' if bad == 1 else ''} not sum to 1"
                            if bad else "")
        has_counts = self.model.has_counts
        self.actions_by_name["remove_counts"].setEnabled(has_counts)
        self.actions_by_name["noisy_max"].setEnabled(self.canonical.can_make())
        self.actions_by_name["plain"].setEnabled(self.canonical.is_noisy_max())
        if self.model.show_counts and not has_counts:
            self.status.setText("No Dirichlet counts: use Set ESS… to add them")

    # ------------------------------------------------------------------ tools
    def selected_rows(self) -> list[int] | None:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedIndexes()})
        return rows or None

    def _apply(self, table: np.ndarray, text: str) -> bool:
        doc, var = self.document, self.model.variable
        return var is not None and doc.execute(cmd.SetCpt(doc, var, table, f"{text} ({var})"))

    def _table(self) -> np.ndarray:
        var = self.model.variable
        assert var is not None, "the table tools act on the variable on show"
        return self.document.network.cpt(var)

    def normalise_rows(self) -> bool:
        rows = self.selected_rows() or ([self.table.currentIndex().row()] if self.table.currentIndex().isValid()
                                        else None)
        return rows is not None and self._apply(ops.normalise(self._table(), rows), "Normalise rows")

    def normalise_all(self) -> bool:
        return self._apply(ops.normalise(self._table()), "Normalise all rows")

    def uniform_rows(self) -> bool:
        rows = self.selected_rows()
        return rows is not None and self._apply(ops.uniform(self._table(), rows), "Uniform rows")

    def random_rows(self) -> bool:
        return self._apply(ops.random_fill(self._table(), self.selected_rows(), self.rng), "Random rows")

    def paste(self, text: str | None = None) -> bool:
        """Paste tab-separated numbers at the current cell (the first state column if none)."""
        if self.model.variable is None or self.model.show_counts:
            return False
        text = QGuiApplication.clipboard().text() if text is None else text
        current = self.table.currentIndex()
        top = current.row() if current.isValid() else 0
        left = self.model.state_column(current.column()) if current.isValid() else 0
        try:
            table = ops.paste(self._table(), ops.parse_block(text), top, left or 0)
        except ValueError as exc:
            self.document.message.emit("warning", f"Paste refused: {exc}")
            return False
        return self._apply(table, "Paste")

    def ask_ess(self) -> None:
        ess, ok = QInputDialog.getDouble(self, "Effective sample size",
                                         f"Dirichlet counts of {self.model.variable} = CPT × ESS; ESS per row:",
                                         10.0, 0.001, 1e9, 3)
        if ok:
            self.set_ess(ess)

    def set_ess(self, ess: float) -> bool:
        doc, var = self.document, self.model.variable
        if var is None:
            return False
        alpha = np.array(doc.network.cpt(var)) * ess
        return doc.execute(cmd.SetAlpha(doc, var, alpha, f"Set ESS of {var} to {ess:g}"))

    def remove_counts(self) -> bool:
        doc, var = self.document, self.model.variable
        if var is None:
            return False
        return doc.execute(cmd.SetAlpha(doc, var, None, f"Remove Dirichlet counts of {var}"))
