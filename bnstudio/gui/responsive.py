"""A splitter that puts its two panes side by side when its width allows and stacks them otherwise, so a panel
docked in a narrow area (a laptop screen, a dock the user made small) never hides its controls behind a
horizontal scroll bar."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QBoxLayout, QComboBox, QFrame, QScrollArea, QSplitter, QWidget

from bnstudio.gui import wheel_guard


class ContentScrollArea(QScrollArea):
    """A frameless scroll area that asks for its content's full height (so the content shows whole wherever
    there is room, and scrolls only where there is not)."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content.installEventFilter(self)
        wheel_guard.protect(content)   # the wheel scrolls here; it never changes an unfocused setting

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()   # the content changed size: so does what this area asks for
        return False

    def sizeHint(self) -> QSize:  # Qt override: the content's height at the width it has (wrapped text)
        content = self.widget()
        if content is None:
            return super().sizeHint()
        hint = content.sizeHint()
        height = content.heightForWidth(self.viewport().width()) if content.hasHeightForWidth() else -1
        return QSize(hint.width() + self.verticalScrollBar().sizeHint().width(), max(height, hint.height()))

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()   # wrapped text changes height with the width


#: characters a combo box of variable names shows whole at least (ALARM's HYPOVOLEMIA, ERRLOWOUTPUT, ...)
NAME_CHARS = 13


def fit_names(*combos: QComboBox) -> None:
    """Combo boxes of variable names as wide as :data:`NAME_CHARS` characters at least (seen: "HYPOVOLEMI" in
    the Data panel's Target box, sized when it held "(none)" only) and wider for longer names they hold."""
    for combo in combos:
        combo.setMinimumContentsLength(NAME_CHARS)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)


class WideRow(QWidget):
    """``first`` beside ``second`` from ``wide`` pixels of width up, ``first`` above ``second`` below that (no
    handle: for two parts that belong together, e.g. a query's settings and its answer). Side by side they
    share the width by ``stretch``; one above the other, ``first`` keeps its own height and ``second`` takes
    the rest (so the second's content starts right under the first)."""

    def __init__(self, first: QWidget, second: QWidget, wide: int, stretch: tuple[int, int] = (1, 1),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wide = wide
        self.stretch = stretch
        self.box = QBoxLayout(QBoxLayout.Direction.TopToBottom, self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.addWidget(first, 0)
        self.box.addWidget(second, 1)

    def _orient(self, width: int) -> None:
        direction = QBoxLayout.Direction.LeftToRight if width >= self.wide else QBoxLayout.Direction.TopToBottom
        if self.box.direction() != direction:
            self.box.setDirection(direction)
            for index, stretch in enumerate(self.stretch if direction == QBoxLayout.Direction.LeftToRight else (0, 1)):
                self.box.setStretch(index, stretch)

    def heightForWidth(self, width: int) -> int:  # Qt override: the height in the arrangement of that width
        self._orient(width)
        return super().heightForWidth(width)

    def resizeEvent(self, event) -> None:  # Qt override
        self._orient(event.size().width())
        super().resizeEvent(event)


class ResponsiveSplitter(QSplitter):
    """``first`` | ``second`` from ``side_by_side`` pixels of width up; ``first`` above ``second`` below that.

    The first pane keeps its share of the length in each orientation (``side_share``, ``stacked_share`` to
    begin with; a drag of the handle sets a new one), whatever the size. With ``fit_first``, the first pane
    stacked on top takes the height its content asks for (at most ``stacked_share``), following it as it
    changes, until the handle is dragged.
    """

    def __init__(self, first: QWidget, second: QWidget, side_by_side: int, side_share: float = 0.36,
                 stacked_share: float = 0.5, parent: QWidget | None = None, fit_first: bool = False) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.side_by_side = side_by_side
        self.shares = {Qt.Orientation.Horizontal: side_share, Qt.Orientation.Vertical: stacked_share}
        self.fit_first = fit_first
        self.refit_timer = QTimer(self)
        self.refit_timer.setSingleShot(True)
        self.refit_timer.setInterval(0)
        self.refit_timer.timeout.connect(lambda: self._divide(self.orientation(), self.size()))
        first.installEventFilter(self)
        self.addWidget(first)
        self.addWidget(second)
        self.setChildrenCollapsible(False)
        self.splitterMoved.connect(self._remember_share)

    def orientation_for(self, width: int) -> Qt.Orientation:
        """Side by side from ``side_by_side`` on, and only where both panes' minimum widths fit."""
        needed = sum(pane.minimumSizeHint().width() for pane in self._panes()) + self.handleWidth()
        return Qt.Orientation.Horizontal if width >= max(self.side_by_side, needed) else Qt.Orientation.Vertical

    def minimumSizeHint(self) -> QSize:  # Qt override: as narrow as the stacked panes (so it can flip)
        hints = [pane.minimumSizeHint() for pane in self._panes()]
        return QSize(max(h.width() for h in hints), max(h.height() for h in hints))

    def _panes(self) -> list[QWidget]:
        return [pane for i in range(self.count()) if (pane := self.widget(i)) is not None]

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        orientation = self.orientation_for(event.size().width())
        if orientation != self.orientation():
            self.setOrientation(orientation)
        super().resizeEvent(event)
        self._divide(orientation, event.size())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if (watched is self.widget(0) and event.type() == QEvent.Type.LayoutRequest and self.fit_first
                and self.orientation() == Qt.Orientation.Vertical):
            self.refit_timer.start()   # once its layout has settled: the first pane's content changed size
        return False

    def _divide(self, orientation: Qt.Orientation, size: QSize) -> None:
        length = (size.width() if orientation == Qt.Orientation.Horizontal else size.height()) - self.handleWidth()
        first = round(self.shares[orientation] * length)
        if orientation == Qt.Orientation.Vertical and self.fit_first:
            pane = self._panes()[0]
            wanted = pane.heightForWidth(size.width()) if pane.hasHeightForWidth() else -1
            first = min(first, wanted if wanted > 0 else pane.sizeHint().height())
        self.setSizes([first, length - first])

    def _remember_share(self, _pos: int, _index: int) -> None:
        sizes = self.sizes()
        if sum(sizes) > 0:
            self.shares[self.orientation()] = sizes[0] / sum(sizes)
            if self.orientation() == Qt.Orientation.Vertical:
                self.fit_first = False        # the height the user chose, from now on
