"""Small samples: columns showing only some of a network's states, or a single value, are data like any other
(ALARM with 200 rows: PULMEMBOLUS is always FALSE); messages listing data values stay short."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli.main import main
from bnstudio.core.network import Network
from bnstudio.data import UnknownDataStates, align, read_csv
from bnstudio.io import read_network

ROOT = Path(__file__).resolve().parents[2] / "resources"
ALARM = ROOT / "networks" / "alarm.bif"


@pytest.fixture(scope="module", params=["first", "constant"])
def alarm200(request, tmp_path_factory) -> Path:
    """200 rows of resources/data/alarm.csv: the first 200 (PULMEMBOLUS is TRUE once), or the first 200 where
    PULMEMBOLUS is FALSE (a constant column; some other columns show only some of their states)."""
    lines = (ROOT / "data" / "alarm.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    if request.param == "constant":
        k = lines[0].rstrip("\n").split(",").index("PULMEMBOLUS")
        lines = lines[:1] + [line for line in lines[1:] if line.rstrip("\n").split(",")[k] == "FALSE"]
    path = tmp_path_factory.mktemp("small") / f"alarm200_{request.param}.csv"
    path.write_text("".join(lines[:201]), encoding="utf-8")
    return path


@pytest.fixture
def constant200(alarm200) -> Path:
    if "constant" not in alarm200.name:
        pytest.skip("the constant sample only")
    return alarm200


def test_a_constant_column_reads_as_one_state_and_aligns_to_the_network_states(constant200):
    ds = read_csv(constant200)
    assert ds.column_states("PULMEMBOLUS") == ("FALSE",)
    net = read_network(ALARM)
    aligned = align(ds, net)
    k = net.variables.index("PULMEMBOLUS")
    assert aligned.network.states("PULMEMBOLUS") == net.states("PULMEMBOLUS") == ("TRUE", "FALSE")
    assert (aligned.codes[:, k] == 1).all()  # FALSE is the network's second state


@pytest.mark.parametrize("argv", [
    ["fit", "{net}", "{data}", "--method", "mp", "-o", "{out}/fit.bif"],
    ["fit", "{net}", "{data}", "--method", "ml", "-o", "{out}/fit.bnsproj"],
    ["evaluate", "{net}", "{data}", "--target", "BP"],
    ["errorbars", "{net}", "--data", "{data}", "--target", "PULMEMBOLUS=TRUE"],
    ["learn", "{data}", "--algorithm", "chow-liu", "-o", "{out}/learned.bif"],
    ["learn", "{data}", "--algorithm", "nb", "--target", "PULMEMBOLUS", "-o", "{out}/nb.bif"],
], ids=lambda argv: " ".join(a for a in argv[:4] if not a.startswith("{")))
def test_the_cli_accepts_alarm_with_200_rows(alarm200, tmp_path, capsys, argv):
    status = main([a.format(net=ALARM, data=alarm200, out=tmp_path) for a in argv])
    err = capsys.readouterr().err
    assert status == 0, err
    assert "allow_constant" not in err and "internal error" not in err


def test_ten_thousand_unknown_values_give_a_short_message_quickly(tmp_path):
    """The issue: 10^5 unknown values made one 8.5 MB error line (and one scan of the data per value)."""
    net = Network("n")
    net.add_variable("A", ["a", "b"])
    net.add_variable("B", ["x", "y"])
    n = 10_000
    rows = [f"v{i},x" for i in range(n)] + ["a,z"] * 3 + ["b,zz"]
    path = tmp_path / "d.csv"
    path.write_text("A,B\n" + "\n".join(rows) + "\n")
    started = time.perf_counter()
    with pytest.raises(UnknownDataStates) as info:
        align(read_csv(path), net)
    assert time.perf_counter() - started < 5
    message = str(info.value)
    assert len(message) < 800 and "\n" not in message, message
    assert message.startswith("data values that are not states of the network: column 'A' value 'v0' (1 row: "
                              "line 2); column 'A' value 'v1' (1 row: line 3);")
    assert message.endswith(f"and {n + 2 - 5:,} more ({n + 2:,} values in all, in columns 'A', 'B') (align with "
                            "extend_states=True to add them)")
    problems = info.value.problems  # every value is still there for the GUI's dialog
    assert len(problems) == n + 2
    z = next(p for p in problems if p.value == "z")
    assert (z.column, z.count, z.where) == ("B", 3, f"lines {n + 2}, {n + 3}, {n + 4}")


def test_the_first_rows_of_each_unknown_value_are_found_exactly():
    """Vectorised row finding against a scan per value."""
    from bnstudio.data import Dataset

    rng = np.random.default_rng(3)
    codes = rng.integers(-1, 8, size=(300, 1))
    ds = Dataset(["A"], [tuple(f"s{k}" for k in range(8))], codes)
    net = Network("n")
    net.add_variable("A", ["s0", "s1"])
    with pytest.raises(UnknownDataStates) as info:
        align(ds, net)
    for p in info.value.problems:
        rows = np.flatnonzero(codes[:, 0] == int(p.value[1:]))
        assert p.count == rows.size
        assert p.where == ds.describe_rows(rows)
    firsts = [int(np.flatnonzero(codes[:, 0] == int(p.value[1:]))[0]) for p in info.value.problems]
    assert firsts == sorted(firsts)  # in order of first appearance


def test_other_listings_are_cut(tmp_path):
    from bnstudio.data import Dataset
    from bnstudio.errors import UnknownVariableError

    names = [f"column{k}" for k in range(1000)]
    ds = Dataset(names, [("a",)] * 1000, np.zeros((1, 1000), dtype=int))
    with pytest.raises(UnknownVariableError) as info:
        ds.index("nope")
    assert str(info.value) == ("the data have no column 'nope' (columns: column0, column1, column2, column3, "
                               "column4 and 995 more)")
    path = tmp_path / "o.csv"
    path.write_text("L\n" + "\n".join(f"v{k}" for k in range(1000)) + "\n")
    with pytest.raises(Exception) as info:
        read_csv(path, state_order={"L": [f"s{k}" for k in range(500)]})
    assert len(str(info.value)) < 300 and "'s4' and 495 more): 'v0'" in str(info.value)
    assert str(info.value).endswith("'v101' and 995 more")
