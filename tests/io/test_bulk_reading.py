"""The bulk table paths of every reader (bnstudio/io/bulk.py) against the exact, token-by-token readers.

Every network at hand -- resources/networks, pgmpy's bundled bnlearn networks and, when present, the shared
networks folder beside the repo -- is written in every format by our writers, then read with the bulk paths and
inside ``exact_reading()``: the networks must be identical (names, states, parent order, CPTs bit for bit,
properties, positions, descriptions) and so must the repair warnings. The bulk read must not convert a single
number token by token (``entry_problem`` is the per-token check), the exact read must. The malformed corpus, the
seeded mutations of the fuzz cases and hand-written anomalies must give the same one-line error (or the same
network and warnings) both ways."""
from __future__ import annotations

import gzip
import itertools
import random
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import bnstudio.io.common as common
from bnstudio.errors import BNStudioError
from bnstudio.io import read_network, write_network
from bnstudio.io.bulk import (
    bulk_enabled,
    exact_reading,
    number_rows,
    number_text,
    probabilities,
    tables_rows,
    tables_text,
)
from bnstudio.io.common import NUMBER, fmt
from bnstudio.io.genie.dsl import format_dsl
from bnstudio.io.genie.dsl_syntax import nesting
from bnstudio.io.netica.dne_writer import format_dne
from tests.fuzz.mutate import mutate

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "networks"  # the classic networks beside the repo, skipped when absent
EXTENSIONS = [".bif", ".xmlbif", ".net", ".xdsl", ".dsl", ".dne", ".uai"]
LARGE = {"diabetes", "munin", "munin1", "munin2", "munin3", "munin4", "pathfinder", "barley", "mildew", "link"}


def _example_models() -> Path | None:
    try:
        import pgmpy
    except ImportError:
        return None
    return Path(pgmpy.__file__).parent / "utils" / "example_models"


def _sources() -> list:
    found = sorted((ROOT / "resources" / "networks").glob("*.bif"))
    for folder in (SHARED, _example_models()):
        if folder is not None and folder.is_dir():
            found += sorted(p for p in folder.iterdir() if p.name.endswith((".bif", ".bif.gz")))
    return [pytest.param(p, marks=pytest.mark.slow) if p.name.split(".")[0] in LARGE else p for p in found]


def _outcome(path: Path):
    """(network or None, error text or None, warning texts) of reading ``path``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            net, error = read_network(path), None
        except BNStudioError as exc:
            net, error = None, str(exc)
    return net, error, [str(w.message) for w in caught]


def _counting(monkeypatch) -> list[int]:
    """Count the per-token checks of :func:`bnstudio.io.common.probability`."""
    calls = [0]
    original = common.entry_problem

    def counted(value):
        calls[0] += 1
        return original(value)
    monkeypatch.setattr(common, "entry_problem", counted)
    return calls


def _assert_same(a, b) -> None:
    assert a.name == b.name and a.variables == b.variables
    for v in a.variables:
        assert a.states(v) == b.states(v) and a.parents(v) == b.parents(v), v
        assert np.array_equal(a.cpt(v), b.cpt(v)), v
        assert a.variable(v).description == b.variable(v).description, v
    assert a.properties == b.properties and a.positions == b.positions


def _both_ways(path: Path):
    bulk = _outcome(path)
    with exact_reading():
        assert not bulk_enabled()
        exact = _outcome(path)
    assert bulk[1:] == exact[1:]
    if exact[0] is not None:
        _assert_same(bulk[0], exact[0])
    return bulk, exact


@pytest.mark.parametrize("source", _sources(), ids=lambda p: p.name)
def test_every_network_in_every_format_reads_the_same_in_bulk(source: Path, tmp_path: Path, monkeypatch) -> None:
    data = source.read_bytes()
    text = gzip.decompress(data) if source.name.endswith(".gz") else data
    bif = tmp_path / "source.bif"
    bif.write_bytes(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net = read_network(bif)
    calls = _counting(monkeypatch)
    for ext in EXTENSIONS:
        path = bif if ext == ".bif" else tmp_path / f"net{ext}"
        if ext != ".bif":
            write_network(net, path)
        calls[0] = 0
        bulk = _outcome(path)
        bulk_calls = calls[0]
        with exact_reading():
            exact = _outcome(path)
        assert bulk[1:] == exact[1:], ext
        assert exact[0] is not None, exact[1]
        _assert_same(bulk[0], exact[0])
        if ext != ".bif":  # BIF's exact reader has its own per-token check (tests/io/test_bif_fast.py)
            assert bulk_calls == 0, f"{ext}: {bulk_calls} numbers read one by one"
            assert calls[0] - bulk_calls >= sum(net.cpt(v).size for v in net.variables), ext


def _corpus() -> list[Path]:
    return sorted(p for p in (ROOT / "tests" / "io" / "corpus").rglob("*")
                  if p.is_file() and p.suffix in {".bif", ".xmlbif", ".xml", ".net", ".xdsl", ".dsl", ".dne", ".uai"})


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.relative_to(ROOT / "tests" / "io" / "corpus").as_posix())
def test_the_corpus_reads_the_same_in_bulk(path: Path) -> None:
    _both_ways(path)


FUZZED = {"xmlbif": ".xmlbif", "net": ".net", "xdsl": ".xdsl", "uai": ".uai"}  # the formats tests/fuzz mutates


@pytest.mark.parametrize(("fmt", "index"), list(itertools.product(FUZZED, range(60))))
def test_fuzz_mutations_read_the_same_in_bulk(fmt: str, index: int, tmp_path: Path) -> None:
    _, data = mutate(fmt, index)
    path = tmp_path / f"case{FUZZED[fmt]}"
    path.write_bytes(data)
    _both_ways(path)


_TABLES = {".dsl": re.compile(r"PROBABILITIES = \(([^;]*)\);"), ".dne": re.compile(r"probs = ([^;]*);")}
_PIECES = [",", "(", ")", " ", "", "1e", "-0.5", "1e999", "nan", "0x1", "@imposs", "*", "//", "\"", "1_0", ";",
           "\u00a0", "0.25 0.75", "(0.5, 0.5)", ",,"]


def _table_mutation(ext: str, index: int) -> str:
    """A network of resources/networks written as ``ext``, with 1-3 edits inside its probability lists."""
    rng = random.Random(f"{ext}:{index}")
    source = rng.choice(sorted((ROOT / "resources" / "networks").glob("*.bif")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = (format_dsl if ext == ".dsl" else format_dne)(read_network(source))
    for _ in range(rng.choice([1, 1, 2, 3])):
        m = rng.choice(list(_TABLES[ext].finditer(text)))
        at = rng.randrange(m.start(1), m.end(1) + 1)
        cut = rng.choice([0, 0, 1, 3])
        text = text[:at] + rng.choice(_PIECES) + text[at + cut:]
    return text


@pytest.mark.parametrize(("ext", "index"), list(itertools.product(_TABLES, range(80))))
def test_table_mutations_read_the_same_in_bulk(ext: str, index: int, tmp_path: Path) -> None:
    path = tmp_path / f"case{ext}"
    path.write_text(_table_mutation(ext, index))
    _both_ways(path)


# one table of a two-variable network, spelled in each format; {t} is the child's table (parents' rows first)
TEMPLATES = {
    ".net": 'net {{ }}\nnode A {{ states = ("a" "b"); }}\nnode B {{ states = ("x" "y"); }}\n'
            "potential ( A ) {{ data = ( 0.3 0.7 ); }}\npotential ( B | A ) {{ data = {t}; }}\n",
    ".dsl": "net N {{ node A {{ TYPE = CPT; HEADER = {{ ID = A; NAME = \"A\"; }}; PARENTS = ();\n"
            "DEFINITION = {{ NAMESTATES = (a, b); PROBABILITIES = (0.3, 0.7); }}; }};\n"
            "node B {{ TYPE = CPT; HEADER = {{ ID = B; NAME = \"B\"; }}; PARENTS = (A);\n"
            "DEFINITION = {{ NAMESTATES = (x, y); PROBABILITIES = {t}; }}; }}; }};\n",
    ".dne": "// ~->[DNET-1]->~\nbnet N {{\nnode A {{ kind = NATURE; discrete = TRUE; states = (a, b); parents = ();\n"
            "probs = (0.3, 0.7); }};\nnode B {{ kind = NATURE; discrete = TRUE; states = (x, y); parents = (A);\n"
            "probs = {t}; }};\n}};\n",
    ".uai": "BAYES\n2\n2 2\n2\n1 0\n2 0 1\n2\n0.3 0.7\n{n}\n{t}\n",
    ".xmlbif": '<?xml version="1.0"?>\n<BIF VERSION="0.3"><NETWORK><NAME>N</NAME>\n'
               "<VARIABLE TYPE=\"nature\"><NAME>A</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>\n"
               "<VARIABLE TYPE=\"nature\"><NAME>B</NAME><OUTCOME>x</OUTCOME><OUTCOME>y</OUTCOME></VARIABLE>\n"
               "<DEFINITION><FOR>A</FOR><TABLE>0.3 0.7</TABLE></DEFINITION>\n"
               "<DEFINITION><FOR>B</FOR><GIVEN>A</GIVEN><TABLE>{t}</TABLE></DEFINITION>\n</NETWORK></BIF>\n",
    ".xdsl": '<?xml version="1.0"?>\n<smile version="1.0" id="N" numsamples="1000" discsamples="10000"><nodes>\n'
             '<cpt id="A"><state id="a" /><state id="b" /><probabilities>0.3 0.7</probabilities></cpt>\n'
             '<cpt id="B"><state id="x" /><state id="y" /><parents>A</parents>'
             "<probabilities>{t}</probabilities></cpt>\n</nodes></smile>\n",
}
# (nested, flat) spellings of the child's table: plain, and each thing the bulk path must hand back
TABLES = [
    ("((0.1 0.9) (0.4 0.6))", "0.1 0.9 0.4 0.6"),                  # plain
    ("((.1e0 9E-1) (+0.4 0.6))", ".1e0 9E-1 +0.4 0.6"),            # other spellings
    ("((0.1 0.8999) (0.4 0.6))", "0.1 0.8999 0.4 0.6"),            # rescaled, reported
    ("((0.1 0.8) (0.4 0.6))", "0.1 0.8 0.4 0.6"),                  # refused (or normalised by Hugin/GeNIe)
    ("((1 9) (4 6))", "1 9 4 6"),                                  # counts
    ("((0 0) (0.4 0.6))", "0 0 0.4 0.6"),                          # a row of zeros
    ("((-0.000001 1.000001) (0.4 0.6))", "-0.000001 1.000001 0.4 0.6"),  # a tiny negative
    ("((-0.1 1.1) (0.4 0.6))", "-0.1 1.1 0.4 0.6"),                # negative
    ("((1e400 0) (0.4 0.6))", "1e400 0 0.4 0.6"),                  # not finite
    ("((1e308 1e308) (0.4 0.6))", "1e308 1e308 0.4 0.6"),          # a sum beyond the float range
    ("((0.1 0.9) (0.4 0.6x))", "0.1 0.9 0.4 0.6x"),                # not a number
    ("((0.1 0.9) (0.4 1e))", "0.1 0.9 0.4 1e"),                    # a broken number
    ("((0.1 0.9) (0.4 1_0))", "0.1 0.9 0.4 1_0"),                  # what float() reads but NUMBER does not
    ("((0.1 0.9) (0.4 nan))", "0.1 0.9 0.4 nan"),
    ("((0.1 0.9) (0.4 -))", "0.1 0.9 0.4 -"),
    ("((0.1 0.9) (0.4))", "0.1 0.9 0.4"),                          # short
    ("((0.1 0.9) (0.4 0.6 0))", "0.1 0.9 0.4 0.6 0"),              # long
    ("((0.1 0.9) (0.4 0.6)", "0.1 0.9 0.4 0.6 0.1"),               # unbalanced / another long one
    ("((0.1 0.9)) (0.4 0.6))", "0.1 0.9 0.4 0.6 0.1 0.9"),
    ("", ""),                                                       # empty
]


def _spelled(ext: str, nested: str, flat: str) -> str:
    if ext == ".dsl":  # one flat list with commas; the anomalies of the list syntax too
        table = "(" + ", ".join(flat.split()) + ")" if flat else "()"
        return table.replace("(0.1, 0.9, 0.4, 0.6, 0.1)", "(0.1, 0.9, 0.4 0.6)")
    if ext == ".dne":  # nested lists with commas
        return nested.replace(" ", ", ").replace(")", ")").replace("(,", "(") if nested else "()"
    if ext == ".net":
        return nested or "()"
    return flat


@pytest.mark.parametrize("ext", sorted(TEMPLATES))
@pytest.mark.parametrize(("nested", "flat"), TABLES)
@pytest.mark.parametrize("strict", [False, True])
def test_anomalies_read_the_same_in_bulk(ext: str, nested: str, flat: str, strict: bool, tmp_path: Path) -> None:
    table = _spelled(ext, nested, flat)
    text = TEMPLATES[ext].format(t=table, n=len(flat.split()) if ext == ".uai" else "")
    path = tmp_path / f"case{ext}"
    path.write_text(text)
    outcomes = []
    for reading in (lambda: _strictly(path, strict), lambda: _exactly(path, strict)):
        outcomes.append(reading())
    bulk, exact = outcomes
    assert bulk[1:] == exact[1:]
    if exact[0] is not None:
        _assert_same(bulk[0], exact[0])
    if (nested, flat) == TABLES[0]:  # the plain table is read
        net = exact[0]
        assert net is not None and net.cpt(net.variables[-1]).tolist() == [[0.1, 0.9], [0.4, 0.6]]


def _strictly(path: Path, strict: bool):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            net, error = read_network(path, strict=strict), None
        except BNStudioError as exc:
            net, error = None, str(exc)
    return net, error, [str(w.message) for w in caught]


def _exactly(path: Path, strict: bool):
    with exact_reading():
        return _strictly(path, strict)


def test_float_reads_exactly_the_number_tokens_over_the_bulk_characters() -> None:
    """The premise of :func:`bnstudio.io.bulk.probabilities`: over digits, '.', 'e', 'E', '+' and '-', ``float``
    accepts a token exactly when NUMBER matches it (all tokens of up to 5 such characters)."""
    for n in range(1, 6):
        for chars in itertools.product("01.eE+-", repeat=n):
            token = "".join(chars)
            try:
                float(token)
                readable = True
            except ValueError:
                readable = False
            assert readable == bool(NUMBER.fullmatch(token)), token


def test_probabilities_hands_every_doubt_to_the_exact_loop() -> None:
    calls = []

    def exact():
        calls.append(1)
        return [9.0]
    assert probabilities(["0.25", "-0.0", "7e-1"], exact).tolist() == [0.25, 0.0, 0.7] and not calls
    assert str(probabilities(["-0.0"], exact)[0]) == "0.0"  # no -0.0, as probability() gives
    for tokens in (["nan"], ["1_0"], ["inf"], ["1e999"], ["-0.1"], ["1e"], ["0x1"], ["\u0661"]):
        calls.clear()
        assert probabilities(tokens, exact).tolist() == [9.0] and calls, tokens
    with exact_reading():
        calls.clear()
        assert probabilities(["0.5"], exact).tolist() == [9.0] and calls


@pytest.mark.parametrize(("body", "depth"), [
    ("(1, 2)", 1), (" ( 1.0 , 2e-3 ) ", 1), ("((1,2),(3,4))", 2), ("((1),2)", 2), ("(1 2)", None), ("(1,,2)", None),
    ("(1,2,)", None), ("()", None), ("((1,2)", None), ("(1,2))", None), ("(1),(2)", None), ("1", None),
    ("(,1)", None), ("(" * 17 + "1" + ")" * 17, None), ("(" * 16 + "1" + ")" * 16, 16), ("(1\u00a0, 2)", 1),
])
def test_nesting_accepts_only_well_formed_lists(body: str, depth: int | None) -> None:
    assert nesting(body) == depth


def test_bulk_number_texts_are_what_fmt_writes() -> None:
    """The writers' bulk formatting (bulk.number_text, bulk.number_rows) against common.fmt, number by number."""
    rng = np.random.default_rng(26)
    special = [0.0, -0.0, 1.0, 1e-300, 5e-324, 1e300, 0.1, 1 / 3, 2.0 ** 53, 123456789.0]
    table = np.concatenate([rng.random(40), special])
    table = rng.permutation(table).reshape(5, 2, 5)
    expected = [fmt(x) for x in table.ravel()]
    assert number_text(table, ", ") == ", ".join(expected)
    assert number_rows(table) == [" ".join(expected[i:i + 5]) for i in range(0, 50, 5)]
    assert number_rows(np.array([0.25, 0.75])) == ["0.25 0.75"] and number_text([]) == ""
    assert [float(x) for x in number_text(table).split()] == table.ravel().tolist()  # round trip, bit for bit


def _nested_tokens(table: np.ndarray) -> list[str]:
    """The tokens of ``table`` written as nested lists (brute force: one recursion per axis)."""
    if table.ndim == 1:
        return ["("] + [fmt(x) for x in table] + [")"]
    return ["("] + [tok for sub in table for tok in _nested_tokens(sub)] + [")"]


@pytest.mark.parametrize("shape", [(2,), (1,), (3, 2), (2, 1, 3), (1, 1, 2), (2, 3, 1, 2), (4, 2, 2, 3, 2)])
def test_net_data_lines_nest_as_the_brute_force_does(shape: tuple[int, ...]) -> None:
    from bnstudio.io.hugin.net_writer import _data_lines
    table = np.random.default_rng(len(shape)).random(shape)
    lines = _data_lines(table)
    assert len(lines) == table.size // shape[-1] and lines[0].startswith("    data = ") and lines[-1].endswith(";")
    assert re.findall(r"\(|\)|[^\s();]+", "\n".join(lines)[len("    data = "):]) == _nested_tokens(table)


def depth_walk(body: str) -> bool:
    """Whether the parentheses of ``body`` balance, by walking its depth (the brute force)."""
    depth = 0
    for char in body:
        depth += (char == "(") - (char == ")")
        if depth < 0:
            return False
    return depth == 0


def test_net_balance_check_agrees_with_a_depth_walk() -> None:
    from bnstudio.io.hugin.net import _balanced
    rng = random.Random(26)
    for _ in range(2000):
        body = "".join(rng.choice("() 1") for _ in range(rng.randrange(12)))
        assert _balanced(body) == depth_walk(body), body


def test_tables_written_through_their_distinct_values_are_what_fmt_writes() -> None:
    """Past a thousand numbers the writers format each distinct float once (bits apart: -0.0 is not 0.0)."""
    rng = np.random.default_rng(7)
    tables = [np.round(rng.random((60, 30)), 3), np.array([[-0.0, 0.0], [1.0, 5e-324]] * 400), rng.random(5)]
    assert sum(t.size for t in tables) > 1000
    for table, rows, text in zip(tables, tables_rows(tables, ", "), tables_text(tables), strict=True):
        expected = [", ".join(fmt(x) for x in row) for row in table.reshape(-1, table.shape[-1])]
        assert rows == expected and text == " ".join(fmt(x) for x in table.ravel())
