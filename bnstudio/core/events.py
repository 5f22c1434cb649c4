"""Plain-Python change events emitted by :class:`~bnstudio.core.network.Network`.

Listeners (GUI adapters, compiled inference engines) subscribe with a callable taking an :class:`Event`.
Structural edits are announced twice: ``phase="before"`` (the network is still unchanged) and
``phase="after"``. Parameter edits (CPT, alpha) are also sent before/after, with ``structural=False``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

Listener = Callable[["Event"], None]


@dataclass(frozen=True)
class Event:
    """One change. ``kind`` is the edit's name (e.g. ``"add_arc"``), ``data`` its arguments."""

    kind: str
    phase: str  # "before" | "after"
    structural: bool
    data: dict[str, Any] = field(default_factory=dict)


class EventEmitter:
    """A minimal subscribe/emit hub; listeners are called in subscription order."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(event)`` on every future event."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``; unknown listeners are ignored."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def emit(self, event: Event) -> None:
        for listener in list(self._listeners):
            listener(event)
