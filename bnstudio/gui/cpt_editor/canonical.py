"""The few parameters of a noisy-MAX / noisy-OR node (bnstudio.core.canonical), edited above the expanded CPT.

One row per parent state that is not distinguished (``Parent = state``) and one for the leak; one column per
child state in severity order (the most severe first: the model's ``child_order``, which need not be the table's
order). The numbers are Henrion's parameters (as GeNIe shows them by default: P(child | this parent in this
state, every other parent distinguished), leak included); the last column is the distinguished (absent) state and
is what makes the row sum to 1. Editing a cell is one undo command that sets the model and its expanded CPT;
"Make noisy-MAX" fits a noisy-MAX to the current table (EM with the table as weights) as a starting point.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from bnstudio.app.commands.base import EditedDocument, NetworkCommand
from bnstudio.core.canonical import NoisyMax, canonical_of
from bnstudio.errors import ValidationError
from bnstudio.gui.document import Document


class SetCanonical(NetworkCommand):
    """Give ``var`` the model ``model`` (None: a plain CPT again) and its expanded CPT."""

    def __init__(self, document: EditedDocument, var: str, model: NoisyMax | None, text: str) -> None:
        super().__init__(document, text)
        self.var, self.model = var, model
        self.old_model = document.network.canonical.get(var)
        self.old_cpt = document.network.cpt(var)

    def _set_model(self, model: object | None) -> None:   # the old model may be another canonical kind
        if model is None:
            self.net.canonical.pop(self.var, None)
        else:
            self.net.canonical[self.var] = model

    def apply(self) -> None:  # the model first: views refreshing on the CPT's event see it
        self._set_model(self.model)
        self.net.set_cpt(self.var, self.old_cpt if self.model is None else self.model.expand(), check_sums=False)

    def revert(self) -> None:
        self._set_model(self.old_model)
        self.net.set_cpt(self.var, self.old_cpt, check_sums=False)


def column_labels(net, var: str, model: NoisyMax) -> list[str]:
    """The child's states in severity order: the editor's columns, the distinguished (absent) state last."""
    states = net.states(var)
    return [states[k] for k in model.order]


def parameter_rows(net, var: str, model: NoisyMax) -> tuple[list[str], np.ndarray]:
    """(row labels, Henrion parameters) of the editor: the non-distinguished parent states, then the leak; the
    columns are :func:`column_labels`."""
    henrion, leak = model.henrion()
    labels, rows = [], []
    for parent, h, d in zip(net.parents(var), henrion, model.distinguished, strict=True):
        for k, state in enumerate(net.states(parent)):
            if k != d:
                labels.append(f"{parent} = {state}")
                rows.append(h[k])
    return labels + ["leak"], np.array(rows + [leak])


def with_parameter(net, var: str, model: NoisyMax, row: int, column: int, value: float) -> NoisyMax:
    """The model with Henrion parameter (row, column) set to ``value`` (``column`` in severity order); the
    distinguished (last) column takes up the difference. Raises :class:`ValidationError` if that leaves no valid
    distribution."""
    _, rows = parameter_rows(net, var, model)
    if column == rows.shape[1] - 1:
        raise ValidationError(f"'{column_labels(net, var, model)[-1]}' is the distinguished state: it takes what "
                              f"the others leave")
    rows = rows.copy()
    rows[row, column] = value
    rows[row, -1] = 0.0
    rows[row, -1] = 1.0 - rows[row].sum()
    if np.any(rows[row] < -1e-12) or not np.isfinite(value):
        raise ValidationError(f"the parameters of that row would not be a distribution (sum {rows[row, :-1].sum():g})")
    links, at = [], 0
    henrion, leak = model.henrion()
    for h, d in zip(henrion, model.distinguished, strict=True):
        h = h.copy()
        for k in range(len(h)):
            if k != d:
                h[k] = rows[at]
                at += 1
        links.append(h)
    return NoisyMax.from_henrion(links, np.clip(rows[-1], 0, None), model.distinguished, model.child_order)


class CanonicalEditor(QWidget):
    """Shows and edits the noisy-MAX parameters of the CPT editor's variable (hidden for other nodes, so a plain
    table's editor keeps its size). The CPT editor's toolbar holds :meth:`make_noisy_max` and :meth:`make_plain`
    (:meth:`can_make` and :meth:`is_noisy_max` say when they apply; ``changed`` after every refresh)."""

    changed = Signal()

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.var: str | None = None
        self.title = QLabel("Noisy-MAX parameters (Henrion's: leak included; states from the most severe, the "
                            "last one, absent, takes the rest)")
        self.table = QTableWidget()
        self.table.setMaximumHeight(160)
        self.table.setMinimumHeight(100)  # the header and three rows: two links and the leak of a noisy-OR
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table)
        self.table.itemChanged.connect(self._edited)
        self._filling = False
        self.setVisible(False)

    def model(self) -> NoisyMax | None:
        if self.var is None or self.var not in self.document.network:
            return None
        model = canonical_of(self.document.network, self.var)
        return model if isinstance(model, NoisyMax) else None

    def set_variable(self, var: str | None) -> None:
        self.var = var
        self.refresh()

    def can_make(self) -> bool:
        """The variable has parents and is not a noisy-MAX yet."""
        net = self.document.network
        return self.var is not None and self.var in net and bool(net.parents(self.var)) and self.model() is None

    def is_noisy_max(self) -> bool:
        return self.model() is not None

    def refresh(self) -> None:
        net, var, model = self.document.network, self.var, self.model()
        self.setVisible(model is not None)
        if var is None or model is None:     # model() is None without a variable
            self.changed.emit()
            return
        labels, rows = parameter_rows(net, var, model)
        self._filling = True
        try:
            self.table.clear()
            self.table.setRowCount(len(labels))
            self.table.setColumnCount(rows.shape[1])
            self.table.setVerticalHeaderLabels(labels)
            self.table.setHorizontalHeaderLabels(column_labels(net, var, model))
            for r, c in np.ndindex(*rows.shape):
                item = QTableWidgetItem(f"{rows[r, c]:.6g}")
                if c == rows.shape[1] - 1:
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(r, c, item)
        finally:
            self._filling = False
        self.changed.emit()

    def _edited(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        try:
            value = float(item.text())
        except ValueError:
            self.document.message.emit("warning", f"Not a number: {item.text()!r}")
            self.refresh()
            return
        self.set_parameter(item.row(), item.column(), value)

    def set_parameter(self, row: int, column: int, value: float) -> bool:
        """Set one Henrion parameter (one undo step); a value that breaks the row is refused with a message."""
        var, model = self.var, self.model()
        if var is None or model is None:
            return False
        try:
            new = with_parameter(self.document.network, var, model, row, column, value)
        except ValidationError as exc:
            self.document.message.emit("warning", str(exc))
            self.refresh()
            return False
        done = self.document.execute(SetCanonical(self.document, var, new, f"Edit noisy-MAX of {var}"))
        self.refresh()
        return done

    def make_noisy_max(self) -> bool:
        """Fit the closest noisy-MAX to the current table (EM, the table's rows as weights; the absent states
        first or last, whichever fits: :func:`~bnstudio.learn.canonical.closest_noisy_max`) and use it."""
        from bnstudio.learn.canonical import closest_noisy_max

        var = self.var
        if var is None:
            return False
        fit = closest_noisy_max(np.asarray(self.document.network.cpt(var)), max_iter=2000, tol=1e-13)
        done = self.document.execute(SetCanonical(self.document, var, fit.model, f"Make {var} noisy-MAX"))
        self.refresh()
        return done

    def make_plain(self) -> bool:
        var = self.var
        if var is None:
            return False
        done = self.document.execute(SetCanonical(self.document, var, None, f"Plain table for {var}"))
        self.refresh()
        return done
