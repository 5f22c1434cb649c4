"""The tasks of a study — one per (data set, structure, method, fold, seed) — and their keys.

A data set with a fixed test set (``DatasetSpec.test_set``) has one task per (structure, method, seed): "fold"
0, all its rows to train, the test set to test. A key is the SHA-256 of everything the task's result depends on: the data set's fingerprint (file bytes and
spec), the structure (a given network by its file's bytes) and method with all their options, the split (folds or
test fraction), the fold, the seed, the queries of a query study, and the code that computes it: the package
version and :func:`~bnstudio.experiment.fingerprint.code_fingerprint` (the source of every module a task can
run). The same study run again with the same code therefore finds its finished tasks; a changed option, file,
seed or learner gives new keys (the old rows stay in the store, out of the report).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from bnstudio import __version__
from bnstudio.experiment.fingerprint import code_fingerprint
from bnstudio.experiment.spec import DatasetSpec, Study

#: the layout of a key's content (the code itself is in :func:`code_fingerprint`)
TASK_VERSION = 2


@dataclass(frozen=True)
class Task:
    """One unit of work; ``spec`` holds the structure, method, split and (query studies) queries digest."""

    key: str
    dataset: str
    structure: str
    method: str
    fold: int
    seed: int
    spec: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "dataset": self.dataset, "structure": self.structure, "method": self.method,
                "fold": self.fold, "seed": self.seed, "spec": dict(self.spec)}


def task_key(content: Mapping[str, Any]) -> str:
    """The key of a task: SHA-256 of its canonical JSON (sorted keys) with the code that computes it (package
    version, source fingerprint), 32 hex digits."""
    content = {"version": TASK_VERSION, "package": __version__, "code": code_fingerprint(), **content}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def n_folds(study: Study, data: DatasetSpec | None = None) -> int:
    """Folds per seed: ``folds``, 1 for a train/test split, a query study or a data set ``data`` with a fixed
    test set."""
    if data is not None and data.test_set is not None:
        return 1
    return study.folds if study.folds is not None else 1


def split_of(study: Study, data: DatasetSpec) -> dict[str, Any]:
    """How a data set's rows are split in its tasks: the study's folds or test fraction, or (``test_set``) all
    rows to train and the fixed test set to test (``folds`` and ``test_fraction`` then None)."""
    if data.test_set is not None:
        return {"folds": None, "test_fraction": None, "evaluation": study.evaluation, "test_set": data.test_set}
    return {"folds": study.folds, "test_fraction": study.test_fraction, "evaluation": study.evaluation}


def expand(study: Study, fingerprints: Mapping[str, str], queries_digest: str = "",
           structure_files: Mapping[str, str] | None = None) -> list[Task]:
    """Every task of ``study``, data set by data set (then structure, seed, fold, method): tasks sharing a learned
    structure are neighbours, so a worker that learned it can reuse it. ``structure_files``: structure label ->
    digest of its network file (a changed file makes new keys)."""
    structure_files = structure_files or {}
    tasks = []
    for data in study.datasets:
        split = split_of(study, data)
        for structure in study.structures:
            for seed in study.seeds:
                for fold in range(n_folds(study, data)):
                    for method in study.methods:
                        spec = {"structure": structure.to_json(), "method": method.to_json(), "split": split,
                                "target": data.target, "queries": queries_digest}
                        key = task_key({"dataset": data.name, "fingerprint": fingerprints[data.name], "fold": fold,
                                        "seed": seed, "structure_file": structure_files.get(structure.label, ""),
                                        **spec})
                        tasks.append(Task(key, data.name, structure.label, method.label, fold, seed, spec))
    return tasks
