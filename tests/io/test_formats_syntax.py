"""Hand-made XMLBIF, Hugin NET, XDSL and UAI files: the table orders and the common syntax variations.

Every file below describes the same family, chosen so that a wrong axis order shows::

    A in (a1, a2), B in (b1, b2, b3), C in (c1, c2) with parents (A, B)
    p(C = c1 | A = ai, B = bj) = EXPECTED_C1[i][j]
"""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.io import read_network
from bnstudio.io.genie.xdsl import parse_xdsl
from bnstudio.io.hugin.net import parse_net
from bnstudio.io.uai.uai import parse_uai
from bnstudio.io.xml.xmlbif import parse_xmlbif

EXPECTED_C1 = np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
# the child fastest, then B, then A (first parent slowest)
FLAT = "0.1 0.9 0.2 0.8 0.3 0.7 0.4 0.6 0.5 0.5 0.6 0.4"


def check_family(net, a="A", b="B", c="C") -> None:
    assert net.parents(c) == (a, b)
    np.testing.assert_allclose(net.cpt(c)[..., 0], EXPECTED_C1, rtol=0, atol=1e-15)
    np.testing.assert_allclose(net.cpt(c).sum(axis=-1), 1.0, rtol=0, atol=1e-15)


XMLBIF = f"""<?xml version="1.0"?>
<!-- a comment -->
<BIF VERSION="0.3">
<NETWORK>
<NAME>tiny</NAME>
<PROPERTY>author = someone</PROPERTY>
<PROPERTY>software aGrUM</PROPERTY>
<VARIABLE TYPE="nature">
    <NAME>A</NAME> <OUTCOME>a1</OUTCOME> <OUTCOME>a2</OUTCOME>
    <PROPERTY>position = (100, 200)</PROPERTY>
    <PROPERTY>description = the cause</PROPERTY>
</VARIABLE>
<VARIABLE TYPE="nature">
    <NAME> B </NAME> <OUTCOME>b1</OUTCOME> <OUTCOME>b2</OUTCOME> <OUTCOME>b3</OUTCOME>
    <PROPERTY>fast = B{{b1|b2|b3}}</PROPERTY>
</VARIABLE>
<VARIABLE TYPE="nature"> <NAME>C</NAME> <OUTCOME>c1</OUTCOME> <OUTCOME>c2</OUTCOME> </VARIABLE>
<DEFINITION> <FOR>C</FOR> <GIVEN>A</GIVEN> <GIVEN>B</GIVEN>
    <TABLE>
        {FLAT}
    </TABLE>
</DEFINITION>
<DEFINITION> <FOR>A</FOR> <TABLE>0.5 0.5</TABLE> </DEFINITION>
<PROBABILITY> <FOR>B</FOR> <TABLE>0.2 0.3 0.5</TABLE> </PROBABILITY>
</NETWORK>
</BIF>
"""


def test_xmlbif_child_fastest_and_properties():
    net = parse_xmlbif(XMLBIF)
    check_family(net)
    assert net.name == "tiny" and net.variables == ["A", "B", "C"]
    assert net.positions == {"A": (100.0, 200.0)}
    assert net.variable("A").description == "the cause"
    assert net.properties == {"author": "someone", "software": "aGrUM", "B.fast": "B{b1|b2|b3}"}


def test_xmlbif_lower_case_tags_and_latin1_encoding():
    text = XMLBIF.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>').lower()
    text = text.replace("<name>tiny</name>", "<name>caf\u00e9</name>")
    net = parse_xmlbif(text.encode("latin-1"))
    assert net.name == "caf\u00e9"
    check_family(net, "a", "b", "c")


def test_xmlbif_is_read_by_every_extension(tmp_path):
    for name in ("n.xmlbif", "n.xml", "n.BIFXML"):
        (tmp_path / name).write_text(XMLBIF)
        check_family(read_network(tmp_path / name))


HUGIN = """% a Hugin file, classic syntax
net
{
    node_size = (80 40);
    HR_Grid_X = "10";     % kept as a property
    inputs = ();
}

discrete node A
{
    position = (100 -50);
    states = ("a1" "a2");
    label = "The cause";
}

node B { states = (b1 b2 b3); subtype = label; HR_Desc = ""; label = "B"; }

node C
{
    label = "";
    states = ( "c1"
               "c2" );   % states on two lines
    position = (0 0);
}

potential ( C | A B )
{
    data = ((( 0.1 0.9 )   % A=a1 B=b1
             ( 0.2 0.8 )
             ( 0.3 0.7 ))
            (( 0.4 0.6 )
             ( 0.5 0.5 )
             ( 0.6 0.4 )));
    experience = ((1 1 1) (1 1 1));
}

potential (A) { data = ( 0.5 0.5 ); }
potential (B|) { data = (0.2 0.3 0.5); }
"""


def test_hugin_nested_data_child_innermost():
    net = parse_net(HUGIN)
    check_family(net)
    assert net.positions == {"A": (100.0, -50.0), "C": (0.0, 0.0)}
    assert net.variable("A").description == "The cause" and net.variable("B").description == ""
    assert net.properties == {"HR_Grid_X": "10", "B.HR_Desc": ""}


def test_hugin_flat_data_list_and_class_wrapper():
    flat = HUGIN.replace("""((( 0.1 0.9 )   % A=a1 B=b1
             ( 0.2 0.8 )
             ( 0.3 0.7 ))
            (( 0.4 0.6 )
             ( 0.5 0.5 )
             ( 0.6 0.4 )))""", f"({FLAT})")
    check_family(parse_net(flat))
    body = flat.split("}", 1)[1]  # drop the net block
    net = parse_net(f"class Tiny\n{{\n    inputs = ();\n    outputs = ();\n{body}\n}}\n")
    check_family(net)
    assert net.name == "Tiny"


def test_hugin_file_written_by_pyagrum_style():
    text = """
net {
  name = weird net;
  software = "aGrUM 3.3.1";
  node_size = (50 50);
}
node A { states = (a1 a2 ); label = "A"; ID = "A"; }
node B { states = (b1 b2 b3 ); label = "B"; ID = "B"; }
node C { states = (c1 c2 ); label = "C"; ID = "C"; }
potential (A) { data = (  0.5 0.5); }
potential (B) { data = (  0.2 0.3 0.5); }
potential ( C | A   B   ) {
   data =
   (((    0.1    0.9)   % B=b1   A=a1
   (    0.2    0.8)   (    0.3    0.7))
   ((    0.4    0.6)   (    0.5    0.5)   (    0.6    0.4)));
}
"""
    net = parse_net(text)
    check_family(net)
    assert net.name == "weird net" and net.properties["software"] == "aGrUM 3.3.1"


XDSL = f"""<?xml version="1.0" encoding="UTF-8"?>
<smile version="1.0" id="Tiny" numsamples="10000" discsamples="10000">
  <nodes>
    <cpt id="A">
      <state id="a1" />
      <state id="a2" />
      <probabilities>0.5 0.5</probabilities>
    </cpt>
    <cpt id="C" diagtype="target" ranked="true">
      <state id="c1" label="F1" />
      <state id="c2" fault="true" />
      <parents>A B</parents>
      <probabilities>{FLAT}</probabilities>
      <property id="unit">none</property>
    </cpt>
    <cpt id="B">
      <state id="b1" /><state id="b2" /><state id="b3" />
      <probabilities>0.2 0.3 0.5</probabilities>
    </cpt>
  </nodes>
  <extensions>
    <genie version="1.0" app="GeNIe 2.0" name="Tiny network" faultnameformat="nodestate">
      <node id="A">
        <name>Cause A</name>
        <interior color="e5f6f7" />
        <position>60 30 132 66</position>
      </node>
      <submodel id="Sub">
        <name>Sub</name>
        <node id="C">
          <name>C</name>
          <position>10 20 30 40</position>
          <comment>the effect</comment>
        </node>
      </submodel>
      <textbox><caption>free text</caption><position>0 0 10 10</position></textbox>
    </genie>
  </extensions>
</smile>
"""


def test_xdsl_child_fastest_positions_names():
    net = parse_xdsl(XDSL)
    check_family(net)
    assert net.variables == ["A", "C", "B"]  # file order, even with a forward reference
    assert net.name == "Tiny network"
    assert net.positions == {"A": (96.0, 48.0), "C": (20.0, 30.0)}
    assert net.variable("A").description == "Cause A" and net.variable("C").description == "the effect"


def test_xdsl_without_extensions():
    start, end = XDSL.index("  <extensions>"), XDSL.index("</smile>")
    net = parse_xdsl(XDSL[:start] + XDSL[end:])
    check_family(net)
    assert net.name == "Tiny" and net.positions == {}


UAI = f"""c a UAI 2016 comment line
BAYES
3
2 3 2
3
1 0
1 1
3 0 1 2   # pyAgrum-style comment: C given A, B

2
 0.5 0.5
3 0.2 0.3 0.5
12
 {FLAT}
"""


def test_uai_last_scope_variable_fastest():
    net = parse_uai(UAI, "/some/where/tiny.uai")
    check_family(net, "V0", "V1", "V2")
    assert net.states("V1") == ("s0", "s1", "s2") and net.name == "tiny" and "V0" in net.properties["note"]


def test_uai_functions_in_any_order_and_parent_order_from_the_scope():
    # the CPT of V2 comes first, and lists its parents as (B, A): the table follows that scope
    flat_ba = " ".join(f"{EXPECTED_C1[i][j]:g} {1 - EXPECTED_C1[i][j]:g}" for j in range(3) for i in range(2))
    text = f"BAYES 3 2 3 2 3  3 1 0 2  1 0  1 1  12 {flat_ba}  2 0.5 0.5  3 0.2 0.3 0.5"
    net = parse_uai(text)
    assert net.parents("V2") == ("V1", "V0")
    np.testing.assert_allclose(np.swapaxes(net.cpt("V2"), 0, 1)[..., 0], EXPECTED_C1, rtol=0, atol=1e-15)


@pytest.mark.parametrize("ext, text", [(".xmlbif", XMLBIF), (".net", HUGIN), (".xdsl", XDSL), (".uai", UAI)])
def test_every_tiny_file_through_read_network(tmp_path, ext, text):
    path = tmp_path / f"tiny{ext}"
    path.write_text(text)
    net = read_network(path)
    if ext == ".uai":
        check_family(net, "V0", "V1", "V2")
    else:
        check_family(net)
