"""Whether a saved window layout is the one the app wrote (issue 42 item 10).

Qt's ``QMainWindow.restoreState`` trusts its bytes: one changed byte in the settings file made the app crash at
every start. The app therefore stores, beside the geometry and the dock state, a SHA-256 digest of the two as it
wrote them (:func:`layout_digest`); at start a layout whose digest differs (damaged, edited, cut short, or saved
by a version that kept no digest) is never handed to Qt: :func:`layout_problem` says why and the window opens
with the default layout. Plain Python, no Qt: the bytes are checked before any Qt call sees them.
"""
from __future__ import annotations

import hashlib

#: the message shown once when a saved layout is discarded
DISCARDED = "The saved window layout was damaged and has been replaced by the default layout"


def layout_digest(geometry: bytes, state: bytes) -> str:
    """The hex SHA-256 of the geometry and the dock state, each prefixed by its length (no two pairs collide
    by moving bytes from one to the other)."""
    sha = hashlib.sha256()
    for part in (geometry, state):
        sha.update(len(part).to_bytes(8, "big"))
        sha.update(part)
    return sha.hexdigest()


def layout_problem(geometry: bytes, state: bytes, digest: str) -> str | None:
    """Why the saved layout must not be restored (None when it is the one the app wrote, or there is none)."""
    if not geometry and not state:
        return None
    if not digest:
        return "it has no digest (a damaged settings file, or one written by an older version)"
    if layout_digest(geometry, state) != digest:
        return "its bytes differ from those the app wrote"
    return None
