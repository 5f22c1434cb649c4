"""The PySide6 6.12.0 / Python 3.11 reference-count work-around keeps long sessions alive."""
from __future__ import annotations

import subprocess
import sys

from bnstudio.gui import compat

CODE = """
import bnstudio.gui
from PySide6.QtCore import QObject, QPointF, Signal
class Emitter(QObject):
    changed = Signal()
point, emitter = QPointF(), Emitter()
for _ in range(200_000):
    point.setX(1.0)      # returns None
    emitter.changed.emit()  # returns True
print("alive")
"""


def test_many_binding_calls_do_not_exhaust_none_or_true():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "alive", out.stderr[-2000:]


def test_protection_is_applied_only_when_the_bindings_leak():
    if compat.PROTECTED:
        assert sys.getrefcount(None) > compat.IMMORTAL // 2
    else:
        assert sys.version_info >= (3, 12) or not compat.none_refcount_leaks()
