"""Issue 42 item 9: a chain of binary decisions under one utility over all of them. Under no-forgetting the last
decision's policy has 2^(n-1) rows of n-1 cells; listing them (``bnstudio decide``, ``to_json``) is sized against
the memory budget before solving, and refused in one line instead of an internal MemoryError minutes later."""
from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from bnstudio.decision import build_influence_diagram, solve
from bnstudio.decision.plan import LISTED_CELL_BYTES, LISTED_ROW_BYTES, check_listing, plan_no_forgetting
from bnstudio.errors import MemoryBudgetExceeded
from tests.hostile.diagram_chains import write_net_chain, write_xdsl_chain
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


def _write_chain_lazily(n: int, path, block_depth: int = 12):
    """The JSON file of ``one_utility_chain(n)``'s structure with a utility table of 2^n numbers written block by
    block (values (index mod 7) within each block of 2^block_depth): no 2^n-entry object in this process."""
    def nested(values: list[str]) -> str:
        while len(values) > 1:
            values = [f"[{a},{b}]" for a, b in zip(values[::2], values[1::2], strict=True)]
        return values[0]

    block = nested([str(k % 7) for k in range(2 ** block_depth)])

    def write(fh, depth: int) -> None:
        if depth == block_depth:
            fh.write(block)
            return
        fh.write("[")
        write(fh, depth - 1)
        fh.write(",")
        write(fh, depth - 1)
        fh.write("]")

    decisions = [{"name": f"D{i}", "states": ["a", "b"], "parents": [f"D{i - 1}"] if i else []} for i in range(n)]
    head = json.dumps({"format": "bnstudio-influence-diagram", "schema_version": 1, "chance": [],
                       "decisions": decisions})
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(head[:-1] + ', "utilities": [{"name": "U", "parents": '
                 + json.dumps([f"D{i}" for i in range(n)]) + ', "table": ')
        write(fh, n)
        fh.write("}]}")
    return path


@pytest.mark.timeout(180)
@pytest.mark.parametrize("suffix", [".json", ".net", ".xdsl"])
def test_decide_refuses_the_24_chain_file_before_parsing_its_table(tmp_path, suffix):
    """Issue 42 item 9: the file (2^24 utilities, 30-70 MB) took 25-40 s and 2.8 GB before the refusal as JSON,
    52 s and 5.8 GB as NET, 8 s and 1 GB as XDSL, all in parsing the table; its outline (names, states, parents,
    node kinds) is sized first: one line in seconds."""
    import subprocess
    import sys

    write = {".json": _write_chain_lazily, ".net": write_net_chain, ".xdsl": write_xdsl_chain}[suffix]
    path = write(24, tmp_path / f"chain24{suffix}")
    assert path.stat().st_size > 30 * 2**20
    if not Path("/proc/self/status").is_file():
        pytest.skip("the peak memory of a process is read from /proc/self/status (Linux)")
    # VmHWM: the peak of this program's own memory (ru_maxrss would also count the pytest process it forked from)
    script = ("import sys\nfrom bnstudio.cli.main import main\ncode = main(sys.argv[1:])\n"
              "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\nsys.exit(code)")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, "decide", str(path)], capture_output=True, text=True,
                          timeout=110)
    elapsed = time.perf_counter() - start
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("bnstudio: error: "), done.stderr
    assert "listing the policies" in lines[0] and "decision 'D23'" in lines[0]
    peak_kib = int(done.stdout.split()[-1])
    assert peak_kib < 400 * 1024, peak_kib   # the file's bytes and the program; parsing the table took 2.8 GB
    assert elapsed < 10, elapsed


@pytest.mark.parametrize("suffix", [".json", ".net", ".xdsl"])
def test_the_outline_is_sized_as_the_diagram(tmp_path, suffix):
    """The outline read without the tables plans, lists and refuses exactly as the diagram read from the same
    file: at the plan's need both pass, one byte short both give the same line."""
    from bnstudio.decision.solve import presize
    from bnstudio.io import read_model, write_influence_diagram
    from bnstudio.io.diagram_outline import read_outline
    from tests.decision.test_budget import hidden_chain
    from tests.hostile.helpers import OIL

    for k, written in enumerate([one_utility_chain(6), hidden_chain(5), read_model(OIL)]):
        path = tmp_path / f"d{k}{suffix}"
        write_influence_diagram(written, path)
        diagram = read_model(path)
        outline = read_outline(path)
        assert outline is not None and diagram.variables == outline.variables
        assert outline.decisions == diagram.decisions
        assert [(u.name, u.parents) for u in outline.utilities] == [(u.name, u.parents) for u in diagram.utilities]
        plan = plan_no_forgetting(diagram)
        assert plan_no_forgetting(outline) == plan
        need = 8 * max(plan.peak, plan.after)
        presize(outline, None, "no-forgetting", need)
        presize(diagram, None, "no-forgetting", need)
        lines = []
        for structure in (outline, diagram):
            with pytest.raises(MemoryBudgetExceeded) as caught:
                presize(structure, None, "no-forgetting", need - 1)
            lines.append(str(caught.value))
        assert lines[0] == lines[1]


@pytest.mark.parametrize("suffix", [".net", ".xdsl"])
def test_a_network_file_has_no_outline(tmp_path, suffix):
    """A Bayesian network (no decision or utility node) is left to the reader, which names what decide needs."""
    from bnstudio.io import read_network, write_network
    from bnstudio.io.diagram_outline import read_outline
    from tests.hostile.helpers import ASIA

    path = tmp_path / f"asia{suffix}"
    write_network(read_network(ASIA), path)
    assert read_outline(path) is None
    assert "nothing to decide" in refused("decide", path, timeout=60)


def test_a_malformed_table_is_still_named_by_the_reader(tmp_path):
    """The outline is no judge: a diagram that fits with a string in its utility table gets the reader's line."""
    path = _as_file(one_utility_chain(3), tmp_path / "bad.json")
    path.write_text(path.read_text().replace("[[[0.0, 1.0]", '[[["zero", 1.0]', 1))
    line = refused("decide", path, timeout=60)
    assert "'zero' is not a number" in line and "bad.json" in line


@pytest.mark.parametrize("suffix", [".net", ".xdsl"])
def test_a_malformed_network_file_table_is_still_named_by_the_reader(tmp_path, suffix):
    """As for JSON: the NET and XDSL outlines cut the numbers out unread; the reader names a bad one."""
    write = {".net": write_net_chain, ".xdsl": write_xdsl_chain}[suffix]
    path = write(3, tmp_path / f"bad{suffix}")
    text = path.read_text()
    path.write_text(text.replace("0 1 2", "0 zero 2", 1).replace("(0 1)", "(0 zero)", 1))
    line = refused("decide", path, timeout=60)
    assert "zero" in line and f"bad{suffix}" in line
