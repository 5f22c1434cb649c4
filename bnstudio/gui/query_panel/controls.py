"""The panel's control groups: what is asked (target and evidence), how (level and expert counts), the
Monte-Carlo check bar and the saved-queries buttons. Widgets only; the panel wires them."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.gui.query_panel.forms import AssignmentEditor

CANVAS, FORM = "canvas", "form"


class QueryControls(QWidget):
    """Target rows, evidence source (+ form), credible level and expert effective sample size."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.target = AssignmentEditor("Add a target variable")
        self.source = QComboBox()
        self.evidence = AssignmentEditor("Add evidence")
        self.evidence.taken = lambda: self.target.assignment()   # a target is never also evidence
        self.evidence_note = QLabel()
        self.level = QDoubleSpinBox()
        self.use_ess = QCheckBox("Expert counts, ESS")
        self.ess = QDoubleSpinBox()
        self.source.addItem("Evidence on the canvas (live)", CANVAS)
        self.source.addItem("Evidence entered here", FORM)
        self.evidence_note.setWordWrap(True)
        self.level.setRange(50.0, 99.9)
        self.level.setDecimals(1)
        self.level.setSingleStep(5.0)
        self.level.setValue(100 * CREDIBLE_LEVEL)
        self.level.setSuffix(" %")
        self.level.setToolTip("Credible level of both intervals")
        self.ess.setRange(0.1, 1e7)
        self.ess.setDecimals(1)
        self.ess.setValue(10.0)
        self.ess.setEnabled(False)
        self.ess.setToolTip("Effective sample size: every CPT row is treated as resting on this many cases "
                            "(Dirichlet counts α = ESS · θ); overrides learned counts")
        self._compose()
        self.use_ess.toggled.connect(self.ess.setEnabled)

    def _compose(self) -> None:
        target_box = QGroupBox("Target: p( these states | evidence )")
        QVBoxLayout(target_box).addWidget(self.target)
        evidence_box = QGroupBox("Evidence")
        ev = QVBoxLayout(evidence_box)
        ev.addWidget(self.source)
        ev.addWidget(self.evidence)
        ev.addWidget(self.evidence_note)
        settings = QGroupBox("Error bars")
        form = QFormLayout(settings)
        form.addRow("Credible level", self.level)
        ess_row = QHBoxLayout()
        ess_row.addWidget(self.use_ess)
        ess_row.addWidget(self.ess, 1)
        form.addRow(ess_row)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for box in (target_box, evidence_box, settings):
            layout.addWidget(box)
        layout.addStretch(1)   # a tall dock leaves the space below the boxes, not inside them

    @property
    def evidence_source(self) -> str:
        return self.source.currentData()

    def level_value(self) -> float:
        return self.level.value() / 100.0

    def ess_value(self) -> float | None:
        return self.ess.value() if self.use_ess.isChecked() else None


class MonteCarloBar(QWidget):
    """Draw count, seed, the run / cancel button, a busy bar and the plot export button."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.draws = QSpinBox()
        self.seed = QSpinBox()
        self.run = QPushButton("Monte-Carlo check")
        self.busy = QProgressBar()
        self.export = QPushButton("Export plot…")
        self.draws.setRange(100, 1_000_000)
        self.draws.setSingleStep(1000)
        self.draws.setValue(2000)
        self.draws.setPrefix("R = ")
        self.draws.setToolTip("Number of parameter sets drawn from the Dirichlet rows")
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setPrefix("seed ")
        self.run.setToolTip("Draw R parameter sets, evaluate the query exactly for each and compare with the "
                            "intervals (runs in the background)")
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.draws, self.seed, self.run, self.busy):
            layout.addWidget(widget)
        layout.addStretch(1)
        layout.addWidget(self.export)

    def set_running(self, running: bool) -> None:
        self.run.setText("Cancel" if running else "Monte-Carlo check")
        self.busy.setVisible(running)


class SavedBar(QWidget):
    """Label field and the save / remove / export buttons above the saved-queries table."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLineEdit()
        self.save = QPushButton("Save current query")
        self.remove = QPushButton("Remove")
        self.export = QPushButton("Export CSV…")
        self.label.setPlaceholderText("label (optional)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        for button in (self.save, self.remove, self.export):
            layout.addWidget(button)
