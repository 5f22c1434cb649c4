"""Work-arounds for defects of the Qt bindings, applied once when :mod:`bnstudio.gui` is imported.

**PySide6 6.12.0 on Python < 3.12**: every call of a binding method that returns nothing (``setText``,
``setPen``, ``drawRect``, ``setPos``, a Python slot or override called from C++...) releases one reference
to ``None`` that it never took, and every ``Signal.emit()`` does the same to ``True``. Python 3.12+ makes
these singletons immortal, so nothing happens there; on 3.11 the app aborts with "Fatal Python error:
none_dealloc" (or ``bool_dealloc``) after a few thousand calls — seconds of painting. (6.11.3 does not do
this.) The fix: probe a method that returns nothing, and if it drops ``None``'s count, give ``None``,
``True`` and ``False`` counts so large they can never reach zero — which is what Python 3.12 does for every
interpreter. Bindings without the defect are left alone.
"""
from __future__ import annotations

import ctypes
import sys

IMMORTAL = 1 << 60
PROBE_CALLS = 64


def none_refcount_leaks() -> bool:
    """Whether calling a binding method that returns None lowers None's reference count."""
    from PySide6.QtCore import QPointF

    point = QPointF()
    before = sys.getrefcount(None)
    for _ in range(PROBE_CALLS):
        point.setX(1.0)
    return sys.getrefcount(None) < before - PROBE_CALLS // 2


def protect_none() -> bool:
    """Apply the work-around if (and only if) the bindings have the defect; True if applied."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython" or not none_refcount_leaks():
        return False
    for singleton in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(singleton))  # ob_refcnt: the first field of an object
        refcount.value = max(refcount.value, IMMORTAL)
    return True


PROTECTED = protect_none()
