"""``bnstudio fit NET DATA`` with DATA a Parquet file or a folder of parts, streamed and on a Dask LocalCluster
(issue 28): the written network equals the in-memory fit; options that do not apply are one-line errors (exit 2);
``evaluate`` reads a folder of parts too."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.evaluate import evaluate
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.sampling import codes_to_frame, forward_sample, write_samples_csv

ROOT = Path(__file__).resolve().parents[2]
ASIA = ROOT / "resources/networks/asia.bif"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def asia_parts(tmp_path_factory):
    net = read_network(ASIA)
    codes = forward_sample(net, 2000, seed=5)
    codes[np.random.default_rng(6).random(codes.shape) < 0.15] = -1
    folder = tmp_path_factory.mktemp("asia_parts")
    write_samples_csv(net, codes[:900], folder / "a.csv")
    codes_to_frame(net, codes[900:]).to_parquet(folder / "b.parquet", row_group_size=400)
    return net, codes, folder


def written_equals(path, reference, net, tol):
    written = read_network(path)
    for v in net.variables:
        np.testing.assert_allclose(written.cpt(v), reference.cpts[v], rtol=0, atol=tol, err_msg=v)


@pytest.mark.parametrize("method, extra", [("mp", ["--ess", "2"]), ("em", ["--max-iter", "3"])])
def test_fit_a_folder_of_parts(capsys, tmp_path, asia_parts, method, extra):
    net, codes, folder = asia_parts
    out_path = tmp_path / "fitted.bif"
    status, out, _ = run(capsys, "fit", ASIA, folder, "--method", method, *extra, "-o", out_path, "--json")
    assert status == 0, out
    options = {"ess": 2.0} if method == "mp" else {"max_iter": 3}
    reference = make_learner(method, **options).fit(net, codes)
    assert json.loads(out)["history"][-1]["nll"] == pytest.approx(reference.history[-1]["nll"], rel=1e-12)
    written_equals(out_path, reference, net, 1e-9)


def test_fit_on_a_local_dask_cluster(capsys, tmp_path, asia_parts):
    pytest.importorskip("distributed")
    net, codes, folder = asia_parts
    out_path = tmp_path / "fitted.bif"
    status, out, err = run(capsys, "fit", ASIA, folder, "--method", "em", "--max-iter", "2", "--dask-local", "1",
                           "-o", out_path, "--json")
    assert status == 0, err
    written_equals(out_path, make_learner("em", max_iter=2).fit(net, codes), net, 1e-9)


def test_cluster_options_need_a_streamed_method(capsys, tmp_path, asia_parts):
    net, codes, folder = asia_parts
    status, out, err = run(capsys, "fit", ASIA, folder, "--method", "clgd", "--target", "dysp", "--dask-local", "2",
                           "-o", tmp_path / "x.bif")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "--dask-local and --scheduler apply to ml, mp, em" in err


def test_other_methods_and_evaluate_read_the_folder_into_memory(capsys, tmp_path, asia_parts):
    net, codes, folder = asia_parts
    out_path = tmp_path / "fitted.bif"
    status, _, err = run(capsys, "fit", ASIA, folder, "--method", "clgd", "--target", "dysp", "--max-iter", "3",
                         "-o", out_path)
    assert status == 0, err
    written_equals(out_path, make_learner("clgd", max_iter=3).fit(net, codes, target="dysp"), net, 1e-12)
    status, out, err = run(capsys, "evaluate", ASIA, folder, "--target", "dysp", "--json")
    assert status == 0, err
    assert json.loads(out)["cll"] == pytest.approx(evaluate(net, codes, "dysp").cll, rel=1e-12)


def test_missing_data_path_is_one_line(capsys, tmp_path):
    status, _, err = run(capsys, "fit", ASIA, tmp_path / "absent.parquet", "--method", "ml", "-o", tmp_path / "x.bif")
    assert status == 2 and "absent.parquet" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("method, extra", [("em", ["--dask-local", "2"]), ("ml", []), ("clgd", ["--target", "dysp"])])
def test_a_missing_folder_is_no_such_folder(capsys, tmp_path, method, extra):
    """A folder of parts that does not exist is named as such in one line, whatever the method and cluster
    options (it was "unknown table type" in memory and "--dask-local ... not to 'em'" on a cluster)."""
    folder = f"{tmp_path}/parts/"
    status, _, err = run(capsys, "fit", ASIA, folder, "--method", method, *extra, "-o", tmp_path / "x.bif")
    assert status == 2 and err.strip() == f"bnstudio: error: {folder}: no such folder"
    status, _, err = run(capsys, "evaluate", ASIA, folder, "--target", "dysp")
    assert status == 2 and err.strip() == f"bnstudio: error: {folder}: no such folder"
