"""The CPT rows whose Dirichlet uncertainty adds most to the variance of the query (Singh Theorem 2, one term
per row), as sorted horizontal bars. Clicking a row asks for it to be opened in the CPT editor."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStyledItemDelegate,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bnstudio.uncertainty import RowContribution

SHARE_ROLE = Qt.ItemDataRole.UserRole + 1
BAR_COLOUR = QColor("#3F7CC8")
TRACK_COLOUR = QColor("#E9EDF3")
TOP = 20


def row_label(contribution: RowContribution) -> str:
    """``LVFAILURE | HYPOVOLEMIA=TRUE`` or ``HYPOVOLEMIA (no parents)``."""
    if not contribution.parents:
        return f"{contribution.variable} (no parents)"
    return f"{contribution.variable} | " + ", ".join(f"{p}={s}" for p, s in contribution.parents.items())


class ShareBarDelegate(QStyledItemDelegate):
    """Paints a cell's share of the variance (0..1 in ``SHARE_ROLE``) as a bar with the percentage."""

    def paint(self, painter: QPainter, option, index) -> None:  # Qt override
        share = index.data(SHARE_ROLE)
        if share is None:
            return super().paint(painter, option, index)
        self.initStyleOption(option, index)
        rect = QRectF(option.rect).adjusted(4, 4, -4, -4)
        painter.save()
        painter.fillRect(rect, TRACK_COLOUR)
        painter.fillRect(QRectF(rect.left(), rect.top(), max(1.0, rect.width() * float(share)), rect.height()),
                         BAR_COLOUR)
        painter.setPen(QColor("#1E2732") if share < 0.55 else QColor("#FFFFFF"))
        across = Qt.AlignmentFlag.AlignRight if share < 0.55 else Qt.AlignmentFlag.AlignLeft
        painter.drawText(rect.adjusted(4, 0, -4, 0), Qt.AlignmentFlag.AlignVCenter | across, f"{100 * share:.1f}%")
        painter.restore()


class ContributionsView(QWidget):
    """The top rows of :meth:`QueryVariance.top_contributions`; ``row_clicked(variable, parent_states)``."""

    row_clicked = Signal(str, dict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 3)
        self.caption = QLabel()
        self.contributions: list[RowContribution] = []
        self.table.setHorizontalHeaderLabels(["CPT row", "Share of the variance", "Row ESS"])
        self.table.setItemDelegateForColumn(1, ShareBarDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.caption.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)
        self.table.cellClicked.connect(self._on_clicked)

    def show_contributions(self, contributions: list[RowContribution], total: float) -> None:
        """List ``contributions`` (largest first) with their share of ``total``."""
        self.contributions = list(contributions)
        self.table.setRowCount(len(self.contributions))
        for i, c in enumerate(self.contributions):
            label = QTableWidgetItem(row_label(c))
            label.setToolTip(f"This row's counts add {c.variance:.3g} to the variance of the query "
                             f"(row effective sample size {c.ess:g}). Click to open it in the CPT editor.")
            share = QTableWidgetItem()
            share.setData(SHARE_ROLE, c.variance / total if total > 0 else 0.0)
            ess = QTableWidgetItem(f"{c.ess:g}")
            ess.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            for j, item in enumerate((label, share, ess)):
                self.table.setItem(i, j, item)
        self.caption.setText("The CPT rows whose uncertainty makes this answer uncertain, largest first. "
                             "More data (a larger count) for the top rows narrows the error bars most. "
                             "Click a row to open it." if self.contributions else
                             "No CPT row adds variance to this query.")

    def clear(self, reason: str = "") -> None:
        self.contributions = []
        self.table.setRowCount(0)
        self.caption.setText(reason)

    def click_row(self, i: int) -> None:
        """Select row ``i`` as a click would (also used by tests)."""
        self.table.selectRow(i)
        self._on_clicked(i, 0)

    def _on_clicked(self, row: int, _column: int) -> None:
        if 0 <= row < len(self.contributions):
            c = self.contributions[row]
            self.row_clicked.emit(c.variable, dict(c.parents))
