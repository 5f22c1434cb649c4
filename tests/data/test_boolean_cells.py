"""Tables a learner or a score is given, as pandas reads them (issue 35 item 8): TRUE/FALSE cells that pandas made
booleans mean the variable's true/false states, a variable without such a pair gets the remedy ``dtype=str``
(never ``extend_states=True``, which would add the states "True" and "False"), and ``target_posteriors`` takes
a DataFrame of state names, matched by column name, or fails in one line."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.data import align, read_csv
from bnstudio.data.errors import UnknownDataStates
from bnstudio.errors import ValidationError
from bnstudio.evaluate import evaluate, target_posteriors
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
ALARM_CSV = RESOURCES / "data" / "alarm.csv"
ROWS = 2000


@pytest.fixture(scope="module")
def alarm():
    net = read_network(RESOURCES / "networks" / "alarm.bif")
    return net, align(read_csv(ALARM_CSV), net).codes[:ROWS]


def test_a_learner_reads_pandas_booleans_as_the_true_false_states(alarm):
    net, codes = alarm
    frame = pd.read_csv(ALARM_CSV, nrows=ROWS)
    assert sum(pd.api.types.is_bool_dtype(t) for t in frame.dtypes) >= 10     # HISTORY, ... are booleans
    frame = frame[list(reversed(frame.columns))]
    for method in ("ml", "mp"):
        fitted = make_learner(method).fit(net, frame).cpts
        expected = make_learner(method).fit(net, codes).cpts
        for v in net.variables:
            np.testing.assert_array_equal(fitted[v], expected[v], err_msg=v)


def test_booleans_without_a_true_false_pair_ask_for_text():
    net = network_from_dsl("A->B", seed=1, states={"A": ("yes", "no")})
    frame = pd.DataFrame({"A": [True, False, True], "B": ["s0", "s1", "s1"]})
    with pytest.raises(UnknownDataStates) as info:
        make_learner("ml").fit(net, frame)
    message = str(info.value)
    assert "\n" not in message and "column 'A' value 'True'" in message
    assert message.endswith("(pandas read TRUE/FALSE as booleans: read the CSV with dtype=str)")
    assert "extend_states" not in message
    with pytest.raises(UnknownDataStates, match=r"dtype=str; align with extend_states=True to add them\)$"):
        make_learner("ml").fit(net, frame.assign(B=["s0", "s1", "s9"]))


def test_target_posteriors_of_a_dataframe_of_state_names(alarm):
    net, codes = alarm
    names = pd.read_csv(ALARM_CSV, nrows=300, dtype=str)
    names = names[list(reversed(names.columns))].drop(columns=["HRBP"])      # another order, one column fewer
    hidden = codes[:300].copy()
    hidden[:, net.variables.index("HRBP")] = -1
    for target in ("HYPOVOLEMIA", "BP"):
        np.testing.assert_allclose(target_posteriors(net, names, target), target_posteriors(net, hidden, target),
                                   rtol=1e-12)
    as_read = pd.read_csv(ALARM_CSV, nrows=300).drop(columns=["HRBP"])       # booleans too
    np.testing.assert_allclose(target_posteriors(net, as_read, "HYPOVOLEMIA"),
                               target_posteriors(net, hidden, "HYPOVOLEMIA"), rtol=1e-12)
    assert evaluate(net, names, "BP") == evaluate(net, hidden, "BP")


@pytest.mark.parametrize("table, message", [
    (lambda names: names.to_numpy(), "data must be integer state codes"),
    (lambda names: names.assign(BP="MEDIUM"), "column 'BP' value 'MEDIUM'"),
    (lambda names: {"BP": ["LOW"]}, "data must have one column per network variable"),
])
def test_target_posteriors_fails_in_one_line(alarm, table, message):
    net, _ = alarm
    names = pd.read_csv(ALARM_CSV, nrows=20, dtype=str)
    with pytest.raises(ValidationError, match=message) as info:
        target_posteriors(net, table(names), "HYPOVOLEMIA")
    assert "\n" not in str(info.value)
