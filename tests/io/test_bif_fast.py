"""The bulk BIF reader (bnstudio/io/bif/fast.py) against the exact reader it falls back to (the reference).

Every BIF file at hand -- resources/, the test corpora, pgmpy's bundled bnlearn networks and, when present, the
shared networks folder of the development machine -- must read to the same network (CPTs exactly equal), the same
repair warning or the same one-line error both ways; so must the seeded mutations of the BIF fuzz cases and the
hand-written anomalies below (each a plain body the bulk reader hands back to the exact one)."""
from __future__ import annotations

import gzip
import warnings
from pathlib import Path

import pytest

from bnstudio.errors import BNStudioError
from bnstudio.io.bif.fast import FastParser, parse_exact, parse_fast
from tests.fuzz.mutate import mutate

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "networks"  # the classic networks beside the repo, skipped when absent


def _example_models() -> Path | None:
    try:
        import pgmpy
    except ImportError:
        return None
    return Path(pgmpy.__file__).parent / "utils" / "example_models"


def _files() -> list[Path]:
    found = sorted(p for p in (ROOT / "resources").rglob("*") if p.name.endswith((".bif", ".bif.gz")))
    found += sorted(p for p in (ROOT / "tests").rglob("*") if p.name.endswith((".bif", ".bif.gz")))
    for folder in (SHARED, _example_models()):
        if folder is not None and folder.is_dir():
            found += sorted(p for p in folder.iterdir() if p.name.endswith((".bif", ".bif.gz")))
    return found


def _text(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.name.endswith(".gz") else data).decode("utf-8", "replace")


def _outcome(parse, text: str, strict: bool = False):
    """(network or None, error text or None, warning texts)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            net, error = parse(text, "f.bif", strict), None
        except BNStudioError as exc:
            net, error = None, str(exc)
    return net, error, [str(w.message) for w in caught]


def _assert_same(text: str, same_network, strict: bool = False) -> None:
    exact, fast = _outcome(parse_exact, text, strict), _outcome(parse_fast, text, strict)
    assert fast[1:] == exact[1:]
    if exact[0] is not None:
        same_network(fast[0], exact[0])


@pytest.mark.parametrize("path", _files(), ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("strict", [False, True])
def test_files_read_the_same(path, strict, same_network):
    _assert_same(_text(path), same_network, strict)


BNLEARN = ["pathfinder", "munin", "link", "pigs", "andes", "diabetes", "alarm", "hepar2", "win95pts"]


@pytest.mark.parametrize("name", BNLEARN)
def test_bnlearn_tables_are_read_in_bulk(name):
    folder = _example_models()
    if folder is None or not (folder / f"{name}.bif.gz").exists():
        pytest.skip(f"pgmpy's {name}.bif.gz is absent")
    text = _text(folder / f"{name}.bif.gz")
    parser = FastParser(text, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net = parser.build()
    assert parser.bodies == parser.consumed == len(net.variables)


@pytest.mark.parametrize("index", range(300))
def test_fuzz_mutations_read_the_same(index, same_network):
    _, data = mutate("bif", index)
    _assert_same(data.decode("utf-8", "replace"), same_network)


HEAD = "variable A { type discrete [2] { a b }; }\nvariable B { type discrete [2] { x y }; }\n" \
       "probability ( A ) { table 0.3, 0.7; }\n"
ANOMALIES = [
    "probability ( B | A ) { (a) 0.1, 0.9; (b) 0.4, 0.6; }",  # plain
    "probability ( B | A ) { (a) 0.1, 0.9; (a) 0.4, 0.6; }",  # a row twice
    "probability ( B | A ) { (a) 0.1, 0.9; }",  # a row missing
    "probability ( B | A ) { (a) 0.1, 0.9; (c) 0.4, 0.6; }",  # an unknown state
    "probability ( B | A ) { (a) 0.1, 0.9, 0; (b) 0.4, 0.6; }",  # a row too long
    "probability ( B | A ) { (a) 0.1; (b) 0.4, 0.6; }",  # a row too short
    "probability ( B | A ) { (a b) 0.1, 0.9; (b) 0.4, 0.6; }",  # too many states
    "probability ( B | A ) { (a) 0.1, 0.8; (b) 0.4, 0.6; }",  # refused sum
    "probability ( B | A ) { (a) 0.1, 0.8999; (b) 0.4, 0.6; }",  # rescaled
    "probability ( B | A ) { (a) 1, 9; (b) 4, 6; }",  # counts
    "probability ( B | A ) { (a) 0, 0; (b) 4, 6; }",  # a row of zeros
    "probability ( B | A ) { (a) 1e400, 0; (b) 0.4, 0.6; }",  # not finite
    "probability ( B | A ) { (a) 1e308, 1e308; (b) 0.4, 0.6; }",  # sum beyond the float range
    "probability ( B | A ) { (a) -0.1, 1.1; (b) 0.4, 0.6; }",  # negative (not plain)
    "probability ( B | A ) { table 0.1, 0.4, 0.9, 0.6; }",  # plain table
    "probability ( B | A ) { table 0.1, 0.4, 0.9; }",  # short table
    "probability ( B | A ) { table 0.1 0.4 0.9 0.6 0.0; }",  # long table
    "probability ( B | A ) { table 0.1, 0.4, 0.8, 0.6; }",  # refused table
    "probability ( B | A ) { default 0.1, 0.4, 0.9, 0.6; }",  # pgmpy's lone default (not plain)
    "probability ( B | A | A ) { (a) 0.1, 0.9; (b) 0.4, 0.6; }",  # a parent twice
    "probability ( B | C ) { (a) 0.1, 0.9; (b) 0.4, 0.6; }",  # an unknown parent
    "probability ( B | A ) { (a) 0.1, 0.9; (b) 0.4, 0.6; }\nprobability ( B ) { (a) 0.1, 0.9; }",  # twice
    "probability ( C | A ) { (a) 0.1, 0.9; (b) 0.4, 0.6; }",  # an undeclared child
    "probability ( B | A ) { (a) 0.1, 0.9; (b) 0.4, 0.6;",  # unclosed
    "probability ( B | A ) { (a) 0.1, 0.9; (b) 0.4, 0.6x; }",  # not a number
    "probability ( B | A ) { (a) 0.1, 0.9; (b) .4e0, 6e-1; }",  # other spellings
    "probability ( B | A ) { (a) 0.1, 0.9; (b) 0.4, 0.6; } probability ( A ) { table 1, 0; }",
    "network n { property p = probability ( B | A ) { (a) 0.1 0.9; (b) 0.4 0.6; } }"
    "probability ( B | A ) { (a) 0.1, 0.9; (b) 0.4, 0.6; }",  # a plain body inside a property
]


@pytest.mark.parametrize("tail", ANOMALIES)
@pytest.mark.parametrize("strict", [False, True])
def test_anomalies_read_the_same(tail, strict, same_network):
    _assert_same(HEAD + tail, same_network, strict)
