"""The undo history of a document, without Qt (docs/architecture.md §7).

A command is a plain object with ``text``, ``redo()`` and ``undo()`` (and optionally ``merge(other) -> bool``,
which folds a later command into it, as keyboard nudges of the same nodes are). :meth:`History.execute` runs
``redo()`` first: a command that raises is not recorded. Commands executed inside :meth:`History.grouped` form
one step (an empty group leaves no step). The clean state is the index at which the document was last saved
(-1: unreachable); ``index_changed`` and ``clean_changed`` tell listeners (the Qt adapter re-emits them).
"""
from __future__ import annotations

import contextlib
from typing import Iterator, Protocol

from bnstudio.app.notice import Notice


class Command(Protocol):
    """One undoable step."""

    text: str

    def redo(self) -> None: ...

    def undo(self) -> None: ...


class Group:
    """Several commands undone and redone as one step."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.children: list[Command] = []

    def redo(self) -> None:
        for command in self.children:
            command.redo()

    def undo(self) -> None:
        for command in reversed(self.children):
            command.undo()


class History:
    """The commands done and undone, the current index and the clean index (see the module docstring)."""

    def __init__(self) -> None:
        self._commands: list[Command] = []
        self._index = 0
        self._clean = 0
        self._groups: list[Group] = []
        self.index_changed = Notice()    # (index): after every execute, undo, redo or clear
        self.clean_changed = Notice()    # (clean): when is_clean() flips

    # ------------------------------------------------------------------ reading
    def count(self) -> int:
        return len(self._commands)

    def index(self) -> int:
        """How many commands are done (the next undo undoes command ``index() - 1``)."""
        return self._index

    def command(self, i: int) -> Command | None:
        return self._commands[i] if 0 <= i < len(self._commands) else None

    def text(self, i: int) -> str:
        command = self.command(i)
        return command.text if command is not None else ""

    def can_undo(self) -> bool:
        return self._index > 0 and not self._groups

    def can_redo(self) -> bool:
        return self._index < len(self._commands) and not self._groups

    def undo_text(self) -> str:
        return self.text(self._index - 1) if self.can_undo() else ""

    def redo_text(self) -> str:
        return self.text(self._index) if self.can_redo() else ""

    def is_clean(self) -> bool:
        return self._index == self._clean

    def clean_index(self) -> int:
        return self._clean

    # ------------------------------------------------------------------ changing
    def execute(self, command: Command) -> None:
        """``command.redo()`` then record it (merged into the last step when that one accepts it); an exception
        from ``redo`` propagates and records nothing."""
        command.redo()
        if self._groups:
            self._groups[-1].children.append(command)
            return
        self._record(command)

    def _record(self, command: Command) -> None:
        was_clean = self.is_clean()
        last = self.command(self._index - 1)
        merge = getattr(last, "merge", None)
        if last is not None and self._index == len(self._commands) and self._index != self._clean \
                and merge is not None and merge(command):
            self.index_changed.emit(self._index)
            return
        del self._commands[self._index:]
        if self._clean > self._index:
            self._clean = -1   # the saved state was undone and is now replaced: it cannot come back
        self._commands.append(command)
        self._index += 1
        self._moved(was_clean)

    @contextlib.contextmanager
    def grouped(self, text: str) -> Iterator[None]:
        """Commands executed inside the block are one step named ``text`` (nested blocks join the outer one)."""
        self._groups.append(Group(text))
        try:
            yield
        finally:
            group = self._groups.pop()
            if group.children:
                if self._groups:
                    self._groups[-1].children.append(group)
                else:
                    self._record(group)

    def undo(self) -> None:
        if self.can_undo():
            self.set_index(self._index - 1)

    def redo(self) -> None:
        if self.can_redo():
            self.set_index(self._index + 1)

    def set_index(self, index: int) -> None:
        """Undo or redo until ``index`` commands are done (one ``index_changed``)."""
        index = max(0, min(index, len(self._commands)))
        if index == self._index or self._groups:
            return
        was_clean = self.is_clean()
        while self._index > index:
            self._index -= 1
            self._commands[self._index].undo()
        while self._index < index:
            self._commands[self._index].redo()
            self._index += 1
        self._moved(was_clean)

    def set_clean(self) -> None:
        """The state now is the saved one."""
        was_clean = self.is_clean()
        self._clean = self._index
        if not was_clean:
            self.clean_changed.emit(True)

    def reset_clean(self) -> None:
        """No state of the history is saved (a restored recovery copy)."""
        was_clean = self.is_clean()
        self._clean = -1
        if was_clean:
            self.clean_changed.emit(False)

    def clear(self) -> None:
        """Forget every command; the empty history is clean."""
        was_clean = self.is_clean()
        self._commands, self._index, self._clean, self._groups = [], 0, 0, []
        self._moved(was_clean)

    def _moved(self, was_clean: bool) -> None:
        self.index_changed.emit(self._index)
        if self.is_clean() != was_clean:
            self.clean_changed.emit(self.is_clean())
