"""The encoding an XML declaration names: honoured when Python knows it, else one FormatError naming it."""
from __future__ import annotations

from pathlib import Path

import pytest

from bnstudio.errors import FormatError
from bnstudio.io import read_network

CORPUS = Path(__file__).resolve().parents[1] / "fuzz" / "corpus"
XMLBIF = ('<?xml version="1.0" encoding="{enc}"?>\n<BIF VERSION="0.3"><NETWORK><NAME>{name}</NAME>'
          "<VARIABLE><NAME>A</NAME><OUTCOME>a</OUTCOME><OUTCOME>{state}</OUTCOME></VARIABLE>"
          "<DEFINITION><FOR>A</FOR><TABLE>0.5 0.5</TABLE></DEFINITION></NETWORK></BIF>\n")
XDSL = ('<?xml version="1.0" encoding="{enc}"?>\n<smile version="1.0" id="{name}"><nodes><cpt id="A">'
        '<state id="a"/><state id="{state}"/><probabilities>0.5 0.5</probabilities></cpt></nodes></smile>\n')


@pytest.mark.parametrize("name", ["xmlbif/unknown_encoding.xml", "xdsl/unknown_encoding.xdsl"])
def test_the_issue_cases(name):
    path = CORPUS / name
    with pytest.raises(FormatError) as info:
        read_network(path)
    assert str(info.value) == (f"{path}:1: the XML declaration names the encoding 'foo-bar', which is not a known "
                               f"text encoding (save the file as UTF-8)")


@pytest.mark.parametrize("template, ext", [(XMLBIF, ".xml"), (XDSL, ".xdsl")])
@pytest.mark.parametrize("encoding, fragment", [
    ("no-such-thing", "names the encoding 'no-such-thing', which is not a known text encoding"),
    ("rot13", "names the encoding 'rot13', which is not a known text encoding"),  # a codec, not a text encoding
    ("zlib", "names the encoding 'zlib', which is not a known text encoding"),
    ("undefined", "names the encoding 'undefined', which is not a known text encoding"),  # Python codecs ...
    ("unicode_escape", "names the encoding 'unicode_escape', which is not a known text encoding"),  # ... warned
    ("punycode", "cannot decode the file as punycode"),
])
def test_encodings_that_cannot_be_used(tmp_path, template, ext, encoding, fragment):
    path = tmp_path / f"n{ext}"
    path.write_bytes(template.format(enc=encoding, name="n", state="b").encode("ascii"))
    with pytest.raises(FormatError) as info:
        read_network(path)
    message = str(info.value)
    assert message.startswith(f"{path}:1: ") and fragment in message and "\n" not in message, message


@pytest.mark.parametrize("template, ext", [(XMLBIF, ".xml"), (XDSL, ".xdsl")])
@pytest.mark.parametrize("encoding", ["UTF-8", "iso-8859-1", "cp1252", "shift_jis", "big5", "utf-16"])
def test_known_encodings_are_honoured(tmp_path, template, ext, encoding):
    state = {"shift_jis": "\u3042", "big5": "\u4e2d"}.get(encoding, "\u00e9")  # a state name in that encoding
    path = tmp_path / f"n{ext}"
    path.write_bytes(template.format(enc=encoding, name="n", state=state).encode(encoding))
    net = read_network(path)
    assert net.states("A") == ("a", state)


def test_bytes_that_do_not_decode_in_the_declared_encoding(tmp_path):
    path = tmp_path / "n.xml"
    path.write_bytes(XMLBIF.format(enc="shift_jis", name="n", state="b").encode("ascii").replace(b"<NAME>n",
                                                                                                 b"<NAME>\xff\xff"))
    with pytest.raises(FormatError, match=r"n\.xml:2: not valid shift_jis text \(byte 0xff\), the encoding the XML "
                                          r"declaration names$"):
        read_network(path)
