"""``bnstudio sample``: CSV output, JSON summary, one-line errors (exit 2), and the bundled data sets."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bnstudio.cli import main
from bnstudio.io import read_network
from bnstudio.sampling import forward_sample

ROOT = Path(__file__).resolve().parents[2]
NETWORKS = ROOT / "resources" / "networks"
DATA = ROOT / "resources" / "data"
ASIA = NETWORKS / "asia.bif"


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_sample_writes_the_seeded_forward_sample(capsys, tmp_path):
    out_csv = tmp_path / "asia.csv"
    status, out, err = run(capsys, "sample", ASIA, "-n", 300, "--seed", 4, "-o", out_csv)
    assert status == 0 and err == "" and "300" in out
    frame = pd.read_csv(out_csv, dtype=str, keep_default_na=False)
    net = read_network(ASIA)
    expected = forward_sample(net, 300, seed=4)
    assert list(frame.columns) == net.variables
    for k, v in enumerate(net.variables):
        assert list(frame[v]) == [net.states(v)[c] for c in expected[:, k]]


def test_json_summary_missing_cells_and_hidden_columns(capsys, tmp_path):
    out_csv = tmp_path / "s.csv"
    status, out, _ = run(capsys, "sample", ASIA, "-n", 2000, "--seed", 1, "--missing", 0.25,
                         "--hide", "lung", "tub", "-o", out_csv, "--json")
    summary = json.loads(out)
    assert status == 0
    assert set(summary) == {"output", "rows", "columns", "missing_fraction", "seconds"}
    assert summary["output"] == str(out_csv) and summary["rows"] == 2000 and summary["columns"] == 8
    frame = pd.read_csv(out_csv, dtype=str, keep_default_na=False)
    assert (frame[["lung", "tub"]] == "").all().all()
    rest = frame.drop(columns=["lung", "tub"])
    assert abs((rest == "").to_numpy().mean() - 0.25) < 0.02
    assert summary["missing_fraction"] == pytest.approx((frame == "").to_numpy().mean())


def test_the_same_seed_gives_the_same_complete_cases_with_or_without_missing_cells(capsys, tmp_path):
    run(capsys, "sample", ASIA, "-n", 500, "--seed", 8, "-o", tmp_path / "full.csv")
    run(capsys, "sample", ASIA, "-n", 500, "--seed", 8, "--missing", 0.3, "-o", tmp_path / "holes.csv")
    full = pd.read_csv(tmp_path / "full.csv", dtype=str, keep_default_na=False).to_numpy()
    holes = pd.read_csv(tmp_path / "holes.csv", dtype=str, keep_default_na=False).to_numpy()
    observed = holes != ""
    assert 0.2 < 1 - observed.mean() < 0.4 and np.array_equal(holes[observed], full[observed])


@pytest.mark.parametrize("args, message", [
    (["--hide", "ghost"], "unknown variable 'ghost'"),
    (["-n", "0"], "argument -n: must be an integer >= 1"),
    (["-n", "-5"], "argument -n: must be an integer >= 1"),
    (["--missing", "1"], "argument --missing: must be a finite number in [0, 1)"),
    (["--missing", "-0.1"], "argument --missing: must be a finite number in [0, 1)"),
    (["-o", "{tmp}/out.txt"], "the output must be a .csv file"),
    (["-o", "{tmp}/no/such/folder/out.csv"], "the folder does not exist"),
    (["-n", "ten"], "argument -n: expected an integer, got 'ten'"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, tmp_path, args, message):
    argv = {"-n": "10", "-o": str(tmp_path / "out.csv")}
    extra = []
    for flag, value in zip(args[::2], args[1::2], strict=True):
        value = value.replace("{tmp}", str(tmp_path))
        if flag in argv:
            argv[flag] = value
        else:
            extra += [flag, value]
    status, out, err = run(capsys, "sample", ASIA, *[x for kv in argv.items() for x in kv], *extra)
    assert status == 2 and out == ""
    assert err.startswith("bnstudio") and err.count("\n") == 1 and message in err
    assert not (tmp_path / "out.csv").exists()


def test_unknown_network_file_exits_2(capsys, tmp_path):
    status, _, err = run(capsys, "sample", tmp_path / "missing.bif", "-n", 5, "-o", tmp_path / "x.csv")
    assert status == 2 and "no such file" in err


BUNDLED = [("asia.csv", "asia", 3000, []), ("sachs.csv", "sachs", 3000, []), ("child.csv", "child", 3000, []),
           ("insurance.csv", "insurance", 3000, []), ("alarm.csv", "alarm", 3000, []),
           ("alarm_missing20.csv", "alarm", 3000, ["--missing", "0.2"]),
           ("alarm_missing30_20k.csv", "alarm", 20000, ["--missing", "0.3"])]


@pytest.mark.parametrize("file, network, n, extra", BUNDLED, ids=[b[0] for b in BUNDLED])
def test_bundled_data_is_exactly_what_the_readme_command_produces(capsys, tmp_path, file, network, n, extra):
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    command = " ".join([f"bnstudio sample resources/networks/{network}.bif -n {n} --seed 2026", *extra,
                        f"-o resources/data/{file}"])
    assert command in readme
    status, _, _ = run(capsys, "sample", NETWORKS / f"{network}.bif", "-n", n, "--seed", 2026, *extra,
                       "-o", tmp_path / file)
    assert status == 0
    assert (tmp_path / file).read_bytes() == (DATA / file).read_bytes()
