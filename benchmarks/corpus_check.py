"""Read/match counts on a corpus of network files written by other tools: how many BN Studio reads (leniently, and
strictly), and how many of those give the same marginals as a reference reader to 1e-6.

The corpus is every network file under the given folders or source archives (``.tar.gz``/``.zip``, e.g. the
sdists of pgmpy and pyAgrum), plus the network texts embedded as string literals in their Python test modules
(pgmpy's readwrite tests keep their files that way). Get them with the ordinary client, e.g.::

    pip download --no-deps --no-binary :all: pgmpy==1.1.2 -d /tmp/corpus
    .venv/bin/python benchmarks/corpus_check.py /tmp/corpus

Reference: pyAgrum's LazyPropagation on the same file, else pgmpy's variable elimination. pyAgrum 3.3.1 orders
multi-parent XDSL and UAI tables differently and pgmpy 1.1 reads UAI tables child-slowest (see
tests/io/test_formats_interop.py and test_bif_interop.py), so multi-parent XDSL goes to pgmpy and multi-parent UAI
is not checked. Every variable's prior marginal is compared, states matched by name (by index for UAI).
"""
from __future__ import annotations

import ast
import gzip
import logging
import shutil
import sys
import tarfile
import tempfile
import warnings
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np

from bnstudio.errors import FormatError, RepairWarning
from bnstudio.inference import InferenceEngine
from bnstudio.io import FORMATS, read_network

TOLERANCE = 1e-6


def _xml_extension(text: str) -> str | None:
    return ".xdsl" if "<smile" in text else ".xmlbif" if "<BIF" in text.upper() else None


def _extension(text: str) -> str | None:
    """The format of an embedded network text, or None if it is not one."""
    head = text.lstrip()
    if head.startswith("<?xml") or head.startswith("<smile") or head.upper().startswith("<BIF"):
        return _xml_extension(head)
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


def collect(roots: list[Path], folder: Path) -> list[tuple[str, Path]]:
    """(origin, file in ``folder``) for every network file and embedded network text of the corpus."""
    out, seen = [], set()
    for root in roots:
        for name, data in _members(root):
            ext = next((e for e in sorted(FORMATS, key=len, reverse=True) if name.lower().endswith(e)), None)
            texts = []
            if ext is not None and ext != ".bnsproj":
                texts = [(name, data, ext)]
            elif name.endswith(".py"):
                texts = [(f"{name}#{k}", t.encode("utf-8"), _extension(t))
                         for k, t in enumerate(_embedded(data.decode("utf-8", "replace")))]
            for origin, blob, e in texts:
                if e is None or blob in seen:
                    continue
                seen.add(blob)
                path = folder / f"{len(out):04d}{'.xml' if e == '.xmlbif' else e}"
                path.write_bytes(blob)
                out.append((origin, path))
    return out


def _marginals_ours(path: Path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RepairWarning)
        net = read_network(path)
    engine = InferenceEngine(net)
    return net, {v: engine.posterior(v)[v] for v in net.variables}, bool(caught)


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


def _reference(path: Path, net):
    """(reader, {variable: marginal in our state order}) from pyAgrum or pgmpy, or (None, None) if neither reads
    the file or neither reads it the way the format says (multi-parent tables in UAI, and XDSL for pyAgrum)."""
    path = _plain_copy(path)
    multi = any(len(net.parents(v)) > 1 for v in net.variables)
    if path.suffix == ".uai" and multi:
        return None, None
    logging.disable(logging.CRITICAL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if path.suffix != ".xdsl" or not multi:
                import pyagrum as gum
                bn = gum.loadBN(str(path))
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
                return "pyAgrum", out
        except Exception:  # noqa: BLE001 -- any failure of the reference means "not checked"
            pass
        try:
            from pgmpy.inference import VariableElimination
            from pgmpy.readwrite import BIFReader, NETReader, UAIReader, XDSLReader, XMLBIFReader
            reader = {".bif": BIFReader, ".net": NETReader, ".uai": UAIReader, ".xdsl": XDSLReader,
                      ".bifxml": XMLBIFReader}[path.suffix]
            model = reader(str(path)).get_model()
            ve = VariableElimination(model)
            out = {}
            for v in net.variables:
                result = ve.query([v], show_progress=False)
                out[v] = np.asarray(result.values)[[result.state_names[v].index(s) for s in net.states(v)]]
            return "pgmpy", out
        except Exception:  # noqa: BLE001
            return None, None
        finally:
            logging.disable(logging.NOTSET)


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv] or [Path("/tmp/corpus")]
    counts, refusals = Counter(), Counter()
    with tempfile.TemporaryDirectory() as tmp:
        files = collect(roots, Path(tmp))
        for origin, path in files:
            counts["files"] += 1
            try:
                net, ours, repaired = _marginals_ours(path)
            except FormatError as exc:
                refusals[str(exc).split(": ", 1)[-1][:90]] += 1
                continue
            except Exception as exc:  # noqa: BLE001 -- a bug: say it, keep counting
                refusals[f"INTERNAL {type(exc).__name__}: {exc}"[:90]] += 1
                continue
            counts["read"] += 1
            counts["read after repairs"] += repaired
            try:
                read_network(path, strict=True)
                counts["read strictly"] += 1
            except FormatError:
                pass
            who, theirs = _reference(path, net)
            if theirs is None:
                continue
            counts[f"checked with {who}"] += 1
            same = all(np.allclose(ours[v], theirs[v], rtol=0, atol=TOLERANCE) for v in net.variables)
            counts["matched" if same else "DIFFERENT"] += 1
            if not same:
                print(f"different from {who}: {origin}")
    for key in ("files", "read", "read after repairs", "read strictly", "checked with pyAgrum", "checked with pgmpy",
                "matched", "DIFFERENT"):
        print(f"{key:22} {counts[key]}")
    for reason, n in refusals.most_common():
        print(f"  refused x{n}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
