"""Reading and writing network files: ``bnstudio.io`` against pyAgrum's ``gum.loadBN`` / ``gum.saveBN``, every
format x network in one run.

    .venv/bin/python benchmarks/read_bench.py [--runs 5] [--formats bif,xmlbif,...] [--no-write] [NETWORK ...]

The networks are pgmpy's ``example_models/*.bif.gz`` (default: pathfinder, munin, link, pigs, andes, diabetes).
Each is read once from BIF and written by our writers to every format in a temporary folder; both readers then
parse the same file (Netica DNE: pyAgrum has no DNE reader, so its row times ``gum.loadBN`` on the BIF file of the
same network, the fastest pyAgrum reads it). Writing: ``write_network`` of our network against ``gum.saveBN`` of
pyAgrum's (the same network) to the same format (DNE again against pyAgrum's BIF); our saves are atomic and
durable (two fsyncs, which pyAgrum does not do), so a second table times our text written plainly, like for like.
Each round times ours and
pyAgrum's on each file, interleaved, in this one process; the tables give the median of ``--runs`` rounds (after one
warm-up each) and the ratio ours / pyAgrum's (issue 26: at most 1.5, goal below 1). The garbage collector is held
off during each timed call (as ``timeit`` does). Put another checkout first on ``PYTHONPATH`` to time its code (the
first line says which one is timed).
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Callable

import pyagrum as gum

import bnstudio
from bnstudio.io import read_network, write_network
from bnstudio.io.bif.reader import format_bif
from bnstudio.io.netica.dne_writer import format_dne
from bnstudio.io.genie.dsl import format_dsl
from bnstudio.io.hugin.net import format_net
from bnstudio.io.uai.uai import format_uai
from bnstudio.io.genie.xdsl import format_xdsl
from bnstudio.io.xml.xmlbif import format_xmlbif
from inference_bench import timed

NETWORKS = ("pathfinder", "munin", "link", "pigs", "andes", "diabetes")
#: format -> (our extension, pyAgrum's extension for the same format, or None: pyAgrum has no such format)
FORMATS = {"bif": (".bif", ".bif"), "xmlbif": (".bifxml", ".bifxml"), "net": (".net", ".net"),
           "xdsl": (".xdsl", ".xdsl"), "dsl": (".dsl", ".dsl"), "dne": (".dne", None), "uai": (".uai", ".uai")}


#: format -> our text formatter (what write_network writes, without the atomic save)
TEXT = {"bif": format_bif, "xmlbif": format_xmlbif, "net": format_net, "xdsl": format_xdsl, "dsl": format_dsl,
        "dne": format_dne, "uai": format_uai}


def example_models() -> Path:
    import pgmpy
    return Path(pgmpy.__file__).parent / "utils" / "example_models"


def median_rounds(jobs: dict[tuple, Callable[[], object]], runs: int) -> dict[tuple, float]:
    """Median seconds of each job over ``runs`` interleaved rounds, after one warm-up call each."""
    for job in jobs.values():
        job()
    times: dict[tuple, list[float]] = {key: [] for key in jobs}
    for _ in range(runs):
        for key, job in jobs.items():
            times[key].append(timed(job))
    return {key: statistics.median(values) for key, values in times.items()}


def table(title: str, rows: list[tuple[str, str, float, float, float]]) -> None:
    print(f"\n{title}")
    print(f"{'format':<8}{'network':<12}{'MB':>7}{'ours s':>10}{'pyAgrum s':>11}{'ratio':>8}")
    for fmt, name, size, ours, theirs in rows:
        print(f"{fmt:<8}{name:<12}{size:>7.2f}{ours:>10.4f}{theirs:>11.4f}{ours / theirs:>8.2f}")
    ratios = [ours / theirs for *_, ours, theirs in rows]
    if ratios:
        print(f"worst ratio {max(ratios):.2f}, geometric mean "
              f"{statistics.geometric_mean(ratios):.2f} over {len(ratios)} rows")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("networks", nargs="*", default=list(NETWORKS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--formats", default=",".join(FORMATS), help="comma-separated, from " + ",".join(FORMATS))
    parser.add_argument("--no-write", action="store_true", help="time reading only")
    args = parser.parse_args()
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        parser.error(f"unknown format(s) {', '.join(unknown)}")
    print(f"bnstudio from {Path(bnstudio.__file__).parent}, pyAgrum {gum.__version__}, Python {sys.version.split()[0]}")
    warnings.simplefilter("ignore")  # repair warnings (published tables are rounded)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files: dict[tuple[str, str], tuple[Path, Path]] = {}  # (format, network) -> (ours, pyAgrum's file)
        ours_net, theirs_net = {}, {}
        for name in args.networks:
            source = example_models() / f"{name}.bif.gz"
            if not source.exists():
                print(f"{name}: {source} absent, skipped")
                continue
            bif = folder / f"{name}.bif"
            bif.write_bytes(gzip.decompress(source.read_bytes()))
            ours_net[name], theirs_net[name] = read_network(bif), gum.loadBN(str(bif))
            for fmt in formats:
                ours_ext, their_ext = FORMATS[fmt]
                path = bif if fmt == "bif" else folder / f"{name}{ours_ext}"
                if fmt != "bif":
                    write_network(ours_net[name], path)
                files[(fmt, name)] = (path, path if their_ext else bif)
        readers = {}
        for (fmt, name), (path, their_path) in files.items():
            readers[(fmt, name, "ours")] = lambda p=path: read_network(p)
            readers[(fmt, name, "pyAgrum")] = lambda p=their_path: gum.loadBN(str(p))
        read = median_rounds(readers, args.runs)
        table("reading: read_network vs gum.loadBN (dne: pyAgrum reads the BIF file)",
              [(fmt, name, path.stat().st_size / 1e6, read[(fmt, name, "ours")], read[(fmt, name, "pyAgrum")])
               for (fmt, name), (path, _) in files.items()])
        if args.no_write:
            return
        writers = {}
        for (fmt, name) in files:
            ours_ext, their_ext = FORMATS[fmt]
            mine, theirs = folder / f"w_{name}{ours_ext}", folder / f"g_{name}{their_ext or '.bif'}"
            plain = folder / f"p_{name}{ours_ext}"
            writers[(fmt, name, "ours")] = lambda n=ours_net[name], p=mine: write_network(n, p)
            writers[(fmt, name, "plain")] = lambda n=ours_net[name], p=plain, f=TEXT[fmt]: p.write_text(f(n))
            writers[(fmt, name, "pyAgrum")] = lambda b=theirs_net[name], p=theirs: gum.saveBN(b, str(p), True)
        wrote = median_rounds(writers, args.runs)
        table("writing: write_network (atomic: temporary file, fsync, rename, fsync of the folder) vs gum.saveBN "
              "(dne: pyAgrum writes BIF)",
              [(fmt, name, path.stat().st_size / 1e6, wrote[(fmt, name, "ours")], wrote[(fmt, name, "pyAgrum")])
               for (fmt, name), (path, _) in files.items()])
        table("writing, like for like: the format's text written plainly (format_* + write_text, no fsync) vs "
              "gum.saveBN",
              [(fmt, name, path.stat().st_size / 1e6, wrote[(fmt, name, "plain")], wrote[(fmt, name, "pyAgrum")])
               for (fmt, name), (path, _) in files.items()])

if __name__ == "__main__":
    main()
