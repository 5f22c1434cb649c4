"""Every reference BIF file loads, agrees with pgmpy's BIFReader, and survives write -> read unchanged."""
from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from bnstudio.io import read_network, write_network
from bnstudio.io.bif.reader import parse_bif, read_bif

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "networks"
BUNDLED = Path(__file__).resolve().parents[2] / "resources" / "networks"
SHARED_FILES = sorted(SHARED.glob("*.bif")) if SHARED.is_dir() else []
BIG = 200_000  # bytes (compressed): larger files are marked slow


def _pgmpy_models() -> list[Path]:
    try:
        import pgmpy
    except ImportError:
        return []
    return sorted((Path(pgmpy.__file__).parent / "utils" / "example_models").glob("*.bif.gz"))


PGMPY_FILES = _pgmpy_models()
PGMPY_COMPARED = [p for p in PGMPY_FILES if p.name.split(".")[0] in {"hailfinder", "win95pts", "pigs"}]


def _param(path: Path):
    marks = [pytest.mark.slow] if path.stat().st_size > BIG else []
    return pytest.param(path, id=path.name, marks=marks)


def _text(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.name.endswith(".gz") else data).decode("utf-8")


def _pgmpy_cpts(text: str) -> dict[str, tuple[list[str], list[str], np.ndarray]]:
    """(parents, states, CPT in our layout) per variable, from pgmpy's reader."""
    from pgmpy.readwrite import BIFReader

    reader = BIFReader(string=text)
    out = {}
    for var, values in reader.variable_cpds.items():
        parents = list(reader.variable_parents[var])
        shape = tuple(len(reader.variable_states[p]) for p in parents) + (len(reader.variable_states[var]),)
        # pgmpy: shape (|X|, prod |Pa|), first parent slowest; ours: (|P1|, ..., |Pk|, |X|)
        out[var] = (parents, list(reader.variable_states[var]), np.asarray(values, float).T.reshape(shape))
    return out


def test_reference_files_are_present():
    if not SHARED_FILES and not PGMPY_FILES:
        pytest.skip("neither the classic networks beside the repo (shared/networks) nor pgmpy's example models "
                    "are available")
    assert len(SHARED_FILES) >= 5 or len(PGMPY_FILES) >= 20


@pytest.mark.parametrize("path", [_param(p) for p in SHARED_FILES + PGMPY_FILES])
def test_loads_validates_and_round_trips(path, tmp_path, same_network):
    net = read_network(path)
    net.validate()
    assert len(net) > 0 and net.name
    out = tmp_path / ("copy.bif.gz" if path.name.endswith(".gz") else "copy.bif")
    write_network(net, out)
    same_network(read_network(out), net)


@pytest.mark.parametrize("path", [_param(p) for p in SHARED_FILES + PGMPY_COMPARED])
def test_cpts_equal_pgmpy(path):
    pytest.importorskip("pgmpy")
    text = _text(path)
    net = parse_bif(text, str(path))
    reference = _pgmpy_cpts(text)
    assert set(reference) == set(net.variables)
    for var in net.variables:
        parents, states, cpt = reference[var]
        assert list(net.parents(var)) == parents
        assert list(net.states(var)) == states
        # pgmpy keeps rows such as 0.9999999 as written; we rescale them to sum to 1 (see bnstudio.io.bif.reader)
        np.testing.assert_allclose(net.cpt(var), cpt, rtol=0, atol=1e-6, err_msg=var)
        np.testing.assert_allclose(net.cpt(var), cpt / cpt.sum(axis=-1, keepdims=True), rtol=0, atol=1e-12,
                                   err_msg=var)


@pytest.mark.parametrize("name", ["asia", "sachs", "child", "insurance", "alarm"])
def test_bundled_networks_match_the_shared_copies(name, same_network):
    bundled = read_bif(BUNDLED / f"{name}.bif")
    if SHARED.is_dir():
        same_network(bundled, read_bif(SHARED / f"{name}.bif"))
    assert (BUNDLED / "README.md").read_text(encoding="utf-8").count(f"{name}.bif") == 1


def test_known_facts_about_asia():
    net = read_bif(BUNDLED / "asia.bif")
    assert net.variables == ["asia", "tub", "smoke", "lung", "bronc", "either", "xray", "dysp"]
    assert net.parents("either") == ("lung", "tub")
    assert net.states("asia") == ("yes", "no")
    assert net.cpt("asia").tolist() == [0.01, 0.99]
    assert net.cpt("tub")[net.states("asia").index("yes")].tolist() == [0.05, 0.95]
    assert net.cpt("dysp")[1, 0].tolist() == [0.7, 0.3]  # dysp | bronc=no, either=yes
