"""The items of a filled QTableWidget: Qt answers None for a cell (or header) that has no item, so these
raise instead of handing None on (docs/gui.md, "For developers")."""
from __future__ import annotations

from PySide6.QtWidgets import QTableWidget, QTableWidgetItem


def item_at(table: QTableWidget, row: int, column: int) -> QTableWidgetItem:
    """The item at (``row``, ``column``); LookupError for a cell without one."""
    item = table.item(row, column)
    if item is None:
        raise LookupError(f"no item at row {row}, column {column} of the table")
    return item


def text_at(table: QTableWidget, row: int, column: int) -> str:
    """The text of the item at (``row``, ``column``)."""
    return item_at(table, row, column).text()


def row_header_text(table: QTableWidget, row: int) -> str:
    """The text of ``row``'s vertical header item; LookupError when the row has none."""
    item = table.verticalHeaderItem(row)
    if item is None:
        raise LookupError(f"no header item for row {row} of the table")
    return item.text()
