"""The structure learner and its options, as :func:`bnstudio.learn.structure.learn_structure` takes them.

The algorithms, the options each takes, their labels and the scores each accepts come from the learner registry
(:mod:`bnstudio.learn.registry`); only the options an algorithm takes are enabled (a target for the classifiers,
k for kdb, tabu / restarts / seed for the searches, ...). The ranges are the form's practical caps.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QFormLayout, QSpinBox, QWidget

from bnstudio.gui.responsive import fit_names
from bnstudio.learn.registry import STRUCTURE_LEARNERS, LearnerEntry, structure_learner
from bnstudio.learn.structure.api import default_score


def _default_first(entry: LearnerEntry) -> tuple[str, ...]:
    """The scores ``entry`` takes, the one it uses by default first."""
    default = default_score(entry.name)
    return (default,) + tuple(s for s in entry.option("score").choices if s != default)


ALGORITHMS = tuple((e.name, e.summary[:1].upper() + e.summary[1:]) for e in STRUCTURE_LEARNERS)  # a menu's case
SCORES = {e.name: _default_first(e) for e in STRUCTURE_LEARNERS}
NEEDS_TARGET = tuple(e.name for e in STRUCTURE_LEARNERS if e.needs_target)
#: the form's fields for the learners' options (each keyword is an attribute of :class:`AlgorithmOptions`), in order
FIELDS = ("score", "ess", "max_parents", "k", "tabu", "restarts", "seed", "prior")
PRIOR_TEXT = {"laplace": "mean posterior (Laplace)", "bdeu": "mean posterior (BDeu)"}
PRIORS = tuple((c, PRIOR_TEXT.get(c, c)) for c in STRUCTURE_LEARNERS[0].option("prior").choices) + (
    (None, "maximum likelihood"),)


def registry_starts() -> dict[str, Any]:
    """The form's first values of its number fields: the default of the first learner taking each (the
    constructor's, through the registry, as ``bnstudio learn`` has them); None defaults keep the field's own
    "no limit" / 0 start.

    >>> registry_starts()["k"], registry_starts()["ess"]
    (1, 1.0)
    """
    out: dict[str, Any] = {}
    for name in ("ess", "k", "tabu", "restarts"):
        entry = next(e for e in STRUCTURE_LEARNERS if name in e.option_names)
        value = entry.defaults()[name]
        if value is not None:
            out[name] = value
    return out


def takes(algorithm: str, field: str) -> bool:
    """Whether ``algorithm`` takes the option of form field ``field`` (a score only when it has a choice)."""
    if field == "score":
        return len(SCORES[algorithm]) > 1
    return field in structure_learner(algorithm).option_names


class AlgorithmOptions(QWidget):
    """A form for the algorithm and its options; :meth:`options` gives ``learn_structure`` keywords."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.algorithm = QComboBox()
        self.target = QComboBox()
        self.score = QComboBox()
        self.ess = QDoubleSpinBox()
        self.max_parents = QSpinBox()
        self.k = QSpinBox()
        self.tabu = QSpinBox()
        self.restarts = QSpinBox()
        self.seed = QSpinBox()
        self.prior = QComboBox()
        self._configure()
        fit_names(self.target)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.addRow("Algorithm", self.algorithm)
        self.form.addRow("Target (class)", self.target)
        described = {o.name: o for e in reversed(STRUCTURE_LEARNERS) for o in e.options}  # as the first learner
        for name in FIELDS:
            widget = getattr(self, name)
            self.form.addRow(described[name].label, widget)
            if not widget.toolTip():
                widget.setToolTip(described[name].help)
        self.algorithm.currentIndexChanged.connect(self._on_algorithm)
        for box in (self.target, self.score, self.prior):
            box.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self._on_algorithm()

    def _configure(self) -> None:
        for key, text in ALGORITHMS:
            self.algorithm.addItem(text, key)
        for prior, text in PRIORS:
            self.prior.addItem(text, prior)
        self.prior.setToolTip("How the tables of the learned network are estimated; mean posterior keeps the "
                              "Dirichlet counts, so the query panel can give error bars")
        self.ess.setRange(0.01, 1e6)
        self.ess.setToolTip("Prior strength for bdeu / k2 scores and for mean-posterior parameters")
        self.max_parents.setRange(0, 20)
        self.max_parents.setSpecialValueText("no limit")
        self.k.setRange(1, 10)
        self.tabu.setRange(0, 1000)
        self.tabu.setToolTip("Length of the tabu list (0 = plain hill climbing)")
        self.restarts.setRange(0, 1000)
        self.seed.setRange(0, 2**31 - 1)
        for name, value in registry_starts().items():   # the learners' own defaults, as the command line's
            getattr(self, name).setValue(value)
        self.max_parents.setToolTip("0 = no limit (bnc with cll defaults to 2)")

    def set_variables(self, names: list[str]) -> None:
        """Offer ``names`` as targets, keeping the current one when it is still there (else the last name,
        often the class in classification data)."""
        current = self.target.currentText()
        self.target.blockSignals(True)
        self.target.clear()
        self.target.addItems(names)
        if current in names:
            self.target.setCurrentText(current)
        elif names:
            self.target.setCurrentIndex(len(names) - 1)
        self.target.blockSignals(False)

    def set_algorithm(self, key: str) -> None:
        self.algorithm.setCurrentIndex(self.algorithm.findData(key))

    def key(self) -> str:
        return self.algorithm.currentData()

    def _on_algorithm(self, *_args) -> None:
        key = self.key()
        self.score.blockSignals(True)
        self.score.clear()
        self.score.addItems(list(SCORES[key]))  # the algorithm's default score first
        self.score.blockSignals(False)
        shown = [(self.target, key in NEEDS_TARGET)] + [(getattr(self, f), takes(key, f)) for f in FIELDS]
        for widget, on in shown:
            widget.setEnabled(on)
            self.form.labelForField(widget).setEnabled(on)
        self.changed.emit()

    def options(self) -> dict[str, Any]:
        """Keyword arguments for ``learn_structure`` (with ``algorithm``): the fields the algorithm takes."""
        key = self.key()
        values = {"score": self.score.currentText(), "ess": self.ess.value(),
                  "max_parents": self.max_parents.value() or None, "k": self.k.value(), "tabu": self.tabu.value(),
                  "restarts": self.restarts.value(), "seed": self.seed.value(), "prior": self.prior.currentData()}
        taken = structure_learner(key).option_names
        out: dict[str, Any] = {"algorithm": key, **{name: values[name] for name in FIELDS if name in taken}}
        if key in NEEDS_TARGET:
            out["target"] = self.target.currentText() or None
        return out

    def set_options(self, **options: Any) -> None:
        """Set the form from ``learn_structure``-style keywords (unknown keys are ignored)."""
        if "algorithm" in options:
            self.set_algorithm(options["algorithm"])
        simple: dict[str, QSpinBox | QDoubleSpinBox] = {
            "ess": self.ess, "k": self.k, "tabu": self.tabu, "restarts": self.restarts, "seed": self.seed}
        for key, widget in simple.items():
            if options.get(key) is not None:
                widget.setValue(options[key])
        if "max_parents" in options:
            self.max_parents.setValue(options["max_parents"] or 0)
        if options.get("score"):
            self.score.setCurrentText(options["score"])
        if options.get("target"):
            self.target.setCurrentText(options["target"])
        if "prior" in options:
            self.prior.setCurrentIndex(self.prior.findData(options["prior"]))
