"""Parameter edits (set_cpt, set_cpt_row, set_alpha, set_parameters) and the messages of refused tables."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import Network
from bnstudio.core.validation import parent_configurations, unnormalised_rows
from bnstudio.errors import ValidationError

from .conftest import C_ALPHA, C_CPT


@pytest.fixture
def abc() -> Network:
    """A(s0,s1), B(s0,s1) -> C(c0,c1,c2)."""
    n = Network()
    n.add_variable("A", ["s0", "s1"])
    n.add_variable("B", ["s0", "s1"])
    n.add_variable("C", ["c0", "c1", "c2"], parents=["A", "B"])
    return n


def _good_c() -> np.ndarray:
    return np.array([[[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]], [[1.0, 0.0, 0.0], [0.2, 0.2, 0.6]]])


# ------------------------------------------------------------------ set_cpt
def test_set_cpt_stores_values(abc):
    abc.set_cpt("C", _good_c())
    np.testing.assert_allclose(abc.cpt("C"), _good_c())
    abc.set_cpt("A", [0.25, 0.75])
    np.testing.assert_allclose(abc.cpt("A"), [0.25, 0.75])


def test_wrong_shape_message(abc, snapshot):
    before = snapshot(abc)
    with pytest.raises(ValidationError) as info:
        abc.set_cpt("C", np.full((2, 3), 1 / 3))
    assert str(info.value) == "CPT of 'C' has shape (2, 3), expected (2, 2, 3) (parents ['A', 'B'] then 'C')"
    with pytest.raises(ValidationError, match="not numeric"):
        abc.set_cpt("A", ["x", "y"])
    with pytest.raises(ValidationError, match="not numeric"):
        abc.set_cpt("C", [[0.5, 0.5], [1.0]])
    assert snapshot(abc) == before


def test_row_sum_message_names_row_by_parent_states(abc, snapshot):
    bad = _good_c()
    bad[0, 1] = [0.3, 0.3, 0.3]
    before = snapshot(abc)
    with pytest.raises(ValidationError) as info:
        abc.set_cpt("C", bad)
    assert str(info.value) == "CPT of 'C', row (A=s0, B=s1) sums to 0.9, not 1"
    assert snapshot(abc) == before


def test_root_row_message(abc):
    with pytest.raises(ValidationError, match=r"CPT of 'A', row \(\) sums to 1\.1, not 1"):
        abc.set_cpt("A", [0.5, 0.6])


def test_negative_entry_message(abc):
    bad = _good_c()
    bad[1, 0] = [1.2, -0.2, 0.0]
    with pytest.raises(ValidationError) as info:
        abc.set_cpt("C", bad, check_sums=False)
    assert str(info.value) == "CPT of 'C', row (A=s1, B=s0) has a negative entry -0.2 for state 'c1'"


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_non_finite_entry_message(abc, value):
    bad = _good_c()
    bad[1, 1, 2] = value
    with pytest.raises(ValidationError) as info:
        abc.set_cpt("C", bad, check_sums=False)
    assert str(info.value) == "CPT of 'C', row (A=s1, B=s1) has a non-finite entry"


def test_tolerance_on_row_sums(abc):
    almost = _good_c()
    almost[0, 0, 0] += 1e-9
    abc.set_cpt("C", almost)
    too_far = _good_c()
    too_far[0, 0, 0] += 1e-4
    with pytest.raises(ValidationError, match=r"row \(A=s0, B=s0\) sums to 1\.0001"):
        abc.set_cpt("C", too_far)


# ------------------------------------------------------------------ unnormalised rows
def test_check_sums_false_then_validate_reports(abc):
    bad = _good_c()
    bad[1, 1] = [0.0, 0.0, 0.0]
    bad[0, 1] = [0.5, 0.5, 0.5]
    abc.set_cpt("C", bad, check_sums=False)
    np.testing.assert_allclose(abc.cpt("C"), bad)
    assert unnormalised_rows(abc, "C") == [(0, 1), (1, 1)]
    with pytest.raises(ValidationError) as info:
        abc.validate()
    assert str(info.value) == "CPT of 'C', row (A=s0, B=s1) sums to 1.5, not 1"
    abc.set_cpt_row("C", ("s0", "s1"), [0.2, 0.3, 0.5], check_sums=False)
    with pytest.raises(ValidationError, match=r"row \(A=s1, B=s1\) sums to 0, not 1"):
        abc.validate()
    abc.set_cpt_row("C", {"B": "s1", "A": "s1"}, [0, 0, 1], check_sums=False)
    abc.validate()
    assert unnormalised_rows(abc, "C") == []


# ------------------------------------------------------------------ set_cpt_row
def test_set_cpt_row_by_dict_and_tuple(abc):
    abc.set_cpt_row("C", {"A": "s1", "B": "s0"}, [0.6, 0.3, 0.1])
    abc.set_cpt_row("C", ("s0", "s1"), [0.0, 0.5, 0.5])
    expected = np.full((2, 2, 3), 1 / 3)
    expected[1, 0] = [0.6, 0.3, 0.1]
    expected[0, 1] = [0.0, 0.5, 0.5]
    np.testing.assert_allclose(abc.cpt("C"), expected)
    abc.set_cpt_row("A", (), [0.9, 0.1])
    np.testing.assert_allclose(abc.cpt("A"), [0.9, 0.1])


@pytest.mark.parametrize("states, row, match", [
    ({"A": "s1", "B": "s0"}, [0.5, 0.3, 0.1], r"CPT of 'C', row \(A=s1, B=s0\) sums to 0\.9, not 1"),
    ({"A": "s1"}, [1, 0, 0], r"row of 'C' must name exactly its parents \['A', 'B'\]"),
    ({"A": "s1", "B": "s0", "D": "x"}, [1, 0, 0], "must name exactly its parents"),
    (("s1",), [1, 0, 0], "row of 'C' needs 2 parent states, got 1"),
    (("s1", "s0"), [0.5, 0.5], r"row \(A=s1, B=s0\) has shape \(2,\), expected \(3,\)"),
    (("s1", "s0"), 1.0, r"row \(A=s1, B=s0\) has shape \(\), expected \(3,\)"),
    (("s1", "s0"), ["a", "b", "c"], r"row \(A=s1, B=s0\) is not numeric"),
    (("s1", "s0"), [np.nan, 0.5, 0.5], r"row \(A=s1, B=s0\) has a non-finite entry"),
    (("s0", "s1"), [-0.5, 1.0, 0.5], r"row \(A=s0, B=s1\) has a negative entry -0\.5 for state 'c0'"),
])
def test_set_cpt_row_refusals(abc, snapshot, states, row, match):
    before = snapshot(abc)
    with pytest.raises(ValidationError, match=match):
        abc.set_cpt_row("C", states, row)
    assert snapshot(abc) == before


# ------------------------------------------------------------------ alpha
def test_set_alpha_and_clear(net):
    counts = np.arange(12, dtype=float).reshape(2, 3, 2)
    net.set_alpha("C", counts)
    np.testing.assert_allclose(net.alpha("C"), counts)
    with pytest.raises(ValueError):
        net.alpha("C")[0, 0, 0] = 1.0
    net.set_alpha("C", None)
    assert net.alpha("C") is None
    net.set_alpha("A", [3, 4])  # counts need not sum to 1
    np.testing.assert_allclose(net.alpha("A"), [3, 4])


def test_set_alpha_refusals(net, snapshot):
    before = snapshot(net)
    with pytest.raises(ValidationError, match=r"Dirichlet counts of 'C' has shape \(2, 2\), expected \(2, 3, 2\)"):
        net.set_alpha("C", np.ones((2, 2)))
    bad = np.array(C_ALPHA)
    bad[0, 2, 1] = -1
    with pytest.raises(ValidationError) as info:
        net.set_alpha("C", bad)
    assert str(info.value) == "Dirichlet counts of 'C', row (A=s0, B=b2) has a negative entry -1 for state 'c1'"
    with pytest.raises(ValidationError, match="Dirichlet counts of 'A', row \\(\\) has a non-finite entry"):
        net.set_alpha("A", [np.nan, 1])
    with pytest.raises(ValidationError, match="Dirichlet counts of 'D' has shape"):
        net.add_variable("D", ["d0", "d1"], alpha=[1, 2, 3])
    assert snapshot(net) == before


# ------------------------------------------------------------------ set_parameters
def test_set_parameters_many_at_once(net):
    net.set_parameters({"A": [0.6, 0.4], "B": [1, 0, 0]}, alphas={"C": None, "A": [6, 4]})
    np.testing.assert_allclose(net.cpt("A"), [0.6, 0.4])
    np.testing.assert_allclose(net.cpt("B"), [1, 0, 0])
    np.testing.assert_allclose(net.cpt("C"), C_CPT)
    assert net.alpha("C") is None
    np.testing.assert_allclose(net.alpha("A"), [6, 4])


def test_set_parameters_all_or_nothing(net, snapshot):
    before = snapshot(net)
    with pytest.raises(ValidationError, match=r"CPT of 'B', row \(\) sums to 0\.9"):
        net.set_parameters({"A": [0.6, 0.4], "B": [0.3, 0.3, 0.3]})
    with pytest.raises(ValidationError, match="Dirichlet counts of 'C' has shape"):
        net.set_parameters({"A": [0.6, 0.4]}, alphas={"C": [1, 1]})
    assert snapshot(net) == before


# ------------------------------------------------------------------ helpers
def test_validate_passes_on_fixture_and_parent_configurations(net):
    net.validate()
    assert parent_configurations(net, "C") == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert parent_configurations(net, "A") == [()]
    # row-major CPT order: the k-th configuration is the k-th row of the flattened table
    rows = net.cpt("C").reshape(-1, 2)
    for k, conf in enumerate(parent_configurations(net, "C")):
        np.testing.assert_allclose(rows[k], net.cpt("C")[conf])
