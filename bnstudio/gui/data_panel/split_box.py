"""Choose the target variable and the held-out validation and test fractions (with a seed)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QSpinBox, QWidget

from bnstudio.gui.responsive import fit_names

NO_TARGET = "(none)"


class SplitBox(QGroupBox):
    """``changed()`` whenever the target, a fraction or the seed changes."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Target and held-out rows", parent)
        self.target = QComboBox()
        self.validation = QDoubleSpinBox()
        self.test = QDoubleSpinBox()
        self.seed = QSpinBox()
        self._compose()
        self.target.currentIndexChanged.connect(self.changed)   # no lambdas: one capturing self keeps a deleted widget alive
        for spin in (self.validation, self.test, self.seed):
            spin.valueChanged.connect(self.changed)

    def _compose(self) -> None:
        for spin, value in ((self.validation, 20.0), (self.test, 20.0)):
            spin.setRange(0.0, 45.0)
            spin.setDecimals(1)
            spin.setSingleStep(5.0)
            spin.setSuffix(" %")
            spin.setValue(value)
        self.seed.setRange(0, 2**31 - 1)
        fit_names(self.target)
        self.target.addItem(NO_TARGET)
        self.target.setToolTip("The class variable: conditional scores (CLL, error rate, Brier) and "
                               "discriminative training use it")
        form = QFormLayout(self)
        form.addRow("Target", self.target)
        form.addRow("Validation", self.validation)
        form.addRow("Test", self.test)
        form.addRow("Seed", self.seed)

    def set_targets(self, names: list[str], keep: str | None = None) -> None:
        """Offer ``names`` (keeping the current choice, or ``keep``, when still offered) without emitting."""
        wanted = keep if keep is not None else self.target_name()
        self.target.blockSignals(True)
        self.target.clear()
        self.target.addItems([NO_TARGET, *names])
        self.target.setCurrentIndex(max(0, self.target.findText(wanted)) if wanted else 0)
        self.target.blockSignals(False)

    def target_name(self) -> str | None:
        text = self.target.currentText()
        return None if text in ("", NO_TARGET) else text

    def values(self) -> dict[str, Any]:
        """{"target", "validation_fraction", "test_fraction", "seed"} (fractions in [0, 1))."""
        return {"target": self.target_name(), "validation_fraction": round(self.validation.value() / 100, 6),
                "test_fraction": round(self.test.value() / 100, 6), "seed": self.seed.value()}

    def set_values(self, values: dict[str, Any]) -> None:
        """Restore :meth:`values` (unknown targets are ignored) with one ``changed`` at most."""
        self.blockSignals(True)
        if values.get("target") and self.target.findText(values["target"]) >= 0:
            self.target.setCurrentIndex(self.target.findText(values["target"]))
        if "validation_fraction" in values:
            self.validation.setValue(100 * float(values["validation_fraction"]))
        if "test_fraction" in values:
            self.test.setValue(100 * float(values["test_fraction"]))
        if "seed" in values:
            self.seed.setValue(int(values["seed"]))
        self.blockSignals(False)
