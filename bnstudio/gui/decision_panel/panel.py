"""The decision panel: the maximum expected utility under the current evidence, each decision's option values
and policy, the delta-method error bar of the MEU with the CPT rows adding most variance (as the query panel
shows them), the expert ESS, and the utility table editor. It only displays what
:class:`~bnstudio.gui.decision_panel.solver.DecisionSolver` computed."""
from __future__ import annotations

from typing import AbstractSet

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app.decisions.compute import DecisionResult
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.gui.canvas import style as st
from bnstudio.gui.decision_panel.order_view import DecisionOrder
from bnstudio.gui.decision_panel.solver import DecisionSolver
from bnstudio.gui.decision_panel.utility_table import UtilityTableEditor
from bnstudio.gui.document import Document
from bnstudio.gui.query_panel.contributions import ContributionsView
from bnstudio.uncertainty import RowContribution

TOP_ROWS = 8


def read_only_table(headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(22)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    return table


def fill(table: QTableWidget, rows: list[list[str]], bold: AbstractSet[int] = frozenset()) -> None:
    table.setRowCount(len(rows))
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            item = QTableWidgetItem(text)
            font = item.font()
            font.setBold(i in bold)
            item.setFont(font)
            table.setItem(i, j, item)


class DecisionPanel(QWidget):
    """See the module docstring; ``row_selected(variable, parent states)`` asks to open a CPT row."""

    row_selected = Signal(str, dict)
    utility_selected = Signal()      # a utility node was chosen on the canvas: its table is shown

    def __init__(self, document: Document, solver: DecisionSolver, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.solver = document, solver
        self.result: DecisionResult | None = None
        self.meu = QLabel()
        self.details = QLabel()
        self.options = read_only_table(["Decision", "Option", "Expected utility"])
        self.policy_choice = QComboBox()
        self.policy = read_only_table([])
        self.policy_note = QLabel()
        self.use_ess = QCheckBox("Expert counts, ESS")
        self.ess = QDoubleSpinBox()
        self.level = QDoubleSpinBox()
        self.interval = QLabel()
        self.contributions = ContributionsView()
        self.utilities = UtilityTableEditor(document)
        self.order = DecisionOrder(document)
        self.tabs = QTabWidget()
        self._setup_controls()
        self._compose()
        self.policy_choice.currentTextChanged.connect(lambda _name: self._show_policy())
        self.use_ess.toggled.connect(self._options_changed)
        self.ess.valueChanged.connect(self._options_changed)
        self.level.valueChanged.connect(self._options_changed)
        self.contributions.row_clicked.connect(self.row_selected)
        solver.solved.connect(self.show_result)
        self.show_result(solver.latest)

    def _setup_controls(self) -> None:
        font = self.meu.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.meu.setFont(font)
        for label in (self.details, self.policy_note, self.interval):
            label.setWordWrap(True)
        self.ess.setRange(0.1, 1e7)
        self.ess.setDecimals(1)
        self.ess.setValue(20.0)
        self.ess.setEnabled(False)
        self.ess.setToolTip("Every chance CPT row is treated as resting on this many cases (α = ESS · θ); "
                            "overrides stored counts")
        self.use_ess.toggled.connect(self.ess.setEnabled)
        self.level.setRange(50.0, 99.9)
        self.level.setDecimals(1)
        self.level.setValue(100 * CREDIBLE_LEVEL)
        self.level.setSuffix(" %")
        self.level.setToolTip("Credible level of the normal interval")
        self.policy.setMinimumHeight(90)
        self.contributions.setMinimumHeight(120)

    def _compose(self) -> None:
        layout = QVBoxLayout(self)
        layout.addWidget(self.meu)
        layout.addWidget(self.details)
        options_box = QGroupBox("Options: EU(decision = option | evidence)")
        QVBoxLayout(options_box).addWidget(self.options)
        policy_tab = QWidget()
        policy = QVBoxLayout(policy_tab)
        policy.addWidget(self.policy_choice)
        policy.addWidget(self.policy, 1)
        policy.addWidget(self.policy_note)
        error_tab = QWidget()
        error = QVBoxLayout(error_tab)
        settings = QHBoxLayout()
        settings.addWidget(self.use_ess)
        settings.addWidget(self.ess, 1)
        settings.addWidget(QLabel("Level"))
        settings.addWidget(self.level)
        error.addLayout(settings)
        error.addWidget(self.interval)
        error.addWidget(self.contributions, 1)
        self.tabs.addTab(policy_tab, "Policy")
        self.tabs.addTab(error_tab, "Error bar of the MEU")
        self.tabs.addTab(self.utilities, "Utility table")
        self.tabs.addTab(self.order, "Order")
        layout.addWidget(options_box)
        layout.addWidget(self.tabs, 1)

    def select_utility(self, name: str) -> None:
        """Show the table of utility node ``name`` (the canvas selected it; "" changes nothing)."""
        if name:
            self.utilities.set_utility(name)
            self.tabs.setCurrentWidget(self.utilities)
            self.utility_selected.emit()

    def _options_changed(self) -> None:
        self.solver.set_options(self.ess.value() if self.use_ess.isChecked() else None, self.level.value() / 100)

    # ------------------------------------------------------------------ showing a result
    def show_result(self, result: DecisionResult | None) -> None:
        self.result = result
        solution = None if result is None else result.solution
        if result is None or solution is None:
            self.meu.setText("No decisions" if result is None else "Not solved")
            self.details.setText("Open an influence diagram (File ▸ Examples) to see its decisions here."
                                 if result is None else result.error)
            for table in (self.options, self.policy):
                table.setRowCount(0)
            self.policy_choice.clear()
            self.interval.clear()
            self.contributions.clear()
            return
        self.meu.setText(f"Maximum expected utility: {st.format_utility(solution.expected_utility)}")
        assert solution.diagram is not None   # set by solve()
        why = "" if solution.diagram.ordered else " (the decisions are not on one directed path)"
        method = "exact (no-forgetting)" if solution.method == "no-forgetting" else \
            f"LIMID single policy updating{why}, {solution.iterations} sweeps (a local optimum)"
        self.details.setText(f"Under the current evidence, p(e) = {solution.probability_of_evidence:.4g}; "
                             f"solution: {method}.")
        self._show_options(solution)
        names = list(solution.diagram.decision_names)
        if names != [self.policy_choice.itemText(i) for i in range(self.policy_choice.count())]:
            self.policy_choice.blockSignals(True)
            self.policy_choice.clear()
            self.policy_choice.addItems(names)
            self.policy_choice.blockSignals(False)
        self._show_policy()
        self._show_errorbar(result)

    def _show_options(self, solution) -> None:
        rows: list[list[str]] = []
        best: set[int] = set()
        for d in solution.diagram.decision_names:
            top = solution.best_option(d)
            for option, value in solution.options[d].items():
                taken = solution.taken.get(d) == option
                if option == top:
                    best.add(len(rows))
                rows.append([d, option + (" (best)" if option == top else "") + (" — taken" if taken else ""),
                             "impossible under the evidence" if value is None else f"{value:.6g}"])
        fill(self.options, rows, best)
        shown = min(len(rows), 8)   # as tall as its rows (up to 8), so the tabs below get the room
        self.options.setFixedHeight(self.options.horizontalHeader().height() + 22 * shown + 4)

    def _show_policy(self) -> None:
        result = self.result
        name = self.policy_choice.currentText()
        if result is None or result.solution is None or not name:
            self.policy.setRowCount(0)
            return
        solution = result.solution
        policy, p_past = solution.policies[name], result.pasts[name]
        headers = list(policy.parents) + ["Choice", "p(past | e)"]
        self.policy.setColumnCount(len(headers))
        self.policy.setHorizontalHeaderLabels(headers)
        rows, hidden = [], 0
        for entry, index in zip(solution.policy_rows(name), np.ndindex(policy.table.shape), strict=True):
            p = float(p_past[index])
            if p <= 0:
                hidden += 1
                continue
            rows.append([entry["past"][q] for q in policy.parents] + [entry["choice"], f"{p:.4g}"])
        fill(self.policy, rows)
        parents = ", ".join(policy.parents)
        self.policy_note.setText(
            (f"{name} depends on {parents} (its requisite past). " if parents else
             f"{name} is taken with nothing observed before it. ")
            + (f"{hidden} past{'s' if hidden != 1 else ''} with probability 0 under the evidence not listed."
               if hidden else ""))

    def _show_errorbar(self, result: DecisionResult) -> None:
        bar = result.errorbar
        if bar is None:
            self.interval.setText(f"No error bar: {result.errorbar_note}")
            self.contributions.clear("")
            return
        low, high = bar.interval
        self.interval.setText(f"σ = {bar.sd:.4g};  {100 * bar.level:g} % normal interval of the MEU: "
                              f"[{low:.4g}, {high:.4g}]")
        diagram = result.diagram
        assert diagram is not None   # compute_decisions keeps the diagram it solved
        rows = [RowContribution(r["variable"], r["parents"], r["variance"],
                                self._row_ess(diagram, r["variable"], r["parents"]))
                for r in bar.top_rows(diagram, TOP_ROWS)]
        self.contributions.show_contributions(rows, bar.variance)

    def _row_ess(self, diagram, variable: str, parents: dict[str, str]) -> float:
        if self.solver.ess is not None:
            return float(self.solver.ess)
        index = tuple(diagram.states(p).index(parents[p]) for p in diagram.parents(variable))
        return float(diagram.alpha(variable)[index].sum())
