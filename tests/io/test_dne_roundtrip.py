"""Netica DNE writer: what it writes reads back equal (every bundled network, influence diagrams, awkward names),
names are legal for Netica, and the file format is reachable from read_network / write_network and the CLI."""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.core.canonical import Deterministic, set_canonical
from bnstudio.core.network import Network
from bnstudio.decision import solve
from bnstudio.io import read_network, write_network
from bnstudio.io.netica.dne import parse_dne, parse_dne_model, read_dne
from bnstudio.io.netica.dne_writer import HEADER, format_dne, format_dne_diagram, netica_names, write_dne_diagram
from tests.decision.helpers import oil, random_diagram
from tests.io.test_influence_io import assert_same_diagram, assert_same_solution

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"
BUNDLED = sorted(NETWORKS.glob("*.bif"))
CORPUS = Path(__file__).parent / "corpus" / "dne"
_NETICA_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,29}")


def quietly(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args)


def assert_same_network(a: Network, b: Network) -> None:
    """Same name, variables (any order), states, parents (in order), CPTs bit for bit, descriptions, positions."""
    assert a.name == b.name and set(a.variables) == set(b.variables)
    for v in a.variables:
        assert a.states(v) == b.states(v) and a.parents(v) == b.parents(v), v
        assert np.array_equal(a.cpt(v), b.cpt(v)), v
        assert a.variable(v).description == b.variable(v).description, v
    assert {v: tuple(map(round, p)) for v, p in a.positions.items()} == b.positions


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_bundled_networks_read_back_equal(path, tmp_path):
    net = read_network(path)
    out = tmp_path / f"{path.stem}.dne"
    write_network(net, out)
    text = out.read_text(encoding="utf-8")
    assert text.startswith(HEADER + "\n")
    assert_same_network(net, quietly(read_network, out))
    for word in re.findall(r"^\s*(?:node|states = \(|parents = \()([^;{]*)", text, flags=re.MULTILINE):
        names = [w.strip(" )") for w in word.split(",") if w.strip(" )")]
        assert all(_NETICA_NAME.fullmatch(n) for n in names), names  # child's '<5', 'Asy/Patch' are renamed


def test_chest_clinic_reads_back_equal_with_its_functable():
    net = quietly(read_dne, CORPUS / "chest_clinic.dne")
    text = format_dne(net)
    assert "chance = DETERMIN;" in text and "functable = \n\t\t((True, True),\n\t\t (True, False));" in text
    back = quietly(parse_dne, text)
    assert_same_network(net, back)
    assert isinstance(back.canonical["TbOrCa"], Deterministic)


def test_awkward_names_survive_and_are_legal_for_netica():
    long = "a very long variable name that Netica cannot hold"
    net = Network("my net: v2")
    net.add_variable("smoker?", ["yes", "no"])
    net.add_variable(long, ["<5", "5-12", "12+"], parents=["smoker?"])
    net.add_variable("Ölstand 2", ["niedrig", "hoch"], parents=[long])
    net.add_variable("1", ["a b", "a_b"], parents=["smoker?", "Ölstand 2"])
    net.set_cpt(long, [[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    net.set_description("smoker?", 'Says "yes"\nor no; \\ a backslash')
    net.positions["1"] = (10.4, -3.6)
    text = format_dne(net)
    names = re.findall(r"^node (\S+) \{", text, flags=re.MULTILINE)
    assert len(names) == 4 and all(_NETICA_NAME.fullmatch(n) for n in names), names
    back = quietly(parse_dne, text)
    assert_same_network(net, back)


def test_netica_names_are_short_distinct_identifiers():
    names = ["x" * 40, "x" * 41, "x" * 30, "a b", "a_b", "9", "ok"]
    ids = netica_names(names)
    assert ids["ok"] == "ok" and ids["x" * 30] == "x" * 30 and ids["a_b"] == "a_b"
    assert len(set(ids.values())) == len(names) and all(_NETICA_NAME.fullmatch(i) for i in ids.values()), ids


def test_empty_network_reads_back():
    back = quietly(parse_dne, format_dne(Network("empty")))
    assert back.name == "empty" and back.variables == []


@pytest.mark.parametrize("seed", range(4))
def test_influence_diagrams_read_back_equal(seed, tmp_path):
    diagram = oil() if seed == 0 else random_diagram(seed)
    path = tmp_path / "d.dne"
    write_dne_diagram(diagram, path)
    back = quietly(parse_dne_model, path.read_text(encoding="utf-8"))
    assert_same_diagram(diagram, back)
    assert_same_solution(diagram, back)
    if seed == 0:
        assert solve(back).expected_utility == pytest.approx(22.5, abs=1e-12)
        assert "kind = UTILITY;" in format_dne_diagram(diagram) and "kind = DECISION;" in format_dne_diagram(diagram)


def test_deterministic_model_without_parents_and_changed_cpts():
    net = Network("d")
    net.add_variable("A", ["x", "y"])
    net.add_variable("B", ["u", "v", "w"], parents=["A"])
    set_canonical(net, "A", Deterministic(np.array(1), 2))
    set_canonical(net, "B", Deterministic(np.array([2, 0]), 3))
    back = quietly(parse_dne, format_dne(net))
    assert_same_network(net, back)
    assert back.canonical["A"].states.tolist() == 1
    net.set_cpt("B", [[0.5, 0.5, 0], [1, 0, 0]])  # no longer the model: written as probs
    assert "functable = \n\t\t(u, w)" not in format_dne(net)
    assert_same_network(net, quietly(parse_dne, format_dne(net)))


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_converts_to_dne_and_reads_it(capsys, tmp_path):
    out_path = tmp_path / "alarm.dne"
    status, out, err = run(capsys, "convert", NETWORKS / "alarm.bif", out_path, "--json")
    assert status == 0 and err == ""
    assert json.loads(out)["lost"] == ["variable order"]  # written in a topological order, as for XDSL
    status, out, err = run(capsys, "info", out_path)
    assert status == 0 and "37" in out
    status, out, err = run(capsys, "info", CORPUS / "short_table.dne")
    assert status == 2 and err.startswith("bnstudio: error: ") and "expected 4" in err and err.count("\n") == 1


def test_a_deterministic_node_with_renamed_states_reads_back():
    """The writer spells a state such as 'x y' as Netica's 'x_y' in the functable; the reader, which restores 'x y'
    from the user field, must still find it (it refused its own file)."""
    net = Network("renamed")
    net.add_variable("A", ["a b", "c"], cpt=[0.4, 0.6])
    net.add_variable("B", ["x y", "1"], ["A"])
    set_canonical(net, "B", Deterministic([1, 0], 2))
    back = quietly(parse_dne, format_dne(net))
    assert back.states("B") == ("x y", "1") and back.states("A") == ("a b", "c")
    np.testing.assert_array_equal(back.cpt("B"), net.cpt("B"))
    assert isinstance(back.canonical.get("B"), Deterministic)
