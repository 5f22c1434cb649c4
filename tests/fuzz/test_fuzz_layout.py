"""The saved window layout in the fuzzer (issue 42 item 10): a handful of seeded mutations of the settings file
the app wrote (byte flips in the dock state and the geometry, a cut, junk appended, random bytes, a character
changed in the INI text itself) each open a window offscreen, all in one process of their own: a crash fails
the test, and every damaged layout must be discarded with the one message (never handed to Qt)."""
from __future__ import annotations

import os
import random
import shutil

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QByteArray, QSettings  # the app's settings file is Qt's

from bnstudio.app.layout_check import DISCARDED
from bnstudio.gui import settings as cfg
from tests.gui.layout_damage import results, run_windows

CASES = int(os.environ.get("BNSTUDIO_FUZZ_LAYOUT_CASES", "8"))


def _mutate(state: bytes, geometry: bytes, rng: random.Random, kind: str) -> tuple[bytes, bytes]:
    if kind == "flip-state":
        data = bytearray(state)
        k = rng.randrange(len(data))
        data[k] = (data[k] + rng.randrange(1, 256)) % 256
        return bytes(data), geometry
    if kind == "flip-geometry":
        data = bytearray(geometry)
        k = rng.randrange(len(data))
        data[k] = (data[k] + rng.randrange(1, 256)) % 256
        return state, bytes(data)
    if kind == "cut":
        return state[:rng.randrange(len(state))], geometry
    if kind == "junk":
        return state + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))), geometry
    return bytes(rng.randrange(256) for _ in range(len(state))), geometry   # "random"


KINDS = ("flip-state", "flip-geometry", "cut", "junk", "random", "ini-text")


@pytest.mark.parametrize("seed", [0])
def test_mutated_saved_layouts_are_discarded_never_crash(tmp_path, seed):
    saved = tmp_path / "saved.ini"
    results(run_windows("save", saved))
    rng = random.Random(seed)
    cases = []
    for index in range(CASES):
        kind = KINDS[index % len(KINDS)]
        path = tmp_path / f"case{index}-{kind}.ini"
        shutil.copy(saved, path)
        if kind == "ini-text":   # a changed character in the file (inside the escaped state, past its key)
            text = bytearray(path.read_bytes())
            start = text.index(b"state=") + len(b"state=@ByteArray(")
            k = rng.randrange(start, len(text) - 2)
            text[k] = ord(rng.choice("0123456789abcdefxyz\\)"))
            if bytes(text) == path.read_bytes():
                text[k] = ord("q")
            path.write_bytes(bytes(text))
        else:
            settings = cfg.Settings(QSettings(str(path), QSettings.IniFormat))
            state, geometry = _mutate(bytes(settings.value(cfg.WINDOW_STATE)),
                                      bytes(settings.value(cfg.WINDOW_GEOMETRY)), rng, kind)
            settings.set_value(cfg.WINDOW_STATE, QByteArray(state))
            settings.set_value(cfg.WINDOW_GEOMETRY, QByteArray(geometry))
            settings.sync()
        cases.append(path)
    reports = results(run_windows("open", *cases))
    for path, report in zip(cases, reports, strict=True):
        assert report["message"].startswith(DISCARDED) and not report["left"], (path.name, report)
