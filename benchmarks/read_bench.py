"""Reading BIF files: ``bnstudio.io.read_network`` against pyAgrum's ``gum.loadBN`` on the bnlearn networks.

    .venv/bin/python benchmarks/read_bench.py [--runs 5] [NETWORK ...]

The networks are pgmpy's ``example_models/*.bif.gz`` (default: pathfinder, munin, link, pigs, andes, diabetes),
unpacked once to a temporary folder so both readers parse the same plain ``.bif`` file. Each round times both
readers on each file, interleaved, in this one process; the table gives the median of ``--runs`` rounds (after
one warm-up read each) and the ratio ours / pyAgrum's (issue 26: at most 1.5, goal below 1).
Put another checkout first on ``PYTHONPATH`` to time its reader (the first line says which one is timed).
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pyagrum as gum

import bnstudio
from bnstudio.io import read_network

NETWORKS = ("pathfinder", "munin", "link", "pigs", "andes", "diabetes")


def example_models() -> Path:
    import pgmpy
    return Path(pgmpy.__file__).parent / "utils" / "example_models"


def seconds(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("networks", nargs="*", default=list(NETWORKS))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"bnstudio from {Path(bnstudio.__file__).parent}, pyAgrum {gum.__version__}, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name in args.networks:
            source = example_models() / f"{name}.bif.gz"
            if not source.exists():
                print(f"{name}: {source} absent, skipped")
                continue
            files[name] = Path(tmp) / f"{name}.bif"
            files[name].write_bytes(gzip.decompress(source.read_bytes()))
        readers = {
            "ours": lambda p: read_network(p),
            "pyAgrum": lambda p: gum.loadBN(str(p)),
        }
        times: dict[tuple[str, str], list[float]] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # repair warnings (published tables are rounded)
            for name, path in files.items():
                for reader in readers.values():
                    reader(path)  # warm-up
            for _ in range(args.runs):
                for name, path in files.items():
                    for who, reader in readers.items():
                        times.setdefault((name, who), []).append(seconds(lambda: reader(path)))
    print(f"{'network':<12}{'MB':>6}{'ours s':>10}{'pyAgrum s':>11}{'ratio':>8}")
    for name, path in files.items():
        ours = statistics.median(times[(name, "ours")])
        theirs = statistics.median(times[(name, "pyAgrum")])
        size = gzip.decompress((example_models() / f"{name}.bif.gz").read_bytes()).__len__() / 1e6
        print(f"{name:<12}{size:>6.2f}{ours:>10.3f}{theirs:>11.3f}{ours / theirs:>8.2f}")


if __name__ == "__main__":
    main()
