"""The data panel's one network edit: add the states data values need, as one undoable command."""
from __future__ import annotations

from typing import Sequence

from bnstudio.app.commands.base import EditedDocument, NetworkCommand, restore, snapshot
from bnstudio.errors import ValidationError


class AddDataStates(NetworkCommand):
    """Append ``additions[var]`` (in order) to each variable's states through ``net.add_state``; undo removes
    them and puts every touched family back exactly."""

    def __init__(self, document: EditedDocument, additions: dict[str, Sequence[str]]) -> None:
        n = sum(len(s) for s in additions.values())
        super().__init__(document, f"Add {n} state{'s' if n != 1 else ''} from the data")
        self.additions = {var: tuple(states) for var, states in additions.items() if states}
        net = document.network
        touched = dict.fromkeys(v for var in self.additions for v in [var, *net.children(var)])
        self.families = snapshot(net, list(touched))

    def apply(self) -> None:
        for var, states in self.additions.items():
            clash = [s for s in states if s in self.net.states(var)]
            if clash:
                raise ValidationError(f"'{var}' already has the state(s) {', '.join(clash)}")
        done: list[tuple[str, str]] = []
        try:
            for var, states in self.additions.items():
                for state in states:
                    self.net.add_state(var, state)
                    done.append((var, state))
        except Exception:
            self._remove(done)
            raise

    def revert(self) -> None:
        self._remove([(var, s) for var, states in self.additions.items() for s in states])

    def _remove(self, added: list[tuple[str, str]]) -> None:
        for var, state in reversed(added):
            self.net.remove_state(var, state)
        restore(self.net, self.families)
