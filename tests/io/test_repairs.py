"""Read what the authoring tool would read, say every repair, and refuse them all when reading strictly.

Each case edits the text of a small network written in every format (so the same noise is tried everywhere);
the expected numbers are computed by hand from the edit. See :mod:`bnstudio.io.repairs` for the policy.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.network import Network
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io import read_network, write_network
from bnstudio.io.hugin.net import parse_net
from tests.io.edited import FORMATS
from tests.io.edited import small_network as _network
from tests.io.edited import write_edited as _write

NORMALISING = {".net": "Hugin", ".xdsl": "GeNIe"}


def _row(ext: str, which: str) -> str:
    """How a row is named in messages (UAI files have no names)."""
    uai = ext == ".uai"
    return {"A": f"row () of '{'V0' if uai else 'A'}'",
            "B1": f"row ({'V0=s1' if uai else 'A=b'}) of '{'V1' if uai else 'B'}'"}[which]


def _read_quietly(path: Path, strict: bool = False) -> Network:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return read_network(path, strict=strict)


def _one_repair(path: Path) -> tuple[Network, str]:
    with pytest.warns(RepairWarning) as caught:
        net = read_network(path)
    assert len(caught) == 1
    return net, str(caught[0].message)


# ---------------------------------------------------------------------------------------------- rows
@pytest.mark.parametrize("ext", FORMATS)
def test_rounded_rows_are_rescaled_and_a_strict_reading_refuses_them(tmp_path, ext):
    path = _write(tmp_path, ext, {"0.0625": "0.0627"})  # row (A=b) of B sums to 1.0002
    net, message = _one_repair(path)
    assert message.endswith(f"{_row(ext, 'B1')} sums to 1.0002")
    np.testing.assert_allclose(net.cpt(net.variables[1])[1], [0.0627 / 1.0002, 0.9375 / 1.0002], rtol=0,
                               atol=1e-15)
    with pytest.raises(FormatError) as info:
        _read_quietly(path, strict=True)
    assert f"{_row(ext, 'B1').split(' of ')[0]}" in str(info.value)
    assert "sums to 1.0002, not 1 (tolerance 1e-05; strict reading repairs nothing)" in str(info.value)


@pytest.mark.parametrize("ext", FORMATS)
def test_printing_noise_is_not_a_repair_even_when_strict(tmp_path, ext):
    path = _write(tmp_path, ext, {"0.125": "0.1249999"})  # 6-digit printing: 0.9999999
    net = _read_quietly(path, strict=True)
    assert net.cpt(net.variables[0])[0] == pytest.approx(0.1249999 / 0.9999999, abs=1e-16)


@pytest.mark.parametrize("ext", sorted(NORMALISING))
def test_hugin_and_genie_files_normalise_rows_far_from_one(tmp_path, ext):
    path = _write(tmp_path, ext, {"0.0625": "0.0675"})  # 1.005: refused in the other formats
    net, message = _one_repair(path)
    assert message == (f"{path}: normalised 1 row whose sum was far from 1 (read as weights, as "
                       f"{NORMALISING[ext]} does): row (A=b) of 'B' sums to 1.005")
    np.testing.assert_allclose(net.cpt("B")[1], [0.0675 / 1.005, 0.9375 / 1.005], rtol=0, atol=1e-15)
    with pytest.raises(FormatError, match=r"row \(A=b\) of 'B' sums to 1\.005, not 1 \(tolerance 1e-05; strict"):
        _read_quietly(path, strict=True)


def test_hugin_weights_are_normalised_as_hugin_does():
    """A potential of weights, (10 90) and (1 1): Hugin reads them as 0.1, 0.9 and 0.5, 0.5."""
    text = ('net { }\nnode A { states = ("a" "b"); }\nnode B { states = ("x" "y"); }\n'
            'potential (A) { data = (10 90); }\npotential (B | A) { data = ((1 1) (0.25 0.75)); }\n')
    with pytest.warns(RepairWarning) as caught:
        net = parse_net(text, "w.net")
    assert str(caught[0].message) == ("w.net: normalised 2 rows whose sums were far from 1 (read as weights, as "
                                      "Hugin does): row () of 'A' sums to 100, row (A=a) of 'B' sums to 2")
    assert net.cpt("A").tolist() == [0.1, 0.9] and net.cpt("B").tolist() == [[0.5, 0.5], [0.25, 0.75]]
    with pytest.raises(FormatError, match=r"w\.net:4:.*row \(\) of 'A' sums to 100, not 1"):
        parse_net(text, "w.net", strict=True)


@pytest.mark.parametrize("ext", FORMATS)
def test_tiny_negative_probabilities_become_zero(tmp_path, ext):
    """UnBBayes writes single-precision noise such as -1.1920929E-7 where it means 0."""
    path = _write(tmp_path, ext, {"0.0625": "-1.1920929E-7", "0.9375": "1.0000001192"})
    net, message = _one_repair(path)
    assert message == (f"{path}: set 1 tiny negative probability to 0 (at least -1e-05): {_row(ext, 'B1')} had "
                       f"-1.19209e-07")
    b = net.cpt(net.variables[1])
    assert b[1, 0] == 0.0 and b[1, 1] == 1.0  # 1.0000001192 is rounding: rescaled quietly
    with pytest.raises(FormatError, match=r"has the negative probability -1\.19209e-07 \(strict reading"):
        _read_quietly(path, strict=True)


@pytest.mark.parametrize("ext", FORMATS)
def test_real_negative_probabilities_are_refused(tmp_path, ext):
    path = _write(tmp_path, ext, {"0.0625": "-0.0625", "0.9375": "1.0625"})
    with pytest.raises(FormatError, match=r"negative probability|not a probability"):
        _read_quietly(path)


@pytest.mark.parametrize("ext", FORMATS)
def test_count_tables_are_normalised_and_empty_count_rows_become_uniform(tmp_path, ext):
    counts = Network("n")
    counts.add_variable("A", ["a", "b"], cpt=[0.125, 0.875])
    counts.add_variable("B", ["x", "y"], ["A"], cpt=[[0.375, 0.625], [0.0625, 0.9375]])
    path = _write(tmp_path, ext, {"0.375": "3", "0.625": "5", "0.0625": "0", "0.9375": "0"}, counts)
    net, message = _one_repair(path)
    b = _row(ext, "B1")
    rows = b.replace("A=b", "A=a").replace("V0=s1", "V0=s0")
    how = f"whose sum was far from 1 (read as weights, as {NORMALISING[ext]} does)" if ext in NORMALISING \
        else "(read as counts: whole numbers)"
    assert message == (f"{path}: normalised 1 row {how}: {rows} sums to 8; made 1 row of zeros uniform: {b} "
                       f"(parent configuration has probability 0.875: the file's joint summed to 0.125)")
    assert net.cpt(net.variables[1]).tolist() == [[0.375, 0.625], [0.5, 0.5]]
    with pytest.raises(FormatError, match=r"sums to 8, not 1"):
        _read_quietly(path, strict=True)


# ---------------------------------------------------------------------------------------------- other repairs
@pytest.mark.parametrize("ext", [".xmlbif", ".xdsl"])
def test_blanks_before_the_xml_declaration_are_skipped(tmp_path, ext):
    path = tmp_path / f"n{ext}"
    write_network(_network(), path)
    path.write_bytes(b"\n  \n" + path.read_bytes())
    net, message = _one_repair(path)
    assert message == f"{path}: skipped 4 blank characters before the XML declaration"
    assert net.variables == ["A", "B"]
    with pytest.raises(FormatError) as info:
        _read_quietly(path, strict=True)
    assert info.value.line == 1 and "before the XML declaration (strict reading repairs nothing)" in str(info.value)


def test_a_hugin_attribute_over_two_lines_is_joined():
    """UnBBayes writes long labels over two lines; a quote left open elsewhere is still an error."""
    text = ('net { }\nnode A { label = "Chest\n   clinic";  states = ("a" "b"); }\n'
            'potential (A) { data = (0.5 0.5); }\n')
    with pytest.warns(RepairWarning) as caught:
        net = parse_net(text, "c.net")
    assert str(caught[0].message) == "c.net: read the string on lines 2-3 as one line (a quoted attribute value " \
                                     "runs over 2 lines)"
    assert net.variable("A").description == "Chest clinic"
    with pytest.raises(FormatError, match=r"c\.net:2:.*strict reading repairs nothing"):
        parse_net(text, "c.net", strict=True)
    with pytest.raises(FormatError, match="unterminated string"):
        parse_net(text.replace('("a" "b")', '("a "b")'), "c.net")


def test_several_repairs_make_one_warning(tmp_path):
    path = _write(tmp_path, ".net", {"0.125": "0.1245", "0.0625": "-1e-7", "0.9375": "1.0000001"})
    _, message = _one_repair(path)
    assert message == (f"{path}: set 1 tiny negative probability to 0 (at least -1e-05): row (A=b) of 'B' had "
                       f"-1e-07; rescaled 1 row whose sum was off 1 by more than 1e-05 (at most 0.001): row () of "
                       f"'A' sums to 0.9995")


# ---------------------------------------------------------------------------------------------- empty networks
@pytest.mark.parametrize("ext", FORMATS)
def test_an_empty_network_is_written_and_read_in_every_format(tmp_path, ext):
    path = tmp_path / f"empty{ext}"
    write_network(Network("empty"), path)
    net = _read_quietly(path, strict=True)
    assert len(net) == 0


def test_a_lone_default_with_a_whole_table_is_read_as_the_table():
    """pgmpy's test files write JavaBayes' dog problem with 'default' where the original has 'table'."""
    from bnstudio.io.bif.reader import parse_bif

    text = ('network d {\n}\nvariable A {\n  type discrete [ 2 ] { t, f };\n}\nvariable B {\n  type discrete [ 2 ] '
            '{ t, f };\n}\nprobability ( A ) {\n  default 0.15 0.85 ;\n}\nprobability ( B | A ) {\n'
            '  default 0.9 0.3 0.1 0.7 ;\n}\n')
    with pytest.warns(RepairWarning) as caught:
        net = parse_bif(text, "d.bif")
    assert str(caught[0].message) == "d.bif: read the 'default' of 'B' as its whole table (4 values, as pgmpy does)"
    assert net.cpt("B").tolist() == [[0.9, 0.1], [0.3, 0.7]] and net.cpt("A").tolist() == [0.15, 0.85]
    with pytest.raises(FormatError, match=r"d\.bif:13:3: read the .default. of .B. as its whole table .*strict "
                                          r"reading repairs nothing"):
        parse_bif(text, "d.bif", strict=True)
