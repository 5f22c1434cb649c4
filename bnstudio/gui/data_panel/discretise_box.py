"""Discretise one numeric column: pick the method (equal width, equal frequency, supervised MDL given a class
column) and the number of bins, preview the cut points and rows per interval, then apply."""
from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QWidget

from bnstudio.app.dataset.prep import METHODS, bin_counts, fit_discretiser
from bnstudio.data import Dataset, Discretiser
from bnstudio.errors import BNStudioError
from bnstudio.gui.theme import text_style


def preview_text(disc: Discretiser, counts, limit: int = 12) -> str:
    """Cut points, then the rows in each interval (the first ``limit`` intervals)."""
    cuts = " · ".join(f"{c:.6g}" for c in disc.cuts[:limit]) if len(disc.cuts) else "none (a single interval)"
    more = f" … ({len(disc.cuts)} cuts)" if len(disc.cuts) > limit else ""
    bins = " · ".join(f"{label} {int(n):,}" for label, n in list(zip(disc.labels, counts, strict=True))[:limit])
    return f"<b>Cut points:</b> {cuts}{more}<br><b>Rows per interval:</b> {bins}"


class DiscretiseBox(QGroupBox):
    """``applied(column, discretiser, spec)`` once the user applies a previewed discretisation."""

    applied = Signal(str, object, dict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Discretise a numeric column", parent)
        self.raw: Dataset | None = None
        self.rows: np.ndarray | None = None     # the training rows the cut points are learnt on (None: all)
        self.current: Discretiser | None = None
        self.column = QComboBox()
        self.method = QComboBox()
        self.bins = QSpinBox()
        self.class_column = QComboBox()
        self.preview_button = QPushButton("Preview cuts")
        self.apply_button = QPushButton("Apply")
        self.preview_label = QLabel()
        self._compose()
        for combo in (self.column, self.method, self.class_column):
            combo.currentIndexChanged.connect(self._options_changed)
        self.bins.valueChanged.connect(self._options_changed)
        self.preview_button.clicked.connect(self.preview)
        self.apply_button.clicked.connect(self.apply)
        self.set_data(None, [])

    def _compose(self) -> None:
        for key, text in METHODS.items():
            self.method.addItem(text, key)
        self.bins.setRange(2, 100)
        self.bins.setValue(4)
        self.preview_label.setWordWrap(True)
        self.preview_label.setMinimumHeight(3 * self.preview_label.fontMetrics().height())
        buttons = QHBoxLayout()
        buttons.addWidget(self.preview_button)
        buttons.addWidget(self.apply_button)
        buttons.addStretch(1)
        form = QFormLayout(self)
        form.addRow("Column", self.column)
        form.addRow("Method", self.method)
        form.addRow("Bins", self.bins)
        form.addRow("Class", self.class_column)
        form.addRow(buttons)
        form.addRow(self.preview_label)

    def set_data(self, raw: Dataset | None, numeric: list[str], rows: np.ndarray | None = None) -> None:
        """Offer the ``numeric`` columns of ``raw`` (the data as read, before any binning); cut points are learnt
        on its ``rows`` (the training rows; None: all)."""
        self.raw, self.rows = raw, rows
        for combo, names in ((self.column, numeric), (self.class_column, [] if raw is None else raw.columns)):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(list(names))
            combo.blockSignals(False)
        self.setEnabled(bool(numeric))
        self._options_changed()
        if not numeric:
            self.preview_label.setText("No numeric columns: every column is already categorical."
                                       if raw is not None else "")

    def set_training_rows(self, rows: np.ndarray | None) -> None:
        """Learn the next cut points on ``rows`` (the held-out rows moved); the preview is withdrawn."""
        self.rows = rows
        self._options_changed()

    def spec(self) -> dict[str, Any]:
        """The chosen options: {"method", "bins", "class"} (bins and class only where the method uses them)."""
        method = self.method.currentData()
        return {"method": method, "bins": None if method == "mdl" else self.bins.value(),
                "class": (self.class_column.currentText() or None) if method == "mdl" else None}

    def preview(self) -> Discretiser | None:
        """Fit the cuts for the chosen column and show them; None (and the reason) if they cannot be fitted."""
        column = self.column.currentText()
        if self.raw is None or not column:
            return None
        spec = self.spec()
        try:
            disc = fit_discretiser(self.raw, column, spec["method"], spec["bins"] or 0, spec["class"], self.rows)
        except BNStudioError as exc:
            self.current = None
            self.preview_label.setText(f"<span style='{text_style('error')}'>{exc}</span>")
            self.apply_button.setEnabled(False)
            return None
        self.current = disc
        learnt = "" if self.rows is None or len(self.rows) == self.raw.n_rows else (
            f"<br>Learnt on the {len(self.rows):,} training rows (the held-out rows never move a cut).")
        self.preview_label.setText(preview_text(disc, bin_counts(self.raw, column, disc)) + learnt)
        self.apply_button.setEnabled(True)
        return disc

    def apply(self) -> bool:
        """Emit :attr:`applied` for the previewed cuts (preview first if options changed)."""
        disc = self.current or self.preview()
        if disc is None:
            return False
        spec = dict(self.spec(), cuts=[float(c) for c in disc.cuts])
        self.applied.emit(self.column.currentText(), disc, spec)
        return True

    def _options_changed(self, *_args: Any) -> None:
        mdl = self.method.currentData() == "mdl"
        self.bins.setEnabled(not mdl)
        self.class_column.setEnabled(mdl)
        self.current = None
        self.apply_button.setEnabled(False)
        self.preview_label.setText("")
