"""Small seeded studies for the experiment tests, and the numbers of a store without its timings."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bnstudio.experiment.store import StudyStore

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"
TIMING = {"time", "structure_time", "seconds"}

SMALL = f"""
name = "small"
folds = 3
structures = ["nb", "tan"]
methods = ["mp", "clgd", {{label = "bag", method = "bagged-mp", options = {{bags = 4}}}}]
metrics = ["error", "cll", "brier", "auc", "time", "iterations"]

[[datasets]]
generator = "corral"
rows = 60
seed = 1

[[datasets]]
network = "{ASIA.as_posix()}"
target = "lung"
rows = 150
seed = 3
"""


def write_study(folder: Path, text: str = SMALL, name: str = "small") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def numbers(store_path: Path) -> dict[str, Any]:
    """key -> (status, metrics, history) without timings: what must agree between executors."""
    with StudyStore(store_path, create=False) as store:
        rows = store.rows()
    out = {}
    for row in rows:
        metrics = {k: v for k, v in (row["metrics"] or {}).items() if k not in TIMING}
        history = [{k: v for k, v in h.items() if k not in TIMING} for h in row["history"] or []]
        out[row["key"]] = (row["status"], metrics, history, row["stop_reason"])
    return out


def worker_state() -> tuple[int, list[str]]:
    """Run in a local worker: its pid and which modules a task needs are already imported (before any task)."""
    import os
    import sys

    from bnstudio.experiment.worker_start import PRELOAD

    return os.getpid(), [name for name in PRELOAD if name in sys.modules]


def worker_collector() -> tuple[int, bool, int]:
    """Run in a local worker: its pid, whether its garbage collector is on, how many objects it has frozen."""
    import gc
    import os

    return os.getpid(), gc.isenabled(), gc.get_freeze_count()


def in_local_worker(function: Any) -> Any:
    """``function()`` run in a fresh local worker (forked from the forkserver, as a study's are); its answer."""
    from bnstudio.experiment.executors import LocalExecutor, StudyData

    executor = LocalExecutor(1, adapt=False)
    executor.warm_up()
    executor.start(StudyData({}))
    try:
        assert executor.pool is not None and executor.pool._mp_context.get_start_method() == "forkserver"
        return executor.pool.submit(function).result(timeout=60)
    finally:
        executor.close()
