"""Malformed BIF: each problem is a FormatError naming the right line and what was expected."""
from __future__ import annotations

import pytest

from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io.bif.reader import parse_bif
from bnstudio.io.judging import judged_repairs

GOOD = """network test {
}
variable A {
  type discrete [ 2 ] { a0, a1 };
}
variable B {
  type discrete [ 3 ] { b0, b1, b2 };
}
variable C {
  type discrete [ 2 ] { c0, c1 };
}
probability ( A ) {
  table 0.3, 0.7;
}
probability ( B | A ) {
  (a0) 0.2, 0.3, 0.5;
  (a1) 0.6, 0.3, 0.1;
}
probability ( C | A, B ) {
  (a0, b0) 0.1, 0.9;
  (a0, b1) 0.2, 0.8;
  (a0, b2) 0.3, 0.7;
  (a1, b0) 0.4, 0.6;
  (a1, b1) 0.5, 0.5;
  (a1, b2) 0.6, 0.4;
}
"""


def _edit(old: str, new: str) -> str:
    assert GOOD.count(old) == 1, old
    return GOOD.replace(old, new)


CASES = {  # id: (text, line, words the message must contain)
    "truncated in a block": (GOOD[:GOOD.index("(a1, b1)")], 24, ["end of file", "'}'"]),
    "truncated in a state list": (GOOD[:GOOD.index(", b2 }")], 7, ["end of file", "state name"]),
    "truncated after a keyword": (GOOD[:GOOD.index("( C |") - 1], 19, ["expected '('", "end of file"]),
    "wrong state count": (_edit("{ b0, b1, b2 }", "{ b0, b1 }"), 7,
                          ["variable 'B' declares 3 states but lists 2"]),
    "missing ';' after states": (_edit("{ c0, c1 };", "{ c0, c1 }"), 11, ["expected ';' after the state list"]),
    "bad state count": (_edit("[ 2 ] { c0", "[ two ] { c0"), 10, ["number of states", "'two'"]),
    "continuous type": (_edit("type discrete [ 2 ] { c0", "type continuous [ 2 ] { c0"), 10,
                        ["only discrete", "continuous"]),
    "no type line": (_edit("  type discrete [ 2 ] { c0, c1 };\n", ""), 9, ["'C' has no 'type"]),
    "unknown parent": (_edit("( B | A )", "( B | Q )"), 15, ["unknown parent 'Q' in probability block of 'B'"]),
    "parent twice": (_edit("( B | A )", "( B | A, A )"), 15, ["parent 'A' is listed twice"]),
    "unknown state in a row": (_edit("(a1, b2)", "(a1, foo)"), 25, ["unknown state 'foo' of parent 'B'"]),
    "too few parent states": (_edit("(a1, b2)", "(a1)"), 25, ["names 1 parent state", "expected 2"]),
    "negative entry": (_edit("(a0) 0.2, 0.3, 0.5", "(a0) -0.2, 0.7, 0.5"), 16, ["negative probability -0.2"]),
    "non-numeric entry": (_edit("(a1) 0.6, 0.3, 0.1", "(a1) 0.6, x, 0.1"), 17, ["expected a number", "'x'"]),
    "non-finite entry": (_edit("(a1) 0.6, 0.3, 0.1", "(a1) 0.6, 1e999, 0.1"), 17, ["non-finite"]),
    "nan entry": (_edit("(a1) 0.6, 0.3, 0.1", "(a1) 0.6, nan, 0.1"), 17, ["expected a number", "'nan'"]),
    "empty row": (_edit("(a1) 0.6, 0.3, 0.1;", "(a1) ;"), 17, ["expected a number"]),
    "missing ';' after a row": (_edit("(a1) 0.6, 0.3, 0.1;", "(a1) 0.6, 0.3, 0.1"), 18,
                                ["expected a number or ';'", "'}'"]),
    "too many values in a row": (_edit("(a1, b0) 0.4, 0.6", "(a1, b0) 0.4, 0.3, 0.3"), 23,
                                 ["has 3 values, expected 2"]),
    "too few values in a table": (_edit("table 0.3, 0.7", "table 1.0"), 13, ["has 1 values, expected 2"]),
    "duplicate row": (_edit("(a1, b2) 0.6, 0.4", "(a1, b1) 0.6, 0.4"), 25,
                      ["(A=a1, B=b1) of 'C' is given twice (first on line 24)"]),
    "row and table": (_edit("(a1) 0.6, 0.3, 0.1;", "(a1) 0.6, 0.3, 0.1;\n  table 0.2, 0.2, 0.3, 0.3, 0.5, 0.5;"),
                      18, ["given twice"]),
    "missing row, no default": (_edit("  (a1, b2) 0.6, 0.4;\n", ""), 19,
                                ["gives no row (A=a1, B=b2)", "no 'default'"]),
    "empty root block": (_edit("  table 0.3, 0.7;\n", ""), 12, ["gives no values"]),
    "two defaults": (_edit("(a0) 0.2, 0.3, 0.5;", "default 0.2, 0.3, 0.5; default 0.2, 0.3, 0.5;"), 16,
                     ["second 'default'"]),
    "cycle": (_edit("probability ( A ) {\n  table 0.3, 0.7;", "probability ( A | C ) {\n  default 0.3, 0.7;"),
              19, ["cycle C -> A -> C"]),
    "self loop": (_edit("( B | A )", "( B | A, B )"), 15, ["cycle B -> B"]),
    "duplicate variable": (_edit("variable C {\n  type discrete [ 2 ] { c0, c1 };",
                                 "variable B {\n  type discrete [ 2 ] { c0, c1 };"),
                           9, ["variable 'B' is declared twice (first on line 6)"]),
    "duplicate state": (_edit("{ b0, b1, b2 }", "{ b0, b1, b0 }"), 7, ["state 'b0' twice"]),
    "row sums to 0.5": (_edit("(a0, b1) 0.2, 0.8", "(a0, b1) 0.2, 0.3"), 21,
                        ["row (A=a0, B=b1) of 'C' sums to 0.5"]),
    "missing probability block": (GOOD[:GOOD.index("probability ( C")], 9, ["missing probability block for 'C'"]),
    "second probability block": (GOOD + "probability ( A ) { table 0.5, 0.5; }\n", 27,
                                 ["second probability block for 'A' (first on line 12)"]),
    "undeclared variable": (GOOD + "probability ( Z ) { table 1; }\n", 27, ["undeclared variable 'Z'"]),
    "unknown top-level keyword": (_edit("variable B {", "varaible B {"), 6,
                                  ["expected 'network', 'variable' or 'probability'", "'varaible'"]),
    "unknown entry in a probability block": (_edit("(a1) 0.6", "[a1] 0.6"), 17, ["expected '(', 'table'"]),
    "unknown entry in a variable block": (_edit("type discrete [ 3 ]", "kind discrete [ 3 ]"), 7,
                                          ["expected 'type', 'property' or '}'", "'kind'"]),
    "second network block": (GOOD + "network again { }\n", 27, ["second 'network' block"]),
    "unterminated comment": (_edit("variable B {", "/* oops\nvariable B {"), 6, ["unterminated comment"]),
    "unterminated quoted name": (_edit("{ c0, c1 }", '{ "c0, c1 }'), 10, ["unterminated quoted name"]),
    "property without ';'": (_edit("network test {\n}", "network test {\n  property a = b\n}"), 3,
                             ["expected ';' after the property"]),
    "empty state name": (_edit("{ c0, c1 }", '{ c0, "" }'), 9, ["invalid state of 'C' name"]),
}


@pytest.mark.parametrize("text, line, words", list(CASES.values()), ids=list(CASES))
def test_malformed_input_names_the_line(text, line, words):
    with pytest.raises(FormatError) as info:
        parse_bif(text, "bad.bif")
    err = info.value
    assert (err.path, err.line) == ("bad.bif", line), str(err)
    assert err.column is not None and err.column >= 1
    message = str(err)
    assert message.startswith(f"bad.bif:{line}:{err.column}: ")
    for word in words:
        assert word in message


def test_an_all_zero_row_is_refused_strictly_on_its_line_and_made_uniform_otherwise():
    text = _edit("(a0, b1) 0.2, 0.8", "(a0, b1) 0, 0")
    with pytest.raises(FormatError) as info:
        parse_bif(text, "bad.bif", strict=True)
    assert (info.value.line, str(info.value).split(": ", 1)[1]) == (21, "row (A=a0, B=b1) of 'C' sums to 0, not 1 "
                                                                        "(tolerance 1e-05; strict reading repairs "
                                                                        "nothing)")
    with pytest.warns(RepairWarning, match=r"row \(A=a0, B=b1\) of 'C' \(parent configuration has probability "
                                           r"0\.09: the file's joint summed to 0\.91\)"), \
            judged_repairs():  # 0.3 * 0.3; judged as by the open path (a parser on its own does not judge)
        assert parse_bif(text, "bad.bif").cpt("C")[0, 1].tolist() == [0.5, 0.5]


def test_good_text_is_good():
    net = parse_bif(GOOD)
    assert net.variables == ["A", "B", "C"]
    assert net.cpt("C")[1, 2].tolist() == [0.6, 0.4]


def test_column_points_at_the_offending_token():
    text = _edit("(a1) 0.6, 0.3, 0.1", "(a1) 0.6, zz, 0.1")
    with pytest.raises(FormatError) as info:
        parse_bif(text)
    assert (info.value.line, info.value.column) == (17, text.splitlines()[16].index("zz") + 1)


def test_huge_table_is_refused_before_allocating():
    states = ", ".join(f"s{i}" for i in range(100))
    variables = "".join(f"variable V{i} {{ type discrete [ 100 ] {{ {states} }}; }}\n" for i in range(5))
    roots = "".join(f"probability ( V{i} ) {{ default {', '.join(['0.01'] * 100)}; }}\n" for i in range(4))
    text = variables + roots + f"probability ( V4 | V0, V1, V2, V3 ) {{ default {', '.join(['0.01'] * 100)}; }}\n"
    with pytest.raises(FormatError, match="entries"):
        parse_bif(text)
