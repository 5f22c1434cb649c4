"""Issue 42 item 9: a chain of binary decisions under one utility over all of them. Under no-forgetting the last
decision's policy has 2^(n-1) rows of n-1 cells; listing them (``bnstudio decide``, ``to_json``) is sized against
the memory budget before solving, and refused in one line instead of an internal MemoryError minutes later."""
from __future__ import annotations

import json
import time
import tracemalloc

import numpy as np
import pytest

from bnstudio.decision import build_influence_diagram, solve
from bnstudio.decision.plan import LISTED_CELL_BYTES, LISTED_ROW_BYTES, check_listing, plan_no_forgetting
from bnstudio.errors import MemoryBudgetExceeded
from tests.hostile.helpers import bnstudio, refused


def one_utility_chain(n: int):
    """D0 -> D1 -> ... -> D(n-1), binary, one utility U(D0, ..., D(n-1)) = (row-major index) mod 7."""
    decisions = [(f"D{i}", ["a", "b"], [f"D{i - 1}"] if i else []) for i in range(n)]
    table = (np.arange(2 ** n) % 7).reshape((2,) * n).astype(float)
    return build_influence_diagram([], decisions, [("U", [f"D{i}" for i in range(n)], table)], f"chain {n}")


def _as_file(diagram, path):
    """The JSON form of ``one_utility_chain`` (bnstudio.decision.serial) written to ``path``."""
    n = len(diagram.decision_names)
    doc = {"format": "bnstudio-influence-diagram", "schema_version": 1, "chance": [],
           "decisions": [{"name": f"D{i}", "states": ["a", "b"], "parents": [f"D{i - 1}"] if i else []}
                         for i in range(n)],
           "utilities": [{"name": "U", "parents": [f"D{i}" for i in range(n)],
                          "table": diagram.utilities[0].table.tolist()}]}
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("method", ["auto", "no-forgetting"])
def test_listing_a_24_decision_chain_is_refused_before_solving(method):
    diagram = one_utility_chain(24)
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(MemoryBudgetExceeded) as caught:
            solve(diagram, method=method, listed=True)
        elapsed, peak = time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(caught.value)
    assert "\n" not in message and "listing the policies" in message and "decision 'D23'" in message
    assert "8.39e+06 rows over 23 nodes" in message and "LIMID" in message
    # two copies of the 128 MiB utility table (scaled to a unit, solve.unit_utilities), nothing like the 2^24-row
    # listing (31 GiB) or a solution
    assert elapsed < 20 and peak < 2 * 2**27 + 64 * 2**20


def test_the_listing_size_is_counted_from_the_policy_domains():
    """Brute force: the rows and cells of every policy, counted one by one from the plan's domains."""
    diagram = one_utility_chain(6)
    parents = plan_no_forgetting(diagram).parents
    assert parents["D5"] == ("D0", "D1", "D2", "D3", "D4")
    rows = [int(np.prod([2] * len(parents[d]))) for d in diagram.decision_names]
    need = sum(r * LISTED_ROW_BYTES + r * len(parents[d]) * LISTED_CELL_BYTES
               for r, d in zip(rows, diagram.decision_names, strict=True))
    check_listing(diagram, parents, need)  # exactly the need fits
    with pytest.raises(MemoryBudgetExceeded, match="decision 'D5' alone has a policy of 32 rows over 5 nodes"):
        check_listing(diagram, parents, need - 1)


def test_the_listing_estimate_covers_what_listing_really_takes():
    """The estimate is an upper bound of what ``to_json`` and its JSON text hold (tracemalloc) for a chain of 16."""
    diagram = one_utility_chain(16)
    solution = solve(diagram, method="no-forgetting")
    parents = {d: solution.policies[d].parents for d in diagram.decision_names}
    tracemalloc.start()
    try:
        text = json.dumps(solution.to_json())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(text) > 0
    rows = sum(2 ** len(p) for p in parents.values())
    cells = sum(2 ** len(p) * len(p) for p in parents.values())
    assert peak <= rows * LISTED_ROW_BYTES + cells * LISTED_CELL_BYTES


def test_a_chain_whose_listing_fits_is_still_solved_and_listed():
    diagram = one_utility_chain(4)
    solution = solve(diagram, listed=True)
    assert solution.method == "no-forgetting"
    assert solution.expected_utility == pytest.approx(float(diagram.utilities[0].table.max()))
    assert len(solution.policy_rows("D3")) == 8


def test_decide_refuses_a_listing_past_its_budget_in_one_line(tmp_path):
    """16 decisions: the exact tables (about 8 MB) fit 0.04 GiB, listing 2^16 rows over up to 15 nodes does not."""
    path = _as_file(one_utility_chain(16), tmp_path / "chain16.json")
    line = refused("decide", path, "--memory-budget", "0.04", timeout=60)
    assert "listing the policies" in line and "decision 'D15'" in line
    assert bnstudio("decide", path, "--method", "limid", "--memory-budget", "0.04", "--json",
                    timeout=120).returncode == 0
