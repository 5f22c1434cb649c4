"""The defaults table of docs/experiments.md and its stated tolerance (issue 35): the c = 0 fits stop at the
iteration cap, so their cells (and the inner hold-out's) move between machines; benchmarks/defaults_check.py
compares a run with the table within the tolerance the page states."""
from __future__ import annotations

import re
from pathlib import Path

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "experiments.md").read_text(encoding="utf-8")


def _checker():
    return load_script("benchmarks/defaults_check.py", "defaults_check")


def _rows(table, sizes, changed=None):
    """One task row per TAN cell (a single fold of N rows) giving the table's errors, ``changed`` ones replaced."""
    changed = changed or {}
    return [{"dataset": d, "method": m, "structure": "tan", "status": "done",
             "metrics": {"error": changed.get((d, m), value) / 100, "n": sizes.get(d, 1000)}}
            for (d, m), value in table.items()]


def test_the_docs_table_is_read_whole():
    check = _checker()
    table = check.documented(DOCS)
    assert len(table) == 24 * 5
    assert [table["corral", m] for m in check.METHODS] == [0.8, 0.0, 0.0, 0.0, 0.0]
    assert table["alarm-HYPOVOLEMIA-n300", "clgd-c0"] == 15.7


def test_the_page_states_the_tolerance_the_checker_applies():
    check = _checker()
    text = " ".join(DOCS.split())
    assert f"c = 0 cells are within {check.ROWS_ALLOWED['clgd-c0']} held-out rows" in text
    assert f"its auto cells within {check.ROWS_ALLOWED['clgd-auto']}," in text
    assert set(check.ROWS_ALLOWED) == {"clgd-c0", "clgd-auto"}       # the other columns: no row
    assert "the other numbers do not" not in text and "benchmarks/defaults_check.py defaults.sqlite" in text


def test_cells_are_checked_within_rows_of_their_data_set():
    check = _checker()
    table = check.documented(DOCS)
    sizes = {"alarm-HYPOVOLEMIA-n300": 300, "child-Sick-n2000": 2000}
    assert check.moved(table, check.measured(_rows(table, sizes))) == []
    # 29.55 % is the table's 29.5 at its precision; 3 rows of 300 on c = 0 and 8 on auto are within
    near = {("child-Sick-n2000", "clgd-c1"): 29.55, ("alarm-HYPOVOLEMIA-n300", "clgd-c0"): 15.7 - 100 * 3 / 300,
            ("alarm-HYPOVOLEMIA-n300", "clgd-auto"): 10.0 - 100 * 8 / 300}
    found = check.moved(table, check.measured(_rows(table, sizes, near)))
    assert [(d, m) for d, m, *_ in found] == [("alarm-HYPOVOLEMIA-n300", "clgd-auto"),
                                               ("alarm-HYPOVOLEMIA-n300", "clgd-c0")]
    assert all(abs(error - value) <= allowed for _, _, value, error, allowed in found)
    # 5 rows on c = 0, one row on mp (closed form: no tolerance), a cell missing from the run: outside
    far = {("alarm-HYPOVOLEMIA-n300", "clgd-c0"): 15.7 + 100 * 5 / 300, ("alarm-HYPOVOLEMIA-n300", "mp"): 9.3 + 100 / 300}
    rows = [r for r in _rows(table, sizes, far) if (r["dataset"], r["method"]) != ("wine", "clgd-c10")]
    found = {(d, m): (error, allowed) for d, m, _, error, allowed in check.moved(table, check.measured(rows))}
    assert set(found) == {("alarm-HYPOVOLEMIA-n300", "clgd-c0"), ("alarm-HYPOVOLEMIA-n300", "mp"), ("wine", "clgd-c10")}
    assert all(error is None or abs(error - table[cell]) > allowed for cell, (error, allowed) in found.items())


class _Store:
    """A study file holding ``rows`` (what the command reads of it)."""

    rows_held: list = []

    def __init__(self, *args, **kwargs) -> None: ...

    def __enter__(self) -> "_Store":
        return self

    def __exit__(self, *exc) -> None: ...

    def rows(self) -> list:
        return self.rows_held


def test_the_command_says_which_cells_differ_and_fails_outside_the_tolerance(monkeypatch, capsys):
    check = _checker()
    table = check.documented(DOCS)
    monkeypatch.setattr("bnstudio.experiment.store.StudyStore", _Store)
    monkeypatch.setattr(_Store, "rows_held", _rows(table, {}, {("iris", "mp"): 5.4}))
    assert check.main(["defaults.sqlite"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^iris mp: 5\.3 -> 5\.40 \(outside ±0\.05\)$", out, re.M) and "1 of 120 cells differ" in out
    monkeypatch.setattr(_Store, "rows_held", _rows(table, {}, {("iris", "clgd-c0"): 7.5}))
    assert check.main(["defaults.sqlite"]) == 0
    assert "iris clgd-c0: 7.3 -> 7.50 (within ±0.45)" in capsys.readouterr().out
