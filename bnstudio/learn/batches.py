"""Deprecated: the chunking policy is :mod:`bnstudio.inference.batching` (one module for the learners, the error
bars, the held-out scores and the engine). This alias keeps old imports working and warns."""
from __future__ import annotations

import warnings

from bnstudio.inference.batching import (WORKING_SET, batch_size, check_one_case, fitting, parameter_batches,
                                         spans)

__all__ = ["WORKING_SET", "batch_size", "check_one_case", "fitting", "parameter_batches", "spans"]

warnings.warn("bnstudio.learn.batches is deprecated: import from bnstudio.inference.batching",
              DeprecationWarning, stacklevel=2)
