"""Tables of cases are matched by column name (issue 35 item 1, docs/architecture.md §3.25): a DataFrame given
to a batch query with its columns in another order gives the same answers as in the network's order; a missing
column is unobserved, an unknown one is refused in one line; state names, codes and pandas' booleans give the
same answers."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.data import align, read_csv
from bnstudio.errors import EvidenceError, UnknownStateError, UnknownVariableError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
ROWS = 300
TARGET = "HYPOVOLEMIA"


@pytest.fixture(scope="module")
def alarm():
    """ALARM, its first rows as codes in network order (15% of cells hidden, the target always), as a DataFrame
    of state names (pandas' booleans kept) and as a DataFrame of codes."""
    net = read_network(RESOURCES / "networks" / "alarm.bif")
    codes = align(read_csv(RESOURCES / "data" / "alarm.csv"), net).codes[:ROWS].copy()
    codes[np.random.default_rng(7).random(codes.shape) < 0.15] = -1
    codes[:, net.variables.index(TARGET)] = -1
    names = pd.DataFrame({v: np.array(net.states(v) + (None,), dtype=object)[codes[:, k]]
                          for k, v in enumerate(net.variables)})
    return net, codes, names, pd.DataFrame(codes, columns=net.variables)


def swapped(frame: pd.DataFrame, a: str = "HRBP", b: str = "CVP") -> pd.DataFrame:
    """``frame`` with the columns ``a`` and ``b`` trading places."""
    cols = list(frame.columns)
    i, j = cols.index(a), cols.index(b)
    cols[i], cols[j] = cols[j], cols[i]
    return frame[cols]


QUERIES = {
    "posterior_batch": lambda engine, cases: engine.posterior_batch([TARGET, "LVFAILURE"], cases),
    "log_evidence_batch": lambda engine, cases: {"log": engine.log_evidence_batch(cases)},
    "family_marginals_batch": lambda engine, cases: engine.family_marginals_batch(cases),
    "calibrate_batch": lambda engine, cases: dict(engine.calibrate_batch(cases)[0],
                                                  log_z=engine.calibrate_batch(cases)[1]),
}


def assert_same(got: dict, expected: dict) -> None:
    assert got.keys() == expected.keys()
    for key in expected:
        np.testing.assert_allclose(got[key], expected[key], rtol=1e-10, atol=1e-12, err_msg=key)


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("form", ["codes", "names"])
def test_swapped_columns_give_the_answers_of_the_network_order(alarm, query, form):
    net, codes, names, frame_codes = alarm
    engine = InferenceEngine(net)
    expected = QUERIES[query](engine, codes)                           # the bare array, in network order
    frame = frame_codes if form == "codes" else names
    assert_same(QUERIES[query](engine, swapped(frame)), expected)
    assert_same(QUERIES[query](engine, frame[list(reversed(net.variables))]), expected)


def test_a_missing_column_is_unobserved(alarm):
    """Dropping a column is hiding it in every case: the single-case posteriors without that finding."""
    net, codes, names, _ = alarm
    engine = InferenceEngine(net)
    dropped = ["HRBP", "SAO2", "VENTLUNG"]
    got = engine.posterior_batch(TARGET, swapped(names.drop(columns=dropped), "CVP", "BP"))[TARGET]
    for row in range(0, ROWS, 37):
        evidence = {v: net.states(v)[c] for v, c in zip(net.variables, codes[row], strict=True)
                    if c >= 0 and v not in dropped}
        np.testing.assert_allclose(got[row], engine.posterior(TARGET, evidence)[TARGET], rtol=1e-9)
    hidden = codes.copy()
    hidden[:, [net.variables.index(v) for v in dropped]] = -1
    np.testing.assert_allclose(engine.log_evidence_batch(names.drop(columns=dropped)),
                               engine.log_evidence_batch(hidden), rtol=1e-10)


def test_pandas_booleans_mean_the_true_false_states(alarm):
    """pd.read_csv makes ALARM's TRUE/FALSE columns booleans: they mean the states TRUE and FALSE."""
    net, _, _, _ = alarm
    as_read = pd.read_csv(RESOURCES / "data" / "alarm.csv", nrows=ROWS)
    as_text = pd.read_csv(RESOURCES / "data" / "alarm.csv", nrows=ROWS, dtype=str)
    assert as_read["HISTORY"].dtype == bool and as_text["HISTORY"].dtype != bool
    hidden = [TARGET, "LVFAILURE"]
    engine = InferenceEngine(net)
    got = engine.posterior_batch(hidden, swapped(as_read.drop(columns=hidden)))
    assert_same(got, engine.posterior_batch(hidden, as_text.drop(columns=hidden)))
    codes = align(read_csv(RESOURCES / "data" / "alarm.csv"), net).codes[:ROWS].copy()
    codes[:, [net.variables.index(v) for v in hidden]] = -1
    assert_same(got, engine.posterior_batch(hidden, codes))


@pytest.mark.parametrize("states, expected", [(("yes", "no"), None), (("True", "False"), [0, 1, 0, -1]),
                                              (("false", "true"), [1, 0, 1, -1]), (("0", "1"), [1, 0, 1, -1])])
def test_booleans_need_a_true_false_pair(states, expected):
    net = network_from_dsl("A->B", seed=1, states={"A": states})
    engine = InferenceEngine(net)
    cases = pd.DataFrame({"A": pd.array([True, False, True, None], dtype="boolean")})
    plain = pd.DataFrame({"A": [True, False, True, False]})
    if expected is None:
        for table in (cases, plain):
            with pytest.raises(EvidenceError, match=r"^case table column 'A' holds booleans .* dtype=str$"):
                engine.posterior_batch("B", table)
        return
    codes = np.array(expected)
    np.testing.assert_allclose(engine.posterior_batch("B", cases)["B"], engine.posterior_batch("B", {"A": codes})["B"])
    np.testing.assert_allclose(engine.posterior_batch("B", plain)["B"][:3], engine.posterior_batch("B", cases)["B"][:3])


def test_an_unknown_column_is_refused_in_one_line(alarm):
    net, _, names, frame_codes = alarm
    engine = InferenceEngine(net)
    for table in (names.assign(FOO="x"), frame_codes.rename(columns={"CVP": "FOO"}), {"FOO": np.zeros(3, int)},
                  pd.DataFrame(np.zeros((2, len(net)), dtype=int))):    # no names: columns 0, 1, ...
        with pytest.raises(UnknownVariableError) as info:
            engine.log_evidence_batch(table)
        assert "\n" not in str(info.value) and "is not a variable of the network" in str(info.value)
        assert str(info.value).startswith("case table column 'FOO'") or "column '0'" in str(info.value)


def test_an_unknown_state_is_refused_naming_column_value_and_case(alarm):
    net, _, names, _ = alarm
    bad = names.copy()
    bad.loc[5, "BP"] = "MEDIUM"
    bad.loc[9, "BP"] = "MEDIUM"
    with pytest.raises(UnknownStateError, match=r"^case table column 'BP' has the value 'MEDIUM' \(first in case 5\), "
                                                r"which is not a state of 'BP' \(states: LOW, NORMAL, HIGH\)$"):
        InferenceEngine(net).posterior_batch(TARGET, bad)


def test_missing_markers_mixed_cells_and_numeric_states():
    """None, NaN, pandas' NA and "" are unobserved; integers are codes; numbers name numeric states by value."""
    net = network_from_dsl("A->B; C->B", seed=1, states={"A": ("lo", "hi"), "C": ("1", "2", "3")})
    engine = InferenceEngine(net)
    table = pd.DataFrame({"A": ["hi", None, np.nan, "", 0, pd.NA], "C": [3, 1, 2, 2, 1, 3]})
    expected = {"A": np.array([1, -1, -1, -1, 0, -1]), "C": np.array([2, 0, 1, 1, 0, 2])}
    np.testing.assert_allclose(engine.posterior_batch("B", table)["B"], engine.posterior_batch("B", expected)["B"])
    as_float = table.assign(C=[3.0, 1.0, np.nan, 2.0, 1.0, 3.0])
    expected["C"][2] = -1
    np.testing.assert_allclose(engine.log_evidence_batch(as_float), engine.log_evidence_batch(expected))
    with pytest.raises(UnknownStateError, match=r"column 'C' has the value '4' \(first in case 1\)"):
        engine.log_evidence_batch(table.assign(C=[1, 4, 4, 1, 1, 1]))
    strings = {"A": np.array(["hi", "lo"]), "C": np.array(["2", "3"])}        # a mapping of state names
    np.testing.assert_allclose(engine.log_evidence_batch(strings),
                               engine.log_evidence_batch({"A": np.array([1, 0]), "C": np.array([1, 2])}))


def test_columns_name_only_a_bare_array(alarm):
    net, codes, names, _ = alarm
    with pytest.raises(EvidenceError, match="columns= names the columns of a bare array"):
        InferenceEngine(net).log_evidence_batch(names, columns=net.variables)


def test_a_table_without_columns_by_name_fails_in_one_line(alarm):
    """A Dataset has column names but its codes follow its own states: it is aligned first, or refused."""
    net, _, _, _ = alarm
    dataset = read_csv(RESOURCES / "data" / "alarm.csv")
    engine = InferenceEngine(net)
    with pytest.raises(EvidenceError, match=r"^cannot read the column 'HISTORY' of a Dataset by its name: .*"
                                            r"bnstudio.data.align\(dataset, net\).evidence\(\)\)$"):
        engine.log_evidence_batch(dataset)
    aligned = align(dataset, net)
    np.testing.assert_allclose(engine.log_evidence_batch(aligned.evidence())[:50],
                               engine.log_evidence_batch(aligned.codes[:50]))


def test_an_arrow_table_is_matched_by_name_too(alarm):
    """Any table with column names: a pyarrow Table (its ``column_names``) gives the DataFrame's answers."""
    pa = pytest.importorskip("pyarrow")
    net, codes, names, _ = alarm
    engine = InferenceEngine(net)
    table = pa.Table.from_pandas(swapped(names).drop(columns=["BP"]))
    hidden = codes.copy()
    hidden[:, net.variables.index("BP")] = -1
    np.testing.assert_allclose(engine.log_evidence_batch(table), engine.log_evidence_batch(hidden), rtol=1e-10)
