"""Shared helpers for the data tests: writing small files byte for byte."""
from __future__ import annotations

from pathlib import Path

import pytest

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"


@pytest.fixture
def write(tmp_path):
    """write(name, text or bytes) -> path, with the text's line endings kept exactly."""
    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path
    return _write
