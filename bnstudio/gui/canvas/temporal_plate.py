"""The temporal plate of a two-slice network (2TBN, docs/temporal.md): a state of the drawing, never an edit.

When the open network is a 2TBN in pyAgrum's naming convention (``X0`` slice 0, ``Xt`` slice t;
:func:`bnstudio.temporal.timeline.as_two_slice`), the canvas shows

* a rounded, tinted frame around the transition variables labelled **slice t** (GeNIe's temporal plate: what
  repeats for t = 1 … T−1), and a lighter frame around the slice-0 variables labelled **slice 0**;
* the arcs from slice t−1 into slice t (``Y0 → Xt``, the temporal arcs) dashed and in their own colour, with a
  tooltip saying so, and a legend in the plate's bottom band; the arcs inside a slice keep the usual look.

The frames follow the nodes: the plate registers with the node items as the scene's arcs do (``node.arcs``),
so a drag, a layout or a change of node style calls :meth:`SliceFrames.adjust`. The scene calls
:meth:`TemporalPlate.sync` after it has synchronised its items and :meth:`TemporalPlate.apply_beliefs` after it
has refreshed the bars: while the Time panel shows a slice (:meth:`TemporalPlate.show_slice`), the nodes show
that slice's beliefs (``Xt`` slice k, ``X0`` slice 0) instead of the document's. The scene deletes every item
when another network is opened, so nothing here is touched once Qt has deleted it.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from bnstudio.gui.canvas.node_item import NodeItem
from bnstudio.gui.canvas.style import ARC, TEXT
from bnstudio.temporal.model import FIRST, TRANSITION, TwoSliceNetwork
from bnstudio.temporal.timeline import as_two_slice

PLATE_FILL = QColor("#EEF4FB")
PLATE_BORDER = QColor("#5B7FB0")
SLICE0_BORDER = QColor("#9AA5B1")
TEMPORAL_ARC = QColor("#C2571A")           # the arcs from slice t-1 into slice t
TEMPORAL_PEN = QPen(TEMPORAL_ARC, 1.8, Qt.PenStyle.DashLine, Qt.PenCapStyle.FlatCap)
LABEL_HEIGHT = 22.0      # the title band above the nodes (inside the frame)
LEGEND_HEIGHT = 22.0     # the legend band below the transition nodes
SIDE = 10.0              # the frame's margin beside the nodes: under the fitted view's frame (scene.FIT_FRAME)
PLATE_Z = -1.0           # behind the arcs (0) and the nodes (1)
PLATE_TIP = ("The temporal plate: the variables of slice t, repeated for t = 1 … T−1 (the Time panel sets T). "
             "Dashed orange arcs come from slice t−1; solid arcs stay inside a slice.")
SLICE0_TIP = "Slice 0: the variables of the first time step and their initial distribution."


def _label_font(bold: bool = True) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(12 if bold else 10)
    font.setBold(bold)
    return font


class SliceFrame(QGraphicsItem):
    """One slice's frame: a rounded rectangle around its nodes with a title band (and, for slice t, the
    legend of the arcs). Not selectable, takes no mouse button: clicks go to the canvas under it."""

    def __init__(self, part: str) -> None:
        super().__init__()
        self.part = part
        self.rect = QRectF()
        self.setZValue(PLATE_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip(PLATE_TIP if part == TRANSITION else SLICE0_TIP)

    @property
    def title(self) -> str:
        return "slice t" if self.part == TRANSITION else "slice 0"

    def set_rect(self, rect: QRectF) -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
            self.rect = QRectF(rect)

    def boundingRect(self) -> QRectF:  # Qt override
        return self.rect.adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, option: Any, widget: Any = None) -> None:  # Qt override
        if self.rect.isEmpty():
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        plate = self.part == TRANSITION
        painter.setPen(QPen(PLATE_BORDER if plate else SLICE0_BORDER, 1.6 if plate else 1.2,
                            Qt.PenStyle.SolidLine if plate else Qt.PenStyle.DashLine))
        painter.setBrush(PLATE_FILL if plate else Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(self.rect, 12, 12)
        painter.setFont(_label_font())
        painter.setPen(PLATE_BORDER if plate else SLICE0_BORDER.darker(140))
        title = QRectF(self.rect.left() + 12, self.rect.top(), self.rect.width() - 24, LABEL_HEIGHT)
        painter.drawText(title, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.title)
        if plate:
            self._paint_legend(painter)

    def _paint_legend(self, painter: QPainter) -> None:
        """Which arc is which: a solid sample "in a slice", a dashed one "from slice t−1"."""
        band = QRectF(self.rect.left() + 12, self.rect.bottom() - LEGEND_HEIGHT, self.rect.width() - 24,
                      LEGEND_HEIGHT)
        y = band.center().y()
        painter.setFont(_label_font(bold=False))
        metrics = painter.fontMetrics()
        x = band.left()
        for pen, colour, text in ((QPen(ARC, 1.3), TEXT, "in a slice"),
                                  (TEMPORAL_PEN, TEMPORAL_ARC.darker(115), "from slice t−1")):
            painter.setPen(pen)
            painter.drawLine(QPointF(x, y), QPointF(x + 18, y))
            painter.setPen(colour)
            painter.drawText(QRectF(x + 22, band.top(), band.right() - x - 22, band.height()),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
            x += 22 + metrics.horizontalAdvance(text) + 12


class SliceFrames:
    """The two frames, registered with the node items so they are told of moves (``adjust``), as arcs are."""

    def __init__(self, scene: Any, tbn: TwoSliceNetwork) -> None:
        self.scene = scene
        self.members = {part: [r + part for r in tbn.radicals] for part in (FIRST, TRANSITION)}
        self.frames = {part: SliceFrame(part) for part in (FIRST, TRANSITION)}
        self.nodes: list[NodeItem] = [scene.nodes[name] for names in self.members.values() for name in names]
        for frame in self.frames.values():
            scene.addItem(frame)
        for node in self.nodes:
            node.arcs.append(self)
        self.adjust()

    def valid(self) -> bool:
        return all(shiboken6.isValid(f) and f.scene() is self.scene for f in self.frames.values())

    def adjust(self) -> None:
        """Fit each frame around its slice's nodes (called by a node item when it moves or resizes)."""
        for part, frame in self.frames.items():
            if not shiboken6.isValid(frame):
                return
            items = [self.scene.nodes.get(name) for name in self.members[part]]
            boxes = [i.rect().translated(i.pos()) for i in items if i is not None and shiboken6.isValid(i)]
            if not boxes:
                frame.set_rect(QRectF())
                continue
            rect = boxes[0]
            for box in boxes[1:]:
                rect = rect.united(box)
            bottom = LEGEND_HEIGHT if part == TRANSITION else SIDE
            frame.set_rect(rect.adjusted(-SIDE, -LABEL_HEIGHT, SIDE, bottom))

    def remove(self) -> None:
        for node in self.nodes:
            if shiboken6.isValid(node) and self in node.arcs:
                node.arcs.remove(self)
        for frame in self.frames.values():
            if shiboken6.isValid(frame) and frame.scene() is not None:
                frame.scene().removeItem(frame)


class TemporalPlate:
    """The scene's temporal plate (module docstring): ``tbn`` the open 2TBN or None, ``temporal_arcs`` the
    keys of the arcs drawn as temporal, ``shown`` the slice beliefs on the nodes (None: the document's)."""

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.tbn: TwoSliceNetwork | None = None
        self.frames: SliceFrames | None = None
        self.temporal_arcs: list[tuple[str, str]] = []
        self.shown: dict[str, tuple[np.ndarray, str | None]] | None = None
        self._key: tuple | None = None

    def sync(self) -> None:
        """Draw (or remove) the plate for the network as it is now; the 2TBN check runs once per structure."""
        net = self.scene.document.network
        key = (id(net), net.structure_version)
        if key != self._key:
            self._key = key
            self.tbn = as_two_slice(net)
            if self.tbn is None:
                self.shown = None
        if self.frames is not None and (self.tbn is None or not self.frames.valid()
                                        or any(not shiboken6.isValid(n) for n in self.frames.nodes)
                                        or self.frames.nodes != [self.scene.nodes.get(m) for names in
                                                                 self.frames.members.values() for m in names]):
            self.frames.remove()
            self.frames = None
        if self.tbn is not None and self.frames is None:
            self.frames = SliceFrames(self.scene, self.tbn)
        elif self.frames is not None:
            self.frames.adjust()
        self._style_arcs()

    def _style_arcs(self) -> None:
        """The arcs from slice t−1 dashed, with their tooltip; arcs styled before and no longer temporal (or
        of a network that is no 2TBN) back to the usual look. A plain network costs nothing here."""
        if self.tbn is None and not self.temporal_arcs:
            return
        self.temporal_arcs = []
        for (parent, child), arc in self.scene.arcs.items():
            temporal = self.tbn is not None and parent.endswith(FIRST) and child.endswith(TRANSITION)
            if temporal:
                self.temporal_arcs.append((parent, child))
                arc.set_look((TEMPORAL_PEN, TEMPORAL_ARC))
                arc.setToolTip(f"{parent} → {child}: from slice t−1 into slice t (a temporal arc)")
            elif arc.look is not None:           # styled before (a rename keeps the item, not the key)
                arc.set_look(None)
                arc.setToolTip("")

    def show_slice(self, shown: dict[str, tuple[np.ndarray, str | None]] | None) -> None:
        """Show these beliefs and findings by node name (the Time panel's slice), or None: the document's."""
        self.shown = shown if self.tbn is not None else None
        self.scene.update_beliefs()

    def apply_beliefs(self) -> None:
        """Put the shown slice's beliefs on the nodes (after the scene has put the document's there)."""
        if self.shown is None:
            return
        for name, (beliefs, finding) in self.shown.items():
            item = self.scene.nodes.get(name)
            if item is not None:
                item.set_beliefs(beliefs, finding, None)
