"""The structure learner and its options, as :func:`bnstudio.learn.structure.learn_structure` takes them.

The form is generated from the learner registry (:mod:`bnstudio.learn.registry`), as the training form is: one
field per option a structure learner offers (its kind, range, choices, label and help), in :data:`LAYOUT` order
and then the options of learners added since; only the fields the chosen algorithm takes are enabled. A choice
field lists the chosen learner's own choices, the one it uses by default first (the score); an option with an
unset value in the registry (its ``unset_label``) has it as a special spin-box value or a combo item, meaning the
learner decides; the keywords come from :func:`bnstudio.learn.forms.keywords`, as the training form's do. Arcs
and tiers are the constraints tool's (:mod:`.constraints`); a start network is the command line's and the API's.
The ranges are the form's practical caps.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QSpinBox, QWidget

from bnstudio.gui.responsive import fit_names
from bnstudio.learn.forms import keywords
from bnstudio.learn.registry import STRUCTURE_LEARNERS, LearnerEntry, Option, shown_options, structure_learner

#: the kinds of option the form edits (arcs and tiers: the constraints tool; a start network: CLI and API)
FORM_KINDS = ("choice", "int", "float", "bool", "variable")
#: every option the form edits, described as by the first learner taking it
SHOWN: dict[str, Option] = {name: option for name, (option, _names) in shown_options(STRUCTURE_LEARNERS).items()
                            if option.kind in FORM_KINDS}
#: the order of the known fields in the form
LAYOUT = ("score", "ess", "max_parents", "k", "root", "tabu", "restarts", "perturb", "max_iter", "seed", "prior")
#: the form's fields (each an attribute of :class:`AlgorithmOptions`): :data:`LAYOUT`, then the options of
#: structure learners added since, in registry order
FIELDS = tuple(name for name in LAYOUT if name in SHOWN) + tuple(name for name in SHOWN if name not in LAYOUT)
ALGORITHMS = tuple((e.name, e.summary[:1].upper() + e.summary[1:]) for e in STRUCTURE_LEARNERS)  # a menu's case
NEEDS_TARGET = tuple(e.name for e in STRUCTURE_LEARNERS if e.needs_target)
#: where a field starts when the learners' default is None or is not what the form offers first (seed 0, so a
#: run is repeatable; mean-posterior parameters, so the query panel can give error bars)
FORM_START: dict[str, Any] = {"seed": 0, "prior": "laplace"}
#: the form's practical ranges where they are narrower than the learners'
FORM_RANGE: dict[str, tuple[float, float]] = {"ess": (0.01, 1e6), "max_parents": (0, 20), "k": (1, 10),
                                              "tabu": (0, 1000), "restarts": (0, 1000), "perturb": (1, 1000),
                                              "max_iter": (0, 100000), "seed": (0, 2 ** 31 - 1)}
#: the text of a choice, where the bare name says too little
CHOICE_TEXT = {"prior": {"laplace": "mean posterior (Laplace)", "bdeu": "mean posterior (BDeu)"}}
TOOLTIPS = {"prior": "How the tables of the learned network are estimated; mean posterior keeps the Dirichlet "
                     "counts, so the query panel can give error bars",
            "ess": "Prior strength for bdeu / k2 scores and for mean-posterior parameters",
            "tabu": "Length of the tabu list (0 = plain hill climbing)",
            "max_parents": "At most this many parents per variable (bnc with cll defaults to 2)"}


def choices(entry: LearnerEntry, name: str) -> tuple[Any, ...]:
    """The values of choice field ``name`` for ``entry``: the one it uses by default first (its class's
    ``default_<name>``, e.g. ``default_score``, when the option's default is None), then None for its unset
    value when the option has one (``unset_label``) and the learner has no such class default."""
    option = entry.option(name)
    default = entry.defaults()[name]
    if default is None:
        default = getattr(entry.learner_class(), f"default_{name}", None)
    first = (default,) if default in option.choices else ()
    rest = tuple(c for c in option.choices if c != default)
    return first + rest + ((None,) if option.unset_label and default is None else ())


def _none_value(option: Option) -> int | None:
    """An integer field's unset value: one below its lowest (None: the option has no unset value)."""
    if not option.unset_label:
        return None
    return int(FORM_RANGE.get(option.name, (option.low or 0, 0))[0]) - 1


def registry_starts() -> dict[str, Any]:
    """The form's first values of its number fields: :data:`FORM_START`, else the default of the first learner
    taking each (the constructor's, through the registry, as ``bnstudio learn`` has them); None keeps the field's
    "none" value.

    >>> registry_starts()["k"], registry_starts()["ess"]
    (1, 1.0)
    """
    out: dict[str, Any] = {}
    for name in FIELDS:
        if SHOWN[name].kind not in ("int", "float"):
            continue
        entry = next(e for e in STRUCTURE_LEARNERS if name in e.option_names)
        value = FORM_START.get(name, entry.defaults()[name])
        if value is not None:
            out[name] = value
    return out


def takes(algorithm: str, field: str) -> bool:
    """Whether ``algorithm`` takes the option of form field ``field`` (a choice only when it has more than one)."""
    entry = structure_learner(algorithm)
    if field not in entry.option_names:
        return False
    return SHOWN[field].kind != "choice" or len(choices(entry, field)) > 1


class AlgorithmOptions(QWidget):
    """A form for the algorithm and its options; :meth:`options` gives ``learn_structure`` keywords."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.algorithm = QComboBox()
        self.target = QComboBox()
        self.editors: dict[str, QWidget] = {name: _editor(SHOWN[name]) for name in FIELDS}
        for name, editor in self.editors.items():
            setattr(self, name, editor)           # options.k, options.score, ... as before the form was generated
        for key, text in ALGORITHMS:
            self.algorithm.addItem(text, key)
        fit_names(self.target)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.addRow("Algorithm", self.algorithm)
        self.form.addRow("Target (class)", self.target)
        for name in FIELDS:
            option = SHOWN[name]
            self.form.addRow(option.label or name.replace("_", " ").capitalize(), self.editors[name])
            self.editors[name].setToolTip(TOOLTIPS.get(name, option.help))
        self.algorithm.currentIndexChanged.connect(self._on_algorithm)
        for box in [self.target] + [e for e in self.editors.values() if isinstance(e, QComboBox)]:
            box.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self._on_algorithm()

    def set_variables(self, names: list[str]) -> None:
        """Offer ``names`` as targets (and roots), keeping the current one when it is still there (else the last
        name for the target, often the class in classification data)."""
        current = self.target.currentText()
        self.target.blockSignals(True)
        self.target.clear()
        self.target.addItems(names)
        if current in names:
            self.target.setCurrentText(current)
        elif names:
            self.target.setCurrentIndex(len(names) - 1)
        self.target.blockSignals(False)
        for name in FIELDS:
            if SHOWN[name].kind == "variable":
                _fill(self.editors[name], name, (None, *names))

    def set_algorithm(self, key: str) -> None:
        self.algorithm.setCurrentIndex(self.algorithm.findData(key))

    def key(self) -> str:
        return self.algorithm.currentData()

    def _on_algorithm(self, *_args: Any) -> None:
        key = self.key()
        entry = structure_learner(key)
        for name in FIELDS:
            if SHOWN[name].kind == "choice" and name in entry.option_names:
                _fill(self.editors[name], name, choices(entry, name))
        shown = [(self.target, key in NEEDS_TARGET)] + [(self.editors[f], takes(key, f)) for f in FIELDS]
        for widget, on in shown:
            widget.setEnabled(on)
            self.form.labelForField(widget).setEnabled(on)
        self.changed.emit()

    def values(self) -> dict[str, Any]:
        """Every field's value (None for an unset value)."""
        return {name: _value(self.editors[name], SHOWN[name]) for name in FIELDS}

    def options(self) -> dict[str, Any]:
        """Keyword arguments for ``learn_structure`` (with ``algorithm``): the fields the algorithm takes (an
        unset value where the learner's default is None too is left to the learner)."""
        key = self.key()
        out: dict[str, Any] = {"algorithm": key}
        out.update(keywords(structure_learner(key), self.values()))
        if key in NEEDS_TARGET:
            out["target"] = self.target.currentText() or None
        return out

    def set_options(self, **options: Any) -> None:
        """Set the form from ``learn_structure``-style keywords (unknown keys are ignored)."""
        if "algorithm" in options:
            self.set_algorithm(options["algorithm"])
        for name in FIELDS:
            if name in options:
                _set_value(self.editors[name], SHOWN[name], options[name])
        if options.get("target"):
            self.target.setCurrentText(options["target"])


def _editor(option: Option) -> QWidget:
    """The field of one registry option: a combo (choices, a variable), a check box or a spin box over its range
    (:data:`FORM_RANGE` where narrower), with the option's unset value (if any) below the range."""
    name = option.name
    if option.kind in ("choice", "variable"):
        combo = QComboBox()
        _fill(combo, name, option.choices + ((None,) if option.unset_label else ()))
        if name in FORM_START:
            combo.setCurrentIndex(max(0, _index(combo, FORM_START[name])))
        return combo
    if option.kind == "bool":
        return QCheckBox()
    low, high = FORM_RANGE.get(name, (option.low or 0, option.high if option.high is not None else 2 ** 31 - 1))
    start = registry_starts().get(name)
    if option.kind == "int":
        spin = QSpinBox()
        none = _none_value(option)
        spin.setRange(int(low) if none is None else none, int(high))
        if none is not None:
            spin.setSpecialValueText(option.unset_label)
        spin.setValue(int(start) if start is not None else spin.minimum())
        return spin
    double = QDoubleSpinBox()
    double.setRange(float(low), float(high))
    double.setValue(float(start) if start is not None else double.minimum())
    return double


def _fill(combo: QWidget, name: str, values: tuple[Any, ...]) -> None:
    """Give a combo ``values`` (None as its unset label); the current value stays when the list is the same,
    else the first is chosen."""
    assert isinstance(combo, QComboBox)
    if tuple(combo.itemData(i) for i in range(combo.count())) == values:
        return
    current = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    for value in values:
        text = SHOWN[name].unset_label if value is None else CHOICE_TEXT.get(name, {}).get(value, str(value))
        combo.addItem(text, value)
    keep = SHOWN[name].kind == "variable" and current in values
    combo.setCurrentIndex(values.index(current) if keep else 0)
    combo.blockSignals(False)


def _index(combo: QComboBox, value: Any) -> int:
    """The item holding ``value`` (None included, which ``findData`` does not find), or -1."""
    return next((i for i in range(combo.count()) if combo.itemData(i) == value), -1)


def _value(editor: QWidget, option: Option) -> Any:
    if isinstance(editor, QComboBox):
        return editor.currentData()
    if isinstance(editor, QCheckBox):
        return editor.isChecked()
    assert isinstance(editor, (QSpinBox, QDoubleSpinBox))
    value = editor.value()
    return None if option.kind == "int" and value == _none_value(option) else value


def _set_value(editor: QWidget, option: Option, value: Any) -> None:
    if isinstance(editor, QComboBox):
        index = _index(editor, value)
        if index < 0 and isinstance(value, str):
            index = editor.findText(value)
        if index >= 0:
            editor.setCurrentIndex(index)
    elif isinstance(editor, QCheckBox):
        editor.setChecked(bool(value))
    elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
        none = _none_value(option)
        if value is None:
            if none is not None:
                editor.setValue(none)
        else:
            editor.setValue(value)
