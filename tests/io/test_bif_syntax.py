"""Hand-made BIF inputs: comments, properties, quoted names, default/table entries, layout and number forms."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core.network import Network
from bnstudio.errors import RepairWarning
from bnstudio.io.bif.reader import format_bif, parse_bif

MESSY = r'''/* A header comment
   spanning lines, with "quotes" and { braces } */
network "My Net" { // trailing comment
  property author = Jane Doe ;
  property "note = a ; inside a string" ;
}
variable "Smoker?" {
  type discrete[2]{"yes","no"};   // no blanks at all
  property position = (10.5, -3) ;
  property label = Smoking status ;
}
variable   Cancer
{
   type   discrete
   [ 2 ]
   { present ,   absent } ;
}
variable Xray { type discrete [ 3 ] { pos, neg, "not done" }; }
variable Age { type discrete [ 3 ] { <30, 30-60, >=60 }; }
probability ( "Smoker?" ) { table 3e-1, .7; }
probability ( Age ) {
  table 0.25,
        0.5,   // comments between numbers
        /* here too */ 0.25;
}
probability ( Cancer | "Smoker?", Age ) {
  default 0.99, 1.E-2;
  (yes, >=60) 0.25, 0.75;
  (no, <30) 1e-03, 9.99E-1;
  property ignored = here ;
}
probability(Xray|Cancer){table 0.8,0.1,0.2,0.7,0.0,0.2;}
'''


def test_messy_but_valid_file():
    net = parse_bif(MESSY)
    assert net.name == "My Net"
    assert net.variables == ["Smoker?", "Cancer", "Xray", "Age"]
    assert net.states("Xray") == ("pos", "neg", "not done")
    assert net.states("Age") == ("<30", "30-60", ">=60")
    assert net.parents("Cancer") == ("Smoker?", "Age")
    assert net.cpt("Smoker?").tolist() == [0.3, 0.7]
    assert net.cpt("Age").tolist() == [0.25, 0.5, 0.25]
    cancer = net.cpt("Cancer")
    assert cancer[0, 2].tolist() == [0.25, 0.75]
    assert cancer[1, 0].tolist() == [1e-3, 0.999]
    for row in [(0, 0), (0, 1), (1, 1), (1, 2)]:  # every other row is the default
        assert cancer[row].tolist() == [0.99, 0.01]
    # table with a parent: child slowest -> (present: .8 .2 0), (absent: .1 .7 .2)
    assert net.cpt("Xray").tolist() == [[0.8, 0.2, 0.0], [0.1, 0.7, 0.2]]
    assert net.positions == {"Smoker?": (10.5, -3.0)}
    assert net.properties == {"author": "Jane Doe", "note": "a ; inside a string",
                              "Smoker?.label": "Smoking status"}
    net.validate()


DOG_TABLES = """
network dog { }
variable bowel { type discrete [ 2 ] { true, false }; }
variable family { type discrete [ 3 ] { out, in, away }; }
variable dog { type discrete [ 2 ] { out, in }; }
probability ( bowel ) { table 0.01, 0.99; }
probability ( family ) { table 0.15, 0.6, 0.25; }
probability ( dog | bowel, family ) {
  table 0.99, 0.97, 0.9, 0.3, 0.2, 0.1,
        0.01, 0.03, 0.1, 0.7, 0.8, 0.9;
}
"""
DOG_ROWS = DOG_TABLES.replace("""  table 0.99, 0.97, 0.9, 0.3, 0.2, 0.1,
        0.01, 0.03, 0.1, 0.7, 0.8, 0.9;""", """  (true, out) 0.99, 0.01;
  (true, in) 0.97, 0.03;
  (true, away) 0.9, 0.1;
  (false, out) 0.3, 0.7;
  (false, in) 0.2, 0.8;
  (false, away) 0.1, 0.9;""")


def test_table_with_parents_lists_the_child_slowest(same_network):
    """``table`` is row-major over (child, parents...): p(dog=out | every parent config), then dog=in."""
    by_table, by_rows = parse_bif(DOG_TABLES), parse_bif(DOG_ROWS)
    same_network(by_table, by_rows)
    dog = by_table.cpt("dog")
    assert dog.shape == (2, 3, 2)
    assert dog[0, 1].tolist() == [0.97, 0.03]  # bowel=true, family=in
    assert dog[1, 0].tolist() == [0.3, 0.7]    # bowel=false, family=out


def test_table_with_parents_agrees_with_pgmpy():
    bif = pytest.importorskip("pgmpy.readwrite")
    reader = bif.BIFReader(string=DOG_TABLES)
    ours = parse_bif(DOG_TABLES).cpt("dog")
    assert list(reader.variable_parents["dog"]) == ["bowel", "family"]
    theirs = np.asarray(reader.variable_cpds["dog"], float).T.reshape(2, 3, 2)
    assert np.array_equal(ours, theirs)


def test_javabayes_dialect_without_separators():
    """The original format: no '|' or commas, quoted names and states, properties as one quoted string."""
    text = """
    network "Dog-Problem" { //5 variables and 5 probability distributions
        property "credal-set constant-density-bounded 1.1" ;
    }
    variable "light-on" { //2 values
        type discrete[2] { "true" "false" };
        property "position = (218, 195)" ;
    }
    variable "family-out" {
        type discrete[2] { "true" "false" };
    }
    probability ( "light-on" "family-out" ) { //2 variable(s) and 4 values
        table 0.6 0.05 0.4 0.95 ;
    }
    probability ( "family-out" ) {
        table 0.15 0.85 ;
    }
    """
    net = parse_bif(text)
    assert net.parents("light-on") == ("family-out",)
    assert net.cpt("light-on").tolist() == [[0.6, 0.4], [0.05, 0.95]]
    assert net.positions == {"light-on": (218.0, 195.0)}
    assert net.properties == {"credal-set": "constant-density-bounded 1.1"}


def test_root_given_as_an_empty_row_and_missing_network_block():
    net = parse_bif("variable A { type discrete [ 2 ] { x, y }; } probability ( A ) { () 0.5, 0.5; }")
    assert net.name == "network" and net.cpt("A").tolist() == [0.5, 0.5]


def test_rows_within_tolerance_are_rescaled_rows_summing_to_one_kept_exactly():
    text = """variable A { type discrete [ 3 ] { a, b, c }; }
    variable B { type discrete [ 2 ] { x, y }; }
    probability ( A ) { table 0.333, 0.333, 0.333; }
    probability ( B | A ) { (a) 0.2, 0.7995; (b) 0.1, 0.9000001; (c) 0.1, 0.9; }"""
    with pytest.warns(RepairWarning) as caught:  # one warning for the file, naming the noticeable rows
        net = parse_bif(text)
    assert len(caught) == 1 and "\n" not in str(caught[0].message)
    assert str(caught[0].message) == ("<string>: rescaled 2 rows whose sums were off 1 by more than 1e-05 (at "
                                      "most 0.001): row () of 'A' sums to 0.999, row (A=a) of 'B' sums to 0.9995")
    assert np.allclose(net.cpt("A"), [1 / 3] * 3, atol=1e-15)
    assert net.cpt("B")[0].sum() == pytest.approx(1.0, abs=1e-15)
    assert net.cpt("B")[0, 0] == pytest.approx(0.2 / 0.9995, abs=1e-15)
    assert net.cpt("B")[1].sum() == pytest.approx(1.0, abs=1e-15)
    assert net.cpt("B")[1, 0] == pytest.approx(0.1 / 1.0000001, abs=1e-15)
    assert net.cpt("B")[2].tolist() == [0.1, 0.9]  # 0.1 + 0.9 is 1 up to rounding: untouched


def test_every_row_of_the_reference_networks_sums_to_one_after_reading():
    """bnlearn's alarm has rows summing to 0.9999999; they are rescaled (exact inference relies on it)."""
    from pathlib import Path

    alarm = parse_bif((Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif")
                      .read_text(encoding="utf-8"))
    for var in alarm.variables:
        assert np.abs(alarm.cpt(var).sum(axis=-1) - 1).max() <= 1e-12, var


def _odd_network() -> Network:
    rng = np.random.default_rng(7)
    net = Network('a "quoted" name; with /* odd */ bits')
    net.add_variable("table", ["1", "1e5", "-3.0", ">=7.5"], cpt=rng.dirichlet(np.ones(4)))
    net.add_variable("two words", ["a//b", "c/*d", "back\\slash", 'q"uote', "é ü"],
                     parents=["table"], cpt=rng.dirichlet(np.ones(5), size=4))
    net.add_variable("property", ["x", "y"], parents=["two words", "table"],
                     cpt=rng.dirichlet([0.1, 0.1], size=(5, 4)), position=(1 / 3, -2e-300))
    net.add_variable("Asy/Patch", ["{", "}"], parents=["property"], cpt=[[1.0, 0.0], [5e-324, 1.0]])
    net.properties.update({"author": "Jane", "multi line": "a\nb", "semi": "x; y", "quote": 'say "hi"',
                           "table.unit": "kg", "two words.note": "// not a comment", "empty": "",
                           "": "an empty key is not written"})
    return net


def test_round_trip_of_awkward_names_values_and_properties(same_network):
    net = _odd_network()
    text = format_bif(net)
    back = parse_bif(text)
    net.properties.pop("")
    same_network(back, net)
    assert format_bif(back) == text


def test_writer_output_is_plain_bnlearn_style_for_plain_names():
    net = Network("tiny")
    net.add_variable("A", ["yes", "no"], cpt=[0.25, 0.75])
    net.add_variable("B", ["lo", "hi"], parents=["A"], cpt=[[0.5, 0.5], [0.1, 0.9]])
    assert format_bif(net) == """network tiny {
}
variable A {
  type discrete [ 2 ] { yes, no };
}
variable B {
  type discrete [ 2 ] { lo, hi };
}
probability ( A ) {
  table 0.25, 0.75;
}
probability ( B | A ) {
  (yes) 0.5, 0.5;
  (no) 0.1, 0.9;
}
"""
