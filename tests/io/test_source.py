"""The one offset -> line/column rule (bnstudio/io/source.py) against counting by hand, and the shared token
stream's messages."""
from __future__ import annotations

import random

import pytest

from bnstudio.errors import FormatError
from bnstudio.io import read_network
from bnstudio.io.source import SourceText, TokenStream


def by_hand(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def test_line_and_column_are_those_counted_by_hand():
    rng = random.Random(27)
    for _ in range(200):
        text = "".join(rng.choice("ab \n\r\t") for _ in range(rng.randrange(0, 40)))
        source = SourceText(text, "f")
        for offset in range(len(text) + 1):
            assert source.line_column(offset) == by_hand(text, offset), (text, offset)


def test_a_located_error_is_one_line_naming_file_line_and_column():
    error = SourceText("a\nbb\n", "x.bif").located("bad\nname", 3)
    assert (error.path, error.line, error.column) == ("x.bif", 2, 2)
    assert str(error) == "x.bif:2:2: bad\\nname"


class Stream(TokenStream):
    def __init__(self, text: str, toks: list[tuple]) -> None:
        super().__init__(text, "s")
        self.toks = toks + [("eof", "", len(text))]


def test_the_token_stream_walks_and_stops_at_the_end_of_file():
    stream = Stream("a ;", [("word", "a", 0), (";", ";", 2)])
    assert stream.expect("word", "first") == ("word", "a", 0)
    assert stream.peek() == (";", ";", 2)
    with pytest.raises(FormatError, match=r"^s:1:3: expected 'word' second, found ';'$"):
        stream.expect("word", "second")
    assert stream.next()[0] == stream.next()[0] == "eof"
    assert stream.show(stream.peek()) == "end of file"


def test_long_tokens_are_cut_as_each_format_always_cut_them(tmp_path):
    name = "n" * 50
    class Marked(Stream):
        MARK_CUT = True
    assert Stream.show(("word", name, 0)) == f"'{'n' * 40}'"
    assert Marked.show(("word", name, 0)) == f"'{'n' * 37}...'"
    bif = tmp_path / "long.bif"
    bif.write_text(f"network x {{ }}\nvariable {name} {name} {{ }}\n")
    with pytest.raises(FormatError, match=rf":2:\d+: expected '{{' .*found '{'n' * 37}\.\.\.'"):
        read_network(bif)
    net = tmp_path / "long.net"
    net.write_text(f"net {{ }}\nnode A {{ states = (\"a\" \"b\"); }}\npotential ( A ) {{ data = ( 0.5 0.5 {name} ); }}\n")
    with pytest.raises(FormatError, match=r":3:"):
        read_network(net)
