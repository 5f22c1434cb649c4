"""Read/match counts on a corpus of network files written by other tools: how many BN Studio reads (leniently, and
strictly), and how many of those give the same results as a reference reader: every prior marginal to 1e-6 for a
Bayesian network, the maximum expected utility to 1e-6 (relative) for an influence diagram.

The corpus is every network file under the given folders or source archives (``.tar.gz``/``.zip``, e.g. the
sdists of pgmpy and pyAgrum), the ``.txt`` files that hold a network (aGrUM's test resources keep BIF, DSL and
XMLBIF texts that way), and the network texts embedded as string literals in Python test modules (pgmpy's
readwrite tests keep their files that way). Get them with the ordinary client, e.g.::

    pip download --no-deps --no-binary :all: pgmpy==1.1.2 -d /tmp/corpus
    .venv/bin/python benchmarks/corpus_check.py /tmp/corpus

Files are read with :func:`bnstudio.io.read_model` (a network, or an influence diagram when the file has decision
or utility nodes); Netica ``.dne`` files (and ``.txt`` files holding one) are read but not checked: neither reference
reads DNE. The output is one row per format (files, read, read after repairs, read strictly, checked,
matched), the files whose results differ, the files not checked and why, and every file not read with the
one-line message BN Studio gives.

References: pyAgrum's LazyPropagation on the same file, else pgmpy's variable elimination; for an influence
diagram pyAgrum's ShaferShenoyLIMIDInference with the no-forgetting assumption. pyAgrum 3.3.1 orders
multi-parent XDSL and UAI tables differently and pgmpy 1.1 reads UAI tables child-slowest (see
tests/io/test_formats_interop.py and test_bif_interop.py), so multi-parent XDSL goes to pgmpy and multi-parent UAI
is not checked (pyAgrum reads DSL in GeNIe's order, like BN Studio: DSL is checked with it). A reference that
keeps unnormalised rows (pyAgrum reads Hugin weights such as ``(10 90)`` as they are; Hugin and BN Studio
normalise them) is not compared. Marginals compare states by name (by index for UAI).
"""
from __future__ import annotations

import ast
import gzip
import logging
import re
import shutil
import sys
import tarfile
import tempfile
import warnings
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.inference import InferenceEngine
from bnstudio.io import FORMATS, read_model

TOLERANCE = 1e-6
# network files of the corpus, whether or not this version of BN Studio registers their format (so that counts
# before and after a reader is added compare)
_EXTENSIONS = (set(FORMATS) | {".dsl"}) - {".bnsproj"}
_NAMES = {".dsl": "GeNIe DSL"}
_DSL = re.compile(r"\s*net\s+[^\s{]+\s*\{")
_DIAGRAM = re.compile(rb"""TYPE\s*=\s*["'](?:decision|utility)["']|<(?:decision|utility)\b|^\s*(?:decision|utility)\s"""
                      rb"""|^\s*kind\s*=\s*(?:decision|utility)\s*;""", re.IGNORECASE | re.MULTILINE)
_DNE = re.compile(r"(?://[^\n]*\s*)*bnet\s+\w+\s*\{")  # Netica DNE: comments (the DNET-1 line), then 'bnet NAME {'


def _xml_extension(text: str) -> str | None:
    return ".xdsl" if "<smile" in text else ".xmlbif" if "<BIF" in text.upper() else None


def _extension(text: str) -> str | None:
    """The format of a network text, or None if it is not one."""
    head = text.lstrip()
    if head.startswith("<?xml") or head.startswith("<smile") or head.upper().startswith("<BIF"):
        return _xml_extension(head)
    if _DNE.match(head):
        return ".dne"
    if _DSL.match(head):  # Hugin NET has no id after "net"
        return ".dsl"
    if head.startswith("network ") and "variable" in head:
        return ".bif"
    if head.startswith("net") and "node" in head and "potential" in head:
        return ".net"
    if head.split(None, 1)[:1] in (["BAYES"], ["MARKOV"]):
        return ".uai"
    return None


def _embedded(source: str) -> list[str]:
    """String literals of a Python module that look like network files."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and len(node.value) > 20 and _extension(node.value)]


def _members(root: Path):
    """(name, bytes) of every file under a folder or inside an archive."""
    if root.is_dir():
        for path in sorted(root.rglob("*")):
            if path.is_file():
                if path.suffix in (".gz", ".zip") and (path.name.endswith(".tar.gz") or path.suffix == ".zip"):
                    yield from _members(path)
                else:
                    yield str(path), path.read_bytes()
    elif root.name.endswith(".tar.gz"):
        with tarfile.open(root) as tar:
            for member in tar.getmembers():
                if member.isfile():
                    yield f"{root.name}/{member.name}", tar.extractfile(member).read()
    elif root.suffix == ".zip":
        with zipfile.ZipFile(root) as archive:
            for name in archive.namelist():
                if not name.endswith("/"):
                    yield f"{root.name}/{name}", archive.read(name)


def _texts(name: str, data: bytes) -> list[tuple[str, bytes, str | None]]:
    """(origin, bytes, extension) of the network texts in one member of the corpus."""
    ext = next((e for e in sorted(_EXTENSIONS, key=len, reverse=True) if name.lower().endswith(e)), None)
    if ext is not None:
        return [(name, data, ext)]
    if name.lower().endswith(".txt"):
        return [(name, data, _extension(data.decode("utf-8", "replace")))]
    if name.endswith(".py"):
        return [(f"{name}#{k}", t.encode("utf-8"), _extension(t))
                for k, t in enumerate(_embedded(data.decode("utf-8", "replace")))]
    return []


def collect(roots: list[Path], folder: Path) -> list[tuple[str, Path]]:
    """(origin, file in ``folder``) for every network file and network text of the corpus (each text once)."""
    out, seen = [], set()
    for root in roots:
        for name, data in _members(root):
            for origin, blob, e in _texts(name, data):
                if e is None or blob in seen:
                    continue
                seen.add(blob)
                path = folder / f"{len(out):04d}{'.xml' if e == '.xmlbif' else e}"
                path.write_bytes(blob)
                out.append((origin, path))
    return out


def _ours(path: Path):
    """(model, results, repaired): prior marginals of a network, the MEU of an influence diagram."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RepairWarning)
        model = read_model(path)
    if isinstance(model, Network):
        return model, _ours_of(model), bool(caught)
    from bnstudio.decision import solve
    return model, solve(model).expected_utility, bool(caught)


def _ours_of(net: Network) -> dict[str, np.ndarray]:
    engine = InferenceEngine(net)
    return {v: engine.posterior(v)[v] for v in net.variables}


def _plain_copy(path: Path) -> Path:
    """The file as the references read it: ``.bif.gz`` decompressed, XMLBIF named ``.bifxml`` (pyAgrum)."""
    if path.name.endswith(".gz"):
        target = path.with_name(path.name[:-3])
        target.write_bytes(gzip.decompress(path.read_bytes()))
        return target
    if path.suffix == ".xml":
        target = path.with_suffix(".bifxml")
        shutil.copyfile(path, target)
        return target
    return path


def _normalise(bn) -> bool:
    """Divide every CPT row of a pyAgrum network by its sum (a row of zeros made uniform), as Hugin and GeNIe read
    rows and BN Studio reports it; True if some row was off 1 by more than the tolerance."""
    changed = False
    for name in bn.names():
        table = bn.cpt(name)
        values = table.toarray()  # axes: the parents, then the child last
        sums = values.sum(axis=-1, keepdims=True)
        if np.all(np.abs(sums - 1) <= TOLERANCE):
            continue
        changed = True
        values = np.where(sums > 0, values / np.where(sums > 0, sums, 1), 1.0 / values.shape[-1])
        table.fillWith(values.reshape(-1).tolist())
    return changed


def _pyagrum_marginals(path: Path, net: Network):
    import pyagrum as gum
    bn = gum.loadBN(str(path))
    if _normalise(bn):
        _NORMALISED.append(path)
    ie = gum.LazyPropagation(bn)
    ie.makeInference()
    out = {}
    for i, v in enumerate(net.variables):
        name = str(i) if path.suffix == ".uai" else v
        p = ie.posterior(name).toarray()
        if path.suffix != ".uai":
            labels = list(bn.variable(name).labels())
            p = p[[labels.index(s) for s in net.states(v)]]
        out[v] = p
    return out


def _in_pyagrum_order(net: Network) -> Network:
    """``net`` with each multi-parent table read from the same flat list the way pyAgrum 3.3.1 reads UAI: the
    child fastest, then the *first* parent (the format and BN Studio vary the last parent next)."""
    twin = net.copy()
    for v in net.variables:
        parents = net.parents(v)
        if len(parents) > 1:
            shape = tuple(net.cardinality(p) for p in reversed(parents)) + (net.cardinality(v),)
            flat = net.cpt(v).reshape(shape)
            twin.set_cpt(v, np.moveaxis(flat, range(len(parents)), range(len(parents))[::-1]))
    return twin


_PYAGRUM_ORDER: list[Path] = []  # multi-parent UAI files checked in pyAgrum's table order
_NORMALISED: list[Path] = []  # files whose reference (pyAgrum) CPT rows were normalised before comparing


def _pgmpy_marginals(path: Path, net: Network):
    from pgmpy.inference import VariableElimination
    from pgmpy.readwrite import BIFReader, NETReader, UAIReader, XDSLReader, XMLBIFReader
    readers = {".bif": BIFReader, ".net": NETReader, ".uai": UAIReader, ".xdsl": XDSLReader,
               ".bifxml": XMLBIFReader}
    if path.suffix not in readers:
        raise ValueError(f"no {path.suffix} reader")
    ve = VariableElimination(readers[path.suffix](str(path)).get_model())
    out = {}
    for v in net.variables:
        result = ve.query([v], show_progress=False)
        out[v] = np.asarray(result.values)[[result.state_names[v].index(s) for s in net.states(v)]]
    return out


def _pyagrum_meu(path: Path, diagram) -> float:
    import networkx as nx
    import pyagrum as gum
    graph = diagram.graph()
    if not all(set(nx.descendants(graph, d)) & set(diagram.utility_names) for d in diagram.decision_names):
        raise ValueError("pyAgrum 3.3.1's MEU is wrong when a decision has no utility descendant")
    model = gum.loadID(str(path))
    inference = gum.ShaferShenoyLIMIDInference(model)
    inference.addNoForgettingAssumption(list(diagram.decision_names))
    inference.makeInference()
    return float(inference.MEU()["mean"])


def _reference(path: Path, model):
    """(reader, results) from pyAgrum or pgmpy, or (None, why not) when neither gives a comparable result."""
    path = _plain_copy(path)
    reasons = []
    logging.disable(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if path.suffix == ".dne":
                return None, "no reference reads Netica DNE (neither pyAgrum nor pgmpy has a reader)"
            if not isinstance(model, Network):
                if path.suffix not in (".bifxml",):
                    return None, "pyAgrum reads influence diagrams from XMLBIF only"
                try:
                    meu = _pyagrum_meu(path, model)
                except Exception as exc:  # any failure of the reference means "not checked"
                    return None, f"pyAgrum: {_short(exc)}"
                if not model.ordered:   # a LIMID: pyAgrum refuses it unless told an order, then solves another ID
                    from bnstudio.decision import solve
                    ours = solve(model).expected_utility
                    return None, (f"a LIMID (decisions not on one directed path; pyAgrum 3.3.1: not solvable): our "
                                  f"SPU MEU {ours:.6g} is {'within' if ours <= meu + 1e-9 * max(1, abs(meu)) else 'ABOVE'}"
                                  f" the bound pyAgrum's no-forgetting MEU {meu:.6g} in our decision order gives")
                return "pyAgrum", meu
            multi = any(len(model.parents(v)) > 1 for v in model.variables)
            if path.suffix == ".uai" and multi:  # pgmpy reads UAI child-slowest: pyAgrum, in its own order
                try:
                    theirs = _pyagrum_marginals(path, model)
                except Exception as exc:
                    return None, f"pyAgrum: {_short(exc)}"
                _PYAGRUM_ORDER.append(path)
                return "pyAgrum (its table order)", theirs
            for who, compute, usable in (("pyAgrum", _pyagrum_marginals, path.suffix != ".xdsl" or not multi),
                                         ("pgmpy", _pgmpy_marginals, True)):
                if not usable:
                    continue
                try:
                    return who, compute(path, model)
                except Exception as exc:
                    reasons.append(f"{who}: {_short(exc)}")
            return None, "; ".join(reasons)
    finally:
        logging.disable(logging.NOTSET)


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:110]


def _same(model, ours, theirs) -> bool:
    if not isinstance(model, Network):
        return abs(ours - theirs) <= TOLERANCE * max(1.0, abs(theirs))
    return all(np.allclose(ours[v], theirs[v], rtol=0, atol=TOLERANCE) for v in model.variables)


def _row(path: Path, diagram: bool) -> str:
    ext = ".bif.gz" if path.name.endswith(".bif.gz") else path.suffix
    name = FORMATS[ext].name if ext in FORMATS else _NAMES[ext]
    return f"{name} (influence diagrams)" if diagram else name


COLUMNS = ("files", "read", "repaired", "strict", "checked", "matched", "DIFFERENT")


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv] or [Path("/tmp/corpus")]
    table: dict[str, Counter] = defaultdict(Counter)
    unread, unchecked, different, normalised, in_their_order = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for origin, path in collect(roots, Path(tmp)):
            row = _row(path, bool(_DIAGRAM.search(path.read_bytes())))
            counts = table[row]
            counts["files"] += 1
            try:
                model, ours, repaired = _ours(path)
            except FormatError as exc:
                unread.append((origin, str(exc).replace(str(path), origin, 1)))
                continue
            except Exception as exc:  # a bug: say it, keep counting
                unread.append((origin, f"INTERNAL {type(exc).__name__}: {exc}"))
                continue
            if _row(path, not isinstance(model, Network)) != row:  # the sniffing guessed the kind wrong
                counts["files"] -= 1
                counts = table[_row(path, not isinstance(model, Network))]
                counts["files"] += 1
            counts["read"] += 1
            counts["repaired"] += repaired
            try:
                read_model(path, strict=True)
                counts["strict"] += 1
            except FormatError:
                pass
            who, theirs = _reference(path, model)
            if who is None:
                unchecked.append((origin, theirs))
                continue
            counts["checked"] += 1
            if who.endswith("(its table order)"):
                ours = _ours_of(_in_pyagrum_order(model))
                in_their_order.append(origin)
            if _plain_copy(path) in _NORMALISED or path in _NORMALISED:
                normalised.append(origin)
            if _same(model, ours, theirs):
                counts["matched"] += 1
            else:
                counts["DIFFERENT"] += 1
                different.append((origin, who))
    _print_table(table)
    for origin, who in different:
        print(f"DIFFERENT from {who}: {origin}")
    print(f"\nchecked after normalising the reference's rows ({len(normalised)}): pyAgrum keeps rows off 1 (Hugin "
          f"weights, rounded tables, rows of zeros) as they are; Hugin, GeNIe and BN Studio normalise them")
    for origin in normalised:
        print(f"  {origin}")
    print(f"\nmulti-parent UAI checked in pyAgrum's table order ({len(in_their_order)}): BN Studio reads the "
          f"format's order (the last parent fastest after the child); pyAgrum 3.3.1 varies the first parent fastest")
    for origin in in_their_order:
        print(f"  {origin}")
    print(f"\nnot checked ({len(unchecked)}):")
    for origin, why in unchecked:
        print(f"  {origin}: {why}")
    print(f"\nnot read ({len(unread)}):")
    for origin, message in unread:
        print(f"  {origin}\n      {message}")
    return 0


def _print_table(table: dict[str, Counter]) -> None:
    width = max([len("format"), len("total")] + [len(k) for k in table])
    print(f"{'format':{width}}  " + "  ".join(f"{c:>9}" for c in COLUMNS))
    total = Counter()
    for key in sorted(table):
        total.update(table[key])
        print(f"{key:{width}}  " + "  ".join(f"{table[key][c]:>9}" for c in COLUMNS))
    print(f"{'total':{width}}  " + "  ".join(f"{total[c]:>9}" for c in COLUMNS))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
