"""Seeded mutations of influence-diagram JSON, study files (STUDY.toml) and results files (STUDY.sqlite), and the
check each mutated file must pass (issue 25): a result, or one :class:`~bnstudio.errors.BNStudioError` line of
readable length, within a time limit, with no warning but BN Studio's own; never a NaN expected utility.

Diagram cases are read and solved (small memory and time budgets); study cases are loaded (not run); results
cases get byte flips, truncations and corrupted JSON fields and go through the report and the store's readers.
A case is ``(kind, index)``, replayable like :func:`tests.fuzz.mutate.mutate`.
"""
from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import random
import sqlite3
import time
import warnings
from pathlib import Path

from tests.fuzz.mutate import (
    MESSAGE_LIMIT,
    ROOT,
    _delete,
    _duplicate,
    _flip,
    _json_value,
    _line_ends,
    _nest,
    _number,
    _truncate,
)

KINDS = ("diagram", "study", "results")
SUFFIX = {"diagram": ".json", "study": ".toml", "results": ".sqlite"}
TIME_LIMIT = 10.0  # CPU seconds per case: a diagram is also solved, a results file reported
STUDY = """name = "tiny"
folds = 2
seeds = [0, 1]
structures = ["nb", {label = "tan", algorithm = "tan"}]
methods = ["mp", {label = "bag", method = "bagged-mp", options = {bags = 3}}]
metrics = ["error", "cll"]

[[datasets]]
generator = "corral"
rows = 40
seed = 1
"""


@functools.lru_cache(maxsize=None)
def diagram_seeds() -> tuple[bytes, ...]:
    """The oil wildcatter, and a LIMID version of it whose decisions are not ordered."""
    oil = json.loads((ROOT / "decision" / "oil_wildcatter.json").read_text())
    limid = json.loads(json.dumps(oil))
    limid["decisions"][1]["parents"] = ["Result"]
    return tuple(json.dumps(d, indent=1).encode() for d in (oil, limid))


@functools.lru_cache(maxsize=None)
def results_seed() -> bytes:
    """The bytes of a finished tiny study's results file (rollback journal: one file)."""
    import tempfile

    from bnstudio.experiment.executors import SerialExecutor
    from bnstudio.experiment.runner import run_study
    from bnstudio.experiment.spec import load_study

    with tempfile.TemporaryDirectory() as folder:
        study = Path(folder) / "tiny.toml"
        study.write_text(STUDY)
        store = Path(folder) / "tiny.sqlite"
        run_study(load_study(study), SerialExecutor(), None, store)
        db = sqlite3.connect(store)
        db.execute("PRAGMA journal_mode=DELETE")
        db.close()
        return store.read_bytes()


def _as_json(function):
    return lambda rng, data, kind: function(rng, data, "bnsproj")   # JSON nesting and values as in a .bnsproj


def _toml_nest(rng, data, kind):
    depth = rng.choice([50, 1000, 100_000])
    opening, closing = (b"[", b"]") if rng.random() < 0.5 else (b"{a=", b"}")
    return b"x = " + opening * depth + b"1" + closing * depth + b"\n" + data


def _toml_value(rng, data, kind):
    lines = data.splitlines(keepends=True)
    k = rng.randrange(len(lines))
    key = lines[k].split(b"=")[0] if b"=" in lines[k] else b"folds "
    value = rng.choice([b"-1", b"0", b"1e308", b"nan", b"inf", b'"x"', b"[]", b"{}", b"true", b'"/dev/zero"',
                        b"[" + b",".join(b"%d" % i for i in range(rng.choice([3, 5000]))) + b"]", b'"\\u0000"',
                        b"9" * 400])
    return b"".join(lines[:k]) + key + b"= " + value + b"\n" + b"".join(lines[k + 1:])


def _encoded(rng, data, kind):
    return data.decode("utf-8", errors="replace").encode(rng.choice(["latin-1", "utf-16", "utf-32", "utf-8-sig"]), errors="replace")


_BYTES = [(_flip, 3), (_truncate, 2), (_duplicate, 2), (_delete, 2), (_number, 3), (_line_ends, 0.3)]
MUTATIONS = {
    "diagram": _BYTES + [(_as_json(_json_value), 30), (_as_json(_nest), 1), (_encoded, 0.5)],
    "study": _BYTES + [(_toml_value, 10), (_toml_nest, 1), (_encoded, 1)],
}


def mutate(kind: str, index: int) -> bytes:
    """The bytes of case ``index`` of ``kind`` (a results case's bytes, before its field corruptions)."""
    rng = random.Random(f"{kind}:{index}")
    if kind == "results":
        data = bytearray(results_seed())
        if rng.random() < 0.3:
            return bytes(data[:rng.randrange(len(data))])
        for _ in range(rng.choice([0, 1, 5, 50])):
            i = rng.randrange(len(data))
            data[i] = rng.randrange(256)
        return bytes(data)
    data = rng.choice(diagram_seeds()) if kind == "diagram" else STUDY.encode()
    functions, weights = zip(*MUTATIONS[kind], strict=True)
    for _ in range(rng.choice([1, 1, 2, 3])):
        data = rng.choices(functions, weights)[0](rng, data, kind)
    return data


FIELDS = ["UPDATE tasks SET metrics = ? WHERE rowid = 1", "UPDATE tasks SET history = ? WHERE rowid = 2",
          "UPDATE meta SET value = ? WHERE name = 'study'", "UPDATE runs SET started = ?",
          "UPDATE tasks SET fold = ?", "UPDATE meta SET value = ? WHERE name = 'schema_version'",
          "UPDATE tasks SET network = ? WHERE rowid = 1"]


def corrupt_fields(path: Path, index: int) -> None:
    """Replace one field of a (readable) results file with odd content (case ``index`` picks which)."""
    rng = random.Random(f"fields:{index}")
    value = rng.choice(["{", "[1,", "null", "[]", "\"x\"", "1e999", "{\"error\": \"x\"}", b"\xff\xfe",
                        None, -1, 2 ** 62, "\x00"])
    try:
        db = sqlite3.connect(path)
        db.execute(rng.choice(FIELDS), (value,))
        db.commit()
        db.close()
    except (sqlite3.Error, ValueError):
        pass   # a file too damaged for the corruption itself: its bytes are the case


def _read(kind: str, path: Path, out: Path) -> None:
    from bnstudio.decision import InfluenceDiagram, solve
    from bnstudio.io import read_model

    if kind == "diagram":
        model = read_model(path)
        if isinstance(model, InfluenceDiagram):
            solution = solve(model, memory_budget=1 << 26, max_time=5.0)
            values = [solution.expected_utility] + [v for o in solution.options.values() for v in o.values()
                                                    if v is not None]
            if not all(math.isfinite(v) for v in values):
                raise AssertionError(f"a non-finite expected utility: {values[:5]}")
    elif kind == "study":
        from bnstudio.experiment.spec import load_study

        load_study(path)
    else:
        from bnstudio.experiment.report import compose_report
        from bnstudio.experiment.store import StudyStore

        with StudyStore(path, create=False) as store:
            store.study(), store.runs(), store.counts(), store.state()
            done = store.rows(status="done")
            if done:
                store.network(done[0]["key"])
        compose_report(path, out)


def check_case(kind: str, path: Path, out: Path) -> str | None:
    """None if ``path`` behaved (see the module docstring), else what went wrong (one line)."""
    from bnstudio.data import BNStudioDataWarning
    from bnstudio.errors import BNStudioError, RepairWarning

    problem = None
    started = time.process_time()  # CPU, not wall: a busy machine must not fail the guard
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _read(kind, path, out)
        except BNStudioError as exc:
            message = str(exc)
            if "\n" in message or "\r" in message or len(message) > MESSAGE_LIMIT:
                problem = f"error message of {len(message)} characters: {message[:200]!r}"
        except Exception as exc:  # what the fuzz test looks for
            problem = f"{type(exc).__name__}: {str(exc)[:300]}"
    others = [w for w in caught if not issubclass(w.category, (RepairWarning, BNStudioDataWarning))]
    if problem is None and others:
        problem = f"warning {others[0].category.__name__}: {str(others[0].message)[:200]}"
    seconds = time.process_time() - started
    if problem is None and seconds > TIME_LIMIT:
        problem = f"took {seconds:.1f} s"
    return problem


def check_cli(kind: str, path: Path, out: Path) -> str | None:
    """None if the command line reading ``path`` exits 0, or 2 with one error line."""
    from bnstudio.cli.main import main

    argv = {"diagram": ["decide", str(path), "--max-time", "5"],
            "study": ["experiment", str(path), "--store", str(out / "never.sqlite"), "--workers", "1",
                      "--no-report"],
            "results": ["report", str(path), "-o", str(out / "cli-report"), "--workers", "1"]}[kind]
    if kind == "study":
        from bnstudio.errors import BNStudioError
        from bnstudio.experiment.spec import load_study

        with contextlib.suppress(BNStudioError):
            load_study(path)
            return None            # a valid study would be run: only refused ones go through the command line
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status = main(argv)
    err = stderr.getvalue()
    errors = [line for line in err.splitlines() if line.startswith("bnstudio: error:")]
    if status not in (0, 2) or (status == 2 and (len(errors) != 1 or len(err.splitlines()) != 1)):
        return f"`bnstudio {argv[0]}` exited {status}: {err[:300]!r}"
    return None
