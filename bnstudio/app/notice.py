"""A plain event of the application model (docs/architecture.md §7): listeners
are called in the order they connected, synchronously, with what :meth:`Notice.emit` is given. The Qt
adapters connect one listener per notice that re-emits it as a Qt signal."""
from __future__ import annotations

from typing import Any, Callable


class Notice:
    """Something that happened to a model object (the document changed its network, the history moved...)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[..., Any]] = []

    def connect(self, listener: Callable[..., Any]) -> None:
        self._listeners.append(listener)

    def disconnect(self, listener: Callable[..., Any]) -> None:
        """Forget ``listener`` (its first connection); unknown listeners are ignored."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def emit(self, *args: Any) -> None:
        for listener in list(self._listeners):
            listener(*args)
