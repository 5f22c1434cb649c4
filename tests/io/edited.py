"""A small network written in any format with numbers edited as text: the same noise tried in every format."""
from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np

from bnstudio.core.network import Network
from bnstudio.io import write_network

FORMATS = [".bif", ".bif.gz", ".xmlbif", ".net", ".xdsl", ".uai", ".bnsproj"]


def small_network() -> Network:
    """A (2 states) -> B (2 states) with distinctive numbers to edit in the written text."""
    net = Network("n")
    net.add_variable("A", ["a", "b"], cpt=np.array([0.125, 0.875]))
    net.add_variable("B", ["x", "y"], ["A"], cpt=np.array([[0.375, 0.625], [0.0625, 0.9375]]))
    return net


def write_edited(tmp_path: Path, ext: str, edits: dict[str, str], net: Network | None = None) -> Path:
    """``net`` (default :func:`small_network`) written as ``ext`` with text replaced (``edits``: old -> new, each
    old text occurring exactly once)."""
    path = tmp_path / f"n{ext}"
    write_network(net or small_network(), path)
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if ext.endswith(".gz") else raw).decode("utf-8")
    for old, new in edits.items():
        assert text.count(old) == 1, (old, text)
        text = text.replace(old, new)
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if ext.endswith(".gz") else data)
    return path
