"""Issue 25 item 5: declared sizes of a diagram are checked before allocation and the solution has a time budget;
each ends in one line."""
from __future__ import annotations

import json
import time

import pytest

from bnstudio.decision.serial import diagram_from_dict
from bnstudio.decision.solve import solve
from bnstudio.errors import MemoryBudgetExceeded, TimeBudgetExceeded
from tests.hostile.helpers import refused


def _doc(decisions, utilities):
    return {"format": "bnstudio-influence-diagram", "schema_version": 1, "chance": [], "decisions": decisions,
            "utilities": utilities}


def wide(parents: int = 49, chain: int = 1) -> dict:
    """``chain`` decisions W0, W1, ... each observing ``parents`` earlier binary decisions (and the previous W)."""
    decisions = [{"name": f"D{i}", "states": ["a", "b"], "parents": []} for i in range(parents)]
    for c in range(chain):
        decisions.append({"name": f"W{c}", "states": ["a", "b"],
                          "parents": [f"D{i}" for i in range(parents)] + ([f"W{c - 1}"] if c else [])})
    return _doc(decisions, [{"name": f"U{c}", "parents": [f"W{c}"], "table": [1, 0]} for c in range(chain)])


def chain(n: int) -> dict:
    decisions = [{"name": f"D{i}", "states": ["a", "b"], "parents": [f"D{i - 1}"] if i else []} for i in range(n)]
    return _doc(decisions, [{"name": f"U{i}", "parents": [f"D{i}"], "table": [1, 0]} for i in range(n)])


@pytest.mark.parametrize("method", ["auto", "limid"])
@pytest.mark.parametrize("length", [1, 25])
def test_a_decision_with_49_parents_is_refused_before_allocating(method, length):
    diagram = diagram_from_dict(wide(49, length))
    start = time.perf_counter()
    with pytest.raises(MemoryBudgetExceeded, match="policy table of decision 'W0'"):
        solve(diagram, method=method)
    assert time.perf_counter() - start < 10


def test_a_decision_with_too_many_options_is_refused_before_allocating():
    options = [f"s{i}" for i in range(2000)]
    diagram = diagram_from_dict(_doc([{"name": "D", "states": options, "parents": []}],
                                     [{"name": "U", "parents": ["D"], "table": [i % 7 for i in range(2000)]}]))
    with pytest.raises(MemoryBudgetExceeded, match="option cases of decision 'D'"):
        solve(diagram, memory_budget=10**6)
    assert solve(diagram, memory_budget=2**30).best_option("D") == "s6"


def test_a_long_chain_stops_at_the_time_budget():
    diagram = diagram_from_dict(chain(200))
    with pytest.raises(TimeBudgetExceeded, match="time budget"):
        solve(diagram, max_time=0.2)
    assert solve(diagram_from_dict(chain(5)), max_time=60).expected_utility == 5.0


def test_the_command_line_says_each_in_one_line(tmp_path):
    for name, doc, extra, fragment in [("wide.json", wide(49), ["--method", "limid"], "memory budget"),
                                       ("chain.json", chain(200), ["--max-time", "0.2"], "time budget")]:
        path = tmp_path / name
        path.write_text(json.dumps(doc))
        assert fragment in refused("decide", path, *extra)
    assert "--max-time" in refused("decide", tmp_path / "chain.json", "--max-time", "0")
