"""The plain undo history (bnstudio/app/history.py, docs/architecture.md §3.3): execute, undo, redo, groups,
merges, the clean state and the index-changed notices, without Qt."""
from __future__ import annotations

import pytest

from bnstudio.app.history import History


class Append:
    """Appends ``value`` to ``log`` (a refused one raises before changing anything)."""

    def __init__(self, log: list, value: int, refuse: bool = False) -> None:
        self.log, self.value, self.refuse, self.text = log, value, refuse, f"append {value}"

    def redo(self) -> None:
        if self.refuse:
            raise ValueError("refused")
        self.log.append(self.value)

    def undo(self) -> None:
        assert self.log.pop() == self.value


class Nudge(Append):
    """Merges with a following nudge: the merged step undoes both."""

    def merge(self, other) -> bool:
        if not isinstance(other, Nudge):
            return False
        self.merged = getattr(self, "merged", []) + [other]
        return True

    def undo(self) -> None:
        for other in reversed(getattr(self, "merged", [])):
            other.undo()
        super().undo()


def test_execute_undo_redo_and_the_index_notices():
    log, moves, history = [], [], History()
    history.index_changed.connect(moves.append)
    history.execute(Append(log, 1))
    history.execute(Append(log, 2))
    assert log == [1, 2] and history.count() == 2 and history.index() == 2
    assert history.undo_text() == "append 2" and history.can_undo() and not history.can_redo()
    history.undo()
    assert log == [1] and history.redo_text() == "append 2"
    history.redo()
    assert log == [1, 2] and moves == [1, 2, 1, 2]
    history.set_index(0)
    assert log == [] and moves[-1] == 0 and not history.can_undo()


def test_a_refused_command_is_not_recorded():
    log, history = [], History()
    with pytest.raises(ValueError):
        history.execute(Append(log, 1, refuse=True))
    assert history.count() == 0 and log == []


def test_a_new_command_after_undo_drops_the_undone_ones():
    log, history = [], History()
    history.execute(Append(log, 1))
    history.execute(Append(log, 2))
    history.undo()
    history.execute(Append(log, 3))
    assert log == [1, 3] and [history.text(i) for i in range(history.count())] == ["append 1", "append 3"]


def test_a_group_is_one_step_and_an_empty_group_none():
    log, moves, history = [], [], History()
    history.index_changed.connect(moves.append)
    with history.grouped("both"):
        history.execute(Append(log, 1))
        with history.grouped("inner"):
            history.execute(Append(log, 2))
    assert history.count() == 1 and history.text(0) == "both" and moves == [1]
    with history.grouped("nothing"):
        with pytest.raises(ValueError):
            history.execute(Append(log, 3, refuse=True))
    assert history.count() == 1 and moves == [1]
    history.undo()
    assert log == [] and history.index() == 0
    history.redo()
    assert log == [1, 2]


def test_merging_commands_make_one_step_but_never_into_the_saved_state():
    log, history = [], History()
    history.execute(Nudge(log, 1))
    history.execute(Nudge(log, 2))
    assert history.count() == 1 and log == [1, 2]
    history.set_clean()
    history.execute(Nudge(log, 3))          # the saved step stays as saved: a new step
    assert history.count() == 2
    history.undo()
    history.undo()
    assert log == []


def test_the_clean_state_and_its_notices():
    log, clean, history = [], [], History()
    history.clean_changed.connect(clean.append)
    assert history.is_clean()
    history.execute(Append(log, 1))
    history.set_clean()
    history.undo()
    history.redo()
    assert history.is_clean() and clean == [False, True, False, True]
    history.undo()
    history.execute(Append(log, 2))        # the saved state can never come back
    assert history.clean_index() == -1 and not history.is_clean()
    history.reset_clean()
    history.clear()
    assert history.is_clean() and history.count() == 0 and clean[-1] is True
