"""Round trips between BIF, XMLBIF, Hugin NET, GeNIe XDSL and UAI.

Every format to every other format and back keeps the structure, the state order and the CPTs (to 1e-12;
in practice exactly, floats are written with ``repr``). What a format cannot store is excluded explicitly:

* UAI stores no names (variables come back as V0.., states as s0..), no positions, descriptions, properties.
* XDSL writes nodes in a topological order, turns non-identifier state ids into identifiers (child.bif has
  states such as ``<5`` and ``Asy/Patch``) and stores no properties.
* BIF stores no descriptions; Hugin NET keeps only properties with identifier keys.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.network import Network, build_network
from bnstudio.errors import RepairWarning
from bnstudio.io import read_network, write_network

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"
BUNDLED = ["asia", "sachs", "child", "insurance", "alarm"]
FORMATS = [".bif", ".xmlbif", ".net", ".xdsl", ".uai"]


def topological_copy(net: Network) -> Network:
    """The same network with its variables declared in topological order (XDSL writes that order)."""
    order = net.topological_order()
    out = build_network([(v, net.states(v), net.parents(v), net.cpt(v)) for v in order], net.name)
    out.positions, out.properties = dict(net.positions), dict(net.properties)
    return out


def via(net: Network, tmp_path: Path, *exts: str) -> Network:
    for k, ext in enumerate(exts):
        path = tmp_path / f"step{k}{ext}"
        write_network(net, path)
        net = read_network(path)
    return net


def assert_same_model(a: Network, b: Network, *, names: bool = True, state_names: bool = True) -> None:
    """Same structure, state order and CPTs (1e-12); variables matched by name, or by position if not ``names``."""
    mapping = {v: v for v in a.variables} if names else dict(zip(a.variables, b.variables, strict=True))
    assert len(a) == len(b)
    if names:
        assert sorted(a.variables) == sorted(b.variables)
    for v, w in mapping.items():
        assert [mapping[p] for p in a.parents(v)] == list(b.parents(w)), v
        assert len(a.states(v)) == len(b.states(w)), v
        if state_names:
            assert a.states(v) == b.states(w), v
        np.testing.assert_allclose(b.cpt(w), a.cpt(v), rtol=0, atol=1e-12, err_msg=v)


@pytest.fixture(scope="module", params=BUNDLED)
def bundled(request) -> Network:
    return topological_copy(read_network(NETWORKS / f"{request.param}.bif"))


@pytest.mark.parametrize("first, second", list(itertools.permutations(FORMATS, 2)))
def test_every_format_to_every_other_and_back(bundled, tmp_path, first, second):
    back = via(bundled, tmp_path, first, second, first)
    uai = ".uai" in (first, second)
    ids_only = ".xdsl" in (first, second) and bundled.variables[0] == "BirthAsphyxia"  # child: '<5', 'Asy/Patch'
    assert_same_model(bundled, back, names=not uai, state_names=not (uai or ids_only))
    if not uai:
        assert back.variables == bundled.variables  # topological order is kept by every format


@pytest.mark.parametrize("ext", FORMATS)
def test_bundled_networks_in_file_order(tmp_path, ext):
    """Without the topological copy: only XDSL reorders (alarm is not declared in topological order)."""
    net = read_network(NETWORKS / "alarm.bif")
    back = via(net, tmp_path, ext)
    assert_same_model(net, back, names=ext != ".uai", state_names=ext != ".uai")
    if ext == ".xdsl":
        assert back.variables == net.topological_order() != net.variables
    elif ext != ".uai":
        assert back.variables == net.variables


def rich_network() -> Network:
    """Three-state variables, a three-parent family, positions, descriptions and properties."""
    rng = np.random.default_rng(7)
    net = Network("rich net")
    net.add_variable("A", ["lo", "mid", "hi"], cpt=[0.2, 0.3, 0.5], description="first", position=(10, -20))
    net.add_variable("B", ["y", "n"], parents=["A"], cpt=rng.dirichlet(np.ones(2), 3), position=(200, 40))
    net.add_variable("C", ["c0", "c1", "c2", "c3"], parents=["A"], cpt=rng.dirichlet(np.ones(4), 3))
    net.add_variable("D", ["on", "off"], parents=["B", "A", "C"], cpt=rng.dirichlet(np.ones(2), (2, 3, 4)),
                     description='a "quoted" description & <tags>', position=(0, 0))
    net.properties.update({"author": "me & you", "D.unit": "mg/l"})
    return net


def test_xmlbif_keeps_everything(tmp_path, same_network):
    net = rich_network()
    back = via(net, tmp_path, ".xmlbif")
    same_network(back, net)
    assert [back.variable(v).description for v in net.variables] == ["first", "", "", net.variable("D").description]


def test_hugin_net_keeps_everything(tmp_path, same_network):
    net = rich_network()
    back = via(net, tmp_path, ".net")
    same_network(back, net)
    # everything but the '"' inside a string, written as "'" because pyAgrum's NET reader refuses '\"'
    assert back.variable("D").description == "a 'quoted' description & <tags>"


def test_bif_keeps_all_but_descriptions(tmp_path, same_network):
    back = via(rich_network(), tmp_path, ".bif")
    same_network(back, rich_network())
    assert all(back.variable(v).description == "" for v in back.variables)


def test_xdsl_keeps_names_positions_descriptions_but_not_properties(tmp_path):
    net = rich_network()
    back = via(net, tmp_path, ".xdsl")
    assert_same_model(net, back)
    assert back.name == net.name and back.positions == net.positions and back.properties == {}
    assert back.variable("D").description == net.variable("D").description


def test_uai_keeps_only_the_model(tmp_path):
    net = rich_network()
    back = via(net, tmp_path, ".uai")
    assert_same_model(net, back, names=False, state_names=False)
    assert back.variables == ["V0", "V1", "V2", "V3"] and back.states("V2") == ("s0", "s1", "s2", "s3")
    assert back.positions == {} and "names" in back.properties["note"] and back.name == "step0"


def test_fractional_positions_are_rounded_by_hugin_and_genie(tmp_path):
    net = rich_network()
    net.positions["A"] = (10.4, -19.6)
    for ext in (".net", ".xdsl"):
        assert via(net, tmp_path, ext).positions["A"] == (10.0, -20.0)
    assert via(net, tmp_path, ".xmlbif").positions["A"] == (10.4, -19.6)


def test_names_that_are_not_identifiers(tmp_path):
    """Hugin node names and GeNIe ids must be identifiers: they are replaced, the original kept as the label."""
    net = Network("odd")
    net.add_variable("my var", ["a b", "<5", "5-12"], cpt=[0.1, 0.2, 0.7])
    net.add_variable("2nd", ["x", "y"], parents=["my var"], cpt=[[0.5, 0.5], [0.25, 0.75], [1.0, 0.0]])
    net.add_variable("my_var", ["t", "f"], parents=["2nd"], cpt=[[0.3, 0.7], [0.6, 0.4]])
    for ext in (".xmlbif", ".bif"):
        assert_same_model(net, via(net, tmp_path, ext))
    for ext in (".net", ".xdsl"):
        back = via(net, tmp_path, ext)
        renamed = dict(zip(net.variables, ["my_var_2", "x2nd", "my_var"], strict=True))
        assert back.variables == list(renamed.values())
        assert back.variable("my_var_2").description == "my var"
        for v, w in renamed.items():
            assert list(back.parents(w)) == [renamed[p] for p in net.parents(v)]
            assert np.array_equal(back.cpt(w), net.cpt(v))
            odd_states = ext == ".xdsl" and v == "my var"  # GeNIe state ids must be identifiers too
            assert back.states(w) == (("a_b", "x_5", "x5_12") if odd_states else net.states(v))


def test_rows_within_tolerance_are_rescaled_and_exact_rows_kept(tmp_path):
    text = ('<BIF VERSION="0.3"><NETWORK><NAME>n</NAME>'
            "<VARIABLE><NAME>A</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>"
            "<VARIABLE><NAME>B</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>"
            "<DEFINITION><FOR>A</FOR><TABLE>0.3333 0.6666</TABLE></DEFINITION>"
            "<DEFINITION><FOR>B</FOR><GIVEN>A</GIVEN><TABLE>0.1 0.9 0.7 0.30000000000000004</TABLE></DEFINITION>"
            "</NETWORK></BIF>")
    path = tmp_path / "n.xml"
    path.write_text(text)
    with pytest.warns(RepairWarning, match=r"n\.xml: rescaled 1 row .*: row \(\) of 'A' sums to 0\.9999$"):
        net = read_network(path)
    np.testing.assert_allclose(net.cpt("A"), [0.3333 / 0.9999, 0.6666 / 0.9999], rtol=0, atol=1e-15)
    assert net.cpt("B")[1, 1] == 0.30000000000000004  # within 1e-12 of 1: kept bit for bit
