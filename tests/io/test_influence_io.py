"""Influence diagrams in Hugin NET, GeNIe XDSL, XMLBIF, the JSON form and projects.

References: the JSON oil wildcatter (resources/decision/oil_wildcatter.json, MEU 22.5) for the hand-written
corpus files in each tool's style (whose parents are listed in other orders than the JSON's, so a wrong value
order changes the tables); pyAgrum 3.3, which writes and reads XMLBIF influence diagrams, for the value order
of utility tables (entry by entry, by state name) and the MEU of what we write.
"""
from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.decision import InfluenceDiagram, solve
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io import read_model, read_network, strict_reading, write_influence_diagram
from bnstudio.io.genie.xdsl import parse_xdsl_model
from bnstudio.io.hugin.net import parse_net_model
from bnstudio.io.xml.xmlbif import parse_xmlbif_model
from tests.decision.helpers import oil, random_diagram, to_pyagrum

CORPUS = Path(__file__).parent / "corpus" / "influence"
FORMATS = ["net", "xdsl", "xmlbif", "bifxml", "json", "bnsproj"]


def entries(diagram: InfluenceDiagram, node: str) -> dict[tuple, float]:
    """A CPT or utility table as {((var, state), ...): value}: independent of the parents' order."""
    if diagram.kind(node) == "utility":
        scope, table = diagram.parents(node), diagram.utility(node).table
    else:
        scope, table = diagram.parents(node) + (node,), diagram.cpt(node)
    return {tuple(sorted((v, diagram.states(v)[i]) for v, i in zip(scope, index, strict=True))): float(table[index])
            for index in np.ndindex(table.shape)}


def assert_same_diagram(a: InfluenceDiagram, b: InfluenceDiagram, rel: float = 0.0) -> None:
    """Same decisions in the same order, same parents (as sets), same states, tables equal entry by entry
    (to ``rel``: 0 means exactly)."""
    assert a.decision_names == b.decision_names
    assert set(a.chance_names) == set(b.chance_names) and set(a.utility_names) == set(b.utility_names)
    for node in a.chance_names + a.decision_names + a.utility_names:
        assert set(a.parents(node)) == set(b.parents(node)), node
        if a.kind(node) != "utility":
            assert a.states(node) == b.states(node), node
        if a.kind(node) != "decision":
            assert entries(a, node) == pytest.approx(entries(b, node), rel=rel, abs=rel), node


def assert_same_solution(a: InfluenceDiagram, b: InfluenceDiagram, evidence=None, tol: float = 1e-12) -> None:
    ours, theirs = solve(a, evidence), solve(b, evidence)
    assert ours.expected_utility == pytest.approx(theirs.expected_utility, abs=tol, rel=tol)
    assert ours.options.keys() == theirs.options.keys()
    for d, options in ours.options.items():
        impossible = {o for o, eu in options.items() if eu is None}
        assert impossible == {o for o, eu in theirs.options[d].items() if eu is None}, d
        assert {o: eu for o, eu in options.items() if o not in impossible} == pytest.approx(
            {o: eu for o, eu in theirs.options[d].items() if o not in impossible}, abs=tol, rel=tol), d


# ------------------------------------------------------------------ the corpus: each tool's style
@pytest.mark.parametrize("name", ["oil_wildcatter.net", "oil_wildcatter.xdsl", "oil_wildcatter.xmlbif"])
def test_corpus_oil_wildcatter_is_the_json_example(name):
    diagram = read_model(CORPUS / name, strict=True)
    assert isinstance(diagram, InfluenceDiagram)
    assert_same_diagram(diagram, oil())
    assert_same_solution(diagram, oil())
    assert_same_solution(diagram, oil(), {"Result": "diffuse"})
    assert solve(diagram).expected_utility == pytest.approx(22.5, abs=1e-12)
    assert solve(diagram).options["Test"] == pytest.approx({"yes": 22.5, "no": 20.0}, abs=1e-12)


def test_corpus_keeps_positions_and_labels_of_variables():
    net = read_model(CORPUS / "oil_wildcatter.xdsl").network
    assert net.positions["Result"] == (160.0, 140.0) and net.variable("Drill").description == "Drill?"
    net = read_model(CORPUS / "oil_wildcatter.net").network
    assert net.positions["Test"] == (60.0, 40.0) and net.variable("Oil").description == "Amount of oil"


@pytest.mark.parametrize("name", ["oil_wildcatter.net", "oil_wildcatter.xdsl", "oil_wildcatter.xmlbif"])
def test_the_network_reader_refuses_an_influence_diagram_in_one_line(name):
    with pytest.raises(FormatError) as info:
        read_network(CORPUS / name)
    message = str(info.value)
    assert "\n" not in message and "is an influence diagram (decision node 'Test'" in message
    assert "bnstudio decide" in message and message.startswith(str(CORPUS / name))


# ------------------------------------------------------------------ round trips
def diagrams():
    return [oil()] + [random_diagram(seed, n_decisions=2 + seed % 2) for seed in range(6)]


@pytest.mark.parametrize("ext", FORMATS)
def test_round_trip_write_read(ext, tmp_path):
    for k, diagram in enumerate(diagrams()):
        path = tmp_path / f"d{k}.{ext}"
        write_influence_diagram(diagram, path)
        back = read_model(path, strict=True)
        assert_same_diagram(back, diagram)
        if ext != "xdsl":  # XDSL lists nodes parents first, so its variable order may differ
            assert back.to_dict() == diagram.to_dict()
        assert_same_solution(back, diagram)


def test_positions_and_descriptions_survive_the_writers(tmp_path):
    net = oil().network
    net.positions.update({"Oil": (10.0, 20.0), "Drill": (30.0, 40.0)})
    net.set_description("Drill", "Drill or not")
    diagram = InfluenceDiagram(net, oil().decisions, oil().utilities, "oil")
    for ext in ("net", "xdsl", "xmlbif", "bnsproj"):
        write_influence_diagram(diagram, tmp_path / f"o.{ext}")
        back = read_model(tmp_path / f"o.{ext}").network
        assert back.positions == net.positions, ext
        assert back.variable("Drill").description == "Drill or not", ext


def test_writing_an_influence_diagram_to_bif_is_refused(tmp_path):
    with pytest.raises(FormatError, match="cannot write an influence diagram in this format"):
        write_influence_diagram(oil(), tmp_path / "o.bif")
    assert not (tmp_path / "o.bif").exists()


def test_plain_networks_still_read_through_read_model(tmp_path):
    from bnstudio.core import network_from_dsl
    from bnstudio.io import write_network

    net = network_from_dsl("A->B", cpts={"A": [0.3, 0.7], "B": [[0.9, 0.1], [0.2, 0.8]]})
    for ext in ("net", "xdsl", "xmlbif", "bif", "bnsproj"):
        write_network(net, tmp_path / f"n.{ext}")
        back = read_model(tmp_path / f"n.{ext}")
        assert not isinstance(back, InfluenceDiagram) and back.variables == net.variables, ext


# ------------------------------------------------------------------ pyAgrum: the value order and the MEU
with warnings.catch_warnings():
    # as in tests/decision/test_pyagrum.py: SWIG's import-time DeprecationWarning raised as an error while
    # pyAgrum loads its influence-diagram extension crashes the process
    warnings.simplefilter("ignore", DeprecationWarning)
    gum = pytest.importorskip("pyagrum")
    gum.InfluenceDiagram()


def every_decision_matters(diagram: InfluenceDiagram) -> bool:
    """pyAgrum 3.3.1 returns a wrong MEU when a decision has no utility descendant (tests/decision)."""
    import networkx as nx

    graph = diagram.graph()
    return all(set(nx.descendants(graph, d)) & set(diagram.utility_names) for d in diagram.decision_names)


def pyagrum_meu(model, decisions) -> float:
    inference = gum.ShaferShenoyLIMIDInference(model)
    inference.addNoForgettingAssumption(list(decisions))
    inference.makeInference()
    return inference.MEU()["mean"]


def pyagrum_entries(model, node: str) -> dict[tuple, float]:
    """A pyAgrum CPT or utility table as {((var, state), ...): value}, read entry by entry by label."""
    table = model.utility(node) if model.isUtilityNode(node) else model.cpt(node)
    names = [n for n in table.names if not model.isUtilityNode(n)]
    labels = {n: list(model.variableFromName(n).labels()) for n in names}
    out = {}
    for combo in itertools.product(*(labels[n] for n in names)):
        at = dict(zip(names, combo, strict=True))
        out[tuple(sorted(at.items()))] = float(np.asarray(table[at] if names else table.toarray()).reshape(-1)[0])
    return out


@pytest.mark.parametrize("ext", ["bifxml", "xmlbif"])
def test_pyagrum_reads_what_we_write(ext, tmp_path):
    checked = 0
    for k, diagram in enumerate(diagrams()):
        if not every_decision_matters(diagram):
            continue
        path = tmp_path / f"d{k}.{ext}"
        write_influence_diagram(diagram, path)
        model = gum.loadID(str(path))
        assert sorted(model.names()) == sorted(list(diagram.network.variables) + list(diagram.utility_names))
        for node in diagram.chance_names + diagram.utility_names:
            assert pyagrum_entries(model, node) == pytest.approx(entries(diagram, node), abs=0), node
        assert pyagrum_meu(model, diagram.decision_names) == pytest.approx(solve(diagram).expected_utility,
                                                                             abs=1e-9, rel=1e-9)
        checked += 1
    assert checked >= 4


def test_we_read_what_pyagrum_writes(tmp_path):
    """pyAgrum writes 6 significant digits: tables agree to 1e-5 (relative), solutions to 1e-4."""
    for k, diagram in enumerate(diagrams()):
        path = tmp_path / f"d{k}.bifxml"
        gum.saveID(to_pyagrum(diagram), str(path))
        back = read_model(path, strict=True)
        assert_same_diagram(back, diagram, rel=1e-5)
        assert_same_solution(back, diagram, tol=1e-4)


# ------------------------------------------------------------------ errors: one line naming the node
NET_ID = """net { }
decision D { states = ("a" "b"); }
node X { states = ("x" "y"); }
utility U { }
potential (D) { }
potential (X | D) { data = ((0.5 0.5) (0.1 0.9)); }
potential (U | X D) { data = ((1 2) (3 4)); }
"""


@pytest.mark.parametrize("old, new, fragment", [
    ("((1 2) (3 4))", "((1 2) (3))", "the utility table of 'U' has 3 values, expected 4"),
    ("((1 2) (3 4))", "((1 2) (3 x))", "expected a number, found 'x'"),
    ("((1 2) (3 4))", "((1 2) (3 1e999))", "the utility 1e999 is not finite"),
    ("potential (X | D)", "potential (X | U)", "utility node 'U' has a child 'X'"),
    ("potential (U | X D)", "potential (U | X Q)", "unknown parent 'Q'"),
    ("potential (D) { }", "potential (D | X) { }", "cycle"),
])
def test_net_influence_diagram_errors(old, new, fragment):
    assert old in NET_ID
    with pytest.raises(FormatError) as info:
        parse_net_model(NET_ID.replace(old, new), "bad.net")
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_unordered_decisions_are_read_as_a_limid_as_hugin_does(tmp_path):
    """Decisions on no common directed path: Hugin reads the file as a LIMID, and so do we (it was refused)."""
    text = NET_ID.replace('utility U { }', 'decision E { states = ("c" "d"); }\nutility U { }').replace(
        "potential (D) { }", "potential (D) { }\npotential (E) { }")
    diagram = parse_net_model(text, "limid.net")
    assert set(diagram.decision_names) == {"D", "E"} and not diagram.ordered
    solution = solve(diagram)
    # D = b: p(X | b) = (0.1, 0.9), EU = 0.1 * 2 + 0.9 * 4 = 3.8 against 0.5 * 1 + 0.5 * 3 = 2 for D = a
    assert solution.method == "limid-spu" and solution.expected_utility == pytest.approx(3.8, abs=1e-12)
    assert solution.best_option("D") == "b"
    path = tmp_path / "limid.net"
    write_influence_diagram(diagram, path)
    again = read_model(path)
    assert set(again.decision_names) == {"D", "E"} and not again.ordered
    assert solve(again).expected_utility == pytest.approx(3.8, abs=1e-12)


def test_a_decision_potential_without_data_and_hugin_weights_in_chance_tables():
    text = NET_ID.replace("((0.5 0.5) (0.1 0.9))", "((5 5) (1 9))")
    with pytest.warns(RepairWarning):
        diagram = parse_net_model(text, "w.net")
    assert diagram.cpt("X").tolist() == [[0.5, 0.5], [0.1, 0.9]]
    with strict_reading(), pytest.raises(FormatError, match="row"):
        read_strict = parse_net_model(text, "w.net", strict=True)
        del read_strict


XDSL_ID = """<smile version="1.0" id="x"><nodes>
<decision id="D"><state id="a"/><state id="b"/></decision>
<cpt id="X"><state id="x"/><state id="y"/><parents>D</parents><probabilities>0.5 0.5 0.1 0.9</probabilities></cpt>
<utility id="U"><parents>X D</parents><utilities>1 2 3 4</utilities></utility>
</nodes></smile>
"""


@pytest.mark.parametrize("old, new, fragment", [
    ("<utilities>1 2 3 4</utilities>", "<utilities>1 2 3</utilities>", "has 3 values, expected 4"),
    ("<utilities>1 2 3 4</utilities>", "", "expected one <utilities>, found 0"),
    ("<parents>D</parents><prob", "<parents>U</parents><prob", "utility node 'U' has a child 'X'"),
])
def test_xdsl_influence_diagram_errors(old, new, fragment):
    assert old in XDSL_ID
    with pytest.raises(FormatError) as info:
        parse_xdsl_model(XDSL_ID.replace(old, new), "bad.xdsl")
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_xdsl_utility_table_order_is_the_last_parent_fastest():
    diagram = parse_xdsl_model(XDSL_ID)
    assert diagram.utility("U").parents == ("X", "D")
    assert diagram.utility("U").table.tolist() == [[1.0, 2.0], [3.0, 4.0]]  # (X=x, D=a), (X=x, D=b), ...


def test_xmlbif_utility_with_several_outcomes_is_refused():
    text = ('<BIF VERSION="0.3"><NETWORK><NAME>n</NAME>'
            '<VARIABLE TYPE="utility"><NAME>U</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>'
            '<DEFINITION><FOR>U</FOR><TABLE>1</TABLE></DEFINITION></NETWORK></BIF>')
    with pytest.raises(FormatError, match="utility variable 'U' has 2 <OUTCOME>s, expected at most one"):
        parse_xmlbif_model(text, "bad.xmlbif")


def test_xmlbif_utility_without_parents():
    text = ('<BIF VERSION="0.3"><NETWORK><NAME>n</NAME>'
            '<VARIABLE TYPE="decision"><NAME>D</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>'
            '<VARIABLE TYPE="utility"><NAME>U</NAME></VARIABLE><VARIABLE TYPE="utility"><NAME>V</NAME></VARIABLE>'
            '<DEFINITION><FOR>U</FOR><GIVEN>D</GIVEN><TABLE>1 5</TABLE></DEFINITION>'
            '<DEFINITION><FOR>V</FOR><TABLE>-2</TABLE></DEFINITION></NETWORK></BIF>')
    diagram = parse_xmlbif_model(text)
    assert solve(diagram).expected_utility == 3.0 and solve(diagram).options["D"] == {"a": -1.0, "b": 3.0}


def test_the_decision_order_follows_the_arcs_not_the_file_order():
    text = (CORPUS / "oil_wildcatter.xmlbif").read_text()
    drill = text[text.index('<VARIABLE TYPE="decision">\n\t<NAME>Drill'):]
    drill = drill[:drill.index("</VARIABLE>") + len("</VARIABLE>")]
    oil_variable = '<VARIABLE TYPE="nature">\n\t<NAME>Oil'
    swapped = text.replace(drill, "").replace(oil_variable, drill + "\n" + oil_variable)
    assert swapped.index("<NAME>Drill") < swapped.index("<NAME>Test")
    diagram = parse_xmlbif_model(swapped)
    assert diagram.decision_names == ("Test", "Drill")
    assert_same_solution(diagram, oil())


def test_json_diagram_rows_follow_the_one_row_policy(tmp_path):
    """A .json diagram's chance rows are judged like every format's: 0.9995 rescaled and said, a far row refused
    naming the entry and the row, and strict reading repairs nothing."""
    import json

    doc = oil().to_dict()
    oil_entry = next(c for c in doc["chance"] if c["name"] == "Oil")
    oil_entry["cpt"] = [0.5, 0.3, 0.1995]
    path = tmp_path / "rounded.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.warns(RepairWarning, match="rescaled 1 row.*row \\(\\) of 'Oil' sums to 0.9995"):
        diagram = read_model(path)
    np.testing.assert_allclose(diagram.cpt("Oil"), np.array([0.5, 0.3, 0.1995]) / 0.9995, rtol=1e-15)
    with pytest.raises(FormatError, match="strict reading repairs nothing"):
        read_model(path, strict=True)
    oil_entry["cpt"] = [0.5, 0.3, 0.1]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_model(path)
    assert "row () of 'Oil' sums to 0.9, not 1" in str(info.value) and "\n" not in str(info.value)

