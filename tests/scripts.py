"""Loading the repository's scripts (docs/*.py, benchmarks/*.py, docs/api/conf.py) as modules in a test, so a
page's numbers or a build's settings are checked against the code that makes them."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str, name: str) -> ModuleType:
    """The script at ``ROOT / relative`` imported as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
