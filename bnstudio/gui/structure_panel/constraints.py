"""Expert knowledge for structure learning, edited in the panel: a table of required and forbidden arcs (add,
remove; also picked on the canvas) and tiers, an ordered list of variable groups (a variable in a later tier
cannot be a parent of one in an earlier tier). Checked by the learner, which names any conflict."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from bnstudio.gui.responsive import fit_names
from bnstudio.gui.table_cells import item_at, text_at

REQUIRED, FORBIDDEN = "required", "forbidden"
KINDS = (REQUIRED, FORBIDDEN)


class ArcConstraints(QWidget):
    """Required / forbidden arcs: a table plus a row of pickers to add one."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 3)
        self.parent_box, self.child_box, self.kind_box = QComboBox(), QComboBox(), QComboBox()
        self.add_button, self.remove_button = QPushButton("Add"), QPushButton("Remove")
        self.table.setHorizontalHeaderLabels(["Parent", "Child", "Constraint"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.kind_box.addItems(list(KINDS))
        fit_names(self.parent_box, self.child_box)
        pick = QHBoxLayout()
        for widget in (self.parent_box, QLabel("→"), self.child_box, self.kind_box, self.add_button):
            pick.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(pick)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignRight)
        self.add_button.clicked.connect(lambda: self.add_arc(self.parent_box.currentText(),
                                                             self.child_box.currentText(),
                                                             self.kind_box.currentText()))
        self.remove_button.clicked.connect(self.remove_selected)

    def set_variables(self, names: list[str]) -> None:
        for box in (self.parent_box, self.child_box):
            current = box.currentText()
            box.clear()
            box.addItems(names)
            if current in names:
                box.setCurrentText(current)
        if len(names) > 1 and self.child_box.currentIndex() == self.parent_box.currentIndex():
            self.child_box.setCurrentIndex(1)

    def arcs(self, kind: str | None = None) -> list[tuple[str, str, str]]:
        """(parent, child, kind) rows, optionally of one kind only."""
        rows = [(text_at(self.table, r, 0), text_at(self.table, r, 1), text_at(self.table, r, 2))
                for r in range(self.table.rowCount())]
        return [r for r in rows if kind is None or r[2] == kind]

    def add_arc(self, parent: str, child: str, kind: str = REQUIRED) -> bool:
        """Add (or re-classify) the constraint parent -> child; False for an empty or self arc."""
        if kind not in KINDS:
            raise ValueError(f"an arc constraint is one of {KINDS}, not {kind!r}")
        if not parent or not child or parent == child:
            return False
        for r in range(self.table.rowCount()):
            if (text_at(self.table, r, 0), text_at(self.table, r, 1)) == (parent, child):
                item_at(self.table, r, 2).setText(kind)
                self.changed.emit()
                return True
        r = self.table.rowCount()
        self.table.insertRow(r)
        for c, text in enumerate((parent, child, kind)):
            self.table.setItem(r, c, QTableWidgetItem(text))
        self.changed.emit()
        return True

    def remove_selected(self) -> None:
        for r in sorted({i.row() for i in self.table.selectionModel().selectedRows()}, reverse=True):
            self.table.removeRow(r)
        self.changed.emit()

    def clear(self) -> None:
        self.table.setRowCount(0)
        self.changed.emit()


class TierList(QWidget):
    """Tiers as an ordered list of comma-separated variable groups (double-click a tier to edit it)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget()
        self.entry = QLineEdit()
        self.add_button, self.remove_button = QPushButton("Add tier"), QPushButton("Remove")
        self.entry.setPlaceholderText("variables of the next tier, comma-separated")
        row = QHBoxLayout()
        row.addWidget(self.entry, 1)
        row.addWidget(self.add_button)
        note = QLabel("Earlier tiers come first: no arc may point from a later tier into an earlier one.")
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(note)
        layout.addLayout(row)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignRight)
        self.add_button.clicked.connect(lambda: self.add_tier(self.entry.text()))
        self.entry.returnPressed.connect(lambda: self.add_tier(self.entry.text()))
        self.remove_button.clicked.connect(self.remove_selected)
        self.list.itemChanged.connect(lambda _item: self.changed.emit())

    def add_tier(self, names: str | list[str]) -> bool:
        names = [n.strip() for n in (names.split(",") if isinstance(names, str) else names) if n.strip()]
        if not names:
            return False
        item = QListWidgetItem(", ".join(names))
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.list.addItem(item)
        self.entry.clear()
        self.changed.emit()
        return True

    def remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self.changed.emit()

    def tiers(self) -> list[list[str]]:
        out = []
        for i in range(self.list.count()):
            names = [n.strip() for n in self.list.item(i).text().split(",") if n.strip()]
            if names:
                out.append(names)
        return out


class ConstraintsEditor(QTabWidget):
    """Both editors in tabs; :meth:`constraints` gives ``required``, ``forbidden`` and ``tiers`` keywords."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.arcs = ArcConstraints()
        self.tier_list = TierList()
        self.setMaximumHeight(210)  # the lists scroll; the run controls and the result stay in view
        self.addTab(self.arcs, "Required / forbidden arcs")
        self.addTab(self.tier_list, "Tiers")
        self.arcs.changed.connect(self.changed)
        self.tier_list.changed.connect(self.changed)

    def set_variables(self, names: list[str]) -> None:
        self.arcs.set_variables(names)

    def constraints(self) -> dict[str, object]:
        return {"required": [(p, c) for p, c, _ in self.arcs.arcs(REQUIRED)],
                "forbidden": [(p, c) for p, c, _ in self.arcs.arcs(FORBIDDEN)],
                "tiers": self.tier_list.tiers() or None}
