"""Files we write are read by pyAgrum *and* pgmpy, with the same posteriors: BIF on every bundled network (all
names made legal, originals kept; see bnstudio.io.bif.writer) and every writer on edge cases (unnamed, names
with spaces, Unicode, numeric names, BIF keywords, multi-line and quoted text).

Known limits of the other readers, so not tested: pyAgrum reads XMLBIF only as ``.bifxml`` and orders
multi-parent XDSL/UAI tables differently (tests/io/test_formats_interop.py); pgmpy's NET reader takes only
states without blanks, ``(``, ``)`` or ``,``; its UAI reader refuses a file without variables and reads a table
with the child varying slowest (against the UAI format, where the child is last in the scope and varies fastest,
as pyAgrum reads it), so pgmpy's reading of UAI is checked for structure only.
"""
from __future__ import annotations

import logging
import warnings

import numpy as np
import pytest

from bnstudio.core.network import Network
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network, write_network
from bnstudio.io.bif.writer import bif_names
from bnstudio.io.common import identifiers
from tests.io.test_formats_interop import BUNDLED, read_bundled, seeded_queries

gum = pytest.importorskip("pyagrum")
pgmpy_readwrite = pytest.importorskip("pgmpy.readwrite")
pgmpy_inference = pytest.importorskip("pgmpy.inference")

PGMPY_READER = {".bif": "BIFReader", ".xmlbif": "XMLBIFReader", ".xdsl": "XDSLReader", ".net": "NETReader",
                ".uai": "UAIReader"}


def edge_network() -> Network:
    """Awkward names and text everywhere (each variable has at most one parent: pyAgrum's XDSL/UAI order)."""
    net = Network("my network")
    net.add_variable("my var", ["s 1", "Asy/Patch", "1.5"], cpt=[0.2, 0.3, 0.5])
    net.add_variable("Ärger", ["ä", "0", "20-30"], ["my var"], cpt=[[0.1, 0.2, 0.7], [0.3, 0.3, 0.4], [0.6, 0.2, 0.2]])
    net.add_variable("12", ["table", "b"], cpt=[0.25, 0.75])
    net.add_variable("network", ["yes", "no"], ["12"], cpt=[[0.5, 0.5], [0.125, 0.875]])
    net.add_variable("my_var", ["a", "b"], ["network"], cpt=[[0.9, 0.1], [0.4, 0.6]])
    net.set_description("my var", 'first line\nsecond line; with "quotes" and \\ backslash')
    net.properties["my var.note"] = 'line1\nline2; "q" \\ end'
    net.properties["HR_Desc"] = "multi\nline"
    return net


def word_states(net: Network) -> Network:
    """``net`` with its state names made words (what pgmpy's NET reader takes)."""
    out = net.copy()
    for v in out.variables:
        for k, s in enumerate(out.states(v)):
            out.rename_state(v, s, f"s{k}")
    return out


def unnamed() -> Network:
    net = Network()
    net.add_variable("A", ["a", "b"], cpt=[0.5, 0.5])
    return net


def _quiet(read, path):
    """A foreign reader's result with its chatter (logging, warnings) silenced."""
    logging.disable(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return read(str(path))
    finally:
        logging.disable(logging.NOTSET)


def _compare(net: Network, posterior, names: dict[str, str], seed: int, atol: float) -> None:
    """Our posteriors against ``posterior(target, {name: state index}) -> array`` over the foreign names
    (``names``: ours -> theirs; states keep their order)."""
    if not len(net):
        return
    engine = InferenceEngine(net)
    for target, evidence in seeded_queries(net, 6, seed):
        ours = engine.posterior(target, {v: net.states(v)[i] for v, i in evidence.items()})[target]
        theirs = posterior(names[target], {names[v]: i for v, i in evidence.items()})
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=atol, err_msg=f"p({target} | {evidence})")


def check_pyagrum(net: Network, path, names: dict[str, str], atol: float) -> None:
    bn = _quiet(gum.loadBN, path)
    assert sorted(bn.names()) == sorted(names.values())
    for v in net.variables:
        assert bn.variable(names[v]).domainSize() == len(net.states(v))

    def posterior(target, evidence):
        ie = gum.LazyPropagation(bn)
        ie.setEvidence(evidence)
        ie.makeInference()
        return ie.posterior(target).toarray()

    _compare(net, posterior, names, seed=len(net), atol=atol)


def check_pgmpy(net: Network, path, names: dict[str, str], ext: str) -> None:
    model = _quiet(lambda p: getattr(pgmpy_readwrite, PGMPY_READER[ext])(p).get_model(), path)
    assert sorted(model.nodes()) == sorted(names.values())
    assert sorted(model.edges()) == sorted((names[p], names[v]) for v in net.variables for p in net.parents(v))
    assert all(model.get_cardinality(names[v]) == len(net.states(v)) for v in net.variables)
    if ext == ".uai":
        return  # pgmpy reads UAI tables in another order (see the module docstring)
    reference = pgmpy_inference.VariableElimination(model)

    def posterior(target, evidence):
        states = {v: model.get_cpds(v).state_names[v] for v in model.nodes()}
        named = {v: states[v][i] for v, i in evidence.items()}
        result = reference.query([target], evidence=named, show_progress=False)
        return np.asarray(result.values)[[result.state_names[target].index(s) for s in states[target]]]

    _compare(net, posterior, names, seed=len(net) + 1, atol=1e-8)


# ---------------------------------------------------------------------------------------------- BIF
@pytest.mark.parametrize("name", BUNDLED)
def test_our_bif_of_the_bundled_networks_is_read_by_pyagrum_and_pgmpy(tmp_path, name):
    net = read_bundled(name)
    path = tmp_path / f"{name}.bif"
    write_network(net, path)
    _, names, states = bif_names(net)
    check_pyagrum(net, path, names, atol=1e-6)  # pyAgrum's BIF reader keeps about 8 digits
    check_pgmpy(net, path, names, ".bif")
    if name == "child":  # 'Asy/Patch': respelt for pyAgrum, and read back as it was by us
        assert "Asy_Patch" in states["LVHreport"] or any("Asy_Patch" in s for s in states.values())
    assert read_network(path).states("LVHreport" if name == "child" else net.variables[0]) == \
        net.states("LVHreport" if name == "child" else net.variables[0])


@pytest.mark.parametrize("make", [edge_network, unnamed, lambda: Network("")], ids=["edge", "unnamed", "empty"])
def test_our_bif_of_edge_cases_is_read_by_pyagrum_pgmpy_and_back_by_us_unchanged(tmp_path, same_network, make):
    net = make()
    path = tmp_path / "edge.bif"
    write_network(net, path)
    text = path.read_text(encoding="utf-8")
    assert "network network" not in text and "\n" not in "".join(l for l in text.splitlines() if "property" in l)
    _, names, _ = bif_names(net)
    check_pyagrum(net, path, names, atol=1e-6)
    check_pgmpy(net, path, names, ".bif")
    back = read_network(path)
    if make is not edge_network:
        assert back.variables == net.variables
        return
    net_without_description = net.copy()
    net_without_description.set_description("my var", "")  # BIF keeps no descriptions
    same_network(back, net_without_description)


def test_bif_names_are_legal_unique_and_deterministic():
    net = edge_network()
    name, names, states = bif_names(net)
    assert name == "my_network"
    assert names == {"my var": "my_var_2", "Ärger": "_rger", "12": "x12", "network": "network_2",
                     "my_var": "my_var"}
    assert states["my var"] == ("s_1", "Asy_Patch", "x1_5") and states["Ärger"] == ("_", "0", "x20_30")
    assert states["12"] == ("table_2", "b")
    assert bif_names(edge_network()) == (name, names, states)
    assert bif_names(Network())[0] == bif_names(Network(""))[0] == "unnamed"


# ---------------------------------------------------------------------------------------------- the other writers
@pytest.mark.parametrize("ext", [".xmlbif", ".xdsl", ".net", ".uai"])
@pytest.mark.parametrize("make", [edge_network, unnamed, lambda: Network("")], ids=["edge", "unnamed", "empty"])
def test_our_other_formats_of_edge_cases_are_read_by_pyagrum_and_pgmpy(tmp_path, ext, make):
    net = make()
    path = tmp_path / f"edge{ext}"
    write_network(net, path)
    written = identifiers(net.variables) if ext in (".xdsl", ".net") else {v: v for v in net.variables}
    if ext == ".xmlbif":
        agrum_path = tmp_path / "edge.bifxml"  # the extension pyAgrum reads XMLBIF under
        agrum_path.write_bytes(path.read_bytes())
        check_pyagrum(net, agrum_path, written, atol=1e-9)
    elif ext == ".uai":
        check_pyagrum(net, path, {v: str(i) for i, v in enumerate(net.variables)}, atol=1e-6)
    else:
        check_pyagrum(net, path, {v: v for v in net.variables} if ext == ".xdsl" else written, atol=1e-6)
    if ext == ".uai" and not len(net):
        return  # pgmpy's UAI reader refuses a file without variables
    if ext == ".net" and make is edge_network:
        net = word_states(net)  # pgmpy's NET reader: states must be words
        write_network(net, path)
    pg_names = {v: f"var_{i}" for i, v in enumerate(net.variables)} if ext == ".uai" else written
    check_pgmpy(net, path, pg_names, ext)
