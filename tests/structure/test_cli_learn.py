"""``bnstudio learn``: JSON summary, written network with ML or mean-posterior parameters, constraints from
the command line and files, one-line errors with exit status 2."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.io import read_network, write_network
from bnstudio.sampling import forward_sample, write_samples_csv

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"


@pytest.fixture(scope="module")
def asia_csv(tmp_path_factory):
    net = read_network(ASIA)
    path = tmp_path_factory.mktemp("learn") / "asia.csv"
    write_samples_csv(net, forward_sample(net, 3000, seed=5), path)
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("algorithm, extra", [("hill-climb", []), ("chow-liu", []), ("nb", ["--target", "either"]),
                                              ("tan", ["--target", "either"]), ("kdb", ["--target", "either"]),
                                              ("bnc", ["--target", "either"])])
def test_learn_prints_json_and_writes_a_network(capsys, tmp_path, asia_csv, algorithm, extra):
    out_path = tmp_path / "out.xmlbif"
    status, out, err = run(capsys, "learn", asia_csv, "--algorithm", algorithm, *extra, "-o", out_path, "--json")
    assert status == 0 and err == ""
    payload = json.loads(out)
    assert {"algorithm", "arcs", "score", "history", "seconds"} <= set(payload)
    net = read_network(out_path)
    assert sorted(map(tuple, payload["arcs"])) == sorted(net.arcs())
    net.validate()


def test_constraints_tiers_file_start_and_prior(capsys, tmp_path, asia_csv):
    tiers = tmp_path / "tiers.txt"
    tiers.write_text("# causes first\nasia, smoke\ntub lung bronc either\nxray dysp\n")
    start = tmp_path / "start.bif"
    truth = read_network(ASIA)
    write_network(truth, start)
    out_path = tmp_path / "out.bif"
    status, out, _ = run(capsys, "learn", asia_csv, "-a", "hill-climb", "--tiers", tiers, "--start", start,
                         "--require", "asia->tub", "--forbid", "asia->either", "--max-parents", "2",
                         "--prior", "laplace", "--score", "bdeu", "--ess", "5", "-o", out_path, "--json")
    assert status == 0
    arcs = {tuple(a) for a in json.loads(out)["arcs"]}
    assert ("asia", "tub") in arcs and ("asia", "either") not in arcs
    assert not {("xray", v) for v in ("asia", "smoke", "tub", "lung", "bronc", "either")} & arcs
    learned = read_network(out_path)
    assert all(len(learned.parents(v)) <= 2 for v in learned.variables)
    assert np.all(learned.cpt("asia") > 0)


def test_tiers_as_json_and_plain_text_output(capsys, tmp_path, asia_csv):
    tiers = tmp_path / "tiers.json"
    tiers.write_text(json.dumps([["xray"], ["dysp"]]))
    status, out, _ = run(capsys, "learn", asia_csv, "-a", "chow-liu", "--tiers", tiers, "-o", tmp_path / "o.bif")
    assert status == 0 and out.startswith("chow-liu: ") and " -> " in out
    assert ("  dysp -> xray") not in out.splitlines()


@pytest.mark.parametrize("argv, message", [
    (["-a", "nb"], "needs a target"),
    (["-a", "tan", "--target", "nope"], "unknown target variable 'nope'"),
    (["-a", "hill-climb", "--require", "asia->tub", "tub->asia"], "cycle"),
    (["-a", "hill-climb", "--require", "asia"], "malformed arc 'asia'"),
    (["-a", "bnc", "--target", "either", "--score", "bic"], "cll"),
    (["-a", "hill-climb", "--score", "ll"], "max_parents"),
])
def test_bad_options_are_one_line_errors(capsys, tmp_path, asia_csv, argv, message):
    status, _, err = run(capsys, "learn", asia_csv, *argv, "-o", tmp_path / "o.bif")
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1


def test_bad_files_are_one_line_errors(capsys, tmp_path, asia_csv):
    status, _, err = run(capsys, "learn", tmp_path / "none.csv", "-a", "chow-liu", "-o", tmp_path / "o.bif")
    assert status == 2 and "none.csv" in err
    status, _, err = run(capsys, "learn", asia_csv, "-a", "chow-liu", "-o", tmp_path / "o.weird")
    assert status == 2 and "unknown file type" in err
    bad = tmp_path / "tiers.json"
    bad.write_text("[[1, 2]]")
    status, _, err = run(capsys, "learn", asia_csv, "-a", "chow-liu", "--tiers", bad, "-o", tmp_path / "o.bif")
    assert status == 2 and "tiers must be" in err


def test_a_column_without_any_value_is_a_one_line_error(tmp_path, capsys):
    from bnstudio.cli import main

    data = tmp_path / "d.csv"
    data.write_text("a,b,c\nx,,1\ny,,2\nx,,1\n")
    assert main(["learn", "-a", "chow-liu", "-o", str(tmp_path / "o.bif"), str(data)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no observed value for 'b'" in err[0]
