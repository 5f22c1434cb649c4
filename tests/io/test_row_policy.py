"""One row policy for every format, .bnsproj included: rows within 1e-3 of 1 are rescaled (one RepairWarning per
file naming them when they are off by more than 1e-5), rows further off are refused naming the row (except in
Hugin NET and GeNIe XDSL files, whose tools normalise every row: see tests/io/test_repairs.py), rows summing
to 1 up to float rounding are kept bit for bit."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.network import Network
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.io import read_network, write_network
from tests.io.edited import FORMATS
from tests.io.edited import write_edited as _write

CORPUS = Path(__file__).resolve().parents[1] / "fuzz" / "corpus"


def _labels(ext: str) -> dict[str, str]:
    """How the rows are named in messages (UAI files have no names)."""
    if ext == ".uai":
        return {"A": "row () of 'V0'", "B0": "row (V0=s0) of 'V1'", "B1": "row (V0=s1) of 'V1'"}
    return {"A": "row () of 'A'", "B0": "row (A=a) of 'B'", "B1": "row (A=b) of 'B'"}


@pytest.mark.parametrize("ext", FORMATS)
def test_rows_within_the_tolerance_are_rescaled_with_one_warning_naming_them(tmp_path, ext):
    path = _write(tmp_path, ext, {"0.125": "0.1245", "0.375": "0.3756", "0.0625": "0.0627"})  # 0.9995, 1.0006, 1.0002
    with pytest.warns(RepairWarning) as caught:
        net = read_network(path)
    assert len(caught) == 1
    rows = _labels(ext)
    assert str(caught[0].message) == (
        f"{path}: rescaled 3 rows whose sums were off 1 by more than 1e-05 (at most 0.001): {rows['A']} sums to "
        f"0.9995, {rows['B0']} sums to 1.0006, {rows['B1']} sums to 1.0002")
    cpts = [net.cpt(v) for v in net.variables]
    np.testing.assert_allclose(cpts[0], np.array([0.1245, 0.875]) / 0.9995, rtol=0, atol=1e-15)
    np.testing.assert_allclose(cpts[1], [[0.3756 / 1.0006, 0.625 / 1.0006], [0.0627 / 1.0002, 0.9375 / 1.0002]],
                               rtol=0, atol=1e-15)


NOT_NORMALISING = [ext for ext in FORMATS if ext not in (".net", ".xdsl")]


@pytest.mark.parametrize("ext", NOT_NORMALISING)
def test_rows_beyond_the_tolerance_are_refused_naming_the_row(tmp_path, ext):
    path = _write(tmp_path, ext, {"0.0625": "0.0675"})  # row (A=b) of B sums to 1.005
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FormatError) as info:
            read_network(path)
    message = str(info.value)
    row = _labels(ext)["B1"].split(" of ")[0]
    assert message.startswith(str(path)) and f"{row}" in message and "sums to 1.005, not 1 (tolerance 0.001)" \
        in message and "\n" not in message, message


@pytest.mark.parametrize("ext", FORMATS)
def test_rounding_noise_is_rescaled_silently_and_exact_rows_kept_bit_for_bit(tmp_path, ext):
    path = _write(tmp_path, ext, {"0.125": "0.1249999", "0.0625": "0.06250000000000001"})  # 0.9999999, 1 + 1e-17
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net = read_network(path)
    a, b = (net.cpt(v) for v in net.variables)
    assert a.sum() == pytest.approx(1, abs=1e-15) and a[0] == pytest.approx(0.1249999 / 0.9999999, abs=1e-16)
    assert b[1].tolist() == [0.06250000000000001, 0.9375]  # within 1e-12 of 1: not touched
    assert b[0].tolist() == [0.375, 0.625]


def test_many_rescaled_rows_are_counted_not_listed(tmp_path):
    net = Network("n")
    net.add_variable("A", [f"a{k}" for k in range(50)])
    net.add_variable("B", ["x", "y"], ["A"], cpt=np.tile([0.25, 0.75], (50, 1)))
    path = tmp_path / "n.bif"
    write_network(net, path)
    path.write_text(path.read_text().replace("0.25, 0.75", "0.2496, 0.75"))
    with pytest.warns(RepairWarning) as caught:
        read_network(path)
    assert len(caught) == 1
    assert str(caught[0].message).endswith("row (A=a0) of 'B' sums to 0.9996, row (A=a1) of 'B' sums to 0.9996, "
                                           "row (A=a2) of 'B' sums to 0.9996 and 47 more")


@pytest.mark.parametrize("name", ["row9995.bif", "row9995.bnsproj"])
def test_the_issue_cases_read_the_same_way(name):
    """The issue: BIF rescaled a row summing to 0.9995 silently while .bnsproj refused it."""
    with pytest.warns(RepairWarning, match=r"rescaled 1 row whose sum was off 1 by more than 1e-05 \(at most "
                                           r"0\.001\): row \(\) of 'A' sums to 0\.9995$"):
        net = read_network(CORPUS / "rows" / name)
    np.testing.assert_allclose(net.cpt("A"), [0.4 / 0.9995, 0.5995 / 0.9995], rtol=0, atol=1e-15)
