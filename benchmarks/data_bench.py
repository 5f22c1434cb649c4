"""Reading and aligning a large categorical CSV: bnstudio.data vs pandas.read_csv alone.

    .venv/bin/python benchmarks/data_bench.py [--rows 1000000] [--cols 40] [--repeat 3] [--seed 0]

Generates (seeded) a CSV of ``rows`` x ``cols`` categorical cells into a temporary folder: 3-5 states per column
(digits, two-letter or three-letter names), 5% of cells missing (written as ``?``, ``NA`` or ``N/A``, all default
missing markers). Times, best of ``repeat``:

* ``pandas.read_csv(path)`` with default settings, and with ``dtype=object, na_filter=False`` (every cell as a
  string: the parse bnstudio builds on);
* ``bnstudio.data.read_csv`` end to end (layout checks, parse, state coding, Dataset), on the plain file and on
  the same file with a quoted header (a file containing quotes takes the full byte-level layout scan);
* ``bnstudio.data.align`` to a network of ``cols`` root variables with the same states in another order.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from bnstudio.core import Network
from bnstudio.data import align, read_csv

NAMES = {1: ["0", "1", "2", "3", "4"], 2: ["aa", "bb", "cc", "dd", "ee"], 3: ["low", "mid", "top", "max", "nil"]}
MISSING = {1: "?", 2: "NA", 3: "N/A"}  # one marker per field width keeps every row the same width


def column_spec(c: int) -> tuple[list[str], str]:
    """States and missing marker of column ``c``: 3-5 states of width 1-3."""
    width = 1 + (c // 3) % 3
    return NAMES[width][:3 + c % 3], MISSING[width]


def generate(path: Path, rows: int, cols: int, seed: int) -> None:
    """Write the CSV with numpy: every field of a column has the same width, so rows are a byte matrix."""
    rng = np.random.default_rng(seed)
    widths = [len(column_spec(c)[1]) for c in range(cols)]
    matrix = np.empty((rows, sum(widths) + cols), dtype=np.uint8)
    offset = 0
    for c in range(cols):
        states, marker = column_spec(c)
        table = np.frombuffer("".join(states + [marker]).encode(), dtype=np.uint8).reshape(-1, widths[c])
        codes = rng.integers(0, len(states), rows)
        codes[rng.random(rows) < 0.05] = len(states)
        matrix[:, offset:offset + widths[c]] = table[codes]
        matrix[:, offset + widths[c]] = ord("\n") if c == cols - 1 else ord(",")
        offset += widths[c] + 1
    with open(path, "wb") as out:
        out.write((",".join(f"V{c}" for c in range(cols)) + "\n").encode())
        out.write(matrix.tobytes())


def best_of(repeat: int, fn):
    """(best wall seconds, best CPU seconds of this process, last result) over ``repeat`` calls."""
    wall, cpu, result = [], [], None
    for _ in range(repeat):
        result = None  # free the previous result before timing the next call
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return min(wall), min(cpu), result


def report(label: str, timing: tuple, rows: int) -> None:
    wall, cpu = timing[0], timing[1]
    print(f"{label:<52} {wall:7.3f} s wall {cpu:7.3f} s CPU   {rows / wall / 1e6:5.2f} M rows/s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--cols", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        path, quoted = Path(tmp) / "data.csv", Path(tmp) / "quoted.csv"
        t0 = time.perf_counter()
        generate(path, args.rows, args.cols, args.seed)
        data = path.read_bytes()
        header, _, body = data.partition(b"\n")
        quoted.write_bytes(b",".join(b'"' + n + b'"' for n in header.split(b",")) + b"\n" + body)
        del data, body
        print(f"generated {args.rows:,} rows x {args.cols} columns ({path.stat().st_size / 1e6:.0f} MB) "
              f"in {time.perf_counter() - t0:.1f} s\n")
        rows = args.rows
        report("pandas.read_csv(path)", best_of(args.repeat, lambda: pd.read_csv(path)), rows)
        report("pandas.read_csv(dtype=object, na_filter=False)",
               best_of(args.repeat, lambda: pd.read_csv(path, dtype=object, na_filter=False)), rows)
        report("bnstudio.data.read_csv (quoted header: full scan)",
               best_of(args.repeat, lambda: read_csv(quoted)), rows)
        timing = best_of(args.repeat, lambda: read_csv(path))
        report("bnstudio.data.read_csv", timing, rows)
        ds = timing[2]
        net = Network("bench")
        for c in range(args.cols):
            net.add_variable(f"V{c}", column_spec(c)[0][::-1])  # reversed: align must recode every column
        timing = best_of(args.repeat, lambda: align(ds, net))
        report("bnstudio.data.align", timing, rows)
        aligned = timing[2]
        for j, name in enumerate(ds.columns):  # check the recoding by state names
            lookup = np.array([net.states(name).index(s) for s in ds.states[j]] + [-1])
            if not np.array_equal(aligned.codes[:, net.variables.index(name)], lookup[ds.codes[:, j]]):
                sys.exit(f"alignment check failed for {name}")
        print(f"\nmissing cells: {sum(ds.missing_counts().values()) / ds.codes.size:.1%}; "
              f"codes {ds.codes.dtype} {ds.codes.shape}, {ds.codes.nbytes / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
