"""The method and its hyper-parameters; each field is shown only for the methods (and settings) it applies to,
in two columns where the form is at least :data:`TWO_COLUMNS_FROM` pixels wide (a laptop's dock), so every field
of a method shows without scrolling.

:func:`learner_options` turns the form's values into ``make_learner(method, **options)`` keyword arguments.

>>> learner_options("clgd", {"criterion": "ae", "alpha": 0.4, "l2": 0.0, "max_iter": 50, "patience": 0,
...                          "optimizer": "lbfgs"})
{'criterion': 'ae', 'l2': 0.0, 'optimizer': 'lbfgs', 'max_iter': 50}
>>> learner_options("clgd", {"criterion": "cll", "alpha": 0.0, "l2": L2_DEFAULT, "max_iter": 50, "patience": 0,
...                          "optimizer": "lbfgs"})   # the learner's own default L2 (10/N for clgd)
{'criterion': 'cll', 'optimizer': 'lbfgs', 'max_iter': 50}
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QGridLayout, QHBoxLayout, QLabel, QSlider,
                               QSpinBox, QWidget)

from bnstudio.learn.registry import METHODS, PARAMETER_LEARNERS, Option, parameter_learner, shown_options

# the methods, their fields, labels, choices and ranges come from the learner registry (bnstudio.learn.registry)
METHOD_TEXT = {e.name: f"{e.name} — {e.summary}" for e in PARAMETER_LEARNERS}
FIELDS = {e.name: tuple(o.name for o in e.shown_options) for e in PARAMETER_LEARNERS}
SHOWN: dict[str, Option] = {name: option for name, (option, _methods) in shown_options(PARAMETER_LEARNERS).items()}
LABELS = {name: option.label for name, option in SHOWN.items()}
#: the L2 field's "default" value: the learner's own default (10/N toward the start for clgd and wanbia, 0 for lgd)
L2_DEFAULT = -0.001
#: where the form starts where a learner's default is None (no seed means fresh entropy, the form starts at 0;
#: patience 0 is "off"; L2 "default" is the learner's own rule); every other field starts at the chosen
#: learner's constructor default, read from the registry as the command line reads it (em iterates 100 times by
#: default, the gradients 200: the form follows the method, see :func:`method_starts`)
FORM_START: dict[str, Any] = {"seed": 0, "patience": 0, "l2": L2_DEFAULT}
#: the fields whose default differs between the learners that take them (the form resets them with the method)
VARYING = frozenset(name for name in SHOWN if len({repr(e.defaults()[name]) for e in PARAMETER_LEARNERS
                                                   if name in e.option_names}) > 1)
#: the largest value a Qt spin box holds, and the form's practical caps
SPIN_MAX = 2 ** 31 - 1
FORM_CAPS = {"max_iter": 100000, "restarts": 100, "patience": 1000, "bags": 1000, "ess": 1e6, "l2": 100.0}
#: the order of the known fields in the form
LAYOUT = ("criterion", "alpha", "m_step", "prior", "ess", "l2", "optimizer", "level", "bags", "m_bagging", "max_iter",
          "restarts", "patience", "seed")
#: the order of the fields in the form: :data:`LAYOUT`, then the fields of learners added since, in registry order
ORDER = LAYOUT + tuple(name for name in SHOWN if name not in LAYOUT)
#: from this width the fields stand in two columns (label, field, label, field)
TWO_COLUMNS_FROM = 520


def method_starts(method: str) -> dict[str, Any]:
    """The values the form gives ``method``'s fields when the method is chosen: its own defaults
    (``LearnerEntry.defaults()``, the constructor's) for the fields whose default differs between learners,
    so ``em`` starts at 100 iterations and ``clgd`` at 200, as on the command line.

    >>> method_starts("em")["max_iter"], method_starts("clgd")["max_iter"]
    (100, 200)
    """
    entry = parameter_learner(method)
    defaults = entry.defaults()
    return {name: defaults[name] for name in FIELDS[method] if name in VARYING and defaults[name] is not None}


def visible_fields(method: str, values: dict[str, Any]) -> tuple[str, ...]:
    """The fields that matter for ``method`` given the current ``values`` (prior/ESS only with an mp M-step,
    α only for the conditional log-likelihood criterion)."""
    fields = FIELDS[method]
    if method == "em" and values.get("m_step") != "mp":
        fields = tuple(f for f in fields if f not in ("prior", "ess"))
    if method == "clgd" and values.get("criterion") != "cll":
        fields = tuple(f for f in fields if f != "alpha")
    return fields


def learner_options(method: str, values: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for :func:`bnstudio.learn.params.make_learner` (patience 0 = no early stopping)."""
    out = {name: values[name] for name in visible_fields(method, values)}
    if out.get("patience") == 0:
        del out["patience"]
    if out.get("l2", 0.0) < 0:
        del out["l2"]
    if "alpha" in out and out["alpha"] == 0.0:
        del out["alpha"]
    return out


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
        self.editors["l2"].setSpecialValueText("default")
        self.editors["l2"].setToolTip("Penalty (λ/2)·‖β − β₀‖² toward the generative start (clgd), or toward "
                                      "w = 1 (wanbia); default: 10/N, which beats mp on held-out conditional "
                                      "likelihood (docs/learning.md); lgd: 0")
        self.editors["m_bagging"].setText("bags of ⌊√n⌋ rows")
        self.editors["m_bagging"].setToolTip("Singh §4.6.1: each bag draws ⌊√n⌋ of the n rows instead of n "
                                             "(the query answers of the bags are averaged either way)")
        self.editors["patience"].setSpecialValueText("off")
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
        """Every field's value (visible or not)."""
        out: dict[str, Any] = {"alpha": self.alpha.value() / 100}
        for name, editor in self.editors.items():
            if isinstance(editor, QComboBox):
                out[name] = editor.currentText()
            elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
                out[name] = editor.value()
            elif isinstance(editor, QCheckBox):
                out[name] = editor.isChecked()
        return out

    def set_value(self, name: str, value: Any) -> None:
        """Set one field (α as a number in [0, 1])."""
        if name == "alpha":
            self.alpha.setValue(round(100 * float(value)))
            return
        editor = self.editors[name]
        if isinstance(editor, QCheckBox):
            editor.setChecked(bool(value))
        elif isinstance(editor, QComboBox):
            editor.setCurrentText(str(value))
        else:
            editor.setValue(value)

    def options(self) -> dict[str, Any]:
        return learner_options(self.current_method(), self.values())

    def describe(self) -> str:
        """A short run label: the method and what distinguishes it, e.g. ``clgd (cll, α=0.30)``."""
        method, opts = self.current_method(), self.options()
        bits = [str(opts[k]) for k in ("criterion", "m_step") if k in opts]
        bits += [f"α={opts['alpha']:.2f}"] if "alpha" in opts else []
        bits += [f"L2={opts['l2']:g}"] if opts.get("l2") else []
        bits += [f"{opts['bags']} {'m-' if opts.get('m_bagging') else ''}bags"] if "bags" in opts else []
        return method + (f" ({', '.join(bits)})" if bits else "")

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


def _start_value(name: str) -> Any:
    """The form's first value of a field: :data:`FORM_START`, else the default of the first learner taking it
    (fields in :data:`VARYING` then follow the method, :func:`method_starts`)."""
    if name in FORM_START:
        return FORM_START[name]
    entry = next(e for e in PARAMETER_LEARNERS if name in e.option_names)
    return entry.defaults()[name]


def _editor(name: str, option: Option) -> QWidget:
    """The field for one registry option: a combo of its choices, a check box, or a spin box over its range
    (capped to what a spin box holds and to :data:`FORM_CAPS`)."""
    value = _start_value(name)
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
    if option.kind == "int":
        spin = QSpinBox()
        spin.setRange(0 if option.optional else int(option.low or 0), int(high))
        spin.setValue(int(value))
        return spin
    low = L2_DEFAULT if name == "l2" else float(option.low or 0.0)
    return _double(low, high, float(value), 5 if name == "l2" else 2, step=0.001 if name == "l2" else 0.5)


def _double(low: float, high: float, value: float, decimals: int, step: float = 0.5) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(low, high)
    spin.setDecimals(decimals)
    spin.setSingleStep(step)
    spin.setValue(value)
    return spin
