"""The graph scene: an adapter that mirrors the document's network as node and arc items.

It redraws on the network's events (structural edits are diffed against the items, renames keep the item),
moves items on ``positions_changed``, updates bars in place on ``beliefs_changed``, and writes back only
through undo commands (moves are pushed once, on mouse release).

For an influence diagram (``document.decisions``), decision variables are drawn as rectangles showing the
expected utility of each option, utility nodes as diamonds (:class:`UtilityItem`) with their arcs, and the
informational arcs into decisions as well; the values come from :meth:`NetworkScene.show_decision_values`
(the scene computes nothing). Those extra arcs are not network arcs and cannot be selected.
"""
from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Signal
from PySide6.QtGui import QPen, Qt
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsScene, QGraphicsSceneMouseEvent

from bnstudio.app import commands as cmd
from bnstudio.app.commands import diagram_edits as diagram
from bnstudio.app.commands import notes as note_cmd
from bnstudio.app.relevance import RelevanceOverlay
from bnstudio.core.events import Event
from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.arc_geometry import deferred, nodes_rect, place_arcs
from bnstudio.gui.canvas.arc_item import ArcItem
from bnstudio.gui.canvas.node_item import NodeItem
from bnstudio.gui.canvas.note_item import NoteItem
from bnstudio.gui.canvas.temporal_plate import TemporalPlate
from bnstudio.gui.canvas.utility_item import UtilityItem
from bnstudio.gui.document import Document
from bnstudio.io.project.notes import Note

SELECT, ADD_NODE, ADD_ARC = "select", "add_node", "add_arc"
ADD_DECISION, ADD_UTILITY = "add_decision", "add_utility"
DEFAULT_STATES = ("yes", "no")
SCENE_MARGIN = 600.0  # room around the network to drag nodes into and to pan
FIT_FRAME = 30.0      # the frame a fitted view leaves around the network (scene units)


class NetworkScene(QGraphicsScene):
    """Node and arc items for ``document.network``; see the module docstring."""

    rename_requested = Signal(str)
    focus_requested = Signal(str)           # show this node large enough for its bars (the view does)
    current_variable_changed = Signal(str)  # "" when not exactly one node is selected
    current_utility_changed = Signal(str)   # a utility node alone was selected ("" otherwise)
    context_menu_requested = Signal(object, object)  # (item or None, QGraphicsSceneContextMenuEvent)
    note_edit_requested = Signal(int)       # the index of a note to edit (the view asks for its text)

    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self.nodes: dict[str, NodeItem] = {}
        self.arcs: dict[tuple[str, str], ArcItem] = {}
        self.utility_items: dict[str, UtilityItem] = {}
        self.note_items: list[NoteItem] = []
        self.policy_beliefs: dict | None = None   # influence diagrams: chance beliefs under the optimal policies
        self.node_style = st.BARS     # the user's choice
        self.drawn_style = st.BARS    # what the nodes show at the current zoom (see set_zoom)
        self.zoom = 1.0
        self.tool = SELECT
        self._arc_source: NodeItem | UtilityItem | None = None
        self._preview: QGraphicsLineItem | None = None
        self.overlay = RelevanceOverlay(self)
        self.temporal = TemporalPlate(self)      # a two-slice network's plate (temporal_plate.py)
        self.setBackgroundBrush(st.BACKGROUND)
        document.network_replaced.connect(self.rebuild)
        document.network_changed.connect(self._on_network_changed)
        document.positions_changed.connect(self._on_positions_changed)
        document.decisions_changed.connect(self.sync)
        document.beliefs_changed.connect(self.update_beliefs)
        document.evidence_changed.connect(self.update_beliefs)
        document.notes_changed.connect(self.sync_notes)
        self.selectionChanged.connect(self._on_selection_changed)
        self.rebuild()

    # ------------------------------------------------------------------ mirroring the network
    def rebuild(self) -> None:
        """Recreate every item (a different network was opened)."""
        for arc in list(self.arcs.values()):
            arc.detach()
        self.clear()
        self.nodes, self.arcs, self.utility_items, self._preview, self.note_items = {}, {}, {}, None, []
        self.sync()
        self.sync_notes()

    def sync_notes(self) -> None:
        """One item per note of ``document.notes`` (a handful: redrawn whole on every change)."""
        selected = {item.index for item in self.note_items if item.isSelected()}
        for item in self.note_items:
            self.removeItem(item)
        self.note_items = [NoteItem(k, note) for k, note in enumerate(self.document.notes)]
        for item in self.note_items:
            self.addItem(item)
            item.setSelected(item.index in selected)
        self.update_scene_rect()

    def sync(self) -> None:
        """Bring the items in line with the network: add, remove and refresh what differs (every arc's geometry
        in one pass at the end)."""
        with deferred():
            moved = self._sync_items()
        if moved:
            place_arcs(self.nodes, self.arcs)
        self.temporal.sync()
        self.update_scene_rect()
        self.update_beliefs()

    def _sync_items(self) -> bool:
        """Add, remove and refresh items; returns whether any item came, went or changed its size."""
        before = (len(self.nodes), len(self.arcs), len(self.utility_items))
        net, part = self.document.network, self.document.decisions
        names, arcs = set(net.variables), set(net.arcs())
        decided = set() if part is None else set(part.decision_names)
        ends = names | set(() if part is None else part.utility_names)
        # mid-edit (one DiagramEdit) the part may still name a deleted variable: draw only what exists
        extra = set() if part is None else {a for a in part.arcs() if a[0] in names and a[1] in ends}
        gone = [k for k in self.arcs if k not in arcs | extra]
        for key in gone:
            self._remove_arc(key)
        dropped = [n for n in self.nodes if n not in names]
        for name in dropped:
            self.removeItem(self.nodes.pop(name))
        resized = False
        for name in net.variables:
            item = self.nodes.get(name)
            if item is None:
                item = self.nodes[name] = NodeItem(name, net.states(name), self.drawn_style)
                position = net.positions.get(name)
                item.setPos(QPointF(*(position if position is not None else self._free_spot())))
                self.addItem(item)
            elif item.states != net.states(name):
                item.set_identity(name, net.states(name))
                resized = True
            item.setToolTip(net.variable(name).description or name)
            item.set_kind("decision" if name in decided else "chance")
        utilities = self._sync_utilities()
        for key in arcs | extra:
            if key not in self.arcs:
                target = self.nodes.get(key[1]) or self.utility_items[key[1]]
                self.arcs[key] = arc = ArcItem(self.nodes[key[0]], target)
                self.addItem(arc)
        return bool(gone or dropped or resized or utilities
                    or before != (len(self.nodes), len(self.arcs), len(self.utility_items)))

    def _sync_utilities(self) -> bool:
        """Utility items in line with the decision part; returns whether any came, went or moved."""
        part = self.document.decisions
        wanted = {} if part is None else part.positions
        names = () if part is None else part.utility_names
        changed = False
        for name in [n for n in self.utility_items if n not in names]:
            for key in [k for k in self.arcs if k[1] == name]:
                self._remove_arc(key)
            self.removeItem(self.utility_items.pop(name))
            changed = True
        for name in names:
            item = self.utility_items.get(name)
            if item is None:
                item = self.utility_items[name] = UtilityItem(name)
                self.addItem(item)
                item.setPos(QPointF(*wanted.get(name, self._free_spot())))
                changed = True
            elif name in wanted and (item.pos().x(), item.pos().y()) != tuple(wanted[name]):
                item.setPos(QPointF(*wanted[name]))
                changed = True
        return changed

    def show_decision_values(self, options: dict[str, dict[str, float | None]] | None,
                             utilities: dict[str, float] | None, beliefs: dict | None = None) -> None:
        """EU(D = d | e) beside every decision, E[U | e] in every utility node (None: unknown), and the chance
        nodes' beliefs under the optimal policies (None: the document's own beliefs)."""
        self.policy_beliefs = beliefs
        self.update_beliefs()
        for name, item in self.nodes.items():
            if item.kind == "decision":
                values = None if options is None or name not in options else options[name]
                item.set_option_values(None if values is None else [values.get(s) for s in item.states])
        for name, utility in self.utility_items.items():
            utility.set_value(None if utilities is None else utilities.get(name))

    def selected_utility(self) -> str:
        """The one selected utility node, or ""."""
        items = [i for i in self.selectedItems() if isinstance(i, UtilityItem)]
        return items[0].name if len(items) == 1 and len(self.selectedItems()) == 1 else ""

    def content_rect(self) -> QRectF:
        """The bounds of the drawn network (node boxes, utility nodes, notes; the arcs lie within), from the
        items' cached boxes: no Python call per item as ``itemsBoundingRect`` makes."""
        return nodes_rect(self.nodes, [*self.utility_items.values(), *self.note_items])

    def update_scene_rect(self) -> None:
        """The network's bounds plus a margin, and at least what the views show now: it shrinks when nodes go
        (so fitting and centring work), but an edit never scrolls or re-centres the view under the pointer.
        When a view shows the whole network with room around it (fitted), the scene is what that view shows,
        so it has no scroll bars."""
        content = self.content_rect()
        framed = content.adjusted(-FIT_FRAME, -FIT_FRAME, FIT_FRAME, FIT_FRAME)
        rect = content.adjusted(-SCENE_MARGIN, -SCENE_MARGIN, SCENE_MARGIN, SCENE_MARGIN)
        shown = [view.mapToScene(view.viewport().rect()).boundingRect() for view in self.views() if view.isVisible()]
        half = FIT_FRAME / 2     # a fit is exact along one axis: allow for rounding
        if content.isEmpty():
            rect = QRectF(-1.0, -1.0, 2.0, 2.0)   # nothing to scroll to: the origin, and what the views show
        elif any(area.contains(content.adjusted(-half, -half, half, half)) for area in shown):
            rect = framed
        for area in shown:
            rect = rect.united(area)
        self.setSceneRect(rect)

    def _free_spot(self) -> tuple[float, float]:
        rect = self.content_rect()
        return (rect.right() + 140.0, rect.top() + 60.0) if self.nodes else (0.0, 0.0)

    def _remove_arc(self, key: tuple[str, str]) -> None:
        arc = self.arcs.pop(key)
        arc.detach()
        self.removeItem(arc)

    def _on_network_changed(self, event: Event) -> None:
        if event.kind == "rename_variable":
            old, new = event.data["old"], event.data["new"]
            item = self.nodes.pop(old)
            self.nodes[new] = item
            item.set_identity(new, item.states)
            self.arcs = {(new if p == old else p, new if c == old else c): a for (p, c), a in self.arcs.items()}
            if item.isSelected():
                self.current_variable_changed.emit(new)
        if event.structural or event.kind == "set_description":
            self.sync()

    def _on_positions_changed(self, names: list[str]) -> None:
        positions = self.document.network.positions
        with deferred():
            for name in names:
                item = self.nodes.get(name)
                if item is not None and name in positions:
                    item.setPos(QPointF(*positions[name]))
        place_arcs(self.nodes, self.arcs)
        self.update_scene_rect()

    def visible_names(self) -> list[str]:
        """The nodes whose beliefs the views show now, as bars or a summary (computed first on a large
        network); none while the nodes are drawn compact (names only)."""
        if self.drawn_style == st.COMPACT:
            return []
        names: dict[str, None] = {}
        for view in self.views():
            area = view.mapToScene(view.viewport().rect()).boundingRect()
            names.update((item.name, None) for item in self.items(area) if isinstance(item, NodeItem))
        return list(names)

    def update_beliefs(self) -> None:
        """Refresh every node's bars in place from the document's cached posteriors."""
        posteriors = self.document.posteriors()
        if self.policy_beliefs is not None and self.document.decisions is not None:
            posteriors = self.policy_beliefs
        evidence, do = self.document.evidence, self.document.interventions
        for name, item in self.nodes.items():
            item.set_beliefs(None if posteriors is None else posteriors.get(name), evidence.get(name), do.get(name))
        for (_parent, child), arc in self.arcs.items():
            arc.set_cut(child in do)
        self.overlay.refresh()
        self.temporal.apply_beliefs()

    def set_node_style(self, node_style: str) -> None:
        """The user's choice of view (bars or compact); bars are drawn as a summary while too small to read."""
        self.node_style = node_style
        self._draw_style(st.shown_style(node_style, self.zoom, self.drawn_style))

    def set_zoom(self, zoom: float) -> None:
        """The views' zoom (1.0 = 100 %): below a readable size, bar nodes are drawn as their summary."""
        self.zoom = zoom
        self._draw_style(st.shown_style(self.node_style, zoom, self.drawn_style))

    def _draw_style(self, style: str) -> None:
        changed = [item for item in self.nodes.values() if item.node_style != style]
        sizes = [item.rect().size() for item in changed]
        self.drawn_style = style
        with deferred():
            for item in changed:
                item.set_style(style)
        # bars <-> summary: same size
        if any(item.rect().size() != size for item, size in zip(changed, sizes, strict=True)):
            place_arcs(self.nodes, self.arcs)
        self.update_scene_rect()

    def node_sizes(self) -> dict[str, tuple[float, float]]:
        return {name: (item.rect().width(), item.rect().height()) for name, item in self.nodes.items()}

    # ------------------------------------------------------------------ selection
    def selected_names(self) -> list[str]:
        return [i.name for i in self.selectedItems() if isinstance(i, NodeItem)]

    def selected_arcs(self) -> list[tuple[str, str]]:
        return [i.key for i in self.selectedItems() if isinstance(i, ArcItem)]

    def select_only(self, names: list[str]) -> None:
        self.clearSelection()
        for name in names:
            self.nodes[name].setSelected(True)

    def _on_selection_changed(self) -> None:
        names = self.selected_names()
        self.current_variable_changed.emit(names[0] if len(names) == 1 else "")
        self.current_utility_changed.emit(self.selected_utility())

    def utility_at(self, pos: QPointF) -> UtilityItem | None:
        for item in self.items(pos):
            if isinstance(item, UtilityItem):
                return item
        return None

    def note_at(self, pos: QPointF) -> NoteItem | None:
        for item in self.items(pos):
            if isinstance(item, NoteItem):
                return item
        return None

    def add_note_at(self, pos: QPointF, text: str) -> bool:
        """A note with ``text`` whose top-left corner is at ``pos`` (one undo step)."""
        return self.document.execute(note_cmd.add_note(self.document, Note(text, pos.x(), pos.y())))

    def edit_note(self, index: int, text: str) -> bool:
        """Note ``index`` now says ``text`` (one undo step; nothing when unchanged)."""
        if text == self.document.notes[index].text:
            return False
        return self.document.execute(note_cmd.edit_note(self.document, index, text))

    def node_at(self, pos: QPointF) -> NodeItem | None:
        for item in self.items(pos):
            if isinstance(item, NodeItem):
                return item
        return None

    # ------------------------------------------------------------------ edits
    def unique_name(self, stem: str = "Node") -> str:
        taken = set(self.document.network.variables)
        if self.document.decisions is not None:
            taken |= set(self.document.decisions.utility_names)
        k = 1
        while f"{stem}{k}" in taken:
            k += 1
        return f"{stem}{k}"

    def add_node_at(self, pos: QPointF) -> str | None:
        name = self.unique_name()
        doc = self.document
        if doc.execute(diagram.checked(doc, lambda: cmd.AddVariable(doc, name, DEFAULT_STATES, (pos.x(), pos.y())))):
            self.select_only([name])
            return name
        return None

    def add_decision_at(self, pos: QPointF) -> str | None:
        """A decision node (yes/no) taken after the others; a plain network becomes an influence diagram."""
        name = self.unique_name("Decision")
        if self.document.execute(diagram.add_decision(self.document, name, DEFAULT_STATES, (pos.x(), pos.y()))):
            self.select_only([name])
            return name
        return None

    def add_utility_at(self, pos: QPointF) -> str | None:
        """A utility node (no parents, utility 0); a plain network becomes an influence diagram."""
        name = self.unique_name("Utility")
        if self.document.execute(diagram.add_utility(self.document, name, (pos.x(), pos.y()))):
            self.clearSelection()
            self.utility_items[name].setSelected(True)
            return name
        return None

    def add_arc(self, parent: str, child: str) -> bool:
        """A network arc, an informational arc (into a decision) or a utility arc (into a utility node)."""
        return self.document.execute(diagram.add_arc(self.document, parent, child))

    def delete_selection(self) -> None:
        """Delete the selected arcs, then the selected nodes (with their arcs), as one undo step."""
        names, arcs = self.selected_names(), self.selected_arcs()
        utilities = [i.name for i in self.selectedItems() if isinstance(i, UtilityItem)]
        notes = [i.index for i in self.selectedItems() if isinstance(i, NoteItem)]
        gone = set(names) | set(utilities)
        arcs = [a for a in arcs if a[0] not in gone and a[1] not in gone]
        if not names and not arcs and not utilities:
            if notes:
                self.document.execute(note_cmd.delete_notes(self.document, notes))
            return
        doc = self.document
        text = f"Delete {len(names) + len(utilities) + len(arcs) + len(notes)} items"
        with doc.grouped(text):
            if notes:
                doc.execute(note_cmd.delete_notes(doc, notes))
            if doc.decisions is not None:
                doc.execute(diagram.delete_items(doc, names, utilities, arcs, text))
                return
            for parent, child in arcs:
                doc.execute(cmd.RemoveArc(doc, parent, child))
            for name in names:
                doc.execute(cmd.RemoveVariable(doc, name))

    def commit_moves(self, text: str = "", mergeable: bool = False) -> bool:
        """Push one MoveNodes command for every node whose item moved away from ``net.positions``."""
        positions = self.document.network.positions
        new, old = {}, {}
        for name, item in self.nodes.items():
            here = (item.pos().x(), item.pos().y())
            before = positions.get(name)
            if before is None or abs(before[0] - here[0]) > 1e-6 or abs(before[1] - here[1]) > 1e-6:
                new[name], old[name] = here, before if before is not None else here
        moved = self._moved_utilities()
        notes = {item.index: (item.pos().x(), item.pos().y()) for item in self.note_items if item.moved}
        if not new and not moved and not notes:
            return False
        doc = self.document
        if not moved and not notes:
            return doc.execute(cmd.MoveNodes(doc, old, new, text, mergeable))
        if not moved and not new:
            return doc.execute(note_cmd.move_notes(doc, notes))
        with doc.grouped(text or f"Move {len(new) + len(moved) + len(notes)} items"):
            if new:
                doc.execute(cmd.MoveNodes(doc, old, new, text, mergeable))
            if moved:
                assert doc.decisions is not None   # utility nodes moved: a diagram is open
                doc.execute(cmd.SetDecisionPart(doc, doc.decisions.with_positions(moved), "Move utility nodes"))
            if notes:
                doc.execute(note_cmd.move_notes(doc, notes))
        return True

    def _moved_utilities(self) -> dict[str, tuple[float, float]]:
        part = self.document.decisions
        if part is None:
            return {}
        moved = {}
        for name, item in self.utility_items.items():
            here, before = (item.pos().x(), item.pos().y()), part.positions.get(name)
            if before is None or abs(before[0] - here[0]) > 1e-6 or abs(before[1] - here[1]) > 1e-6:
                moved[name] = here
        return moved

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            node = self.node_at(event.scenePos())
            if node is not None and (self.tool == ADD_ARC or event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
                self._start_arc(node, event.scenePos())
                event.accept()
                return
            utility = self.utility_at(event.scenePos())
            if utility is not None and self.tool == ADD_ARC:
                self._start_arc(utility, event.scenePos())      # refused on release, with the reason
                event.accept()
                return
            adders = {ADD_NODE: self.add_node_at, ADD_DECISION: self.add_decision_at, ADD_UTILITY: self.add_utility_at}
            if node is None and utility is None and self.tool in adders:
                adders[self.tool](event.scenePos())
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        if self._arc_source is not None and self._preview is not None:   # set together by _start_arc
            self._preview.setLine(QLineF(self._arc_source.pos(), event.scenePos()))
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        if self._arc_source is not None:
            self._finish_arc(event.scenePos())
            return
        super().mouseReleaseEvent(event)
        self.commit_moves()

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        """Double-click: on a note edits it, on empty space adds a node there, on a node's title renames it, on a state's bar sets
        (or clears) that state as evidence, on a node drawn as its summary (zoomed out: its states are too
        small to hit) zooms in to it (:attr:`focus_requested`). A single click only selects: looking at a node
        never changes the evidence."""
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mouseDoubleClickEvent(event)
        note = self.note_at(event.scenePos())
        if note is not None:
            self.note_edit_requested.emit(note.index)
            event.accept()
            return
        node, utility = self.node_at(event.scenePos()), self.utility_at(event.scenePos())
        if utility is not None:
            self.rename_requested.emit(utility.name)
        elif node is None:
            self.add_node_at(event.scenePos())
        elif node.node_style == st.SUMMARY:
            self.focus_requested.emit(node.name)
        elif node.header_rect().contains(node.mapFromScene(event.scenePos())):
            self.rename_requested.emit(node.name)
        else:
            row = node.state_at(node.mapFromScene(event.scenePos()))
            if row is not None:
                self.document.toggle_evidence(node.name, node.states[row])
        event.accept()

    def contextMenuEvent(self, event) -> None:  # Qt override
        items = [i for i in self.items(event.scenePos()) if isinstance(i, (NoteItem, NodeItem, UtilityItem, ArcItem))]
        self.context_menu_requested.emit(items[0] if items else None, event)

    def _start_arc(self, node: NodeItem | UtilityItem, pos: QPointF) -> None:
        self._arc_source = node
        self._preview = preview = QGraphicsLineItem(QLineF(node.pos(), pos))
        preview.setPen(QPen(st.ARC_PREVIEW, 1.6, Qt.PenStyle.DashLine))
        preview.setZValue(5)
        self.addItem(preview)

    def _finish_arc(self, pos: QPointF) -> None:
        source, self._arc_source = self._arc_source, None
        if self._preview is not None:
            self.removeItem(self._preview)
        self._preview = None
        target = self.node_at(pos) or self.utility_at(pos)
        if source is not None and target is not None and target is not source:
            self.add_arc(source.name, target.name)
