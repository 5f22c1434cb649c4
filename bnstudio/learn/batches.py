"""Deprecated: the chunking policy is :mod:`bnstudio.inference.batching` (one module for the learners, the error
bars, the held-out scores and the engine). This alias keeps old imports working and warns on each name used."""
from __future__ import annotations

import warnings
from typing import Any

from bnstudio.inference import batching

#: the names that moved to bnstudio.inference.batching
MOVED = ("WORKING_SET", "batch_size", "check_one_case", "fitting", "parameter_batches", "spans")


def __getattr__(name: str) -> Any:
    """A moved name, from :mod:`bnstudio.inference.batching`, with a DeprecationWarning."""
    if name not in MOVED:
        raise AttributeError(f"module 'bnstudio.learn.batches' has no attribute {name!r}")
    warnings.warn(f"bnstudio.learn.batches.{name} is deprecated: import it from bnstudio.inference.batching",
                  DeprecationWarning, stacklevel=2)
    return getattr(batching, name)
