"""Moving nodes: a drag of several nodes is one command pushed on mouse release; keyboard nudges of the same
selection merge into one (:meth:`MoveNodes.merge`, which :class:`bnstudio.app.history.History` calls)."""
from __future__ import annotations

from typing import Any

from bnstudio.app.commands.base import EditedDocument, NetworkCommand

Positions = dict[str, tuple[float, float]]


class MoveNodes(NetworkCommand):
    """Set ``net.positions`` of some nodes; ``mergeable`` commands on the same nodes merge."""

    def __init__(self, document: EditedDocument, old: Positions, new: Positions, text: str = "",
                 mergeable: bool = False) -> None:
        names = sorted(new)
        label = names[0] if len(names) == 1 else f"{len(names)} nodes"
        super().__init__(document, text or f"Move {label}")
        self.old, self.new, self.mergeable = dict(old), dict(new), mergeable

    def _set(self, positions: Positions) -> None:
        for name, (x, y) in positions.items():
            if name in self.net:
                self.net.positions[name] = (float(x), float(y))
        self.document.positions_changed.emit(sorted(positions))

    def apply(self) -> None:
        self._set(self.new)

    def revert(self) -> None:
        self._set(self.old)

    def merge(self, other: Any) -> bool:
        """Fold ``other`` into this step when both are mergeable moves of the same nodes."""
        if not (self.mergeable and isinstance(other, MoveNodes) and other.mergeable
                and set(other.new) == set(self.new)):
            return False
        self.new.update(other.new)
        return True
