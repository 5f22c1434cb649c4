"""A node on the canvas: compact (its name) or a bar chart (each state's name, a bar of its posterior
probability and the number, like GeNIe's bar-chart nodes). The item only draws; the scene owns the logic.

Zoomed out, where the bars would be unreadable, a bar-chart node is drawn as its *summary* (``style.SUMMARY``,
same box): the name and the most likely states, each with its probability over a bar, in text of a fixed
size on screen (:data:`~bnstudio.gui.canvas.style.SUMMARY_STATE_PX`) whatever the zoom, as many states as the
box holds on screen (at least the most likely one). :meth:`NodeItem.summary_rows` says what it shows.

Beliefs and evidence are updated in place (:meth:`NodeItem.set_beliefs`), never by rebuilding the item.

A node *set by intervention* do(X = x) has a teal frame, header and bar and a "do" badge (an observed one is
orange); :attr:`NodeItem.finding_look` names the look. The relevance overlay of the scene marks a node
``"separated"`` (greyed: d-separated from the query's target), ``"irrelevant"`` (a finding that cannot change
the target's posterior: faded, dashed frame) or ``"blanket"`` (in a Markov blanket: a green frame).

A *decision* node of an influence diagram (``kind == "decision"``) is a plain rectangle; its rows show the
expected utility of each option under the evidence (:meth:`NodeItem.set_option_values`), the best one in green
and bold, instead of beliefs.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyle, QStyleOptionGraphicsItem, QWidget

from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.arc_item import Deferral, border_point


class NodeItem(QGraphicsItem):
    """One variable; its position (``pos()``) is the node's centre, as in ``net.positions``."""

    def __init__(self, name: str, states: Sequence[str], node_style: str = st.BARS) -> None:
        super().__init__()
        self.name = name
        self.states = tuple(states)
        self.node_style = node_style
        self.beliefs: np.ndarray | None = None
        self.evidence: Any = None  # a state name, a likelihood list, or None
        self.intervention: str | None = None   # the state set by do(), or None
        self.overlay: str | None = None    # relevance overlay: "separated", "irrelevant", "blanket" or None
        self.hover_row: int | None = None
        self.arcs: list = []  # ArcItems touching this node, kept by the scene
        self.kind = "chance"  # or "decision"
        self.option_values: list[float | None] | None = None   # decisions: EU of each option
        self._rect = QRectF()
        self._header_path: tuple | None = None   # (size key, the header's fill path)
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsMovable | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setAcceptHoverEvents(True)
        self.setZValue(1)
        self._relayout()

    # ------------------------------------------------------------------ state
    def _relayout(self) -> None:
        self.prepareGeometryChange()
        w, h = st.node_size(self.name, len(self.states), self.node_style)
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        self.box_width, self.box_height = w, h   # plain floats: the scene reads a thousand boxes at once
        if not Deferral.depth:
            for arc in self.arcs:
                arc.adjust()

    def set_identity(self, name: str, states: Sequence[str]) -> None:
        self.name, self.states = name, tuple(states)
        self._relayout()
        self.update()

    def set_style(self, node_style: str) -> None:
        if node_style != self.node_style:
            self.node_style = node_style
            self._relayout()
            self.update()

    def set_beliefs(self, beliefs: np.ndarray | None, evidence: Any, intervention: str | None = None) -> None:
        self.beliefs, self.evidence, self.intervention = beliefs, evidence, intervention
        self.update()

    def set_overlay(self, overlay: str | None) -> None:
        """The scene's relevance overlay for this node (see the module docstring)."""
        if overlay != self.overlay:
            self.overlay = overlay
            self.setOpacity(st.SEPARATED_OPACITY if overlay == "separated"
                            else st.IRRELEVANT_OPACITY if overlay == "irrelevant" else 1.0)
            self.update()

    @property
    def finding_look(self) -> str:
        """How the node's finding is drawn: "intervention", "evidence", "soft evidence" or "none"."""
        if self.intervention is not None:
            return "intervention"
        if self.evidence is None:
            return "none"
        return "evidence" if isinstance(self.evidence, str) else "soft evidence"

    def _chosen(self, state: str) -> bool:
        """Whether ``state`` is the observed or the set state."""
        return state in (self.evidence, self.intervention)

    def _bar_colour(self, summary: bool) -> QColor:
        if self.intervention is not None:
            return st.SUMMARY_INTERVENTION_BAR if summary else st.INTERVENTION_BAR
        return st.SUMMARY_EVIDENCE_BAR if summary else st.EVIDENCE_BAR

    def _frame_pen(self, selected: bool) -> QPen:
        if selected:
            return QPen(st.SELECTED, 2.4)
        if self.overlay == "blanket":
            return QPen(st.BLANKET, 3.2)
        if self.intervention is not None:
            pen = QPen(st.INTERVENTION_BORDER, 2.4)
        elif self.has_evidence:
            pen = QPen(st.EVIDENCE_BORDER, 2.4)
        else:
            pen = QPen(st.NODE_BORDER, 1.1)
        if self.overlay == "irrelevant":
            pen.setStyle(Qt.PenStyle.DashLine)
        return pen

    def set_kind(self, kind: str) -> None:
        if kind != self.kind:
            self.kind = kind
            self.update()

    def set_option_values(self, values: Sequence[float | None] | None) -> None:
        """EU(D = d | e) of every option (None: impossible under the evidence), or None when unknown."""
        self.option_values = None if values is None else list(values)
        self.update()

    @property
    def corner(self) -> float:
        return 0.0 if self.kind == "decision" else st.CORNER

    def border_point(self, towards: QPointF) -> QPointF:
        """Where the segment from the centre to ``towards`` (scene coordinates) leaves the node."""
        return border_point(self._rect.translated(self.pos()), towards)

    @property
    def has_evidence(self) -> bool:
        return self.evidence is not None

    # ------------------------------------------------------------------ geometry
    def boundingRect(self) -> QRectF:  # Qt override
        return self._rect.adjusted(-2, -2, 2, 2)

    def shape(self) -> QPainterPath:  # Qt override
        path = QPainterPath()
        path.addRoundedRect(self._rect, self.corner, self.corner)
        return path

    def rect(self) -> QRectF:
        return QRectF(self._rect)

    def header_rect(self) -> QRectF:
        """The title's band (the whole box when no states are drawn in rows)."""
        r = self._rect
        return QRectF(r.left(), r.top(), r.width(), st.HEADER_HEIGHT if self.node_style == st.BARS else r.height())

    def row_rect(self, i: int) -> QRectF:
        top = self._rect.top() + st.HEADER_HEIGHT + i * st.ROW_HEIGHT + 2
        return QRectF(self._rect.left(), top, self._rect.width(), st.ROW_HEIGHT)

    def state_at(self, local: QPointF) -> int | None:
        """The state row under ``local`` (item coordinates) in bar-chart view, else None."""
        if self.node_style != st.BARS:
            return None
        for i in range(len(self.states)):
            if self.row_rect(i).contains(local):
                return i
        return None

    # ------------------------------------------------------------------ painting
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if self.node_style == st.SUMMARY and self.kind != "decision":
            scale = max(option.levelOfDetailFromTransform(painter.worldTransform()), 1e-3)
            if self.summary_state_px(scale) < st.SUMMARY_MIN_PX:
                self._paint_overview(painter, selected, scale)
                return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = self._rect
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(st.NODE_FILL)
        painter.drawRoundedRect(r, self.corner, self.corner)
        if self.node_style == st.SUMMARY and self.kind != "decision":
            self._paint_summary(painter, option.levelOfDetailFromTransform(painter.worldTransform()))
        else:
            self._paint_header(painter)
        if self.node_style == st.BARS:
            if self.kind == "decision":
                self._paint_options(painter)
            else:
                self._paint_rows(painter)
        painter.setPen(self._frame_pen(selected))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(r, self.corner, self.corner)
        if self.intervention is not None and self.node_style != st.SUMMARY:
            self._paint_do_badge(painter)

    def _paint_do_badge(self, painter: QPainter) -> None:
        """A small "do" tag at the header's right end."""
        header = self.header_rect()
        badge = QRectF(header.right() - 26, header.top() + 4, 22, min(16.0, header.height() - 8))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(st.INTERVENTION_BORDER)
        painter.drawRoundedRect(badge, 4, 4)
        font = st.state_font()
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("#FFFFFF"))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, "do")

    def _header_fill(self) -> QColor:
        if self.intervention is not None:
            return st.INTERVENTION_HEADER
        return (st.SOFT_EVIDENCE_HEADER if self.has_evidence and not isinstance(self.evidence, str)
                else st.EVIDENCE_HEADER if self.has_evidence
                else st.DECISION_HEADER if self.kind == "decision" else st.HEADER_FILL)

    def _fill_header(self, painter: QPainter, header: QRectF) -> None:
        key = (header.getRect(), self.corner, self._rect.height())
        if self._header_path is None or self._header_path[0] != key:   # built once per size, not per paint
            path = QPainterPath()
            path.addRoundedRect(header, self.corner, self.corner)
            if header.height() < self._rect.height():  # rows below: square off the header's bottom corners
                path.addRect(QRectF(header.left(), header.center().y(), header.width(), header.height() / 2))
            self._header_path = (key, path.simplified())
        painter.fillPath(self._header_path[1], QBrush(self._header_fill()))

    def _paint_overview(self, painter: QPainter, selected: bool, scale: float) -> None:
        """The summary too small on screen for text (a whole large network fitted): the box, its title band and
        the bars, as plain rectangles (level of detail: no rounded corners, paths or antialiasing)."""
        r = self._rect
        title, row = self._summary_metrics(scale)
        unit = title / (1.3 * st.SUMMARY_TITLE_PX)
        painter.fillRect(r, st.NODE_FILL)
        painter.fillRect(QRectF(r.left(), r.top(), r.width(), title), self._header_fill())
        for k, (i, p) in enumerate(self.summary_rows(scale)):
            line = QRectF(r.left() + 2 * unit, r.top() + title + k * row + unit, r.width() - 4 * unit, row - 2 * unit)
            self._paint_summary_bar(painter, line, i, p, unit, overview=True)
        pen = self._frame_pen(selected)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(r)

    def _paint_header(self, painter: QPainter) -> None:
        header = self.header_rect()
        self._fill_header(painter, header)
        painter.setPen(st.TEXT)
        painter.setFont(st.title_font())
        badge = 26 if self.intervention is not None else 0
        text_rect = header.adjusted(st.PADDING, 0, -st.PADDING - badge, 0)
        text = painter.fontMetrics().elidedText(self.name, Qt.TextElideMode.ElideRight, int(text_rect.width()))
        across = Qt.AlignmentFlag.AlignLeft if self.node_style == st.BARS else Qt.AlignmentFlag.AlignHCenter
        painter.drawText(text_rect, Qt.AlignmentFlag.AlignVCenter | across, text)

    def _paint_rows(self, painter: QPainter) -> None:
        painter.setFont(st.state_font())
        metrics = painter.fontMetrics()
        left, right = self._rect.left() + st.PADDING, self._rect.right() - st.PADDING
        bar_left = left + st.NAME_COLUMN + 4
        bar_right = right - st.NUMBER_COLUMN - 4
        for i, state in enumerate(self.states):
            row = self.row_rect(i)
            if i == self.hover_row:
                painter.fillRect(row.adjusted(1, 0, -1, 0), st.ROW_HOVER)
            is_evidence = self._chosen(state)
            painter.setPen(st.TEXT)
            name_rect = QRectF(left, row.top(), st.NAME_COLUMN, row.height())
            painter.drawText(name_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                             metrics.elidedText(state, Qt.TextElideMode.ElideRight, int(st.NAME_COLUMN)))
            track = QRectF(bar_left, row.top() + 3, bar_right - bar_left, row.height() - 6)
            painter.fillRect(track, st.BAR_TRACK)
            p = None if self.beliefs is None else float(self.beliefs[i])
            if p is not None and p > 0:
                bar = QRectF(track.left(), track.top(), max(1.0, track.width() * min(p, 1.0)), track.height())
                painter.fillRect(bar, self._bar_colour(False) if is_evidence else st.BAR)
            painter.setPen(st.TEXT if p is not None else st.MUTED_TEXT)
            number_rect = QRectF(right - st.NUMBER_COLUMN, row.top(), st.NUMBER_COLUMN, row.height())
            painter.drawText(number_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                             "—" if p is None else st.format_probability(p))

    # ------------------------------------------------------------------ the summary (zoomed out)
    def summary_rows(self, scale: float) -> list[tuple[int, float | None]]:
        """(state index, probability) of the states the summary shows at ``scale`` (screen pixels per scene
        unit): the evidence, else the most likely first, as many as fit under the title (at least one)."""
        title, row = self._summary_metrics(scale)
        room = max(1, int((self._rect.height() - title) // row))
        for chosen in (self.intervention, self.evidence):
            if isinstance(chosen, str) and chosen in self.states:
                return [(self.states.index(chosen), 1.0)]
        beliefs = self.beliefs
        if beliefs is None:
            return [(i, None) for i in range(min(room, len(self.states)))]
        order = sorted(range(len(self.states)), key=lambda i: -float(beliefs[i]))
        return [(i, float(beliefs[i])) for i in order[:room]]

    def _summary_metrics(self, scale: float) -> tuple[float, float]:
        """Heights (scene units) of the title band and of one state row: fixed on screen, shrunk only when
        a two-state node could not hold its title and one row (so every node's text has the same size)."""
        title, row = 1.3 * st.SUMMARY_TITLE_PX / scale, 1.35 * st.SUMMARY_STATE_PX / scale
        room = min(self._rect.height(), st.node_size(self.name, 2, st.SUMMARY)[1])
        fit = min(1.0, room / (title + row))
        return title * fit, row * fit

    def summary_state_px(self, scale: float) -> float:
        """The size on screen (pixels) of the summary's state text at ``scale``."""
        return self._summary_metrics(scale)[1] / 1.35 * scale

    def _paint_summary(self, painter: QPainter, scale: float) -> None:
        scale = max(scale, 1e-3)
        r = self._rect
        title, row = self._summary_metrics(scale)
        unit = title / (1.3 * st.SUMMARY_TITLE_PX)   # scene units per (readable) screen pixel
        header = QRectF(r.left(), r.top(), r.width(), title)
        self._fill_header(painter, header)
        overview = self.summary_state_px(scale) < st.SUMMARY_MIN_PX   # a whole large network: bars, no text
        if not overview:
            self._paint_summary_title(painter, header.adjusted(4 * unit, 0, -4 * unit, 0), unit)
            font = st.state_font()
            font.setPixelSize(max(1, round(st.SUMMARY_STATE_PX * unit)))
            painter.setFont(font)
        for k, (i, p) in enumerate(self.summary_rows(scale)):
            line = QRectF(r.left() + 2 * unit, r.top() + title + k * row + unit, r.width() - 4 * unit, row - 2 * unit)
            self._paint_summary_bar(painter, line, i, p, unit, overview)
            if not overview:
                self._paint_summary_text(painter, line.adjusted(2 * unit, 0, -2 * unit, 0), i, p, unit)

    def _paint_summary_title(self, painter: QPainter, inner: QRectF, unit: float) -> None:
        font = st.title_font()
        font.setPixelSize(max(1, round(st.SUMMARY_TITLE_PX * unit)))
        width = QFontMetricsF(font).horizontalAdvance(self.name)
        if width > inner.width():   # a long name: a little smaller (down to 9 px) before it is elided
            font.setPixelSize(max(1, round(max(9.0 * unit, font.pixelSize() * inner.width() / width))))
        painter.setFont(font)
        painter.setPen(st.TEXT)
        painter.drawText(inner, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                         painter.fontMetrics().elidedText(self.name, Qt.TextElideMode.ElideRight, int(inner.width())))

    def _paint_summary_text(self, painter: QPainter, text: QRectF, i: int, p: float | None, unit: float) -> None:
        """State ``i``'s name (left, elided) and probability (right) over its bar."""
        metrics = painter.fontMetrics()
        number = "—" if p is None else st.format_probability(p)
        width = metrics.horizontalAdvance(number) + 4 * unit
        painter.setPen(st.TEXT if p is not None else st.MUTED_TEXT)
        painter.drawText(text, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, number)
        painter.setPen(st.TEXT)
        painter.drawText(text.adjusted(0, 0, -width, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                         metrics.elidedText(self.states[i], Qt.TextElideMode.ElideRight,
                                            int(max(0.0, text.width() - width))))

    def _paint_summary_bar(self, painter: QPainter, line: QRectF, i: int, p: float | None, unit: float,
                           overview: bool = False) -> None:
        """The bar of state ``i`` behind its text (light), or alone in an overview (full colour)."""
        painter.fillRect(line, st.BAR_TRACK)
        if p is not None and p > 0:
            evidence = self._chosen(self.states[i])
            colour = ((self._bar_colour(False) if evidence else st.BAR) if overview
                      else self._bar_colour(True) if evidence else st.SUMMARY_BAR)
            painter.fillRect(QRectF(line.left(), line.top(), max(unit, line.width() * min(p, 1.0)), line.height()),
                             colour)

    def _paint_options(self, painter: QPainter) -> None:
        """Decision rows: option name, a bar from the smallest to the largest EU (0 included), the EU."""
        values = self.option_values or [None] * len(self.states)
        known = {i: v for i, v in enumerate(values) if v is not None}
        low, high = min([*known.values(), 0.0]), max([*known.values(), 0.0])
        best = max(known, key=known.__getitem__, default=None)
        left, right = self._rect.left() + st.PADDING, self._rect.right() - st.PADDING
        bar_left, bar_right = left + st.NAME_COLUMN + 4, right - st.NUMBER_COLUMN - 4
        for i, state in enumerate(self.states):
            row = self.row_rect(i)
            font = st.state_font()
            font.setBold(i == best)
            painter.setFont(font)
            painter.setPen(st.TEXT)
            painter.drawText(QRectF(left, row.top(), st.NAME_COLUMN, row.height()),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                             painter.fontMetrics().elidedText(state, Qt.TextElideMode.ElideRight, int(st.NAME_COLUMN)))
            track = QRectF(bar_left, row.top() + 3, bar_right - bar_left, row.height() - 6)
            painter.fillRect(track, st.BAR_TRACK)
            v = values[i]
            if v is not None and high > low:
                share = (v - low) / (high - low)
                painter.fillRect(QRectF(track.left(), track.top(), max(1.0, track.width() * share), track.height()),
                                 st.BEST_BAR if i == best else st.OPTION_BAR)
            painter.setPen(st.TEXT if v is not None else st.MUTED_TEXT)
            painter.drawText(QRectF(right - st.NUMBER_COLUMN, row.top(), st.NUMBER_COLUMN, row.height()),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, st.format_utility(v))

    # ------------------------------------------------------------------ interaction feedback
    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:  # Qt override
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged and not Deferral.depth:
            for arc in self.arcs:
                arc.adjust()
        return super().itemChange(change, value)

    def hoverMoveEvent(self, event) -> None:  # Qt override
        row = self.state_at(event.pos())
        if row != self.hover_row:
            self.hover_row = row
            self.setCursor(Qt.CursorShape.PointingHandCursor if row is not None else Qt.CursorShape.ArrowCursor)
            self.update()

    def hoverLeaveEvent(self, event) -> None:  # Qt override
        self.hover_row = None
        self.unsetCursor()
        self.update()
