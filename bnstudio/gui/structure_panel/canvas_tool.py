"""The "arc constraint" canvas tool: while active, a drag from one node to another on the canvas picks a
(parent, child) pair for the structure constraints instead of adding an arc to the network.

It is an event filter on the scene, so the canvas code does not need to know about it: it takes the mouse
presses that start on a node (drawing a dashed preview line) and lets every other event through.
"""
from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QLineF, QObject, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsSceneMouseEvent

from bnstudio.gui.canvas.scene import NetworkScene

PREVIEW = QColor("#8E44AD")


class ArcConstraintTool(QObject):
    """``arc_picked(parent, child)`` after a node-to-node drag while :meth:`set_active` is on."""

    arc_picked = Signal(str, str)
    active_changed = Signal(bool)

    def __init__(self, scene: NetworkScene, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.active = False
        self._source: str | None = None
        self._preview: QGraphicsLineItem | None = None
        scene.installEventFilter(self)

    def detach(self) -> None:
        """Stop watching the scene (before using another one)."""
        self.set_active(False)
        if shiboken6.isValid(self.scene):
            self.scene.removeEventFilter(self)

    def set_active(self, active: bool) -> None:
        if active != self.active:
            self.active = active
            self._drop_preview()
            self.active_changed.emit(active)

    def node_name_at(self, pos: QPointF) -> str | None:
        node = self.scene.node_at(pos)
        return node.name if node is not None else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if not self.active or watched is not self.scene:
            return False
        if not isinstance(event, QGraphicsSceneMouseEvent):
            return False
        kind = event.type()
        if kind == QEvent.Type.GraphicsSceneMousePress and event.button() == Qt.MouseButton.LeftButton:
            return self.press(event.scenePos())
        if kind == QEvent.Type.GraphicsSceneMouseMove and self._source is not None:
            self.move(event.scenePos())
            return True
        if kind == QEvent.Type.GraphicsSceneMouseRelease and self._source is not None:
            self.release(event.scenePos())
            return True
        return False

    def press(self, pos: QPointF) -> bool:
        """Start a pick on the node under ``pos``; True when there is one (the event is then consumed)."""
        name = self.node_name_at(pos)
        if name is None:
            return False
        self._source = name
        self._preview = QGraphicsLineItem(QLineF(self.scene.nodes[name].pos(), pos))
        self._preview.setPen(QPen(PREVIEW, 1.6, Qt.PenStyle.DashLine))
        self._preview.setZValue(5)
        self.scene.addItem(self._preview)
        return True

    def move(self, pos: QPointF) -> None:
        if self._preview is not None and self._source in self.scene.nodes:
            self._preview.setLine(QLineF(self.scene.nodes[self._source].pos(), pos))

    def release(self, pos: QPointF) -> None:
        source = self._source
        self._drop_preview()
        target = self.node_name_at(pos)
        if source is not None and target is not None and target != source:
            self.arc_picked.emit(source, target)

    def _drop_preview(self) -> None:
        if self._preview is not None and shiboken6.isValid(self._preview) and self._preview.scene() is self.scene:
            self.scene.removeItem(self._preview)
        self._preview, self._source = None, None
