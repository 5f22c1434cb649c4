"""The study file: what it declares, and one-line errors naming the key for every mistake."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from bnstudio.errors import FormatError
from bnstudio.experiment.spec import load_study, study_from_dict
from tests.experiment.helpers import ASIA, write_study


def test_a_study_file_declares_datasets_structures_methods_and_folds(tmp_path):
    study = load_study(write_study(tmp_path))
    assert [d.name for d in study.datasets] == ["corral", "asia-lung"]
    assert [s.label for s in study.structures] == ["nb", "tan"]
    assert [(m.label, m.method, dict(m.options)) for m in study.methods] == [
        ("mp", "mp", {}), ("clgd", "clgd", {}), ("bag", "bagged-mp", {"bags": 4})]
    assert study.folds == 3 and study.seeds == [0] and study.baseline == "mp"
    assert study.store_path() == tmp_path / "small.sqlite"


def test_kdb_m_bagging_replicates_and_validation_are_understood(tmp_path):
    doc = {"structures": ["kdb-2"], "methods": ["m-bagged-mp", {"method": "clgd", "validation": 0.2}],
           "datasets": [{"network": str(ASIA), "target": "lung", "rows": 50, "seed": 4, "replicates": 3}]}
    study = study_from_dict(doc, tmp_path)
    assert study.structures[0].algorithm == "kdb" and study.structures[0].options == {"k": 2}
    bagged = study.methods[0]
    assert (bagged.label, bagged.method, bagged.options) == ("m-bagged-mp", "bagged-mp", {"m_bagging": True})
    assert study.methods[1].validation == 0.2
    assert [(d.name, d.seed) for d in study.datasets] == [("asia-lung#4", 4), ("asia-lung#5", 5), ("asia-lung#6", 6)]


BAD = [
    ("folds = 1\n", "folds"),
    ("folds = 'five'\n", "folds"),
    ("seeds = [1, 1]\n", "seeds"),
    ("methods = ['mp', 'nosuch']\n", "methods[1].method"),
    ("methods = [{method = 'clgd', options = {l2 = -1}}]\n", "methods[0].options"),
    ("methods = [{method = 'clgd', options = {speed = 3}}]\n", "methods[0].options"),
    ("methods = [{method = 'clgd', validation = 1.5}]\n", "methods[0].validation"),
    ("structures = ['nb', 'kdb-x']\n", "structures[1]: unknown structure 'kdb-x'"),
    ("metrics = ['error', 'accuracy']\n", "metrics"),
    ("baseline = 'ml'\n", "baseline"),
    ("colour = 'red'\n", "unknown key 'colour'"),
]


@pytest.mark.parametrize("line, where", BAD)
def test_every_mistake_is_one_line_naming_the_key(tmp_path, line, where):
    text = line + "[[datasets]]\ngenerator = 'corral'\nrows = 20\n"
    with pytest.raises(FormatError) as caught:
        load_study(write_study(tmp_path, text))
    message = str(caught.value)
    assert where in message and "\n" not in message and "small.toml" in message


@pytest.mark.parametrize("dataset, where", [
    ("csv = 'missing.csv'\ntarget = 'y'", "datasets[0].csv: no such file"),
    (f"network = '{ASIA.as_posix()}'\nrows = 10", "datasets[0]: needs a target"),
    (f"network = '{ASIA.as_posix()}'\ntarget = 'lung'", "needs rows"),
    ("generator = 'xor'\nrows = 5", "datasets[0].generator: unknown generator 'xor'"),
    ("generator = 'corral'\nrows = 0", "datasets[0].rows"),
    ("generator = 'corral'\nrows = 5\ncolour = 1", "datasets[0]: unknown key 'colour'"),
])
def test_data_set_mistakes_name_the_data_set_key(tmp_path, dataset, where):
    with pytest.raises(FormatError, match=re.escape(where)):
        load_study(write_study(tmp_path, f"[[datasets]]\n{dataset}\n"))


def test_bad_toml_is_one_line_with_the_file(tmp_path):
    with pytest.raises(FormatError) as caught:
        load_study(write_study(tmp_path, "folds = [\n"))
    assert "not valid TOML" in str(caught.value) and "\n" not in str(caught.value)


def test_the_command_line_says_it_in_one_line_and_exits_2(tmp_path):
    path = write_study(tmp_path, "folds = 1\n[[datasets]]\ngenerator = 'corral'\nrows = 20\n")
    done = subprocess.run([sys.executable, "-m", "bnstudio", "experiment", str(path)], capture_output=True,
                          text=True)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bnstudio: error:") and "folds" in lines[0]
