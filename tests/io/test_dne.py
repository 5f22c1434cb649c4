"""Netica DNE files: the hand-written corpus in tests/io/corpus/dne (each file says what is expected of it), the
table order, repairs, and the one-line errors of malformed files.

References: resources/networks/asia.bif (the chest clinic corpus file has its numbers under Netica's names, and
Dyspnea's parents are listed TbOrCa-first, unlike asia.bif's bronc-first, with an asymmetric table: a wrong table
order changes the marginals); resources/decision/oil_wildcatter.json (MEU 22.5) for the decision network, whose
Payoff lists its parents in another order than the JSON.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.canonical import Deterministic
from bnstudio.decision import solve
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_model, read_network
from bnstudio.io.judging import judged_repairs
from bnstudio.io.netica.dne import parse_dne, parse_dne_model, read_dne, read_dne_model
from tests.decision.helpers import oil
from tests.io.test_influence_io import assert_same_diagram, assert_same_solution

CORPUS = Path(__file__).parent / "corpus" / "dne"
ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"
CHEST = (CORPUS / "chest_clinic.dne").read_text(encoding="utf-8")
# Netica's chest clinic names -> asia.bif's (states in the same order: first state = "yes")
NAMES = {"VisitAsia": "asia", "Tuberculosis": "tub", "Smoking": "smoke", "Cancer": "lung", "TbOrCa": "either",
         "XRay": "xray", "Bronchitis": "bronc", "Dyspnea": "dysp"}


def quietly(read, *args, **kwargs):
    """``read(...)``, failing on any warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return read(*args, **kwargs)


def repaired(read, *args) -> tuple[object, str]:
    """(result, the one RepairWarning's text) of a read that must warn exactly once."""
    with pytest.warns(RepairWarning) as caught:
        model = read(*args)
    assert len(caught) == 1
    return model, str(caught[0].message)


# ---------------------------------------------------------------------------------------------- the corpus
@pytest.mark.parametrize("evidence", [{}, {"XRay": "Abnormal"}, {"Dyspnea": "Present", "VisitAsia": "Visit"},
                                      {"Dyspnea": "Absent", "Smoking": "NonSmoker"}])
def test_chest_clinic_gives_the_marginals_of_asia(evidence):
    dne, bif = quietly(read_dne, CORPUS / "chest_clinic.dne"), read_network(ASIA)
    ours = InferenceEngine(dne).posterior(list(NAMES), evidence)
    theirs = InferenceEngine(bif).posterior(list(NAMES.values()), {
        NAMES[v]: bif.states(NAMES[v])[dne.states(v).index(s)] for v, s in evidence.items()})
    for v, w in NAMES.items():
        assert ours[v] == pytest.approx(theirs[w], abs=1e-12), v


def test_table_order_is_the_first_parent_slowest_the_child_fastest():
    """The row comments of Netica's files say which configuration each row is: Dyspnea's are (TbOrCa, Bronchitis)
    = (True, Present), (True, Absent), (False, Present), (False, Absent)."""
    net = quietly(read_dne, CORPUS / "chest_clinic.dne")
    assert net.parents("Dyspnea") == ("TbOrCa", "Bronchitis")
    assert net.cpt("Dyspnea").tolist() == [[[0.9, 0.1], [0.7, 0.3]], [[0.8, 0.2], [0.1, 0.9]]]
    flat = CHEST.replace("(((0.9,         0.1),           // True   Present    \n", "((0.9, 0.1,\n") \
                .replace("(0.7,         0.3)),", "0.7, 0.3,").replace("((0.8,         0.2),", "0.8, 0.2,") \
                .replace("(0.1,         0.9)));", "0.1, 0.9));")
    assert "(((0.9" not in flat  # a flat list reads the same: only the count of numbers matters
    assert np.array_equal(quietly(parse_dne, flat).cpt("Dyspnea"), net.cpt("Dyspnea"))


def test_chest_clinic_keeps_what_netica_shows():
    net = quietly(read_dne, CORPUS / "chest_clinic.dne", strict=True)
    assert net.name == "ChestClinic" and len(net.arcs()) == 8
    assert net.positions["VisitAsia"] == (90.0, 54.0) and net.positions["Dyspnea"] == (372.0, 378.0)
    assert net.variable("Cancer").description == "Lung Cancer"  # title
    assert net.variable("TbOrCa").description.startswith("Either tuberculosis")  # comment wins over title
    assert net.variable("Smoking").description == ""
    model = net.canonical["TbOrCa"]
    assert isinstance(model, Deterministic) and model.states.tolist() == [[0, 0], [0, 1]]
    assert net.cpt("TbOrCa").tolist() == [[[1, 0], [1, 0]], [[1, 0], [0, 1]]]


def test_decision_network():
    diagram = quietly(read_dne_model, CORPUS / "oil_wildcatter.dne", strict=True)
    assert diagram.decision_names == ("Test", "Drill")
    assert diagram.parents("Drill") == ("Test", "Result") and diagram.parents("Payoff") == ("Drill", "Oil")
    assert diagram.utility("Payoff").table.tolist() == [[-70, 50, 200], [0, 0, 0]]
    assert solve(diagram).expected_utility == pytest.approx(22.5, abs=1e-12)
    assert_same_diagram(diagram, oil())
    assert_same_solution(diagram, oil(), {"Result": "open"})
    assert diagram.network.positions["Drill"] == (160.0, 240.0)


def test_network_reader_refuses_a_decision_network_in_one_line():
    with pytest.raises(FormatError, match=r"oil_wildcatter\.dne:18:6: this file is an influence diagram "
                                          r"\(decision node 'Test', utility node 'TestCost'\)"):
        read_network(CORPUS / "oil_wildcatter.dne")


def test_read_model_gives_a_dne_decision_network_as_a_diagram():
    """bnstudio.io.read_model (the app's open path, `bnstudio decide`) reads a DNE with decision and utility
    nodes as an influence diagram, and a plain one as a network."""
    assert read_model(CORPUS / "oil_wildcatter.dne").decision_names == ("Test", "Drill")
    assert read_model(CORPUS / "chest_clinic.dne").variables == list(NAMES)


def test_rounded_row_is_rescaled_and_said():
    net, message = repaired(read_dne, CORPUS / "rounded.dne")
    assert "row (Season=winter) of 'Rain' sums to 0.999" in message
    assert net.cpt("Rain")[0] == pytest.approx([1 / 3] * 3, abs=1e-15)
    with pytest.raises(FormatError, match=r"rounded\.dne:21:4: row \(Season=winter\) of 'Rain' sums to 0\.999, "
                                          r"not 1 .*strict reading repairs nothing"):
        read_dne(CORPUS / "rounded.dne", strict=True)


def test_discretised_and_valued_levels():
    net = quietly(read_dne, CORPUS / "levels.dne", strict=True)
    assert net.states("Rainfall") == ("< 10", "10 to 50", ">= 50")
    assert net.states("Dose") == ("0.5", "1", "2")
    assert net.states("Flood") == ("low", "medium", "high")
    assert net.cpt("Flood").tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]  # 0.5 -> [0, 1), #1, 2.5 -> [2, 3)
    assert net.variable("Rainfall").description == "Rainfall (mm)"


def test_structure_only_file_gets_uniform_tables_said():
    net, message = repaired(read_dne, CORPUS / "structure_only.dne")
    assert "gave a uniform table to nodes without one: 'A', 'B'" in message
    assert net.states("B") == ("state0", "state1", "state2")
    assert np.all(net.cpt("B") == 1 / 3) and np.all(net.cpt("A") == 0.5)
    with pytest.raises(FormatError, match=r"structure_only\.dne:6:6: .*'A' \(strict reading repairs nothing\)"):
        read_dne(CORPUS / "structure_only.dne", strict=True)


def test_impossible_rows_and_labels():
    net, message = repaired(read_dne, CORPUS / "impossible.dne")
    assert net.variables == ["Sex", "Pregnant"]
    assert net.cpt("Pregnant").tolist() == [[0.05, 0.95], [0.5, 0.5]]
    assert "left out CONSTANT and DISCONNECTED nodes without children: 'Title_Label'" in message
    assert "row (Sex=male) of 'Pregnant'" in message


@pytest.mark.parametrize("name, where, fragment", [
    ("continuous.dne", ":4:6:", "node 'Weight' is continuous (discrete = FALSE without levels), which is not "
                                "supported"),
    ("unknown_parent.dne", ":13:13:", "unknown parent 'Smokr' of 'Cancer'"),
    ("short_table.dne", ":14:10:", "the table of 'Cancer' has 3 values, expected 4"),
    ("binary_renamed.dne", ": ", "binary content, as in Netica's encrypted binary format (.neta)"),
])
def test_malformed_corpus_files(name, where, fragment):
    with pytest.raises(FormatError) as info:
        read_network(CORPUS / name)
    message = str(info.value)
    assert message.startswith(f"{CORPUS / name}{where}") and fragment in message and "\n" not in message


def test_neta_is_refused_both_ways(tmp_path):
    path = tmp_path / "model.neta"
    path.write_bytes(b"\x00\x01binary")
    with pytest.raises(FormatError, match=r"model\.neta: this is Netica's encrypted binary format \(\.neta\).*"
                                          r"save it as \.dne$"):
        read_network(path)
    from bnstudio.io import write_network
    with pytest.raises(FormatError, match=r"cannot write Netica's encrypted binary format \(\.neta\): write a "
                                          r"\.dne file"):
        write_network(quietly(read_dne, CORPUS / "chest_clinic.dne"), path)


# ---------------------------------------------------------------------------------------------- errors
def _node(body: str, name: str = "X", extra: str = "") -> str:
    return f"bnet t {{\n{extra}node {name} {{\n{body}\n}};\n}};\n"


@pytest.mark.parametrize("text, fragment, line", [
    ("net t { };", "expected 'bnet' at the start of a Netica DNE file, found 'net'", 1),
    ("// ~->[DNET-1]->~\nbnet t {\nnode X {\n\tstates = (a, b);\n\tprobs = (0.5, 0.5)\n};\n};",
     "expected ';' after the value of 'probs', found '}'", 6),
    ('bnet t {\ncomment = "no end;\n};', "unterminated string", 2),
    ("bnet t { /* never closed };", "unterminated /* comment", 1),
    ("bnet t { } extra", "unexpected 'extra' after the end of the network", 1),
    (_node("kind = NATUR;\nstates = (a);"), "kind = NATUR (expected NATURE or DECISION or UTILITY", 3),
    (_node("discrete = MAYBE;\nstates = (a);"), "discrete = MAYBE (expected TRUE or FALSE)", 3),
    (_node("states = (a, b, a);\nprobs = (0.2, 0.3, 0.5);"), "node 'X' has the state 'a' twice", 2),
    (_node("states = (a, , b);"), "node 'X' has a state without a name", 3),
    (_node("states = (a, b);\nnumstates = 3;"), "node 'X' has numstates = 3 but 2 states", 4),
    (_node("numstates = two;"), "numstates of 'X' must be a whole number, found 'two'", 3),
    (_node("numstates = \u00b2;"), "numstates of 'X' must be a whole number, found '\u00b2'", 3),  # int() refuses it
    (_node("numstates = " + "9" * 5000 + ";"), "numstates of 'X' is 5,000 digits long", 3),  # past int()'s limit
    (_node("states = (a, b);\nchance = DETERMIN;\nfunctable = (#\u00b2);"),
     "the functable of 'X' gives '#\u00b2', not a state of 'X'", 5),
    (_node("parents = ();"), "node 'X' has no states (no states, levels or numstates)", 2),
    (_node("states = (a, b);\nprobs = (0.5, -0.5);"), "negative probability -0.5", 4),
    (_node("states = (a, b);\nprobs = (0.5, nan);"), "expected a number, found 'nan'", 4),
    (_node("states = (a, b);\nprobs = (0.2, 0.3);"), "row () of 'X' sums to 0.5, not 1", 4),
    (_node("states = (a, b);\nprobs = (0.5, *);"), "'*' (no value) among numbers", 4),
    (_node("states = (a, b);\nprobs = (0.5, , 0.5);"), "the table of 'X' has an empty entry", 4),
    (_node("states = (a, b);\nprobs = (0.5, 0.5);\nprobs = (0.5, 0.5);"), "node 'X' has probs twice", 5),
    (_node("states = (a, b);\nprobs = font {size = 9;};"), "probs must be a ( ... ) list or a single value", 4),
    (_node("states = (a, b);\nparents = (X);\nprobs = (1, 0, 0, 1);"), "cycle X -> X", 4),
    (_node("states = (a, b);\nparents = (, Y);"), "node 'X' has an empty parent entry", 4),
    (_node("states = (a, b);\nparents = (Y, Y);", extra="node Y { states = (c); probs = (1); };\n"),
     "parent 'Y' of 'X' is listed twice", 5),
    (_node("states = (a, b);\nparents = (Y);\nprobs = ((1, 0));", extra="node Y { states = (c); parents = (X); "
                                                                        "probs = ((1), (1)); };\n"),
     "cycle X -> Y -> X", 3),
    (_node("states = (a);\nprobs = (1);", extra="node X { states = (a); probs = (1); };\n"),
     "node 'X' is defined twice (first on line 2)", 3),
    (_node("kind = NATURE;\nstates = (a, b);\nchance = DETERMIN;\nfunctable = (c);"),
     "the functable of 'X' gives 'c', not a state of 'X'", 6),
    (_node("states = (a, b);\nfunctable = (a, b);"), "the functable of 'X' has 2 entries, expected 1", 4),
    (_node("states = (a, b);\nparents = (U);\nprobs = (0.5, 0.5);", extra="node U { kind = UTILITY; functable = "
                                                                          "(1); };\n"),
     "utility node 'U' has a child 'X'", 5),
    (_node("states = (a, b);\nparents = (C);\nprobs = (0.5, 0.5);", extra="node C { kind = CONSTANT; };\n"),
     "parent 'C' of 'X' is a CONSTANT node, which is not supported", 5),
    (_node("kind = UTILITY;\nparents = ();"), "utility node 'X' has no functable", 2),
    (_node("kind = UTILITY;\nfunctable = (1, 2);"), "the utility table of 'X' has 2 values, expected 1", 4),
    (_node("kind = UTILITY;\nfunctable = (inf);"), "expected a number, found 'inf'", 4),
    (_node("states = (a, b);\nequation = \"P (X | ) = 0.5\";"), "defined by an equation without a table", 2),
    (_node("discrete = FALSE;\nlevels = (0, 10, 5);\nprobs = (0.5, 0.5);"), "the levels of 'X' must increase", 4),
    (_node("discrete = FALSE;\nlevels = (0);"), "need at least two thresholds", 4),
    (_node("discrete = FALSE;\nlevels = (0, 1, 2);\nstates = (a);"), "node 'X' has 1 states but 3 levels", 4),
    (_node("states = (a, b);\nprobs = (0.5, 0.5);\nvisual V1 { center = (x, 2); };"),
     "the center of node 'X' must be (x, y)", 5),
    (_node("states = (a, b);\nprobs = (0.5, 0.5);", name="Y : Z"), "inheritance from a defined node", 2),
    (_node("states = (a, b);\nprobs = (0.5, 0.5);\nuser U1 { bnstudio_states = \"[1]\"; };"),
     "the user field bnstudio_states of 'X' is not a list of its 2 state names", 5),
    ("bnet t {\n" + "node X { states = (a); probs = " + "(" * 100 + "1" + ")" * 100 + "; };\n};",
     "nested more than 80 deep", 2),
])
def test_errors_are_one_located_line(text, fragment, line):
    with pytest.raises(FormatError) as info:
        parse_dne_model(text, "bad.dne")
    err = info.value
    assert fragment in str(err) and "\n" not in str(err), str(err)
    assert err.path == "bad.dne" and err.line == line, str(err)


def test_declared_sizes_are_checked_before_allocating(monkeypatch):
    monkeypatch.setenv("BNSTUDIO_MAX_STATES", "1000")
    with pytest.raises(FormatError, match=r"bad\.dne:2:6: the number of states of variable 'X' is 1,000,000,000, "
                                          r"above the limit of 1,000 \(set the environment variable "
                                          r"BNSTUDIO_MAX_STATES"):
        parse_dne(_node("numstates = 1000000000;"), "bad.dne")
    monkeypatch.setenv("BNSTUDIO_MAX_TABLE_ENTRIES", "1000")
    parents = "".join(f"node P{k} {{ numstates = 10; probs = ({', '.join(['0.1'] * 10)}); }};\n" for k in range(4))
    with pytest.raises(FormatError, match="the number of entries of the table of 'X' is 20,000"):
        parse_dne(_node("states = (a, b);\nparents = (P0, P1, P2, P3);\nprobs = (1, 0);", extra=parents), "bad.dne")


def test_a_text_file_in_another_encoding_is_located_not_called_binary(tmp_path):
    """A Netica file saved on Windows with a cp1252 'é' in a comment is text: the byte's line and column are said
    (every reader takes UTF-8); only binary content is taken for a renamed .neta."""
    path = tmp_path / "latin.dne"
    path.write_bytes(b"// ~->[DNET-1]->~\n// caf\xe9\nbnet N { node A { states = (a, b); probs = (0.5, 0.5); }; };")
    with pytest.raises(FormatError, match=r"latin\.dne:2:7: not UTF-8 text \(byte 0xe9\)"):
        read_dne(path)
    path.write_bytes(b"\x00\x01\xff\xfejunk")
    with pytest.raises(FormatError, match=r"binary content, as in Netica's encrypted binary format"):
        read_dne(path)


def test_rows_of_zeros_get_the_verdict_of_every_format():
    """Netica's file, as every other format: the repaired row's parent configuration is impossible (A never b),
    so the warning says that no probability changes."""
    text = _node("states = (x, y);\nparents = (A);\nprobs = ((0.3, 0.7), (0, 0));",
                 name="B", extra="node A { states = (a, b); probs = (1, 0); };\n")

    def judged(*args):  # as the open path judges (a parser on its own names the row without the verdict)
        with judged_repairs():
            return parse_dne(*args)

    net, message = repaired(judged, text, "zero.dne")
    assert "made 1 row of zeros uniform: row (A=b) of 'B' (impossible parent configuration: no probability changes)" \
        in message
    assert net.cpt("B")[1].tolist() == [0.5, 0.5]
