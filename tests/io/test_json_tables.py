"""The JSON form of an influence diagram with its tables read in bulk (bnstudio/io/json_tables.py): the same
diagram, bit for bit, as ``json.loads`` and the reader's checks give (inside ``exact_reading``), the same error
line for every table or document the bulk path doubts, and a fraction of the time and memory for a big table."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bnstudio.errors import FormatError
from bnstudio.io import read_model
from bnstudio.io.bulk import exact_reading
from bnstudio.io.json_tables import _table, read_json_tables
from tests.decision.test_budget import hidden_chain
from tests.hostile.helpers import OIL
from tests.hostile.test_decision_listing import _write_chain_lazily, one_utility_chain


def _same(a, b) -> None:
    da, db = a.to_dict(), b.to_dict()
    assert json.dumps(da) == json.dumps(db)
    for v in a.chance_names:
        assert a.cpt(v).tobytes() == b.cpt(v).tobytes()
    for ua, ub in zip(a.utilities, b.utilities, strict=True):
        assert ua.table.shape == ub.table.shape and ua.table.tobytes() == ub.table.tobytes()


@pytest.mark.parametrize("indent", [None, 2])
def test_diagrams_read_the_same_both_ways(tmp_path, indent):
    diagrams = [read_model(OIL), one_utility_chain(5), hidden_chain(4)]
    oil = json.loads(OIL.read_text())
    oil["chance"][0]["alpha"] = [5, 3.25e0, 1E+1]   # stored counts, integers and exponents as JSON has them
    for k, doc in enumerate([d.to_dict() for d in diagrams] + [oil]):
        path = tmp_path / f"d{k}.json"
        path.write_text(json.dumps(doc, indent=indent))
        with exact_reading():
            exact = read_model(path)
        _same(read_model(path), exact)


@pytest.mark.parametrize("shape", [(1,), (3,), (2, 3), (1, 1, 1), (2, 1, 4), (3, 2, 2, 2)])
def test_a_regular_table_is_read_as_json_reads_it(shape):
    values = np.random.default_rng(sum(shape)).normal(size=shape) * 10.0 ** np.arange(np.prod(shape)).reshape(shape)
    for text in (json.dumps(values.tolist()), json.dumps(values.tolist(), indent=3), "[" * len(shape) + "7"
                 + "]" * len(shape) if shape == (1,) * len(shape) else json.dumps(values.tolist())):
        table = _table(text)
        assert table is not None and table.shape == shape
        assert table.tobytes() == np.array(json.loads(text), dtype=float).tobytes()


@pytest.mark.parametrize("text", ["[]", "[[]]", "[1,]", "[,1]", "[1 2]", "[01]", "[1.]", "[.5]", "[-]", "[1e]", "[+1]",
                                  "[--1]", "[1-2]", "[1.5.3]", "[1,,2]", "[[1]", "[1]]", "[[1],[1,2]]", "[[1,2],[1]]",
                                  "[[1],2]", "[1,[2]]", "[[[1]],[2]]", "[1e400]", "[-1e999]", "[1\x0b]", "[1\u00a0]",
                                  "[" + "9" * 400 + "]"])
def test_a_table_json_would_refuse_or_read_otherwise_is_left_to_it(text):
    assert _table(text) is None


@pytest.mark.parametrize("edit, expected", [
    (lambda s: s.replace("[0.0, 1.0]", "[0.0, 1e999]", 1), None),           # past the float range
    (lambda s: s.replace("[0.0, 1.0]", "[0.0, 1.0, 2.0]", 1), None),        # ragged
    (lambda s: s.replace("[0.0, 1.0]", "[0.0, 01]", 1), "invalid JSON"),    # not JSON
    (lambda s: s.replace('"chance"', '"chance" "', 1), "invalid JSON"),     # the rest is not JSON
    (lambda s: s[:-2], "invalid JSON"),
    (lambda s: json.dumps(json.loads(s), indent=1)[:-2], "invalid JSON"),  # located past multi-line tables
])
def test_what_the_bulk_path_doubts_gets_the_readers_line(tmp_path, edit, expected):
    path = tmp_path / "bad.json"
    path.write_text(edit(json.dumps(one_utility_chain(3).to_dict())))
    lines = []
    for exact in (False, True):
        with pytest.raises(FormatError) as caught:
            if exact:
                with exact_reading():
                    read_model(path)
            else:
                read_model(path)
        lines.append(str(caught.value))
    assert lines[0] == lines[1] and (expected is None or expected in lines[0])


def test_a_table_named_in_a_string_is_no_table():
    doc = read_json_tables('{"name": "a \\"table\\": [1, 2]", "table": [[1, 2]], "alpha": null}')
    assert doc["name"] == 'a "table": [1, 2]' and doc["table"].shape == (1, 2) and doc["alpha"] is None
    assert read_json_tables('{"table": [1, 2]} x') is None   # the rest is not JSON: parsed whole, error located


@pytest.mark.timeout(120)
def test_a_big_utility_table_is_read_in_bulk(tmp_path):
    """2^22 utilities (16 MB of JSON): json.loads made them Python floats in nested lists (4.4 s, 610 MB peak);
    read in bulk, 1.3 s and about 170 MB."""
    path = _write_chain_lazily(22, tmp_path / "chain22.json")
    if not Path("/proc/self/status").is_file():
        pytest.skip("the peak memory of a process is read from /proc/self/status (Linux)")
    script = ("import sys\nfrom bnstudio.io import read_model\nd = read_model(sys.argv[1])\n"
              "print(float(d.utilities[0].table.sum()), d.utilities[0].table.shape)\n"
              "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=110)
    assert done.returncode == 0, done.stderr
    total, peak_kib = done.stdout.splitlines()
    blocks = 2 ** 10   # blocks of 2^12 numbers, each (index mod 7) within its block
    assert total == f"{float(blocks * sum(k % 7 for k in range(2 ** 12)))} {(2,) * 22}"
    assert int(peak_kib) < 320 * 1024, peak_kib
