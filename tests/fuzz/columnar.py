"""Seeded mutations of Parquet and Arrow files and of folders of parts, and the check each must pass (issue 42).

Seeds (ASIA rows, written here with pyarrow): Parquet with snappy and without compression, dictionary
(categorical) columns and a column pandas wrote as the index, integers beyond 2**53; Arrow IPC files with lz4,
zstd and no compression; a Parquet file with a list column (refused, mutated or not); and folders of parts (a CSV,
a Parquet and an Arrow part, one of them mutated). Mutations: byte flips, truncation, deleted and duplicated spans,
and 8-byte spans overwritten with huge, negative or zero integers (sizes and offsets a file declares).

A case must read into a dataset (``read_table``) and stream into counts (``open_parts`` + ``ml``), or fail with
one :class:`~bnstudio.errors.BNStudioError` line; never another exception, a crash or a peak resident memory above
:data:`RSS_LIMIT`. Cases run in a child process (a crash must not take the test runner with it) limited to
:data:`ADDRESS_SPACE` of address space; the child prints ``index status peak-MB`` per case. The long run:
``python -m tests.fuzz.columnar --cases 3000``.
"""
from __future__ import annotations

import functools
import random
import resource
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from tests.fuzz.mutate import ROOT, _delete, _duplicate, _flip, _truncate

CORPUS = Path(__file__).parent / "columnar_corpus"   # files that once crashed or misread, replayed in the suite
KINDS = ("parquet", "parquet-plain", "arrow-lz4", "arrow-zstd", "arrow-plain", "parquet-list", "parts")
ADDRESS_SPACE = 6 << 30   # pyarrow and pandas reserve ~2 GB of address space at import
RSS_LIMIT = 1 << 30       # peak resident memory of the child, which reads files of a few kilobytes
_NASTY = [2**31, 2**31 - 1, 2**32, 2**62, 2**63 - 1, -1, -(2**31), 0, 1 << 40]


@functools.lru_cache(maxsize=None)
def _frame():
    import pandas as pd

    from bnstudio.io import read_network
    from bnstudio.sampling import codes_to_frame, forward_sample

    net = read_network(ROOT / "networks" / "asia.bif")
    frame = codes_to_frame(net, forward_sample(net, 300, seed=2)).astype(str)
    frame["lung"] = frame["lung"].astype(pd.CategoricalDtype(["no", "yes"]))
    return frame


@functools.lru_cache(maxsize=None)
def seed(kind: str) -> bytes:
    """The valid bytes a kind's cases start from (``parts``: the Parquet part's)."""
    import pyarrow as pa
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    frame = _frame()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "seed"
        if kind in ("parquet", "parts"):
            pq.write_table(pa.Table.from_pandas(frame.set_index("asia")), path, row_group_size=100)
        elif kind == "parquet-plain":
            wide = frame.assign(big=[2**53 + i % 3 for i in range(len(frame))])
            pq.write_table(pa.Table.from_pandas(wide.iloc[::2]), path, row_group_size=60, compression="none")
        elif kind == "parquet-list":
            table = pa.Table.from_pandas(frame, preserve_index=False)
            table = table.append_column("tags", pa.array([[v, v] for v in frame["dysp"]]))
            pq.write_table(table, path, row_group_size=100)
        else:
            feather.write_feather(frame.reset_index(drop=True), path, chunksize=100,
                                  compression={"arrow-lz4": "lz4", "arrow-zstd": "zstd"}.get(kind, "uncompressed"))
        return path.read_bytes()


def _nasty_integer(rng: random.Random, data: bytes, fmt: str) -> bytes:
    """An 8-byte span overwritten with a huge, negative or zero little-endian integer (a declared size)."""
    if len(data) < 16:
        return data
    at = rng.randrange(0, len(data) - 8) & ~7 if rng.random() < 0.5 else rng.randrange(0, len(data) - 8)
    value = rng.choice(_NASTY).to_bytes(8, "little", signed=True)
    return data[:at] + value[:rng.choice([4, 8])] + data[at + rng.choice([4, 8]):]


MUTATIONS = [(_flip, 5), (_truncate, 1), (_delete, 1), (_duplicate, 1), (_nasty_integer, 3)]


def mutate(kind: str, index: int) -> bytes:
    """Case ``index`` of ``kind``: the mutated bytes (replayable)."""
    rng = random.Random(f"columnar:{kind}:{index}")
    data = seed(kind)
    functions, weights = zip(*MUTATIONS, strict=True)
    for _ in range(rng.choice([1, 1, 2, 3])):
        data = rng.choices(functions, weights)[0](rng, data, "bin")
    return data


def write_case(kind: str, index: int, folder: Path) -> Path:
    """The case on disk: a file, or for ``parts`` a folder whose Parquet, CSV or Arrow part is mutated."""
    import pyarrow.feather as feather

    data = mutate(kind, index)
    if kind != "parts":
        path = folder / f"case{index}{'.parquet' if kind.startswith('parquet') else '.arrow'}"
        path.write_bytes(data)
        return path
    path = folder / f"parts{index}"
    path.mkdir()
    frame = _frame().reset_index(drop=True)
    frame.iloc[:100].to_csv(path / "a.csv", index=False)
    (path / "b.parquet").write_bytes(seed("parts"))
    feather.write_feather(frame.iloc[100:], path / "c.arrow", chunksize=50)
    victim = random.Random(f"parts:{index}").choice(["a.csv", "b.parquet", "c.arrow"])
    original = (path / victim).read_bytes()
    (path / victim).write_bytes(data if victim == "b.parquet" else
                                random.Random(index).choice([_flip, _truncate, _nasty_integer])(
                                    random.Random(index), original, "bin"))
    return path


def check(path: Path) -> str | None:
    """None if every reader behaved on ``path``, else what went wrong."""
    from bnstudio.data import open_parts, read_table
    from bnstudio.errors import BNStudioError
    from bnstudio.io import read_network
    from bnstudio.learn.params import make_learner

    net = read_network(ROOT / "networks" / "asia.bif")
    calls = [("open_parts+ml", lambda: make_learner("ml").fit(net, open_parts(path)))]
    if path.is_file():
        calls.insert(0, ("read_table", lambda: read_table(path)))
    for name, call in calls:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # BN Studio's data warnings (ignored columns, missing rows)
                call()
        except BNStudioError as exc:
            if "\n" in str(exc) or len(str(exc)) > 2000:
                return f"{name}: error of {len(str(exc))} characters on several lines"
        except Exception as exc:  # what the fuzz test looks for
            return f"{name}: {type(exc).__name__}: {str(exc)[:200]}"
    return None


def child(kinds: list[str], start: int, stop: int, folder: Path) -> None:
    """Run cases start..stop-1 of the first kind and 0..stop-1 of the others (kind ``corpus``: the files of
    :data:`CORPUS`), printing ``kind index status peak-MB`` (``begin`` before each case)."""
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    for k, kind in enumerate(kinds):
        for index in range(start if k == 0 else 0, stop if kind != "corpus" else len(corpus())):
            print(f"{kind} {index} begin 0", flush=True)
            problem = check(corpus()[index] if kind == "corpus" else write_case(kind, index, folder))
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            if problem is None and peak > RSS_LIMIT:
                problem = f"peak resident memory {peak >> 20} MB"
            status = "ok" if problem is None else "_".join(problem.split())
            print(f"{kind} {index} {status} {peak >> 20}", flush=True)


def corpus() -> list[Path]:
    """The files of :data:`CORPUS` (case ``corpus i`` is the i-th)."""
    return sorted(CORPUS.iterdir())


def run(kinds: list[str], cases: int, timeout: float) -> tuple[dict[str, str], int]:
    """Every misbehaving case (``kind index`` -> problem) and the children's peak memory in MB. One child runs
    the cases in turn; a child that dies (or passes ``timeout`` seconds) is recorded on the case it was
    running, and a fresh child goes on after it."""
    problems: dict[str, str] = {}
    peak, kind_at, start = 0, 0, 0
    with tempfile.TemporaryDirectory() as folder:
        while kind_at < len(kinds):
            argv = [sys.executable, "-m", "tests.fuzz.columnar", "--child", ",".join(kinds[kind_at:]), str(start),
                    str(cases), folder]
            try:
                done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
                out, code = done.stdout, done.returncode
            except subprocess.TimeoutExpired as exc:
                out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
                code = -9
            last = (kinds[kind_at], start - 1)
            for line in out.splitlines():
                kind, index, status, mb = line.split(" ")   # the child writes 4 words a line
                peak, last = max(peak, int(mb)), (kind, int(index))
                if status not in ("begin", "ok"):
                    problems[f"{kind} {index}"] = status.replace("_", " ")
            if code == 0:
                break
            problems[f"{last[0]} {last[1]}"] = f"the child died (exit {code})"
            kind_at, start = kinds.index(last[0]), last[1] + 1
            if start >= (cases if last[0] != "corpus" else len(corpus())):
                kind_at, start = kind_at + 1, 0
    return problems, peak


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        kinds, start, stop, folder = sys.argv[2:6]
        child(kinds.split(","), int(start), int(stop), Path(folder))
        return 0
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    problems, peak = run(args.kinds.split(","), args.cases, timeout=30.0 * args.cases)
    for case, problem in sorted(problems.items()):
        print(f"{case}: {problem}")
    print(f"{len(problems)} problems in {args.cases} cases of each of {args.kinds}; peak memory {peak} MB")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
