"""Seeded mutations of valid files for the reader fuzz tests, and the check every mutated file must pass.

Seeds: the bundled networks (resources/networks/*.bif) written in every format by the project's own writers (a
``.bnsproj`` seed also carries evidence sets, queries, runs, data and view sections), and the first rows of the
bundled data sets. A case is ``(format, index)``: its random generator is seeded from both, so any case can be
replayed exactly. Each case applies one to three mutations: byte flips, truncation, duplicated or deleted spans,
numbers made huge, negative, NaN or long, deleted or swapped tokens, splices from another seed, encodings named in
an XML declaration, deep nesting (XML, JSON, parentheses), invalid UTF-8, NUL bytes, odd line ends.

:func:`check_case` reads a file and returns None if the reader behaved (a result, or a
:class:`~bnstudio.errors.BNStudioError` with a one-line message of readable length, within the time and memory
limits, with no warning other than BN Studio's own), else a one-line description of what went wrong;
:func:`check_cli` does the same for command lines reading the file (exit status 0 or 2, one error line).
"""
from __future__ import annotations

import contextlib
import functools
import io
import random
import re
import time
import tracemalloc
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[2] / "resources"
NETWORKS = ["asia", "sachs", "child", "insurance", "alarm"]
NETWORK_FORMATS = {"bif": ".bif", "xmlbif": ".xml", "net": ".net", "xdsl": ".xdsl", "uai": ".uai",
                   "bnsproj": ".bnsproj"}
FORMATS = list(NETWORK_FORMATS) + ["csv"]
TIME_LIMIT = 3.0  # CPU seconds per case (a busy machine does not inflate them; a case usually takes ms) ...
TIME_PER_MB = 30.0  # ... plus this per megabyte of input, traced by tracemalloc (reading is linear in the size)
MEMORY_LIMIT = 200_000_000  # bytes traced at the peak of one case ...
MEMORY_PER_BYTE = 400  # ... plus this per byte of input (a token of a byte or two costs a few hundred)
MESSAGE_LIMIT = 2_000  # characters of an error message
CLI_EVERY = 8  # one case in CLI_EVERY also goes through the command line
OUTPUTS = [".bif", ".xml", ".net", ".xdsl", ".uai", ".bnsproj"]

_NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_.\-]*|[-+]?\d[\d.eE+\-]*|\S")
_NASTY_NUMBERS = [b"1e308", b"1e309", b"-1", b"-0.5", b"nan", b"NaN", b"inf", b"-inf", b"0", b"100000000",
                  b"99999999999999999999", b"1" * 4400, b"0." + b"0" * 400 + b"1", b"1e-400", b"0x10", b"1_0", b"",
                  b"2147483648", b"18446744073709551617", b"4294967296", b"65", b"1.0000001", b"0.9995"]
_NASTY_BYTES = [b"\x00", b"\xff", b"\xc3", b"\xef\xbb\xbf", b"\r", b"\r\n", b"\n" * 3, b'"', b"'", b"\\", b"<",
                b">", b"&", b"&amp;", b"]]>", b"<!--", b"-->", b"<?xml", b"{", b"}", b"(", b")", b"[", b"]", b";",
                b",", b"|", b"=", b"%", b"#", b"//", b"/*", b"*/", b"\t", b" ", b"\xe2\x80\xa8", b"\xed\xa0\x80"]
_KEYWORDS = {
    "bif": [b"network", b"variable", b"probability", b"table", b"default", b"property", b"type", b"discrete"],
    "xmlbif": [b"<VARIABLE>", b"</VARIABLE>", b"<OUTCOME>x</OUTCOME>", b"<GIVEN>", b"</GIVEN>", b"<TABLE>",
               b"<DEFINITION>", b"<FOR>", b"<NAME>", b"<PROPERTY>", b"<!DOCTYPE x [<!ENTITY e 'v'>]>", b"&e;"],
    "net": [b"node", b"potential", b"net", b"states", b"data", b"label", b"position", b"class", b"discrete",
            b"continuous", b"|"],
    "xdsl": [b"<cpt id='Q'>", b"</cpt>", b"<state id='s'/>", b"<parents>", b"</parents>", b"<probabilities>",
             b"<nodes>", b"<extensions>", b"<genie>", b"<node id='Q'>", b"<position>"],
    "uai": [b"BAYES", b"MARKOV", b"c comment", b"# comment", b"0", b"1", b"2", b"3"],
    "bnsproj": [b'"schema_version"', b'"network"', b'"variables"', b'"cpt"', b'"alpha"', b'"parents"', b"null",
                b"true", b"[]", b"{}", b'"format"', b"NaN", b"Infinity", b"-Infinity", b"1e999"],
    "csv": [b",", b";", b"\t", b'"', b'""', b"?", b"NA", b"", b"\n", b"TRUE", b"FALSE", b"1.0"],
}
_ENCODINGS = [b"foo-bar", b"utf-32", b"utf-16", b"rot13", b"zlib", b"ebcdic", b"cp037", b"shift_jis", b"undefined",
              b"", b"x" * 300, b"latin-1", b"utf-7", b"idna", b"punycode", b"unicode_escape", b"mbcs", b"\xff"]


@dataclass(frozen=True)
class Seed:
    fmt: str
    name: str
    data: bytes


@functools.lru_cache(maxsize=None)
def seeds(fmt: str) -> tuple[Seed, ...]:
    """The valid files a format's cases start from."""
    from bnstudio.io import read_network

    out = []
    for name in NETWORKS:
        net = read_network(ROOT / "networks" / f"{name}.bif")
        if fmt == "csv":
            lines = (ROOT / "data" / f"{name}.csv").read_bytes().splitlines(keepends=True)
            out.append(Seed(fmt, name, b"".join(lines[:60])))
        else:
            out.append(Seed(fmt, name, _written(net, fmt)))
    return tuple(out)


def _written(net, fmt: str) -> bytes:
    """``net`` as the bytes of a ``fmt`` file (a .bnsproj with every section filled in)."""
    import json
    import tempfile

    from bnstudio.io import write_network
    from bnstudio.io.project import project_from_network, save_project

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"seed{NETWORK_FORMATS[fmt]}"
        if fmt == "bnsproj":
            project = project_from_network(net)
            first, last = net.variables[0], net.variables[-1]
            project.evidence_sets = {"e": {first: net.states(first)[0], last: [0.5] * net.cardinality(last)}}
            project.queries = [{"target": last, "evidence": {first: net.states(first)[-1]}, "label": "q"},
                               {"target": {first: net.states(first)[0]}}]
            project.runs = [{"method": "ml", "history": [1.0, 0.5], "nested": {"a": [1, [2, [3]]]}}]
            project.data = {"path": "data.csv", "settings": {"seed": 1}}
            project.view = {"zoom": 1.5}
            alpha = {v: np.ones(net.family_shape(v)) for v in net.variables[:3]}
            net.set_parameters({v: net.cpt(v) for v in alpha}, alpha)
            save_project(project, path)
            json.loads(path.read_text())  # a seed must be valid
        else:
            write_network(net, path)
        return path.read_bytes()


# ------------------------------------------------------------------------------------------------- mutations
def _span(rng: random.Random, data: bytes, longest: int = 200) -> tuple[int, int]:
    start = rng.randrange(len(data) + 1)
    return start, min(len(data), start + rng.randint(1, longest))


def _flip(rng, data, fmt):
    if not data:
        return data
    i = rng.randrange(len(data))
    byte = data[i] ^ (1 << rng.randrange(8)) if rng.random() < 0.5 else rng.randrange(256)
    return data[:i] + bytes([byte]) + data[i + 1:]


def _truncate(rng, data, fmt):
    return data[:rng.randrange(len(data) + 1)]


def _duplicate(rng, data, fmt):
    a, b = _span(rng, data)
    at = rng.randrange(len(data) + 1)
    return data[:at] + data[a:b] * rng.choice([1, 1, 2, 10, 100]) + data[at:]


def _delete(rng, data, fmt):
    a, b = _span(rng, data)
    return data[:a] + data[b:]


def _number(rng, data, fmt):
    numbers = list(_NUMBER.finditer(data))
    if not numbers:
        return data
    if fmt == "uai" and rng.random() < 0.5:  # the declared sizes come first
        numbers = numbers[:20]
    m = rng.choice(numbers)
    return data[:m.start()] + rng.choice(_NASTY_NUMBERS) + data[m.end():]


def _token(rng, data, fmt):
    tokens = list(_TOKEN.finditer(data))
    if len(tokens) < 2:
        return data
    m = rng.choice(tokens)
    action = rng.random()
    if action < 0.4:
        return data[:m.start()] + data[m.end():]
    if action < 0.7:
        other = rng.choice(tokens)
        return data[:m.start()] + other.group() + data[m.end():]
    return data[:m.start()] + rng.choice(_KEYWORDS[fmt]) + data[m.end():]


def _insert(rng, data, fmt):
    at = rng.randrange(len(data) + 1)
    piece = rng.choice(_NASTY_BYTES + _KEYWORDS[fmt])
    return data[:at] + piece * rng.choice([1, 1, 1, 2, 50]) + data[at:]


def _splice(rng, data, fmt):
    other = rng.choice(seeds(fmt)).data
    a, b = _span(rng, data, 2000)
    c, d = _span(rng, other, 2000)
    return data[:a] + other[c:d] + data[b:]


def _nest(rng, data, fmt):
    depth = rng.choice([50, 1000, 100_000])
    at = rng.randrange(len(data) + 1)
    if fmt in ("xmlbif", "xdsl"):
        closed = rng.random() < 0.5
        return data[:at] + b"<a>" * depth + (b"</a>" * depth if closed else b"") + data[at:]
    if fmt == "bnsproj":
        m = rng.choice(list(re.finditer(rb"[\[{:,]", data)) or [None])
        at = m.end() if m is not None else at
        value = b"[" * depth + b"1" + b"]" * depth if rng.random() < 0.7 else b'{"a":' * depth + b"1" + b"}" * depth
        return data[:at] + value + (b"," if data[at:at + 1] not in (b"]", b"}") else b"") + data[at:]
    return data[:at] + b"(" * depth + b")" * depth + data[at:]


def _encoding(rng, data, fmt):
    encoding = rng.choice(_ENCODINGS)
    declaration = b'<?xml version="1.0" encoding="' + encoding + b'"?>'
    if data.startswith(b"<?xml"):
        end = data.find(b"?>")
        return declaration + data[end + 2:] if end >= 0 else declaration + data
    return declaration + b"\n" + data


def _json_value(rng, data, fmt):
    """A .bnsproj with one value of its JSON tree replaced, deleted or duplicated (valid JSON, odd content)."""
    import json

    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return data
    slots = []  # (container, key) of every value

    def walk(node):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            slots.append((node, key))
            walk(value)

    walk(doc)
    if not slots:
        return data
    container, key = rng.choice(slots)
    action = rng.random()
    if action < 0.15:
        del container[key]
    elif action < 0.25 and isinstance(container, list):
        container.insert(key, container[key])
    elif action < 0.35:
        container[key] = rng.choice(slots)[0]  # a copy of another container (may nest into itself: json refuses)
    else:
        container[key] = rng.choice([None, True, False, -1, 0, 1.5, 1e308, 10 ** 30, -1e-300, float("nan"),
                                     float("inf"), "", "x", "a\nb", "0.5", "z" * 5000, [], {}, [[[[]]]], [0.5, 0.5],
                                     {"": 1}, 2 ** 63, [None], [1] * 1000])
    try:
        return json.dumps(doc).encode("utf-8")
    except (ValueError, RecursionError):
        return data


def _line_ends(rng, data, fmt):
    return data.replace(b"\n", rng.choice([b"\r", b"\r\n", b"\n\n", b"\x85", b""]))


MUTATIONS: list[tuple[Callable, float]] = [
    (_flip, 3), (_truncate, 2), (_duplicate, 2), (_delete, 2), (_number, 3), (_token, 3), (_insert, 2),
    (_splice, 1), (_nest, 0.7), (_encoding, 0.7), (_line_ends, 0.3), (_json_value, 40),
]
_ONLY = {_encoding: ("xmlbif", "xdsl"), _json_value: ("bnsproj",)}


def mutate(fmt: str, index: int) -> tuple[str, bytes]:
    """Case ``index`` of ``fmt``: (the seed's name, the mutated bytes)."""
    rng = random.Random(f"{fmt}:{index}")
    seed = rng.choice(seeds(fmt))
    data = seed.data
    usable = [(f, w) for f, w in MUTATIONS if fmt in _ONLY.get(f, (fmt,))]
    functions, weights = [f for f, _ in usable], [w for _, w in usable]
    for _ in range(rng.choice([1, 1, 2, 3])):
        data = rng.choices(functions, weights)[0](rng, data, fmt)
    return seed.name, data


# ------------------------------------------------------------------------------------------------- checking
def read(fmt: str, path: Path):
    """Read ``path`` with the reader of ``fmt`` (CSV: read, then align to the seed network)."""
    from bnstudio.data import align, read_csv
    from bnstudio.io import read_network
    from bnstudio.io.project import load_project

    if fmt == "csv":
        dataset = read_csv(path)
        name = path.stem.split("-")[0]
        network = read_network(ROOT / "networks" / f"{name}.bif") if name in NETWORKS else None
        return dataset if network is None else align(dataset, network)
    net = load_project(path).network if fmt == "bnsproj" else read_network(path)
    net.validate()
    return net


def check_case(fmt: str, path: Path) -> str | None:
    """None if reading ``path`` behaved, else what went wrong (one line)."""
    from bnstudio.data import BNStudioDataWarning
    from bnstudio.errors import BNStudioError, RepairWarning

    problem = None
    started = time.process_time()  # CPU, not wall: the guard is for super-linear parsing, not for load
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                read(fmt, path)
            except BNStudioError as exc:
                message = str(exc)
                if "\n" in message or "\r" in message or len(message) > MESSAGE_LIMIT:
                    problem = f"error message of {len(message)} characters on {message.count(chr(10)) + 1} " \
                              f"lines: {message[:200]!r}"
            except RecursionError:
                problem = "RecursionError"
            except Exception as exc:  # what the fuzz test looks for
                problem = f"{type(exc).__name__}: {str(exc)[:300]}"
        others = [w for w in caught if not issubclass(w.category, (RepairWarning, BNStudioDataWarning))]
        if problem is None and others:
            problem = f"warning {others[0].category.__name__}: {str(others[0].message)[:200]}"
        if problem is None:
            long = [w for w in caught if "\n" in str(w.message) or len(str(w.message)) > MESSAGE_LIMIT]
            if long:
                problem = f"warning of {len(str(long[0].message))} characters: {str(long[0].message)[:200]!r}"
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        if not tracing:
            tracemalloc.stop()
    seconds = time.process_time() - started
    if problem is None and seconds > TIME_LIMIT + TIME_PER_MB * path.stat().st_size / 1e6:
        problem = f"took {seconds:.1f} CPU s"
    if problem is None and peak > MEMORY_LIMIT + MEMORY_PER_BYTE * path.stat().st_size:
        problem = f"peak memory {peak / 1e6:.0f} MB"
    return problem


def case_path(folder: Path, fmt: str, seed_name: str, label: str) -> Path:
    """Where a case is written: the seed's name first (CSV cases align to that network), the format's suffix."""
    suffix = ".csv" if fmt == "csv" else NETWORK_FORMATS[fmt]
    return folder / f"{seed_name}-{label}{suffix}"


def _cli(fmt: str, path: Path, out: Path, k: int) -> list[str]:
    """Command lines reading ``path``: ``info`` and ``convert`` (to a format picked by ``k``), or ``fit``."""
    if fmt == "csv":
        name = path.stem.split("-")[0]
        network = ROOT / "networks" / f"{name if name in NETWORKS else 'asia'}.bif"
        return [["fit", str(network), str(path), "--method", "ml", "-o", str(out / "fitted.bif")]]
    return [["info", str(path)], ["convert", str(path), str(out / f"converted{OUTPUTS[k % len(OUTPUTS)]}")]]


def check_cli(fmt: str, path: Path, out: Path, k: int) -> str | None:
    """None if every command line exits 0, or 2 with one line on stderr; else what went wrong.

    Warnings are recorded, as a ``bnstudio`` process would show them (the suite's warnings-are-errors setting
    would turn a RepairWarning into an "internal error"); only BN Studio's own may occur."""
    from bnstudio.cli.main import main
    from bnstudio.data import BNStudioDataWarning
    from bnstudio.errors import RepairWarning

    for argv in _cli(fmt, path, out, k):
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            status = main(argv)
        err = stderr.getvalue()
        errors = [line for line in err.splitlines() if line.startswith("bnstudio: error:")]
        if status not in (0, 2) or (status == 2 and (len(errors) != 1 or len(errors[0]) > 2000)):
            return f"`bnstudio {argv[0]}` exited {status}: {err[:300]!r}"
        others = [w for w in caught if not issubclass(w.category, (RepairWarning, BNStudioDataWarning))]
        if others:
            return f"`bnstudio {argv[0]}` warned {others[0].category.__name__}: {str(others[0].message)[:200]}"
    return None
