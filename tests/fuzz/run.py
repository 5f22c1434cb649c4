"""The long fuzz run, by hand: ``python -m tests.fuzz.run --cases 20000 [--formats bif,uai] [--out DIR]``.

Cases run in a child process limited to 2 GB of address space (one in 8 also through the command line); a
case that crashes the child, or runs past 30 s, is recorded and the run goes on with a fresh child. Every case that misbehaves is written to ``--out``
(default: a temporary folder) with its problem, ready to be minimised and added to ``tests/fuzz/corpus``.
"""
from __future__ import annotations

import argparse
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.fuzz.mutate import CLI_EVERY, FORMATS, case_path, check_case, check_cli, mutate

HANG_SECONDS = 30.0
ADDRESS_SPACE = 2 << 30


def child(fmt: str, start: int, stop: int, folder: Path) -> None:
    """Run cases start..stop-1, printing ``index problem-or-ok`` after each (and ``index begin`` before)."""
    import resource
    import warnings

    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    warnings.simplefilter("ignore")  # check_case records warnings itself
    for index in range(start, stop):
        seed, data = mutate(fmt, index)
        path = case_path(folder, fmt, seed, str(index))
        path.write_bytes(data)
        print(f"{index} begin", flush=True)
        problem = check_case(fmt, path)
        if problem is None and index % CLI_EVERY == 0:
            problem = check_cli(fmt, path, folder / "out", index // CLI_EVERY)
        print(f"{index} {problem or 'ok'}", flush=True)
        if problem is None:
            path.unlink()


def run_format(fmt: str, cases: int, folder: Path) -> dict[int, str]:
    """Every misbehaving case of ``fmt``: index -> problem."""
    problems: dict[int, str] = {}
    start = 0
    while start < cases:
        proc = subprocess.Popen([sys.executable, "-m", "tests.fuzz.run", "--child", fmt, str(start), str(cases),
                                 str(folder)], stdout=subprocess.PIPE, text=True, bufsize=1)
        current = start
        last = time.monotonic()
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if ready:
                line = proc.stdout.readline()
                if not line:
                    break
                index, _, status = line.rstrip("\n").partition(" ")
                current, last = int(index), time.monotonic()
                if status not in ("begin", "ok"):
                    problems[current] = status
                if status != "begin":
                    current += 1
            elif time.monotonic() - last > HANG_SECONDS:
                proc.kill()
                problems[current] = f"no answer in {HANG_SECONDS:.0f} s"
                current += 1
                break
        proc.wait()
        if proc.returncode not in (0, -9) and current < cases:
            problems.setdefault(current, f"the child died (exit {proc.returncode})")
            current += 1
        start = current
    return problems


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        fmt, start, stop, folder = sys.argv[2:6]
        child(fmt, int(start), int(stop), Path(folder))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    folder = args.out or Path(tempfile.mkdtemp(prefix="bnstudio-fuzz-"))
    (folder / "out").mkdir(parents=True, exist_ok=True)
    total = 0
    for fmt in args.formats.split(","):
        began = time.monotonic()
        problems = run_format(fmt, args.cases, folder)
        total += len(problems)
        print(f"{fmt}: {args.cases} cases, {len(problems)} problems, {time.monotonic() - began:.0f} s", flush=True)
        for index, problem in sorted(problems.items())[:50]:
            print(f"  {fmt} {index}: {problem}", flush=True)
    print(f"cases kept in {folder}")
    return 1 if total else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
