"""What the local workers' forkserver imports before it forks the first worker: the modules of
:data:`~bnstudio.experiment.worker_start.PRELOAD`, with Python's cyclic garbage collector paused meanwhile.

Imports make long-lived objects only (modules, classes, functions, constants): the collector's passes over them
free nothing and cost about 15 % of the imports' CPU (0.62 s instead of 0.73 s measured, 2026-11, see
benchmarks/study_bench.py), on the path to the first task. The imported objects are then frozen (``gc.freeze``,
Python ≥ 3.7): a forked worker's full collections skip them and leave their memory pages shared with the server.
Importing this module elsewhere would freeze that process's objects (never collected again): only the forkserver
imports it.
"""
from __future__ import annotations

import gc
import importlib

from bnstudio.experiment.worker_start import PRELOAD

gc.disable()
try:
    for _name in PRELOAD:
        importlib.import_module(_name)
finally:
    gc.freeze()
    gc.enable()
