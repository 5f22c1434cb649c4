"""Malformed XMLBIF, Hugin NET, XDSL and UAI files: one FormatError each, naming the file, line and problem."""
from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from bnstudio.core.network import Network
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io import read_network
from bnstudio.io.genie.xdsl import format_xdsl, parse_xdsl
from bnstudio.io.hugin.net import parse_net
from bnstudio.io.hugin.net_writer import format_net
from bnstudio.io.uai.uai import format_uai, parse_uai
from bnstudio.io.xml.xmlbif import format_xmlbif, parse_xmlbif

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"


def fails(parse, text, *fragments: str, line: int | None = None) -> FormatError:
    with pytest.raises(FormatError) as info:
        parse(text, "bad.file")
    message = str(info.value)
    assert message.startswith("bad.file:"), message
    for fragment in fragments:
        assert fragment in message, message
    if line is not None:
        assert info.value.line == line, message
    assert "\n" not in message
    return info.value


def xmlbif(variables: str, definitions: str) -> str:
    return (f'<?xml version="1.0"?>\n<BIF VERSION="0.3">\n<NETWORK>\n<NAME>n</NAME>\n{variables}\n'
            f"{definitions}\n</NETWORK>\n</BIF>\n")


AB = ("<VARIABLE><NAME>A</NAME><OUTCOME>a1</OUTCOME><OUTCOME>a2</OUTCOME></VARIABLE>\n"
      "<VARIABLE><NAME>B</NAME><OUTCOME>b1</OUTCOME><OUTCOME>b2</OUTCOME></VARIABLE>")
DEF_A = "<DEFINITION><FOR>A</FOR><TABLE>0.5 0.5</TABLE></DEFINITION>"


@pytest.mark.parametrize("text, fragments, line", [
    (xmlbif(AB, DEF_A)[:-20], ["malformed XML", "unclosed token"], 7),
    (xmlbif(AB, DEF_A)[:-8], ["malformed XML", "no element found"], 8),
    (xmlbif(AB, "<DEFINITION><FOR>A</FOR><TABLE>0.5 0.5</TABLE>"), ["malformed XML", "mismatched tag"], 8),
    (xmlbif(AB, DEF_A + "\n<DEFINITION><GIVEN>A</GIVEN><TABLE>1 0 0 1</TABLE></DEFINITION>"),
     ["<DEFINITION>", "expected one <FOR>", "found 0"], 8),
    (xmlbif(AB, DEF_A + "\n<DEFINITION><FOR>B</FOR><GIVEN>A</GIVEN><TABLE>1 0 0</TABLE></DEFINITION>"),
     ["<DEFINITION> for 'B'", "the table of 'B' has 3 values, expected 4 (2 states x 2 parent configurations)"], 8),
    (xmlbif(AB, DEF_A + "\n<DEFINITION><FOR>B</FOR>\n<GIVEN>Z</GIVEN><TABLE>1 0 0 1</TABLE></DEFINITION>"),
     ["<DEFINITION> for 'B'", "unknown parent 'Z'"], 9),
    (xmlbif(AB, DEF_A + "\n<DEFINITION><FOR>B</FOR><TABLE>0.5 abc</TABLE></DEFINITION>"),
     ["expected a number, found 'abc'"], 8),
    (xmlbif(AB, DEF_A + "\n<DEFINITION><FOR>B</FOR><TABLE>1.5 -0.5</TABLE></DEFINITION>"),
     ["negative probability -0.5"], 8),
    (xmlbif(AB, DEF_A + "\n<DEFINITION><FOR>B</FOR><TABLE>nan 0.5</TABLE></DEFINITION>"),
     ["expected a number, found 'nan'"], 8),
    (xmlbif(AB, DEF_A + "\n<DEFINITION><FOR>B</FOR><GIVEN>A</GIVEN><TABLE>1 0 0.6 0.6</TABLE></DEFINITION>"),
     ["row (A=a2) of 'B' sums to 1.2, not 1"], 8),
    (xmlbif(AB, DEF_A), ["<VARIABLE name='B'>", "variable 'B' has no <DEFINITION>"], 6),
    (xmlbif(AB, DEF_A + "\n<DEFINITION><FOR>Q</FOR><TABLE>1</TABLE></DEFINITION>"),
     ["<FOR> names the undeclared variable 'Q'"], 8),
    (xmlbif(AB, DEF_A + "\n" + DEF_A), ["second definition of 'A' (first on line 7)"], 8),
    (xmlbif(AB + '\n<VARIABLE TYPE="decision"><NAME>D</NAME><OUTCOME>x</OUTCOME></VARIABLE>', DEF_A),
     ["<VARIABLE name='D'>", "is an influence diagram (decision node 'D')", "bnstudio decide"], 7),
    (xmlbif(AB + '\n<VARIABLE TYPE="chance"><NAME>D</NAME><OUTCOME>x</OUTCOME></VARIABLE>', DEF_A),
     ["<VARIABLE name='D'>", "type 'chance'", "not supported"], 7),
    (xmlbif(AB.replace("a2", "a1"), DEF_A), ["variable 'A' lists the state 'a1' twice"], 5),
    (xmlbif(AB.replace("<NAME>B</NAME>", "<NAME> </NAME>"), DEF_A), ["invalid variable name ''"], 6),
    (xmlbif(AB, "<DEFINITION><FOR>A</FOR><GIVEN>B</GIVEN><TABLE>1 0 0 1</TABLE></DEFINITION>\n"
                "<DEFINITION><FOR>B</FOR><GIVEN>A</GIVEN><TABLE>1 0 0 1</TABLE></DEFINITION>"),
     ["<DEFINITION> for 'B'", "cycle B -> A -> B"], 8),
    ('<smile version="1.0" id="x"><nodes/></smile>', ["GeNIe (XDSL) file", ".xdsl"], 1),
    ("<html><body/></html>", ["expected the root element <BIF>"], 1),
])
def test_xmlbif_errors(text, fragments, line):
    fails(parse_xmlbif, text, *fragments, line=line)


HUGIN_OK = """net { }
node A { states = ("a1" "a2"); }
node B { states = ("b1" "b2"); }
potential (A) { data = (0.5 0.5); }
potential (B | A) { data = ((1 0) (0 1)); }
"""


@pytest.mark.parametrize("old, new, fragments, line", [
    ('("a1" "a2")', '("a1 "a2")', ["unterminated string"], 2),
    ('("b1" "b2"); }', '("b1" "b2") }', ["expected ';' to end the attribute 'states'"], 3),
    ("(B | A)", "(B | Z)", ["unknown parent 'Z' in the potential of 'B'"], 5),
    ("((1 0) (0 1))", "((1 0) (0))", ["the table of 'B' has 3 values, expected 4"], 5),
    ("((1 0) (0 1))", "((1 0) (0 x))", ["expected a number, found 'x' in the data of 'B'"], 5),
    ("((1 0) (0 1))", "((1 0) (0 1)", ["unbalanced parentheses in 'data'"], 5),
    ("((1 0) (0 1))", "((1 0) (0 1)))", ["unbalanced ')' in 'data'"], 5),
    ("node B", "continuous node B", ["continuous node 'B' is not supported"], 3),
    ("node B", "decision B", ["is an influence diagram (decision node 'B')", "bnstudio decide"], 3),
    ("node B", "utility B", ["is an influence diagram (utility node 'B')", "bnstudio decide"], 3),
    ("node B", "discrete function B", ["function nodes are not supported"], 3),
    ("(B | A)", "(B A | )", ["exactly one child", "joint potentials"], 5),
    ("potential (A) { data = (0.5 0.5); }", "", ["node 'A' has no potential"], 2),
    ("potential (A)", "potential (Q)", ["potential for undeclared node 'Q'"], 4),
    ('node B { states = ("b1" "b2"); }', "node B { label = \"x\"; }", ["node 'B' has no 'states' attribute"], 3),
    ('node B { states = ("b1" "b2"); }', 'node A { states = ("b1"); }',
     ["node 'A' is declared twice (first on line 2)"], 3),
    ("potential (B | A) { data = ((1 0) (0 1)); }", "potential (B | A) { data = ((1 0) (0 1));",
     ["expected an attribute name or '}'", "end of file"], 6),
    ("(A) { data = (0.5 0.5); }", "(A) { }", ["the potential of 'A' has no 'data'"], 4),
    ('("a1" "a2")', '("a1" "a1")', ["node 'A' lists the state 'a1' twice"], 2),
    ("net { }", "net { } nonsense", ["expected 'net', 'node' or 'potential', found 'nonsense'"], 1),
    ('states = ("a1" "a2");', 'states = ("a1" "a2"); position = (1 2 3);', ["the position of 'A'"], 2),
])
def test_hugin_errors(old, new, fragments, line):
    assert old in HUGIN_OK
    fails(parse_net, HUGIN_OK.replace(old, new, 1), *fragments, line=line)


def test_hugin_cycle():
    text = HUGIN_OK.replace("potential (A) { data = (0.5 0.5); }", "potential (A | B) { data = ((1 0) (0 1)); }")
    fails(parse_net, text, "cycle B -> A -> B", line=5)


XDSL_OK = """<?xml version="1.0"?>
<smile version="1.0" id="x">
<nodes>
<cpt id="A"><state id="a1"/><state id="a2"/><probabilities>0.5 0.5</probabilities></cpt>
<cpt id="B"><state id="b1"/><state id="b2"/><parents>A</parents><probabilities>1 0 0 1</probabilities></cpt>
</nodes>
</smile>
"""


@pytest.mark.parametrize("kind", ["equation", "cpt2"])  # noisymax, deterministic, decision, utility: read
def test_xdsl_refuses_other_node_types(kind):
    text = XDSL_OK.replace("</nodes>", f'<{kind} id="Z"><state id="z"/></{kind}>\n</nodes>')
    fails(parse_xdsl, text, f"<{kind} id='Z'>", f"node 'Z' has type '{kind}'", "not supported", line=6)


def test_xdsl_refuses_multi_attribute_utility_nodes():
    text = XDSL_OK.replace("</nodes>", '<mau id="Z"><parents>A</parents><weights>1</weights></mau>\n</nodes>')
    fails(parse_xdsl, text, "<mau id='Z'>", "multi-attribute utility node 'Z' (<mau>) is not supported", line=6)


@pytest.mark.parametrize("kind, inner", [("decision", '<state id="z1"/><state id="z2"/>'),
                                         ("utility", "<parents>A</parents><utilities>1 2</utilities>")])
def test_xdsl_network_reader_refuses_influence_diagrams(kind, inner):
    text = XDSL_OK.replace("</nodes>", f'<{kind} id="Z">{inner}</{kind}>\n</nodes>')
    fails(parse_xdsl, text, f"<{kind} id='Z'>", f"is an influence diagram ({kind} node 'Z')", "bnstudio decide",
          line=6)


@pytest.mark.parametrize("old, new, fragments, line", [
    ("</nodes>\n</smile>\n", "</nodes>\n", ["malformed XML"], 7),
    ("<parents>A</parents>", "<parents>A Q</parents>", ["<cpt id='B'>", "unknown parent 'Q' in <parents>"], 5),
    ("1 0 0 1", "1 0 0", ["<cpt id='B'>", "the table of 'B' has 3 values, expected 4"], 5),
    ("1 0 0 1", "1 0 0 1e999", ["non-finite probability 1e999"], 5),
    ("<probabilities>0.5 0.5</probabilities>", "", ["<cpt id='A'>", "expected one <probabilities>, found 0"], 4),
    ('<state id="a1"/><state id="a2"/>', "", ["node 'A' has no <state>"], 4),
    ('<cpt id="A">', '<cpt id="B">', ["node 'B' is defined twice (first on line 4)"], 5),
    ('<cpt id="A">', "<cpt>", ["invalid node id name ''"], 4),
    ("nodes>", "nodez>", ["expected one <nodes> element, found 0"], 2),
    ('<smile version="1.0" id="x">', '<BIF VERSION="0.3">', ["this looks like XMLBIF"], None),
])
def test_xdsl_errors(old, new, fragments, line):
    text = XDSL_OK.replace(old, new, 1 if old != "nodes>" else -1)
    if new.startswith("<BIF"):
        text = text.replace("</smile>", "</BIF>")
    fails(parse_xdsl, text, *fragments, line=line)


def test_xdsl_bad_position():
    text = XDSL_OK.replace("</smile>", '<extensions><genie><node id="A">\n<position>1 2 x 4</position>'
                                        "</node></genie></extensions></smile>")
    fails(parse_xdsl, text, "<node id='A'>: the position of 'A' must be 'left top right bottom'", line=8)


UAI_OK = "BAYES\n2\n2 2\n2\n1 0\n2 0 1\n\n2\n0.5 0.5\n\n4\n1 0\n0 1\n"


@pytest.mark.parametrize("old, new, fragments, line", [
    ("BAYES", "MARKOV", ["MARKOV network", "only 'BAYES'"], 1),
    ("BAYES", "BAYESIAN", ["expected the preamble 'BAYES', found 'BAYESIAN'"], 1),
    ("2\n1 0\n", "3\n1 0\n", ["one function per variable: 3 functions for 2 variables"], 4),
    ("2 2\n2", "2 0\n2", ["the cardinality of variable 1 is 0, expected >= 1"], 3),
    ("2 0 1\n", "2 0 2\n", ["a variable index in the scope of function 1 is 2, expected 0..1"], 6),
    ("2 0 1\n", "2 1 1\n", ["the scope of function 1 lists a variable twice"], 6),
    ("2 0 1\n", "1 0\n", ["functions 0 and 1 both end with variable 0"], 6),
    ("\n4\n1 0", "\n3\n1 0", ["function 1 (the CPT of V1) has 3 entries, expected 4"], 11),
    ("\n4\n1 0\n0 1\n", "\n4\n1 0\n0 x\n", ["expected a number, found 'x'"], 13),
    ("\n4\n1 0\n0 1\n", "\n4\n1 0\n0 1\n7\n", ["unexpected data after the last table: '7'"], 14),
    ("\n4\n1 0\n0 1\n", "\n4\n1 0\n0\n", ["unexpected end of file, expected 4 entries for function 1"], 14),
    ("1 0\n0 1", "1 0\n0.7 0.7", ["function 1: row (V0=s1) of 'V1' sums to 1.4"], 11),
    ("2\n2 2", "two\n2 2", ["expected the number of variables (a non-negative integer), found 'two'"], 2),
])
def test_uai_errors(old, new, fragments, line):
    assert old in UAI_OK
    fails(parse_uai, UAI_OK.replace(old, new, 1), *fragments, line=line)


def test_uai_cycle():
    fails(parse_uai, "BAYES 2 2 2 2 2 1 0 2 0 1 4 1 0 0 1 4 1 0 0 1", "cycle V1 -> V0 -> V1", line=1)


def test_errors_through_read_network_name_the_file(tmp_path):
    path = tmp_path / "bad.xdsl"
    path.write_text(XDSL_OK.replace("<parents>A</parents>", "<parents>Q</parents>"))
    with pytest.raises(FormatError) as info:
        read_network(path)
    assert str(info.value).startswith(f"{path}:5:") and info.value.path == str(path)
    for ext in (".xmlbif", ".net", ".xdsl", ".uai"):
        with pytest.raises(FormatError, match="no such file"):
            read_network(tmp_path / f"absent{ext}")
        (tmp_path / f"dir{ext}").mkdir()
        with pytest.raises(FormatError, match="folder"):
            read_network(tmp_path / f"dir{ext}")


@pytest.mark.parametrize("fmt, parse", [(format_xmlbif, parse_xmlbif), (format_net, parse_net),
                                        (format_xdsl, parse_xdsl), (format_uai, parse_uai)])
def test_mangled_files_give_a_network_or_a_format_error(fmt, parse):
    """Truncations and random edits of a valid file never let another exception out (a file the authoring tool
    would read after a repair, e.g. a Hugin row of weights, is read with a RepairWarning)."""
    net: Network = read_network(ASIA)
    text = fmt(net)
    rng = random.Random(1234)
    alphabet = list('(){}<>/="; \n|%#-.0123456789eax')
    for k in range(300):
        if k % 3 == 0:
            mangled = text[:rng.randrange(len(text))]
        else:
            chars = list(text)
            for _ in range(rng.randint(1, 4)):
                chars[rng.randrange(len(chars))] = rng.choice(alphabet)
            mangled = "".join(chars)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RepairWarning)  # any other warning stays an error
                result = parse(mangled, "mangled")
        except FormatError as exc:
            assert str(exc).startswith("mangled")
        else:
            assert isinstance(result, Network)
