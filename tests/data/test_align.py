"""Aligning data with a network: column and state matching, latent and ignored columns, unknown states."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import Network
from bnstudio.data import BNStudioDataWarning, Dataset, UnknownDataStates, align, read_csv
from bnstudio.inference.evidence import VariableIndex, batch_evidence
from bnstudio.io import read_network
from tests.data.conftest import NETWORKS


@pytest.fixture
def asia() -> Network:
    return read_network(NETWORKS / "asia.bif")


def test_codes_follow_network_order_whatever_the_column_order(asia, write):
    rows = "yes,no,yes,no,yes,no,yes,no\nno,yes,no,yes,no,yes,no,yes\nyes,?,no,,yes,no,no,yes\n"
    header = ",".join(asia.variables)
    forward = read_csv(write("f.csv", header + "\n" + rows))
    order = list(range(8))[::-1]
    reversed_cols = Dataset([forward.columns[k] for k in order], [forward.states[k] for k in order],
                            forward.codes[:, order])
    a, b = align(forward, asia), align(reversed_cols, asia)
    assert a.variables == asia.variables and a.network is asia
    assert np.array_equal(a.codes, b.codes)
    # asia states are (yes, no): the data's sorted (no, yes) codes must be recoded
    assert a.codes[0].tolist() == [0, 1, 0, 1, 0, 1, 0, 1]
    assert a.codes[2].tolist() == [0, -1, 1, -1, 0, 1, 1, 0]
    assert a.codes.dtype == np.int64 and a.latent == [] and a.ignored == []


def test_latent_and_ignored_columns(asia):
    ds = Dataset(["smoke", "extra", "xray"], [("no", "yes"), ("a", "b"), ("yes", "no")],
                 np.array([[1, 0, 0], [0, 1, -1]]))
    with pytest.warns(BNStudioDataWarning, match=r"not in network '.*', ignored: extra$"):
        aligned = align(ds, asia)
    assert aligned.ignored == ["extra"]
    assert aligned.latent == ["asia", "tub", "lung", "bronc", "either", "dysp"]
    k_smoke, k_xray = asia.variables.index("smoke"), asia.variables.index("xray")
    assert aligned.codes[:, k_smoke].tolist() == [0, 1]
    assert aligned.codes[:, k_xray].tolist() == [0, -1]
    latent_cols = [asia.variables.index(v) for v in aligned.latent]
    assert (aligned.codes[:, latent_cols] == -1).all()
    assert set(aligned.evidence()) == {"smoke", "xray"}


@pytest.mark.parametrize("order", ["C", "F"])
def test_no_shared_column_or_an_empty_network(asia, order):
    """Disjoint columns: every network variable latent; an empty network (data loaded to learn a structure):
    no columns at all — neither raises."""
    codes = np.asarray(np.array([[0, 1], [1, 0], [-1, 1]]), order=order)
    ds = Dataset(["X", "Y"], [("a", "b"), ("a", "b")], codes)
    with pytest.warns(BNStudioDataWarning):
        aligned = align(ds, asia)
    assert aligned.codes.shape == (3, len(asia)) and (aligned.codes == -1).all()
    with pytest.warns(BNStudioDataWarning):
        empty = align(ds, Network("empty"))
    assert empty.codes.shape == (3, 0) and empty.ignored == ["X", "Y"]


def test_no_warning_when_every_column_is_a_variable(asia, recwarn):
    align(Dataset(["smoke"], [("yes", "no")], np.array([[0], [1]])), asia)
    assert not [w for w in recwarn if issubclass(w.category, BNStudioDataWarning)]


def test_aligned_codes_are_accepted_by_the_engine_evidence_parser(asia, write):
    ds = read_csv(write("d.csv", "smoke,dysp\nyes,no\n?,yes\nno,no\n"))
    aligned = align(ds, asia)
    index = VariableIndex(aligned.variables, [aligned.network.states(v) for v in aligned.variables])
    lam, n = batch_evidence(index, aligned.codes)
    assert n == 3 and set(lam) == {asia.variables.index("smoke"), asia.variables.index("dysp")}
    assert lam[asia.variables.index("smoke")].tolist() == [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]


def test_unknown_states_list_column_value_rows_and_counts(asia, write):
    text = "smoke,xray,dysp\nyes,no,yes\nmaybe,no,yes\nno,unclear,yes\nmaybe,x,no\nmaybe,no,no\n" + \
           "maybe,no,no\nmaybe,no,no\nmaybe,no,no\n"
    ds = read_csv(write("bad.csv", text))
    with pytest.raises(UnknownDataStates) as err:
        align(ds, asia)
    problems = {(p.column, p.value): p for p in err.value.problems}
    assert set(problems) == {("smoke", "maybe"), ("xray", "unclear"), ("xray", "x")}
    assert problems["smoke", "maybe"].count == 6
    assert problems["smoke", "maybe"].where == "lines 3, 5, 6, 7, 8, ..."
    assert problems["xray", "unclear"].where == "line 4"
    message = str(err.value)
    assert "column 'smoke' value 'maybe' (6 rows: lines 3, 5, 6, 7, 8, ...)" in message
    assert "column 'xray' value 'unclear' (1 row: line 4)" in message
    assert "extend_states=True" in message


def test_unused_declared_states_do_not_matter(asia):
    ds = Dataset(["smoke"], [("yes", "no", "never-seen")], np.array([[0], [1]]))
    assert align(ds, asia).codes[:, asia.variables.index("smoke")].tolist() == [0, 1]


def test_extend_states_adds_missing_states_in_order_of_appearance_to_a_copy(asia, write):
    before = {v: asia.states(v) for v in asia.variables}
    version = asia.structure_version
    ds = read_csv(write("x.csv", "smoke,xray\nyes,no\nsometimes,no\nno,blurred\nheavy,no\nsometimes,yes\n"))
    assert ds.column_states("smoke") == ("heavy", "no", "sometimes", "yes")  # sorted, not appearance order
    aligned = align(ds, asia, extend_states=True)
    net = aligned.network
    assert net is not asia
    assert net.states("smoke") == ("yes", "no", "sometimes", "heavy")
    assert net.states("xray") == ("yes", "no", "blurred")
    assert aligned.added_states == {"smoke": ["sometimes", "heavy"], "xray": ["blurred"]}
    assert {v: asia.states(v) for v in asia.variables} == before and asia.structure_version == version
    assert all(net.states(v) == before[v] for v in net.variables if v not in ("smoke", "xray"))
    k = net.variables.index("smoke")
    assert aligned.codes[:, k].tolist() == [0, 2, 1, 3, 2]
    assert aligned.codes[:, net.variables.index("xray")].tolist() == [1, 1, 2, 1, 0]
    net.validate()  # the extended CPTs are still proper distributions


def test_extend_states_without_new_states_returns_an_equal_copy(asia):
    aligned = align(Dataset(["smoke"], [("yes", "no")], np.array([[0], [1]])), asia, extend_states=True)
    assert aligned.network is not asia and aligned.added_states == {}
    assert all(aligned.network.states(v) == asia.states(v) for v in asia.variables)


def test_numeric_states_match_by_value():
    net = Network("n")
    net.add_variable("N", ["0", "1", "2.5"])
    net.add_variable("Amb", ["1", "1.0"])
    ds = Dataset(["N", "Amb"], [("0.0", "1", "2.50"), ("1", "1.00")], np.array([[0, 0], [1, 1], [2, 0]]))
    with pytest.raises(UnknownDataStates) as err:  # '1.00' equals both '1' and '1.0': ambiguous
        align(ds, net)
    assert [(p.column, p.value) for p in err.value.problems] == [("Amb", "1.00")]
    ok = Dataset(["N"], [("0.0", "1", "2.50")], np.array([[2], [1], [0]]))
    assert align(ok, net).codes[:, 0].tolist() == [2, 1, 0]


def test_unobserved_variables_are_detectable():
    from bnstudio.core.network import Network
    from bnstudio.data import Dataset, align

    net = Network("n")
    for v in "ABC":
        net.add_variable(v, ["x", "y"])
    ds = Dataset(["A", "B"], [("x", "y"), ("x",)], np.array([[0, -1], [1, -1]]))
    aligned = align(ds, net)
    assert ds.unobserved_columns() == ["B"]
    assert aligned.unobserved_variables() == ["B", "C"]  # B: every cell missing; C: no column (latent)
    assert align(Dataset(["A"], [("x",)], np.zeros((0, 1), dtype=int)), net).unobserved_variables() == ["A", "B", "C"]


def test_match_states_against_a_brute_force_comparison():
    """Exact string match, else the single state with the same number (one sort, not a values x states table)."""
    from bnstudio.data.states import match_states, numeric_values

    rng = np.random.default_rng(11)
    pool = ["1", "1.0", "01", "2", "2.5", "-0", "0", "x", "nan", "NaN", "1e0", "3", " 3", "inf", "-inf", "y"]
    for _ in range(200):
        labels = list(rng.choice(pool, size=rng.integers(0, 8)))
        states = list(dict.fromkeys(rng.choice(pool, size=rng.integers(1, 6))))
        expected = []
        for label in labels:
            if label in states:
                expected.append(states.index(label))
                continue
            value = numeric_values([label])[0]
            same = [i for i, v in enumerate(numeric_values(states)) if v == value]
            expected.append(same[0] if len(same) == 1 else -1)
        assert match_states(labels, states).tolist() == expected, (labels, states)
