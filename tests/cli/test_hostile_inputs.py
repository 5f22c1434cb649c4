"""Hostile command lines: each defect of issue 12 §4 for the command line, and the probes around them.

Every bad input is one ``bnstudio: error:`` line with exit 2 (never an internal error, a traceback, NaN or a
numpy warning); legitimate edge cases (an empty network, likelihoods of 1e308) give right answers.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.core import Network
from bnstudio.errors import RepairWarning, ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network, write_network

ROOT = Path(__file__).resolve().parents[2]
ASIA = ROOT / "resources" / "networks" / "asia.bif"
ASIA_CSV = ROOT / "resources" / "data" / "asia.csv"


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def refused(capsys, *argv) -> str:
    """Run a command that must fail cleanly; returns its one error line."""
    status, out, err = run(capsys, *argv)
    lines = err.splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("bnstudio: error: "), (argv, status, err)
    return lines[0]


@pytest.fixture
def data(tmp_path) -> Path:
    path = tmp_path / "asia.csv"
    path.write_text("".join(ASIA_CSV.read_text().splitlines(keepends=True)[:100]))
    return path


def grid_file(folder: Path, n: int) -> Path:
    net = Network(f"grid{n}")
    for i in range(n):
        for j in range(n):
            net.add_variable(f"x{i}_{j}", ["a", "b"],
                             parents=([f"x{i - 1}_{j}"] if i else []) + ([f"x{i}_{j - 1}"] if j else []))
    path = folder / f"grid{n}.bif"
    write_network(net, path)
    return path


def read_only_folder(tmp_path: Path) -> Path:
    """A folder this process cannot create files in (root ignores permissions: then /sys, if present)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    for candidate in (folder, Path("/sys")):
        try:
            (candidate / ".probe").write_text("x")
        except OSError:
            return candidate
        (candidate / ".probe").unlink()
    pytest.skip("no read-only folder here")


# ---------------------------------------------------------------------------------------- the defects

def test_info_on_a_network_without_variables(capsys, tmp_path):
    write_network(Network("nothing"), tmp_path / "empty.bif")
    status, out, err = run(capsys, "info", tmp_path / "empty.bif")
    assert status == 0 and err == "" and "0 variables" in out
    status, out, _ = run(capsys, "info", tmp_path / "empty.bif", "--json")
    assert status == 0 and json.loads(out)["junction_tree"]["largest_clique"] == 0


def test_info_on_a_grid_too_big_for_a_junction_tree_says_so_instead_of_running_on(capsys, tmp_path):
    path = grid_file(tmp_path, 30)   # treewidth about 30: no junction tree fits 2 GiB
    status, out, err = run(capsys, "info", path, "--json")
    info = json.loads(out)
    assert status == 0 and err == ""
    assert info["triangulation_width"] is None and info["junction_tree"] is None
    assert "no junction tree" in info["note"] and "memory budget" in info["note"]
    status, out, _ = run(capsys, "info", path)
    assert status == 0 and "no junction tree" in out and "900 variables" in out


def test_fit_into_a_read_only_folder(capsys, tmp_path, data):
    folder = read_only_folder(tmp_path)
    line = refused(capsys, "fit", ASIA, data, "--method", "ml", "-o", folder / "out.bif")
    assert "cannot write the file" in line and str(folder / "out.bif") in line
    line = refused(capsys, "fit", ASIA, data, "--method", "mp", "-o", folder / "out.bnsproj")
    assert "cannot write the file" in line


def test_deeply_nested_or_huge_json(capsys, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in refused(capsys, "query", ASIA, "--queries", deep)
    assert "nested too deeply" in refused(capsys, "errorbars", ASIA, "--ess", "2", "--queries", deep)
    assert "nested too deeply" in refused(capsys, "learn", ASIA_CSV, "-a", "nb", "--target", "lung",
                                          "--tiers", deep, "-o", tmp_path / "x.bif")
    digits = tmp_path / "digits.json"
    digits.write_text("[" + "7" * 5000 + "]")
    assert "not valid JSON" in refused(capsys, "query", ASIA, "--queries", digits)


def test_huge_likelihoods_give_the_right_posterior(capsys):
    status, out, err = run(capsys, "query", ASIA, "--target", "lung", "--evidence", "xray~1e308,1e308",
                           "--evidence", "dysp~1e308,1e307", "--json")
    assert status == 0 and err == ""
    got = list(json.loads(out)["results"][0]["posterior"].values())
    expected = InferenceEngine(read_network(ASIA)).posterior("lung", {"dysp": [10.0, 1.0]})["lung"]
    np.testing.assert_allclose(got, expected, atol=1e-12)
    assert min(got) > 0


@pytest.mark.parametrize("argv, fragment", [
    (["errorbars", ASIA, "--target", "lung=yes", "--ess", "2", "--mc", "-5"], "--mc: must be an integer in 0.."),
    (["errorbars", ASIA, "--target", "lung=yes", "--ess", "1e300"], "--ess: must be a finite number in"),
    (["errorbars", ASIA, "--target", "lung=yes", "--ess", "nan"], "--ess: must be a finite number in"),
    (["errorbars", ASIA, "--target", "lung=yes", "--ess", "2", "--top", "-1"], "--top: must be an integer >= 0"),
    (["fit", ASIA, ASIA_CSV, "--method", "clgd", "--target", "lung", "--l2", "-5", "-o", "x.bif"],
     "--l2: must be a finite number in [0, "),
    (["fit", ASIA, ASIA_CSV, "--method", "clgd", "--target", "lung", "--max-iter", "-1", "-o", "x.bif"],
     "--max-iter: must be an integer in 1.."),
    (["sample", ASIA, "-n", "100000000000", "-o", "{tmp}/s.csv"], "cannot write 100000000000 cases"),
])
def test_the_reported_command_lines(capsys, tmp_path, argv, fragment):
    argv = [str(a).replace("{tmp}", str(tmp_path)) for a in argv]
    assert fragment in refused(capsys, *argv)
    assert list(tmp_path.iterdir()) == []   # nothing written, not even a temporary file


# ---------------------------------------------------------------------------------------- probes around them

@pytest.mark.parametrize("argv, fragment", [
    (["info", "{tmp}/missing.bif"], "no such file"),
    (["query", ASIA, "--queries", "{tmp}"], "is a folder"),
    (["query", ASIA, "--queries", "{tmp}/empty.json"], "not valid JSON"),
    (["query", "{tmp}/empty.bif", "--target", "x"], ""),
    (["fit", ASIA, "{tmp}/empty.csv", "--method", "ml", "-o", "{tmp}/o.bif"], "empty"),
    (["query", ASIA, "--target", "lung", "--evidence", "nope=yes"], "unknown variable 'nope'"),
    (["query", ASIA, "--target", "lung", "--evidence", "xray=maybe"], "no state 'maybe'"),
    (["query", ASIA, "--target", "lung", "--evidence", "xray=yes", "--evidence", "xray=no"], "given twice"),
    (["query", ASIA, "--target", "lung", "--evidence", "tub=yes", "--evidence", "either=no"],
     "impossible evidence"),
    (["query", ASIA, "--target", "lung", "--evidence", "xray~1,2,3"], "needs 2 values, got 3"),
    (["query", ASIA, "--target", "lung", "--evidence", "xray~-1,2"], "non-negative"),
    (["query", ASIA, "--target", "lung", "--evidence", "xray~0,0"], "not all zero"),
    (["query", ASIA, "--target", "lung", "--evidence", "xray~nan,1"], "finite"),
    (["query", ASIA, "--target", "lung", "--evidence", "xray~1e400,1"], "finite"),
    (["query", ASIA, "--target", "lung", "--evidence", "xray~"], "malformed likelihood"),
    (["query", ASIA, "--target", "lung", "--target", "lung", "--joint"], "repeat"),
    (["errorbars", ASIA, "--ess", "2", "--target", "lung=yes", "--target", "lung=no"], "target on 'lung' given twice"),
    (["errorbars", ASIA, "--ess", "2", "--target", "lung~1,2"], "VAR=STATE"),
    (["errorbars", ASIA, "--ess", "2", "--target", "lung=yes", "--evidence", "xray~0.5,0.5", "--mc", "5"],
     "hard evidence"),
    (["errorbars", ASIA, "--ess", "5e-324", "--target", "lung=yes"], "--ess: must be a finite number in [1e-06"),
    (["errorbars", ASIA, "--ess", "2", "--target", "lung=yes", "--sensitivity", "lung=yes", "--row", "smoke=yes",
      "--row", "smoke=no"], "--row on 'smoke' given twice"),
    (["errorbars", ASIA, "--ess", "2", "--target", "lung=yes", "--sensitivity", "lung=yes", "--row", "smoke~1,2"],
     "malformed --row"),
    (["learn", ASIA_CSV, "-a", "tan", "--target", "lung", "--root", "lung", "-o", "{tmp}/l.bif"],
     "--root must be an attribute"),
    (["sample", "{tmp}/empty.bif", "-n", "3", "-o", "{tmp}/s.csv"], "no variables to sample"),
    (["sample", ASIA, "-n", "3", "-o", "{tmp}"], "must be a .csv file"),
    (["screenshot", "{tmp}/shot.txt", ASIA], "must be a .png file"),
    (["screenshot", "{tmp}/no/shot.png", ASIA], "folder does not exist"),
    (["image", ASIA, "{tmp}/net.txt"], "must be a .png, .svg, .pdf file"),
    (["image", ASIA, "{tmp}/no/net.svg"], "folder does not exist"),
])
def test_hostile_inputs_are_one_line(capsys, tmp_path, argv, fragment):
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "empty.csv").write_text("")
    write_network(Network("nothing"), tmp_path / "empty.bif")
    argv = [str(a).replace("{tmp}", str(tmp_path)) for a in argv]
    assert fragment in refused(capsys, *argv)


def test_a_query_state_that_contradicts_the_evidence_has_probability_zero(capsys):
    for evidence in ("lung=no", "lung~0,1"):
        status, out, err = run(capsys, "errorbars", ASIA, "--ess", "2", "--target", "lung=yes", "--evidence",
                               evidence, "--json")
        record = json.loads(out)["results"][0]
        assert status == 0 and err == "" and record["mean"] == 0 and record["variance"] == 0


def test_warnings_become_one_line_each(capsys, monkeypatch):
    import bnstudio.cli.info as info

    def noisy(path):
        warnings.warn("rows of 'A' rescaled to sum to 1", RepairWarning, stacklevel=2)
        warnings.warn("rows of 'A' rescaled to sum to 1", RepairWarning, stacklevel=2)          # said once
        warnings.warn("column 'Z' ignored:\nnot in the network", UserWarning, stacklevel=2)     # on one line
        np.log(np.zeros(1))                                                     # an unexpected numpy warning
        raise ValidationError("stopped\nhere")

    monkeypatch.setattr(info, "network_info", noisy)
    status, out, err = run(capsys, "info", ASIA)
    assert status == 2 and out == ""
    assert err.splitlines() == [
        "bnstudio: warning: rows of 'A' rescaled to sum to 1",
        "bnstudio: warning: column 'Z' ignored: not in the network",
        "bnstudio: warning: numerical problem (divide by zero encountered in log); results may be inaccurate, "
        "please report it",
        "bnstudio: error: stopped here"]


def test_an_endless_error_message_is_cut(capsys, monkeypatch):
    import bnstudio.cli.info as info

    def endless(path):
        raise ValidationError("unknown values: " + ", ".join(f"v{k}" for k in range(100_000)))

    monkeypatch.setattr(info, "network_info", endless)
    line = refused(capsys, "info", ASIA)
    assert len(line) < 2100 and line.endswith("more characters)")


def test_help_returns_0_and_shows_the_ranges(capsys):
    status, out, _ = run(capsys, "errorbars", "--help")
    assert status == 0 and "0..100000" in " ".join(out.split()) and "(0, 1)" in out


# ---------------------------------------------------------------------------------------- real processes

def _console_script() -> list[str]:
    script = Path(sys.executable).with_name("bnstudio")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bnstudio"]


def test_exit_statuses_through_real_processes(tmp_path):
    """``python -m bnstudio`` and the console script return main's status (three runs: start-up is slow)."""
    module = [sys.executable, "-m", "bnstudio"]
    cases = [(module, ["sample", str(ASIA), "-n", "100000000000", "-o", str(tmp_path / "s.csv")], 2),
             (module, ["query", str(ASIA), "--target", "lung", "--evidence", "xray~1e308,1e308"], 0),
             (_console_script(), ["errorbars", str(ASIA), "--target", "lung=yes", "--ess", "2", "--mc", "-5"], 2)]
    env = {**os.environ, "PYTHONWARNINGS": "default"}
    for command, argv, status in cases:
        proc = subprocess.run(command + argv, capture_output=True, text=True, timeout=120, env=env)
        assert proc.returncode == status, (argv, proc.stderr)
        if status:
            assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("bnstudio: error: ")
        else:
            assert proc.stderr == "" and "nan" not in proc.stdout and "0.055000" in proc.stdout
