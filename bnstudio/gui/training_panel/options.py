"""The method and its hyper-parameters, rendered from the Qt-free form of :mod:`bnstudio.learn.forms`: each field
is shown only where the registry says it applies, in two columns where the form is at least
:data:`TWO_COLUMNS_FROM` pixels wide (a laptop's dock), so every field of a method shows without scrolling.

An option with an unset value (its registry ``unset_label``: patience "off", L2 "default") has it one step below
the spin box's range; :meth:`MethodOptions.values` gives None there, and :func:`bnstudio.learn.forms.learner_options`
turns the values into ``make_learner(method, **options)`` keyword arguments (docs/architecture.md §4).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSlider,
    QSpinBox,
    QWidget,
)

from bnstudio.defaults import DEFAULT_L2
from bnstudio.learn.forms import SHOWN, describe, learner_options, method_starts, start_value, visible_fields
from bnstudio.learn.registry import METHODS, PARAMETER_LEARNERS, Option

# the methods, their fields, labels, choices and ranges come from the learner registry (bnstudio.learn.registry)
METHOD_TEXT = {e.name: f"{e.name} — {e.summary}" for e in PARAMETER_LEARNERS}
LABELS = {name: option.label for name, option in SHOWN.items()}
#: the largest value a Qt spin box holds, and the form's practical caps
SPIN_MAX = 2 ** 31 - 1
FORM_CAPS = {"max_iter": 100000, "restarts": 100, "patience": 1000, "bags": 1000, "ess": 1e6, "l2": 100.0}
#: a number field's decimals and step where not 2 and 0.5 (the L2 penalty is small: DEFAULT_L2 / N)
FORM_STEPS: dict[str, tuple[int, float]] = {"l2": (5, 0.001)}
#: the order of the known fields in the form
LAYOUT = ("criterion", "alpha", "m_step", "prior", "ess", "l2", "optimizer", "level", "bags", "m_bagging", "max_iter",
          "restarts", "patience", "seed")
#: the order of the fields in the form: :data:`LAYOUT`, then the fields of learners added since, in registry order
ORDER = LAYOUT + tuple(name for name in SHOWN if name not in LAYOUT)
#: from this width the fields stand in two columns (label, field, label, field)
TWO_COLUMNS_FROM = 520


class MethodOptions(QWidget):
    """The method combo and its form; ``changed()`` on any edit. ``columns`` is 1 or 2 (see the module)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.method = QComboBox()
        self.form = QGridLayout(self)
        self.editors: dict[str, Any] = {}   # spin boxes, check boxes and combo boxes, read by option name
        self.labels: dict[str, QLabel] = {}
        self.columns = 1
        self.alpha = QSlider(Qt.Orientation.Horizontal)
        self.alpha_label = QLabel()
        self._compose()
        self.method.currentIndexChanged.connect(self._on_method)
        self.alpha.valueChanged.connect(self._update)
        for name, editor in self.editors.items():
            signal = editor.currentIndexChanged if isinstance(editor, QComboBox) else getattr(
                editor, "valueChanged", getattr(editor, "toggled", None))
            if signal is not None and name != "alpha":
                signal.connect(self._update)
        self._update()

    def _compose(self) -> None:
        for m in METHODS:
            self.method.addItem(METHOD_TEXT[m], m)
        self.method.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.method.setMinimumContentsLength(14)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setHorizontalSpacing(8)
        self.form.addWidget(QLabel("Method"), 0, 0)
        self.form.addWidget(self.method, 0, 1, 1, 3)
        for name, option in SHOWN.items():
            if name != "alpha":
                self.editors[name] = _editor(name, option)
                self.editors[name].setToolTip(option.help)
        self.editors["ess"].setRange(0.01, FORM_CAPS["ess"])
        self.editors["l2"].setToolTip("Penalty (λ/2)·‖β − β₀‖² toward the generative start (clgd), or toward "
                                      f"w = 1 (wanbia); default: {DEFAULT_L2:g}/N, which beats mp on held-out conditional "
                                      "likelihood (docs/learning.md); lgd: 0")
        self.editors["m_bagging"].setText("bags of ⌊√n⌋ rows")
        self.editors["m_bagging"].setToolTip("Singh §4.6.1: each bag draws ⌊√n⌋ of the n rows instead of n "
                                             "(the query answers of the bags are averaged either way)")
        self.editors["patience"].setToolTip("Stop after this many iterations without improvement of the "
                                            "validation score (needs validation rows)")
        self.alpha.setRange(0, 100)
        self.alpha.setToolTip("Mixed objective log p(q|e) + α log p(e) (Zhou §5.2): 0 = discriminative, "
                              "1 = generative")
        alpha_row = QWidget()
        row = QHBoxLayout(alpha_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("discr."))
        row.addWidget(self.alpha, 1)
        row.addWidget(QLabel("gen."))
        row.addWidget(self.alpha_label)
        self.editors["alpha"] = alpha_row
        for name in ORDER:
            self.labels[name] = QLabel(LABELS[name])
            self.labels[name].setBuddy(self.editors[name])

    def _on_method(self, *_args: Any) -> None:
        """A newly chosen method's fields start at its own defaults where the learners' differ."""
        for name, value in method_starts(self.current_method()).items():
            self.set_value(name, value)
        self._update()

    def current_method(self) -> str:
        return self.method.currentData()

    def set_method(self, method: str) -> None:
        self.method.setCurrentIndex(self.method.findData(method))

    def values(self) -> dict[str, Any]:
        """Every field's value (visible or not); None for a field at its unset value."""
        out: dict[str, Any] = {"alpha": self.alpha.value() / 100}
        for name, editor in self.editors.items():
            if isinstance(editor, QComboBox):
                out[name] = editor.currentText()
            elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
                out[name] = None if _is_unset(editor, SHOWN[name]) else editor.value()
            elif isinstance(editor, QCheckBox):
                out[name] = editor.isChecked()
        return out

    def set_value(self, name: str, value: Any) -> None:
        """Set one field (α as a number in [0, 1]; None: the field's unset value)."""
        if name == "alpha":
            self.alpha.setValue(round(100 * float(value)))
            return
        editor = self.editors[name]
        if isinstance(editor, QCheckBox):
            editor.setChecked(bool(value))
        elif isinstance(editor, QComboBox):
            editor.setCurrentText(str(value))
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            _set_number(editor, value)

    def options(self) -> dict[str, Any]:
        return learner_options(self.current_method(), self.values())

    def describe(self) -> str:
        """A short run label: the method and what distinguishes it, e.g. ``clgd (cll, α=0.30)``."""
        return describe(self.current_method(), self.options())

    def is_shown(self, name: str) -> bool:
        """Whether field ``name`` is in the form (for the current method and settings)."""
        return not self.editors[name].isHidden()

    def _update(self, *_args: Any) -> None:
        self.alpha_label.setText(f"{self.alpha.value() / 100:.2f}")
        self._place(self.columns)
        self.changed.emit()

    def _place(self, columns: int) -> None:
        """Lay the shown fields out in ``columns`` columns of (label, field), in :data:`ORDER`, row by row."""
        self.columns = columns
        shown = set(visible_fields(self.current_method(), self.values()))
        for name in ORDER:
            for widget in (self.labels[name], self.editors[name]):
                self.form.removeWidget(widget)
                widget.setVisible(name in shown)
        for k, name in enumerate(n for n in ORDER if n in shown):
            row, column = 1 + k // columns, 2 * (k % columns)
            self.form.addWidget(self.labels[name], row, column)
            self.form.addWidget(self.editors[name], row, column + 1)
        for column in (1, 3):    # the fields take the width; the second pair's only when it is in use
            self.form.setColumnStretch(column, 1 if column < 2 * columns else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        columns = 2 if event.size().width() >= TWO_COLUMNS_FROM else 1
        if columns != self.columns:
            self._place(columns)


def _editor(name: str, option: Option) -> QWidget:
    """The field for one registry option: a combo of its choices, a check box, or a spin box over its range
    (capped to what a spin box holds and to :data:`FORM_CAPS`), with the option's unset value one step below."""
    value = start_value(name)
    if option.kind == "choice":
        combo = QComboBox()
        combo.addItems(list(option.choices))
        combo.setCurrentText(str(value))
        return combo
    if option.kind == "bool":
        box = QCheckBox()
        box.setChecked(bool(value))
        return box
    high = min(option.high if option.high is not None else SPIN_MAX, FORM_CAPS.get(name, SPIN_MAX))
    spin: QSpinBox | QDoubleSpinBox
    if option.kind == "int":
        spin = QSpinBox()
        spin.setRange(int(option.low or 0) - (1 if option.unset_label else 0), int(high))
    else:
        decimals, step = FORM_STEPS.get(name, (2, 0.5))
        spin = QDoubleSpinBox()
        spin.setDecimals(decimals)
        spin.setSingleStep(step)
        spin.setRange(float(option.low or 0.0) - (step if option.unset_label else 0.0), high)
    if option.unset_label:
        spin.setSpecialValueText(option.unset_label)
    _set_number(spin, value)
    return spin


def _set_number(spin: QSpinBox | QDoubleSpinBox, value: float | None) -> None:
    """Set a spin box to ``value``, None being its unset value (its minimum)."""
    if isinstance(spin, QSpinBox):
        spin.setValue(spin.minimum() if value is None else int(value))
    else:
        spin.setValue(spin.minimum() if value is None else float(value))


def _is_unset(spin: QSpinBox | QDoubleSpinBox, option: Option) -> bool:
    """Whether a spin box stands at its option's unset value (its special value, below the option's range)."""
    return bool(option.unset_label) and spin.value() == spin.minimum()
