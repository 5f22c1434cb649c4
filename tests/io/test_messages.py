"""Every reader error is one line of readable length, whatever names and numbers the file holds."""
from __future__ import annotations

import pytest

from bnstudio.errors import FormatError
from bnstudio.io.bif.reader import parse_bif
from bnstudio.io.messages import listing, shorten, tidy
from bnstudio.io.uai.uai import parse_uai
from bnstudio.io.xml.xmlbif import parse_xmlbif

LONG = "n" * 5000


@pytest.mark.parametrize("parse, text, fragment", [
    (parse_bif, 'variable A { type discrete [ 2 ] { a, b }; }\nprobability ( A | "x\ny" ) { table 0.5, 0.5; }',
     "unknown parent 'x\\ny' in probability block of 'A'"),
    (parse_bif, f'variable A {{ type discrete [ 2 ] {{ a, b }}; }}\nprobability ( A | {LONG} ) {{ table 0.5, 0.5; }}',
     f"unknown parent '{'n' * 57}...' in probability block of 'A'"),
    (parse_bif, "variable A { type discrete [ 2 ] { a, b }; }\nprobability ( A ) { table 1" + "1" * 5000 + ", 0; }",
     "non-finite probability 1111111111111111111111111111111111111... in the table of 'A'"),
    (parse_uai, "BAYES 1 2 1 1 0 2 0.5 1" + "0" * 5000,
     "non-finite probability 1000000000000000000000000000000000000..."),
    (parse_xmlbif, "<BIF><NETWORK><VARIABLE><NAME>A</NAME><OUTCOME>a</OUTCOME></VARIABLE><DEFINITION><FOR>A</FOR>"
                   "<GIVEN>x\ny</GIVEN><TABLE>1</TABLE></DEFINITION></NETWORK></BIF>", "unknown parent 'x\\ny'"),
])
def test_names_and_numbers_from_the_file_are_shortened_and_on_one_line(parse, text, fragment):
    with pytest.raises(FormatError) as info:
        parse(text, "f")
    message = str(info.value)
    assert "\n" not in message and len(message) < 300 and fragment in message, message


def test_helpers():
    assert shorten("a\r\nb") == "a\\r\\nb" and shorten("x" * 100, 10) == "xxxxxxx..."
    assert listing(range(3), quote=False) == "0, 1, 2"
    assert listing(["a"] * 2, total=9, limit=2) == "'a', 'a' and 7 more"
    assert tidy("short 'name' kept") == "short 'name' kept"
    assert tidy('a["' + "k" * 100 + '"]') == 'a["' + "k" * 57 + '..."]'  # JSON paths quote keys with "


def test_a_parent_with_many_states_is_not_listed_in_full():
    states = ", ".join(f"s{k}" for k in range(2000))
    text = (f"variable P {{ type discrete [ 2000 ] {{ {states} }}; }}\nvariable A {{ type discrete [ 2 ] {{ a, b }}; }}\n"
            f"probability ( P ) {{ default {', '.join(['0.0005'] * 2000)}; }}\n"
            "probability ( A | P ) { (nope) 0.5, 0.5; default 0.5, 0.5; }")
    with pytest.raises(FormatError, match=r"f:4:26: unknown state 'nope' of parent 'P' \(states: s0, s1, s2, s3, s4 "
                                          r"and 1,995 more\)$"):
        parse_bif(text, "f")


@pytest.mark.parametrize("ext", [".bif", ".xml", ".net", ".xdsl", ".uai"])
def test_a_long_token_that_is_almost_a_number_costs_linear_time(tmp_path, ext):
    """The number pattern once split a run of digits two ways: 10^4 digits and a letter took seconds."""
    import time

    import numpy as np

    from bnstudio.core.network import Network
    from bnstudio.io import read_network, write_network

    net = Network("n")
    net.add_variable("A", ["a", "b"], cpt=np.array([0.125, 0.875]))
    path = tmp_path / f"n{ext}"
    write_network(net, path)
    path.write_text(path.read_text().replace("0.125", "1" * 20_000 + "x", 1))
    started = time.perf_counter()
    with pytest.raises(FormatError, match=r"expected a number.*, found '1{37}\.\.\.'"):
        read_network(path)
    assert time.perf_counter() - started < 1
