"""The study view's table marks a partial cell (fewer runs than the study asks for) as the report does: "†", a
tooltip saying how many runs finished, never the row's best."""
from __future__ import annotations

from PySide6.QtCore import Qt

from bnstudio.gui.study_view.table_model import StudyTableModel


def test_a_partial_cell_is_marked_and_never_the_best(qtbot):
    table = {"columns": ["nb+mp", "nb+clgd"], "pairs": [["nb", "mp"], ["nb", "clgd"]], "datasets": ["child"],
             "runs_unit": "folds",
             "cells": {"child|nb|mp": {"mean": 0.134, "sd": 0.01, "n": 5, "runs": 5, "expected": 5, "partial": False},
                       "child|nb|clgd": {"mean": 0.120, "sd": 0.02, "n": 4, "runs": 4, "expected": 5,
                                         "partial": True}}}
    model = StudyTableModel()
    model.set_table("error", table, {})
    partial, complete = model.index(0, 1), model.index(0, 0)
    assert model.data(partial, Qt.DisplayRole).endswith("†")
    assert "4 finished run(s) of 5: partial" in model.data(partial, Qt.ToolTipRole)
    assert model.data(partial, Qt.FontRole) is None and model.data(complete, Qt.FontRole).bold()
