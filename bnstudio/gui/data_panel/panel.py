"""The data panel: read a table in the background, browse it (virtualised), see state and missing counts,
discretise numeric columns, choose the target and held-out rows, align with the network, and publish the
result as a :class:`DataSelection` for the training panel.

Alignment problems (values the network has no state for) open a dialog offering to extend the network (one
undoable command) or to drop those rows. The file and the settings are recorded in ``document.project.data``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStyle,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app.dataset.commands import AddDataStates
from bnstudio.app.dataset.prep import (
    Alignment,
    align_quietly,
    numeric_columns,
    refit_cuts,
    replace_column,
    rows_with_values,
)
from bnstudio.app.dataset.selection import DataSelection, split_rows
from bnstudio.app.session import count
from bnstudio.core.network import Network
from bnstudio.data import Dataset, Discretiser, UnknownDataStates, read_table
from bnstudio.errors import BNStudioError
from bnstudio.gui import dialogs
from bnstudio.gui.data_panel import unknown_states
from bnstudio.gui.data_panel.discretise_box import DiscretiseBox
from bnstudio.gui.data_panel.models import DatasetModel, SummaryModel
from bnstudio.gui.data_panel.split_box import SplitBox
from bnstudio.gui.document import Document
from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.message_bar import MessageBar
from bnstudio.gui.responsive import ResponsiveSplitter

FILE_FILTER = "Data tables (*.csv *.tsv *.tab *.txt *.xlsx *.parquet *.arrow *.feather);;All files (*)"


def read_job(path: str):
    """The Qt-free job reading ``path`` (see :func:`bnstudio.data.read_table`)."""
    return lambda reporter: read_table(path)


class PageTabs(QTabWidget):
    """Tabs as tall as the page shown (a QTabWidget asks for its tallest page: the discretise page left the
    columns' summary three rows on a laptop)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(lambda _index: self.updateGeometry())

    def sizeHint(self) -> QSize:  # Qt override
        page, bar = self.currentWidget(), self.tabBar().sizeHint()
        if page is None:
            return super().sizeHint()
        hint = page.sizeHint()
        frame = 2 * self.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth) + 4
        return QSize(max(hint.width(), bar.width()) + frame, hint.height() + bar.height() + frame)

    def minimumSizeHint(self) -> QSize:  # Qt override
        return QSize(super().minimumSizeHint().width(), self.sizeHint().height())


#: from this width the data rows and the columns' summary stand side by side; narrower, the rows go on top
SIDE_BY_SIDE = 1000

@dataclass
class DataState:
    """What the panel holds: the file, the data as read and as prepared, and the last alignment."""

    path: str | None = None
    raw: Dataset | None = None               # as read (minus dropped rows): the source of raw numbers
    dataset: Dataset | None = None           # with discretised columns
    discretised: dict[str, dict[str, Any]] = field(default_factory=dict)
    dropped: list[tuple[str, str]] = field(default_factory=list)
    alignment: Alignment | None = None
    aligned_to: Network | None = None        # a snapshot of the network the codes refer to

    def as_read(self) -> Dataset:
        """:attr:`raw`; the preparing and aligning steps run only once a file is read."""
        if self.raw is None:
            raise RuntimeError("no data set is loaded")
        return self.raw

    def prepared(self) -> Dataset:
        """:attr:`dataset`, once a file is read."""
        if self.dataset is None:
            raise RuntimeError("no data set is loaded")
        return self.dataset


class DataPanel(QWidget):
    """See the module docstring; :attr:`selection` is the published :class:`DataSelection` (or None)."""

    loaded = Signal()
    selection_changed = Signal(object)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.state = DataState()
        self.selection: DataSelection | None = None
        self.jobs = JobSlot(self)
        self.message_bar = MessageBar()
        self.open_button = QPushButton("Open data…")
        self.path_label = QLabel("No data loaded")
        self.progress = QProgressBar()
        self.model, self.summary_model = DatasetModel(self), SummaryModel(self)
        self.table, self.summary = QTableView(), QTableView()
        self.discretise, self.split = DiscretiseBox(), SplitBox()
        self.tools = PageTabs()
        self.align_button = QPushButton("Align to network")
        self.status, self.selection_label = QLabel(), QLabel()
        self._aligning = False
        self._compose()
        self.open_button.clicked.connect(self.open_file)
        self.discretise.applied.connect(self.apply_discretisation)
        self.split.changed.connect(self._split_changed)
        self.align_button.clicked.connect(self._align_clicked)
        document.network_changed.connect(self._on_network_changed)
        document.network_replaced.connect(self._on_network_replaced)

    def _compose(self) -> None:
        for view, model in ((self.table, self.model), (self.summary, self.summary_model)):
            view.setModel(model)
            view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform rows: no per-row queries
            view.verticalHeader().setDefaultSectionSize(22)
        self.summary.verticalHeader().hide()
        self.summary.horizontalHeader().setStretchLastSection(True)
        self.summary.setWordWrap(False)
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the file's name and size; the whole path in the tooltip (a long path made the dock wider than a laptop)
        self.path_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.path_label.setMinimumWidth(0)
        self.tools.addTab(self.split, "Target and held-out rows")
        self.tools.addTab(self.discretise, "Discretise")
        for box in (self.split, self.discretise):
            box.setTitle("")              # the tab names it
            box.setFlat(True)
        self.tools.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.status.setWordWrap(True)
        self.selection_label.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.open_button)
        top.addWidget(self.path_label, 1)
        top.addWidget(self.progress)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.summary, 1)
        side_layout.addWidget(self.tools)   # target and discretisation in tabs: the side fits a laptop's dock
        side_layout.addWidget(self.align_button)
        side_layout.addWidget(self.status)
        side_layout.addWidget(self.selection_label)
        # the rows beside the columns' summary on a wide dock; above it on a laptop's, so nothing scrolls sideways
        splitter = ResponsiveSplitter(self.table, side, side_by_side=SIDE_BY_SIDE, side_share=0.4,
                                      stacked_share=0.3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message_bar)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        self.align_button.setEnabled(False)

    # ------------------------------------------------------------------ loading
    def open_file(self) -> None:  # pragma: no cover - interactive
        path, _ = QFileDialog.getOpenFileName(self, "Open data", "", FILE_FILTER)
        if path:
            self.load(path)

    def load(self, path: str | Path, settings: dict[str, Any] | None = None, interactive: bool | None = None,
             with_file: bool = False):
        """Read ``path`` in the background (returns the worker). ``settings`` (as recorded in a project) are
        applied when it arrives; the data are then aligned, asking about unknown values if ``interactive``
        (default: when no settings are given). ``with_file``: the data come with the opened file (a project's
        data, a bundled example's), so they are not unsaved work."""
        if self.jobs.running:
            self.message_bar.show_message("warning", "Still reading the previous file")
            return None
        self.progress.show()
        self._show_path(f"Reading {Path(path).name}…", path)
        interactive = settings is None if interactive is None else interactive
        return self.jobs.start(read_job(str(path)),
                               finished=partial(self._on_loaded, str(path), settings or {}, interactive,
                                                with_file),
                               failed=self._on_load_failed, cancelled=lambda: self.progress.hide())

    def _on_loaded(self, path: str, settings: dict[str, Any], interactive: bool, with_file: bool,
                   dataset: Dataset) -> None:
        self.progress.hide()
        self.state = DataState(path=path, raw=dataset, dataset=dataset)
        self.split.set_targets(list(dataset.columns), keep=settings.get("target"))
        if settings.get("dropped_values"):
            self._drop([tuple(p) for p in settings["dropped_values"]])
        numeric = numeric_columns(dataset)
        for column, spec in settings.get("discretise", {}).items():
            if column in numeric and spec.get("cuts") is not None:
                self._discretise(column, Discretiser.from_cuts(spec["cuts"]), spec)
        self.split.set_values(settings)
        n = dataset.n_rows
        self._show_path(f"{Path(path).name} — {n:,} rows × {dataset.n_columns} columns", path)
        self._refresh_views()
        self.loaded.emit()
        self.align(interactive=interactive)
        if with_file:
            self.document.mark_saved(["data"])

    def _show_path(self, text: str, path: str | Path | None = None) -> None:
        self.path_label.setText(text)
        self.path_label.setToolTip(str(Path(path).resolve()) if path else "")

    def _on_load_failed(self, exc: BaseException) -> None:
        self.progress.hide()
        self._show_path("No data loaded" if self.state.path is None else Path(self.state.path).name,
                        self.state.path)
        if isinstance(exc, BNStudioError):
            self.message_bar.show_message("error", str(exc))
        else:
            dialogs.show_error(self, "Cannot read the data", f"{type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------ preparing
    def apply_discretisation(self, column: str, disc: Discretiser, spec: dict[str, Any]) -> None:
        """Replace ``column`` by its intervals (from the raw numbers) and align again."""
        self._discretise(column, disc, spec)
        self._refresh_views()
        self.align(interactive=True)

    def _discretise(self, column: str, disc: Discretiser, spec: dict[str, Any]) -> None:
        s = self.state
        s.dataset = replace_column(s.prepared(), column, disc, raw=s.raw)
        s.discretised[column] = {k: spec.get(k) for k in ("method", "bins", "class")} | {
            "cuts": [float(c) for c in disc.cuts]}

    def _drop(self, values: list[tuple[str, str]]) -> int:
        s = self.state
        raw, dataset = s.as_read(), s.prepared()
        mask = rows_with_values(raw, values)
        s.raw, s.dataset = raw.select_rows(~mask), dataset.select_rows(~mask)
        s.dropped.extend(v for v in values if v not in s.dropped)
        return int(mask.sum())

    def _refresh_views(self) -> None:
        s = self.state
        numeric = [] if s.raw is None else numeric_columns(s.raw)
        self.model.set_dataset(s.dataset)
        self.table.resizeColumnsToContents()
        self.summary_model.set_dataset(s.dataset, numeric, list(s.discretised))
        self.summary.resizeColumnsToContents()
        self.discretise.set_data(s.raw, numeric, self._training_rows())
        self.align_button.setEnabled(s.dataset is not None)

    def _training_rows(self) -> np.ndarray | None:
        """The rows the held-out box leaves for training (what cut points are learnt on), None without data."""
        values, raw = self.split.values(), self.state.raw
        if raw is None:
            return None
        try:
            return split_rows(raw.n_rows, values["validation_fraction"], values["test_fraction"], values["seed"])[0]
        except BNStudioError:
            return None

    def _split_changed(self) -> None:
        """Other held-out rows: the discretised columns' cut points are learnt again on the new training rows
        (docs/architecture.md §3.26), then the data are aligned and published."""
        s = self.state
        try:
            cuts = refit_cuts(s.raw, s.discretised, self._training_rows()) if s.raw is not None else {}
        except BNStudioError as exc:
            cuts = {}
            self.message_bar.show_message("warning", f"Cut points not learnt again: {exc}")
        self.discretise.set_training_rows(self._training_rows())
        moved = {c: d for c, d in cuts.items() if d.cuts.tolist() != s.discretised[c]["cuts"]}
        if not moved:
            self.publish()
            return
        for column, disc in moved.items():
            self._discretise(column, disc, s.discretised[column])
        self._refresh_views()
        self.align(interactive=False)

    # ------------------------------------------------------------------ alignment
    def align(self, interactive: bool = True) -> bool:
        """Code the data for the network; values it lacks are resolved through the dialog when
        ``interactive`` (otherwise the selection is withdrawn with a message). Publishes the selection."""
        s, net = self.state, self.document.network
        if s.dataset is None:
            return False
        self._aligning = True
        try:
            alignment = self._try_align(interactive)
        finally:
            self._aligning = False
        s.alignment = alignment
        s.aligned_to = net.copy() if alignment is not None else None
        if alignment is not None:
            observed = [v for v in net.variables if v not in alignment.data.latent]
            self.split.set_targets(observed)
            note = "; ".join(alignment.notes)
            self.status.setText(f"Aligned to the network: {len(observed)} of {len(net)} variables observed."
                                + (f" Note: {note}." if note else ""))
        self.publish()
        return alignment is not None

    def _align_clicked(self, *_args: Any) -> None:
        self.align(interactive=True)

    def _try_align(self, interactive: bool) -> Alignment | None:
        s, doc = self.state, self.document
        try:
            return align_quietly(s.prepared(), doc.network)
        except UnknownDataStates as exc:
            problems = exc.problems
        except BNStudioError as exc:
            self.status.setText(f"Not aligned: {exc}")
            return None
        choice = unknown_states.ask_unknown_states(self, problems, s.prepared().n_rows) if interactive else None
        if choice == unknown_states.EXTEND:
            additions: dict[str, Sequence[str]] = {
                column: [p.value for p in problems if p.column == column]
                for column in dict.fromkeys(p.column for p in problems)}
            if not doc.execute(AddDataStates(doc, additions)):
                return None
            return align_quietly(s.prepared(), doc.network)
        if choice == unknown_states.DROP:
            n = self._drop([(p.column, p.value) for p in problems])
            self._refresh_views()
            self.message_bar.show_message("info", f"Dropped {n:,} rows holding values the network lacks")
            return align_quietly(s.prepared(), doc.network)
        self.status.setText(f"Not aligned: {len(problems)} data value(s) are not states of the network "
                            f"({', '.join(f'{p.column}={p.value}' for p in problems[:4])}"
                            f"{', …' if len(problems) > 4 else ''}). Press “Align to network” to resolve.")
        return None

    def publish(self) -> None:
        """Split the aligned codes as the target/held-out box says and emit :attr:`selection_changed`."""
        s = self.state
        selection = None
        if s.alignment is not None and s.aligned_to is not None:
            values = self.split.values()
            try:
                selection = DataSelection.from_codes(
                    s.aligned_to, s.alignment.data.codes, values["target"], values["validation_fraction"],
                    values["test_fraction"], values["seed"], source=s.path, settings=self.settings())
            except BNStudioError as exc:
                self.message_bar.show_message("warning", str(exc))
        self.selection = selection
        self.selection_label.setText(selection.describe() if selection is not None else "")
        if selection is not None:
            self._record_project_data()
        self.selection_changed.emit(selection)

    def settings(self) -> dict[str, Any]:
        """What the project records besides the path: binning, dropped values, target, fractions, seed."""
        s = self.state
        return {"discretise": dict(s.discretised), "dropped_values": [list(v) for v in s.dropped],
                **self.split.values()}

    def _record_project_data(self) -> None:
        if self.state.path is None:
            return
        if self.document.project is None:
            from bnstudio.io.project import project_from_network
            self.document.project = project_from_network(self.document.network)
        self.document.project.data = {"path": self.state.path, "settings": self.settings()}
        self.document.note_session_change()

    # ------------------------------------------------------------------ following the document
    def _on_network_changed(self, event) -> None:
        s = self.state
        if self._aligning or not event.structural or s.dataset is None:
            return
        if s.aligned_to is not None and _same_states(s.aligned_to, self.document.network):
            return
        if not self.align(interactive=False):
            self.message_bar.show_message("warning", "The data no longer fit the network; align them again")

    def _on_network_replaced(self) -> None:
        project, doc = self.document.project, self.document
        data = getattr(project, "data", None)
        if data:
            path = project.data_file(doc.path) if doc.path is not None else Path(data["path"])
            if path is not None and path.is_file():
                self.state = DataState()
                self._refresh_views()
                self.publish()
                self.load(path, data.get("settings") or {}, interactive=False, with_file=True)
                return
            self.message_bar.show_message("warning", f"The project's data file {data['path']} was not found")
        if self.state.dataset is not None:  # the data stay loaded for the new network (asked about already)
            self._follow_new_network()
            self.document.mark_saved(["data"])

    def _follow_new_network(self) -> None:
        """Another network was opened: align the data to it, or close them if they share no variable with it,
        and say which (seen: "0 of 9 variables observed" after opening ASIA with ALARM's data)."""
        name, doc = Path(self.state.path or "the data").name, self.document
        net = doc.network
        aligned = self.align(interactive=False)
        alignment = self.state.alignment
        observed = [] if not aligned or alignment is None else [v for v in net.variables
                                                                  if v not in alignment.data.latent]
        if observed:
            doc.message.emit("info", f"The data set {name} now feeds the network: {len(observed)} of "
                                     f"{count(len(net), '{} variable', '{} variables')} observed (Data panel).")
            return
        self.close_data()
        if not len(net):
            doc.message.emit("info", f"The data set {name} was closed: the new network has no variables yet.")
            return
        shown = ", ".join(net.variables[:3]) + (", …" if len(net) > 3 else "")
        doc.message.emit("info", f"The data set {name} has no variable named like one of the network's "
                                 f"({shown}), so it was closed; open a data set for it in the Data panel.")

    def forget_document(self) -> None:
        """The open network is being replaced: its messages go (the data follow in ``network_replaced``)."""
        self.message_bar.hide()

    def close_data(self) -> None:
        """Drop the data set (no selection for the learners any more)."""
        self.state = DataState()
        self.path_label.setText("No data loaded")
        self.status.setText("")
        self._refresh_views()
        self.publish()

    def shutdown(self) -> None:
        """Stop a read in progress (call before the panel goes away)."""
        self.jobs.shutdown()

    def closeEvent(self, event) -> None:  # Qt override
        self.shutdown()
        super().closeEvent(event)


def _same_states(a: Network, b: Network) -> bool:
    return a.variables == b.variables and all(a.states(v) == b.states(v) for v in a.variables)
