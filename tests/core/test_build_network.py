"""``build_network``'s bulk build against the edit-by-edit reference build (bnstudio/core/network.py).

Valid families must give the same network both ways (variables, states, parents, CPTs bit for bit, the DAG);
every kind of invalid input must be refused with the same error type and message as the reference (the bulk
build hands anything it doubts to it), including rows at the edge of the row-sum tolerance."""
from __future__ import annotations

import gzip
import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.network import _bulk_network, _network_by_edits, build_network
from bnstudio.core.validation import ROW_TOLERANCE
from bnstudio.errors import BNStudioError, CycleError
from bnstudio.io.bif.reader import parse_bif

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "networks"


def _bif_files() -> list[Path]:
    found = sorted((ROOT / "resources").rglob("*.bif"))
    try:
        import pgmpy
        models = Path(pgmpy.__file__).parent / "utils" / "example_models"
        found += sorted(models.glob("*.bif.gz"))
    except ImportError:
        pass
    if SHARED.is_dir():
        found += sorted(SHARED.glob("*.bif"))
    return found


def _families(path: Path) -> tuple[list, str]:
    data = path.read_bytes()
    text = (gzip.decompress(data) if path.name.endswith(".gz") else data).decode("utf-8", "replace")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net = parse_bif(text, path.name)
    return [(v, net.states(v), net.parents(v), net.cpt(v)) for v in net.variables], net.name


def _assert_same(a, b) -> None:
    assert a.name == b.name and a.variables == b.variables
    for v in a.variables:
        assert a.states(v) == b.states(v) and a.parents(v) == b.parents(v), v
        assert np.array_equal(a.cpt(v), b.cpt(v)) and a.cpt(v).dtype == b.cpt(v).dtype, v
        assert a.alpha(v) is None and b.alpha(v) is None
        assert not a.cpt(v).flags.writeable
    assert sorted(a.graph().edges) == sorted(b.graph().edges)
    assert sorted(a.graph().nodes) == sorted(b.graph().nodes)
    assert a.topological_order() == b.topological_order()


@pytest.mark.parametrize("path", _bif_files(), ids=lambda p: p.name)
def test_bulk_build_equals_the_edit_by_edit_build(path: Path) -> None:
    families, name = _families(path)
    bulk = _bulk_network(families, name)
    assert bulk is not None  # a valid network is built in bulk
    _assert_same(bulk, _network_by_edits(families, name))


def test_the_bulk_tables_are_copies_and_read_only() -> None:
    cpt = np.array([[0.3, 0.7], [0.6, 0.4]])
    net = build_network([("A", ["a0", "a1"], [], [0.5, 0.5]), ("B", ["b0", "b1"], ["A"], cpt)])
    cpt[0] = [1.0, 0.0]
    assert net.cpt("B")[0].tolist() == [0.3, 0.7]
    with pytest.raises(ValueError):
        net.cpt("B")[0, 0] = 1.0
    net.set_cpt("B", [[0.1, 0.9], [0.2, 0.8]])  # edits replace a view without touching the others
    assert net.cpt("A").tolist() == [0.5, 0.5] and net.cpt("B")[1].tolist() == [0.2, 0.8]


def test_none_and_flat_tables_are_built_in_bulk() -> None:
    families = [("A", ["a0", "a1", "a2"], [], None),
                ("B", ["b0", "b1"], ["A"], [0.1, 0.9, 0.2, 0.8, 0.3, 0.7])]
    bulk = _bulk_network(families, "n")
    assert bulk is not None
    _assert_same(bulk, _network_by_edits(families, "n"))
    assert np.allclose(bulk.cpt("A"), 1 / 3)


_OK = ("A", ["a0", "a1"], [], [0.5, 0.5])
_EDGE = ROW_TOLERANCE


@pytest.mark.parametrize("families", [
    [_OK, ("B", ["b0"], ["C"], None)],                                  # unknown parent
    [_OK, ("B", ["b0", "b1"], ["A", "A"], None)],                       # a parent twice
    [_OK, _OK],                                                         # a variable twice
    [("A", ["a0", "a1"], ["B"], None), ("B", ["b0"], ["A"], None)],     # a cycle
    [("A", ["a0", "a1"], ["A"], None)],                                 # its own parent
    [("A", ["a0", "a0"], [], None)],                                    # a state twice
    [(" A", ["a0"], [], None)],                                         # a bad name
    [("A", [], [], None)],                                              # no states
    [_OK, ("B", ["b0", "b1"], ["A"], [[0.5, 0.5]])],                    # wrong shape
    [_OK, ("B", ["b0", "b1"], ["A"], [[0.5, 0.5], [0.5]])],             # ragged
    [_OK, ("B", ["b0", "b1"], ["A"], [[0.5, 0.5], ["x", "y"]])],        # not numeric
    [_OK, ("B", ["b0", "b1"], ["A"], [[1.5, -0.5], [0.5, 0.5]])],       # negative
    [_OK, ("B", ["b0", "b1"], ["A"], [[np.nan, 1.0], [0.5, 0.5]])],     # NaN
    [_OK, ("B", ["b0", "b1"], ["A"], [[np.inf, 1.0], [0.5, 0.5]])],     # infinity
    [_OK, ("B", ["b0", "b1"], ["A"], [[0.5, 0.5], [0.5, 0.6]])],        # a row off 1
    [_OK, ("B", ["b0", "b1"], ["A"], [[0.5, 0.5], [0.5, 0.5 + 2 * _EDGE]])],
])
def test_invalid_families_get_the_reference_error(families) -> None:
    with pytest.raises(BNStudioError) as reference:
        _network_by_edits(families, "n")
    with pytest.raises(type(reference.value)) as ours:
        build_network(families, "n")
    assert str(ours.value) == str(reference.value)


def test_states_given_as_one_string_are_read_as_the_reference_reads_them() -> None:
    families = [("A", "ab", [], None)]  # add_variable takes tuple("ab"): the states 'a', 'b'
    _assert_same(build_network(families, "n"), _network_by_edits(families, "n"))


@pytest.mark.parametrize("off", [_EDGE * (1 - 1e-12), _EDGE, _EDGE * (1 + 1e-6), 0.5 * _EDGE])
def test_rows_at_the_edge_of_the_tolerance_are_judged_as_the_reference_judges_them(off: float) -> None:
    families = [_OK, ("B", ["b0", "b1"], ["A"], [[0.25, 0.75 + off], [0.5, 0.5]])]
    try:
        expected = _network_by_edits(families, "n")
    except BNStudioError as exc:
        with pytest.raises(type(exc), match="sums to"):
            build_network(families, "n")
    else:
        _assert_same(build_network(families, "n"), expected)


def _edited(net):
    """A few structural edits, each of which needs the DAG to be right before it."""
    first, middle, last = net.variables[0], net.variables[len(net) // 2], net.variables[-1]
    net.rename_variable(middle, "renamed")
    net.remove_variable(first)
    parent = next((v for v in net.variables if net.children(v)), None)
    if parent is not None:
        child = net.children(parent)[0]
        try:
            net.reverse_arc(parent, child)
        except BNStudioError:
            net.remove_arc(parent, child)
    net.add_variable("extra", ["a", "b"], parents=[last] if last in net else [])
    return net


@pytest.mark.parametrize("path", [p for p in _bif_files() if p.name.startswith(("asia", "alarm", "child"))],
                         ids=lambda p: p.name)
def test_a_bulk_built_network_builds_its_dag_on_first_use_and_edits_like_the_reference(path: Path) -> None:
    families, name = _families(path)
    bulk = build_network(families, name)
    assert bulk._dag is None  # reading builds no networkx graph
    assert sorted(bulk.graph().edges) == sorted(bulk.arcs())
    fresh = build_network(families, name)
    _assert_same(_edited(fresh), _edited(_network_by_edits(families, name)))
    assert sorted(fresh.copy().graph().edges) == sorted(fresh.arcs())


def test_a_parameter_edit_on_a_read_network_builds_no_dag_and_later_structure_edits_still_check_cycles() -> None:
    families, name = _families(next(p for p in _bif_files() if p.name.startswith("asia")))
    net = build_network(families, name)
    child = next(v for v in net.variables if net.parents(v))
    net.set_cpt(child, np.full(net.cpt(child).shape, 1.0 / net.cardinality(child)))
    net.set_description(child, "edited")
    assert net._dag is None  # a CPT or description edit needs no DAG
    parent = net.parents(child)[0]
    with pytest.raises(CycleError):
        net.add_arc(child, parent)
    assert sorted(net.graph().edges) == sorted(net.arcs())
