"""Issue 25 items 2, 3, 4, 11: malformed entries, utilities near the float limits, huge integers, utilities given
as strings or booleans, in influence-diagram JSON files."""
from __future__ import annotations

import json

import numpy as np
import pytest

from bnstudio.decision.model import UtilityNode
from bnstudio.decision.solve import solve
from bnstudio.errors import FormatError, ValidationError
from bnstudio.io import read_model
from tests.hostile.helpers import OIL, bnstudio, oil, refused


def _set(path: list, value):
    def edit(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return edit


MALFORMED = [
    ("no-name.json", _set(["chance", 0, "name"], KeyError)),
    ("list-name.json", _set(["chance", 0, "name"], [])),
    ("dict-name.json", _set(["chance", 1, "name"], {"a": 1})),
    ("decision-list-name.json", _set(["decisions", 0, "name"], [1])),
    ("string-utility.json", _set(["utilities", 0, "table"], ["200", 0])),
    ("bool-utility.json", _set(["utilities", 0, "table"], [True, 0])),
    ("bool-cpt.json", _set(["chance", 0, "cpt"], [True, False, False])),
]


@pytest.mark.parametrize("name, edit", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_entries_are_a_format_error(tmp_path, name, edit):
    with pytest.raises(FormatError):
        read_model(oil(tmp_path, name, edit))


@pytest.mark.parametrize("command", ["info", "decide", "convert"])
def test_malformed_entries_are_one_line_from_every_command(tmp_path, command):
    for name, edit in MALFORMED[:2] + MALFORMED[4:5]:
        path = oil(tmp_path, name, edit)
        extra = [tmp_path / "out.xdsl"] if command == "convert" else []
        assert "chance[0]" in refused(command, path, *extra) or "utilities[0]" in refused(command, path, *extra)


def test_a_401_digit_integer_utility_is_refused(tmp_path):
    path = tmp_path / "int.json"
    path.write_text(OIL.read_text().replace("[-10, 0]", "[" + "9" * 401 + ", 0]"))
    with pytest.raises(FormatError, match="float range"):
        read_model(path)
    assert "float range" in refused("decide", path)


def test_utility_node_refuses_strings_booleans_and_huge_integers():
    for table in (["200", 0.0], [True, 0.0], [10 ** 400, 0], np.array(["1", "2"])):
        with pytest.raises(ValidationError):
            UtilityNode("U", ("D",), table)
    assert UtilityNode("U", ("D",), [np.int64(3), 2.5]).table.tolist() == [3.0, 2.5]


def _payoff(table, cost=(0, 0)):
    def edit(data):
        data["utilities"][1]["table"] = table
        data["utilities"][0]["table"] = list(cost)
    return edit


@pytest.mark.parametrize("scale", [1e307, 1e300, 1e-300])
def test_utilities_near_the_float_limits_are_computed_right(tmp_path, scale):
    small = read_model(oil(tmp_path, "small.json", _payoff([[-0.7, 0.5, 1.2], [0, 0, 0]], (-0.01, 0))))
    large = read_model(oil(tmp_path, "large.json", _payoff([[-0.7 * scale, 0.5 * scale, 1.2 * scale], [0, 0, 0]],
                                                           (-0.01 * scale, 0))))
    a, b = solve(small), solve(large)
    assert b.expected_utility == pytest.approx(a.expected_utility * scale, rel=1e-12)
    for d in a.options:
        for option, value in a.options[d].items():
            assert b.options[d][option] == pytest.approx(value * scale, rel=1e-12, abs=1e-12 * scale)


def test_utilities_of_1e308_are_not_rounded_to_zero(tmp_path):
    path = oil(tmp_path, "big.json", _payoff([[-1.2e308, 1.2e308, 1.2e308], [0, 0, 0]]))
    solution = solve(read_model(path))
    assert solution.expected_utility > 1e307
    done = bnstudio("decide", path, "--json")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert json.loads(done.stdout)["expected_utility"] == solution.expected_utility


@pytest.mark.parametrize("sign", [1, -1])
def test_utilities_whose_sum_overflows_are_one_line(tmp_path, sign):
    big = sign * 1.5e308
    path = oil(tmp_path, "sum.json", _payoff([[big, big, big], [big, big, big]], (big, big)))
    with pytest.raises(ValidationError, match="float range"):
        solve(read_model(path))
    assert "float range" in refused("decide", path)


def test_large_negative_utilities_give_a_number_and_no_warning(tmp_path):
    path = oil(tmp_path, "neg.json", _payoff([[-1e308, -1e308, -1e308], [-1e308, 1e308, -1e308]], (-1e308, 0)))
    done = bnstudio("decide", path)
    assert done.returncode == 0 and done.stderr == "" and "nan" not in done.stdout, done.stderr


def test_error_bars_scale_with_the_utilities_or_are_one_line(tmp_path):
    from bnstudio.decision.errorbar import utility_error_bar

    bars = []
    for scale in (1.0, 1e100):
        diagram = read_model(oil(tmp_path, f"s{scale}.json", _payoff([[-0.7 * scale, 0.5 * scale, 1.2 * scale],
                                                                       [0, 0, 0]], (-0.01 * scale, 0))))
        bars.append(utility_error_bar(diagram, solve(diagram), ess=10, mc=20, seed=1))
    assert bars[1].mean == pytest.approx(bars[0].mean * 1e100, rel=1e-12)
    assert bars[1].sd == pytest.approx(bars[0].sd * 1e100, rel=1e-9)
    np.testing.assert_allclose(bars[1].mc_samples, bars[0].mc_samples * 1e100, rtol=1e-9)
    path = oil(tmp_path, "big.json", _payoff([[-1.2e308, 1.2e308, 1.2e308], [0, 0, 0]]))
    assert "float range" in refused("decide", path, "--errorbars", "--ess", 10)
