"""The data panel's open-file path reads Parquet (issue 28) as it reads CSV; without pyarrow the message names
the extra to install, inline."""
from __future__ import annotations

import numpy as np

from bnstudio.data import read as read_module
from bnstudio.data import read_csv
from tests.gui_panels.training.conftest import ASIA_CSV
from tests.gui_panels.training.test_data_panel import load


def test_parquet_opens_as_the_same_data_as_csv(qtbot, data_panel, tmp_path):
    expected = read_csv(ASIA_CSV)
    path = tmp_path / "asia.parquet"
    expected.to_frame().to_parquet(path)
    selection = load(qtbot, data_panel, path)
    assert selection.n_rows == expected.n_rows
    loaded = data_panel.state.raw
    assert loaded.columns == expected.columns and loaded.states == expected.states
    assert np.array_equal(loaded.codes, expected.codes)


def test_parquet_without_pyarrow_names_the_extra_inline(qtbot, data_panel, tmp_path, monkeypatch):
    path = tmp_path / "asia.parquet"
    read_csv(ASIA_CSV).to_frame().to_parquet(path)
    monkeypatch.setattr(read_module, "has_package", lambda name: name != "pyarrow")
    data_panel.load(path)
    qtbot.waitUntil(lambda: data_panel.message_bar.level == "error", timeout=5000)
    assert "bnstudio[parquet]" in data_panel.message_bar.label.text()
