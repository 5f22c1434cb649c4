"""``--json`` output: strict JSON written at once; non-finite numbers become null and are named on stderr."""
from __future__ import annotations

import json
import math

from bnstudio.cli.common import print_json


def test_finite_payload_round_trips_exactly(capsys):
    payload = {"results": [{"target": "HR", "posterior": {"LOW": 0.1 + 0.2, "HIGH": 1e-300, "é": 5e-324}},
                           {"n": 3, "ok": True, "none": None, "list": [1, 2.5, "x"]}]}
    print_json(payload)
    out, err = capsys.readouterr()
    assert err == "" and out.endswith("\n") and out.count("\n") == 1
    assert json.loads(out) == payload  # floats survive to the last bit


def test_non_finite_values_become_null_and_are_named_once(capsys):
    print_json({"a": [1.0, -math.inf], "b": {"c": math.nan, "d": 2.0}, "e": math.inf, "f": 0.5})
    out, err = capsys.readouterr()
    assert json.loads(out) == {"a": [1.0, None], "b": {"c": None, "d": 2.0}, "e": None, "f": 0.5}
    assert err.count("\n") == 1 and err.startswith("bnstudio: warning: 3 non-finite value(s)")
    assert "a[1], b.c, e" in err
