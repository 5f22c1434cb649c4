"""Files shaped like aGrUM's test resources (src/testunits/ressources) and GeNIe's DSL files, written for these
tests (tests/io/corpus/agrum_*), each with its expected result worked out by hand here: GeNIe's DSL text format
(layout, comments, forward references, GeNIe's row repairs, aGrUM's numeric ids), its table order checked
against pyAgrum's DSL reader, the DSL writer, malformed DSL, and UAI scopes written child first by old aGrUM."""
from __future__ import annotations

import itertools
import json
import random
import warnings

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.core.network import Network
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.inference import InferenceEngine
from bnstudio.io import FORMATS, read_network, write_network
from bnstudio.io.genie.dsl import parse_dsl
from bnstudio.io.uai.uai import parse_uai
from tests.io.test_corpus import CORPUS, read  # read: the network, its one repair message; strict refuses


# ------------------------------------------------------------------ GeNIe's DSL
def test_dsl_is_registered_for_reading_and_writing():
    assert FORMATS[".dsl"].name == "GeNIe DSL"


def test_a_genie_layout_dsl_file():
    """CRLF, SCREEN/EXTRA_DEFINITION/OBSERVATION_COST blocks, the three comment kinds, a node before its parents:
    Grade's table lists (Study, Sleep) configurations with Sleep faster, Grade fastest of all."""
    net, _ = read("agrum_genie_layout.dsl", repaired=False)
    assert net.name == "Exam" and net.variables == ["Grade", "Study", "Sleep"]
    assert net.parents("Grade") == ("Study", "Sleep") and net.states("Study") == ("High", "Medium", "Low")
    expected = {("High", "Enough"): 0.9, ("High", "Short"): 0.7, ("Medium", "Enough"): 0.6,
                ("Medium", "Short"): 0.2, ("Low", "Enough"): 0.3, ("Low", "Short"): 0.05}
    for (study, sleep), p_pass in expected.items():
        row = net.cpt("Grade")[net.states("Study").index(study), net.states("Sleep").index(sleep)]
        assert row.tolist() == [p_pass, pytest.approx(1 - p_pass, abs=1e-15)]
    # P(Pass) = .3 (.6 .9 + .4 .7) + .5 (.6 .6 + .4 .2) + .2 (.6 .3 + .4 .05) = .246 + .22 + .04 (the first-parent-
    # fastest reading would give .532)
    assert InferenceEngine(net).posterior("Grade")["Grade"] == pytest.approx([0.506, 0.494], abs=1e-12)
    assert net.positions == {"Grade": (200.0, 250.0), "Study": (120.0, 90.0)}
    assert net.variable("Grade").description == "Final grade" and net.variable("Study").description == ""
    assert net.variable("Sleep").description == 'Hours of sleep "before" the exam /# not a comment #/'


def test_genie_repairs_in_dsl_are_reported_and_strict_refuses():
    net, message = read("agrum_genie_weights.dsl", repaired=True)
    assert "row () of 'Weather' sums to 0.999" in message
    assert "row (Weather=Cloudy) of 'Umbrella' sums to 8" in message and "as GeNIe does" in message
    np.testing.assert_allclose(net.cpt("Weather"), [1 / 3] * 3, rtol=0, atol=1e-15)
    assert net.cpt("Umbrella").tolist() == [[0.1, 0.9], [0.25, 0.75], [0.8, 0.2]]


def test_aGrUM_written_dsl_with_numeric_ids_and_an_empty_network():
    net, _ = read("agrum_numeric_ids.dsl", repaired=False)
    assert net.variables == ["2", "7"] and net.states("7") == ("0", "1", "2") and net.parents("7") == ("2",)
    # P(7) = .25 (.5 .5 0) + .75 (.2 .3 .5)
    assert InferenceEngine(net).posterior("7")["7"] == pytest.approx([0.275, 0.35, 0.375], abs=1e-12)
    empty, _ = read("agrum_empty.dsl", repaired=False)
    assert len(empty) == 0 and empty.name == "Unnamed"


def test_bnstudio_info_json_reads_dsl(capsys):
    status = main(["info", str(CORPUS / "agrum_genie_layout.dsl"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["n_variables"] == 3 and data["n_arcs"] == 2
    grade = next(v for v in data["variables"] if v["name"] == "Grade")
    assert grade["parents"] == ["Study", "Sleep"] and grade["states"] == ["Pass", "Fail"]


def _random_network(seed: int) -> Network:
    rng = np.random.default_rng(seed)
    net = Network("Random net")
    names = ["A", "b_2", "C c", "Dé"]
    for i, name in enumerate(names):
        parents = [p for p in names[:i] if rng.random() < 0.7]
        card = int(rng.integers(2, 4))
        shape = tuple(net.cardinality(p) for p in parents)
        net.add_variable(name, [f"s{k}" for k in range(card - 1)] + ["last state"], parents,
                         cpt=rng.dirichlet(np.ones(card), shape))
        net.positions[name] = (10.0 * i, 20.0)
    net.set_description("A", 'a "quoted"\nnote')
    return net


@pytest.mark.parametrize("seed", range(3))
def test_dsl_writer_round_trip(seed, tmp_path):
    """Tables read back bit for bit (by node and state index: ids were made identifiers), positions, descriptions."""
    net = _random_network(seed)
    write_network(net, tmp_path / "n.dsl")
    back = read_network(tmp_path / "n.dsl", strict=True)
    order = net.topological_order()
    assert len(back) == len(net)
    ids = dict(zip(order, back.variables, strict=True))
    for var in order:
        assert back.parents(ids[var]) == tuple(ids[p] for p in net.parents(var))
        assert np.array_equal(back.cpt(ids[var]), net.cpt(var))
        assert back.positions[ids[var]] == net.positions[var]
    assert back.variable(ids["A"]).description == 'a "quoted"\nnote'
    assert back.variable(ids["C c"]).description == "C c"  # the original name, as GeNIe's NAME


# ------------------------------------------------------------------ the DSL table order against pyAgrum
@pytest.fixture(scope="module")
def gum():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pytest.importorskip("pyagrum")


def _pyagrum_entry(bn, var: str, assignment: dict[str, str], state: str) -> float:
    table = bn.cpt(var)
    return float(np.asarray(table[{**assignment, var: state}]).reshape(-1)[0])


def test_dsl_table_order_agrees_with_pyagrum_on_multi_parent_nodes(gum, tmp_path):
    """pyAgrum 3.3.1's DSL reader and ours give every entry of a three-parent table the same value, compared
    by state names (pyAgrum parses DSL numbers in single precision)."""
    net = Network("order")
    rng = np.random.default_rng(7)
    for name, card in (("P", 2), ("Q", 3), ("R", 2)):
        net.add_variable(name, [f"{name.lower()}{k}" for k in range(card)], cpt=rng.dirichlet(np.ones(card)))
    net.add_variable("X", ["x0", "x1", "x2"], ["Q", "P", "R"], cpt=rng.dirichlet(np.ones(3), (3, 2, 2)))
    write_network(net, tmp_path / "order.dsl")
    ours = read_network(tmp_path / "order.dsl")
    bn = gum.loadBN(str(tmp_path / "order.dsl"))
    checked = 0
    for q, p, r in itertools.product(range(3), range(2), range(2)):
        given = {"Q": f"q{q}", "P": f"p{p}", "R": f"r{r}"}
        for k in range(3):
            assert _pyagrum_entry(bn, "X", given, f"x{k}") == pytest.approx(ours.cpt("X")[q, p, r, k], abs=1e-7)
            checked += 1
    assert checked == 36


def test_pyagrum_written_dsl_reads_back_identically(gum, tmp_path):
    """pyAgrum writes DSL parents in reverse with its own table order: the same table, entry by entry."""
    bn = gum.fastBN("A{a0|a1}->C{c0|c1|c2}<-B{b0|b1|b2};D{d0|d1}->C")
    bn.generateCPTs()
    gum.saveBN(bn, str(tmp_path / "p.dsl"))
    net = read_network(tmp_path / "p.dsl")
    for a, b, d, c in itertools.product(range(2), range(3), range(2), range(3)):
        given = {"A": f"a{a}", "B": f"b{b}", "D": f"d{d}"}
        index = tuple(net.states(p).index(given[p]) for p in net.parents("C")) + (c,)
        assert net.cpt("C")[index] == pytest.approx(_pyagrum_entry(bn, "C", given, f"c{c}"), abs=1e-6)


# ------------------------------------------------------------------ malformed DSL: one line, with a location
_GOOD = (CORPUS / "agrum_numeric_ids.dsl").read_text(encoding="utf-8")


@pytest.mark.parametrize("text, fragments, line", [
    ("", ["expected 'net'"], 1),
    ("net X { node A { TYPE = CPT; }; };", ["node 'A' has no DEFINITION"], 1),
    ("net X\n{\n node A { TYPE = LIST; DEFINITION = { NAMECHOICES = (a, b); }; };\n};",
     ["TYPE = LIST (a decision node)", "not supported", ".xdsl"], 3),
    ("net X { node A { TYPE = TRUTHTABLE; }; };", ["a deterministic node"], 1),
    ("net X { node A { DEFINITION = { }; }; };", ["node 'A' has no TYPE"], 1),
    ("net X {\n node A { TYPE = CPT; PARENTS = (B); DEFINITION = { NAMESTATES = (a, b); "
     "PROBABILITIES = (0.5, 0.5); }; };\n};", ["unknown parent 'B' of 'A'"], 2),
    (_GOOD.replace("(0.25, 0.75)", "(0.25, 0.75, 0.1)"), ["the table of '2' has 3 values, expected 2"], 15),
    (_GOOD.replace("(0.25, 0.75)", "(0.25; 0.75)"), ["expected ',' between the items of a list"], 15),
    (_GOOD.replace("(0.25, 0.75)", "(0.25, x)"), ["expected a number, found 'x'"], 15),
    (_GOOD.replace("(0.25, 0.75)", "(0.25, -0.75)"), ["negative probability -0.75"], 15),
    (_GOOD.replace("(0, 1, 2)", "(0, 1, 1)"), ["node '7' lists the state '1' twice"], 30),
    (_GOOD.replace("PARENTS = (2);", "PARENTS = (7);"), ["cycle 7 -> 7"], 27),
    (_GOOD.replace("\tnode 7", "\tnode 2"), ["node '2' is defined twice (first on line 3)"], 19),
    (_GOOD.replace("NAME = \"2\";", "NAME = \"2;"), ["unterminated string"], 9),
    (_GOOD.replace("};", "} /* open", 1), ["unterminated /* comment"], 10),
    (_GOOD.replace("TYPE = CPT;", "TYPE = CPT; /# a /# b #/", 1), ["unterminated /# comment"], 5),
    (_GOOD + "\nnode", ["unexpected 'node' after the end of the network"], 36),
    (_GOOD[:-2], ["expected a field name or 'node'", "the end of the file"], 35),
    ("net X " + "{ A = " * 80 + "1", ["blocks nested more than 64 deep"], 1),
    ("net X { A = B = C; };", ["expected ';' after the value of 'A'"], 1),
    ("net X { node A { TYPE = CPT; TYPE = CPT; }; };", ["node 'A' has TYPE twice"], 1),
    ("net X { node A { TYPE = CPT; DEFINITION = { NAMESTATES = (a); PROBABILITIES = 1; }; }; };",
     ["PROBABILITIES must be a ( ... ) list"], 1),
    ("net X { node A { TYPE = CPT; DEFINITION = { NAMESTATES = (); PROBABILITIES = (); }; }; };",
     ["node 'A' has no states"], 1),
])
def test_malformed_dsl_is_one_located_line(text, fragments, line):
    with pytest.raises(FormatError) as info:
        parse_dsl(text, "bad.dsl")
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"bad.dsl:{line}:"), message
    for fragment in fragments:
        assert fragment in message, message


def test_dsl_sizes_are_checked_before_the_table_is_read(monkeypatch):
    monkeypatch.setenv("BNSTUDIO_MAX_STATES", "2")
    with pytest.raises(FormatError, match="the number of states of variable '7' is 3, above the limit of 2"):
        parse_dsl(_GOOD, "n.dsl")
    monkeypatch.delenv("BNSTUDIO_MAX_STATES")
    monkeypatch.setenv("BNSTUDIO_MAX_TABLE_ENTRIES", "5")
    with pytest.raises(FormatError, match="table of '7' is 6, above the limit of 5"):
        parse_dsl(_GOOD, "n.dsl")


_PIECES = list('{}();,="/#*\\.-+eE0123456789 \n\tabx_é') + ["node", "net", "TYPE", "CPT", "PARENTS", "//", "/*",
                                                                "*/", "/#", "#/", "DEFINITION", "NAMESTATES"]


def _corrupt(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        start = rng.randrange(len(text) + 1)
        stop = min(len(text), start + rng.randint(0, 30))
        noise = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 6)))
        text = text[:start] + noise + text[stop:] if rng.random() < 0.8 else text[:start]
    return text


def test_corrupted_dsl_gives_a_format_error_or_a_valid_network():
    """300 seeded corruptions of two corpus files: a one-line FormatError or a network, never anything else."""
    rng = random.Random(16)
    sources = [_GOOD, (CORPUS / "agrum_genie_layout.dsl").read_text(encoding="utf-8")]
    outcomes = {"read": 0, "refused": 0}
    for _ in range(300):
        text = _corrupt(rng.choice(sources), rng)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RepairWarning)
                net = parse_dsl(text, "fuzz.dsl")
        except FormatError as exc:
            assert "\n" not in str(exc)
            outcomes["refused"] += 1
            continue
        net.validate()
        outcomes["read"] += 1
    assert outcomes["read"] > 10 and outcomes["refused"] > 100, outcomes


# ------------------------------------------------------------------ UAI scopes written child first (old aGrUM)
def test_uai_scopes_written_child_first_are_read_reversed():
    """``2 1 0`` is variable 1 given 0 and ``3 2 0 1`` variable 2 given 0 and 1, each table with the first scope
    variable fastest: the UAI layout of the reversed scopes."""
    net, message = read("agrum_child_first.uai", repaired=True)
    assert "read every scope with the child first" in message
    assert net.parents("V1") == ("V0",) and net.parents("V2") == ("V1", "V0")
    assert net.cpt("V1").tolist() == [[0.01, 0.4, 0.59], [0.3, 0.3, 0.4]]
    # rows of V2 in the file: (V0, V1) = (0,0) .99, (1,0) .9, (0,1) .8, (1,1) .6, (0,2) .7, (1,2) 0 for state 0
    expected = {(0, 0): 0.99, (1, 0): 0.9, (0, 1): 0.8, (1, 1): 0.6, (0, 2): 0.7, (1, 2): 0.0}
    for (v0, v1), p in expected.items():
        assert net.cpt("V2")[v1, v0, 0] == p
    # P(V2=0) = .2 (.01 .99 + .4 .8 + .59 .7) + .8 (.3 .9 + .3 .6 + .4 0) = .14858 + .36
    assert InferenceEngine(net).posterior("V2")["V2"] == pytest.approx([0.50858, 0.49142], abs=1e-12)


def test_a_uai_file_read_neither_way_names_the_variable_with_two_cpts():
    """Functions 1 and 2 both end with variable 1 and both start with variable 0: no reading gives one CPT each."""
    text = "BAYES\n3\n2 2 2\n3\n1 0\n2 0 1\n2 0 1\n2 0.5 0.5\n4 1 0 0 1\n4 1 0 0 1\n"
    with pytest.raises(FormatError, match=r"^x\.uai:7:1: variables can have only one CPT: functions 1 and 2 both "
                                          r"end with variable 1$"):
        parse_uai(text, "x.uai")
