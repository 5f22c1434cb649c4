"""The application model's document without Qt (bnstudio/app/document.py, docs/architecture.md §3.3): edits
through the plain history, its notices, unsaved work and saving."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.app import commands as cmd
from bnstudio.app.commands.diagram_edits import make_chance
from bnstudio.app.document import Document
from bnstudio.app.resources import demo_network
from bnstudio.errors import UnknownVariableError


def test_an_edit_is_one_step_with_its_notices_and_undo_puts_it_back():
    document = Document(demo_network())
    told: list[str] = []
    document.network_changed.connect(lambda event: told.append(event.kind))
    document.beliefs_changed.connect(lambda: told.append("beliefs"))
    assert not document.modified
    assert document.execute(cmd.AddVariable(document, "extra", ["a", "b"], (0.0, 0.0)))
    assert "extra" in document.network and document.history.count() == 1
    assert "add_variable" in told and told[-1] == "beliefs" and "extra" in document.posteriors()
    assert document.unsaved_work() == ["network edits"]
    document.history.undo()
    assert "extra" not in document.network and not document.modified


def test_a_refused_edit_is_said_and_recorded_nowhere():
    document = Document(demo_network())
    said: list[tuple[str, str]] = []
    document.message.connect(lambda level, text: said.append((level, text)))
    assert not document.execute(cmd.AddArc(document, "dysp", "asia"))     # a cycle: asia -> ... -> dysp
    assert document.history.count() == 0 and said[-1][0] == "error" and document.refusal


def test_a_finding_is_an_undo_step_but_not_a_network_edit(tmp_path):
    document = Document(demo_network())
    assert document.set_finding("xray", "yes")
    assert document.history.count() == 1 and document.unsaved_parts().keys() == {"evidence"}
    path = tmp_path / "asia.bnsproj"
    document.save(path)
    assert not document.modified and document.history.is_clean() and document.path == path


def test_decision_edits_of_a_plain_network_name_what_is_missing():
    """A plain network has no decision part (``decisions`` is None): its edits say which name is unknown."""
    document = Document(demo_network())
    with pytest.raises(UnknownVariableError, match="'xray' is not a decision"):
        make_chance(document, "xray")
    with pytest.raises(UnknownVariableError, match="unknown utility node 'payoff'"):
        cmd.set_utility_table(document, "payoff", np.zeros(2))
    assert document.decisions is None and document.history.count() == 0
