"""A data set spec made into integer codes, once, in the process that starts the study; the result is what goes to
the workers (once per worker, not once per task).

* ``csv``: the file read as categorical columns (:func:`bnstudio.data.read_table`); with ``discretise`` the
  numeric columns (:func:`bnstudio.data.columns_to_cut`: few-valued integer columns stay categorical) are cut
  first (:func:`bnstudio.data.discretise_frame`, on the whole file); ``rows`` keeps the first rows. With
  ``per_fold`` (the default) the table is also kept uncut (:class:`FoldCuts`) and each task cuts it on its
  training rows (:func:`cut_on_rows`): the whole-file codes are then never fitted or scored.
  :func:`single_state_columns` names the columns that end with one state (no information).
* ``network``: ``rows`` forward samples of the network (:func:`bnstudio.sampling.forward_sample`, ``seed``); the
  network is kept as the data set's true structure and parameters (structure ``true``, query answers).
* ``generator``: :mod:`bnstudio.experiment.generators` (class ``Class``); ``test_set``: the fixed test rows
  (:data:`~bnstudio.experiment.generators.TEST_SETS`) kept in ``test_codes``.

The fingerprint hashes the spec with the file's bytes in place of its path, so a changed file or option makes
new task keys and a moved one does not.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.data.dataset import Dataset
from bnstudio.errors import FormatError, ValidationError
from bnstudio.experiment.generators import GENERATORS, TEST_SETS
from bnstudio.experiment.spec import DatasetSpec


@dataclass
class FoldCuts:
    """A CSV table before its numeric columns are cut (``per_fold``): the ``frame`` (its first ``rows``), each
    cut column's ``method`` (:func:`bnstudio.data.discretise_frame`) and the class column for ``mdl``."""

    frame: Any
    methods: dict[str, Any]
    target: str | None


@dataclass
class PreparedData:
    """Codes (N, V) over ``names`` (``states`` per column), the class ``target``, the generating ``network``
    (sampled data sets) and a fingerprint of where the data came from; ``test_codes``: a fixed test set (every
    task trains on all of ``codes`` and tests on them); ``fold_cuts``: the uncut table of a ``per_fold`` data
    set."""

    name: str
    names: list[str]
    states: list[tuple[str, ...]]
    codes: np.ndarray
    target: str | None
    network: Network | None
    fingerprint: str
    test_codes: np.ndarray | None = None
    fold_cuts: FoldCuts | None = None

    @property
    def dataset(self) -> Dataset:
        """The codes as a :class:`Dataset` (to align them with a given network)."""
        return Dataset(list(self.names), list(self.states), self.codes, source=self.name)


def prepare(spec: DatasetSpec) -> PreparedData:
    """Read, sample or generate the data set of ``spec``; a problem is one error naming the data set."""
    target: str | None
    if spec.kind == "generator":
        assert spec.rows is not None  # the spec asks a generator for rows
        codes, names, states = GENERATORS[spec.source](spec.rows, spec.seed)
        network, digest = None, ""
        target = spec.target or "Class"
    elif spec.kind == "network":
        from bnstudio.io import read_network
        from bnstudio.sampling import forward_sample

        network = read_network(spec.source)
        assert spec.rows is not None  # the spec asks a network for rows
        codes = forward_sample(network, spec.rows, seed=spec.seed)
        names, states = list(network.variables), [network.states(v) for v in network.variables]
        digest, target = file_digest(spec.source), spec.target
    else:
        table = _read_csv(spec)
        codes, names, states = table.codes, list(table.columns), list(table.states)
        network, digest, target = None, file_digest(spec.source), spec.target
    if target is not None and target not in names:
        raise ValidationError(f"data set '{spec.name}': no variable '{target}' to use as the target")
    described = {**spec.to_json(), "source": digest or spec.source}   # a file by its bytes, not where it lies
    fingerprint = hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    prepared = PreparedData(spec.name, names, [tuple(s) for s in states], codes, target, network, fingerprint)
    if spec.test_set is not None:
        prepared.test_codes = _test_codes(spec, prepared)
    if spec.per_fold:
        prepared.fold_cuts = _fold_cuts(spec)
    return prepared


def _test_codes(spec: DatasetSpec, data: PreparedData) -> np.ndarray:
    """The fixed test rows of ``spec.test_set``, over the same variables and states as the training rows."""
    assert spec.test_set is not None
    codes, names, states = TEST_SETS[spec.test_set]()
    if list(names) != data.names or [tuple(s) for s in states] != data.states:
        raise ValidationError(f"data set '{spec.name}': test set '{spec.test_set}' has other variables or states")
    return np.ascontiguousarray(codes, dtype=np.int64)


def cut_on_rows(data: PreparedData, train: np.ndarray) -> PreparedData:
    """``data`` with its numeric columns cut on the rows ``train`` only (the cut points learnt there, Fayyad &
    Irani's MDL or equal width/frequency) and every row coded by those cuts: the test rows' values and classes
    never move a cut point (MLC++'s protocol for Friedman et al. 1997, Zhou §4.2)."""
    from bnstudio.data import discretise_frame, from_frame

    cuts = data.fold_cuts
    assert cuts is not None  # only per_fold data sets are cut per fold
    _, fitted = discretise_frame(cuts.frame.iloc[np.asarray(train)], cuts.methods, class_column=cuts.target)
    cut, _ = discretise_frame(cuts.frame, dict(fitted))
    table = from_frame(cut, source=data.name)
    if list(table.columns) != data.names:     # pragma: no cover (the same frame, the same columns)
        raise ValidationError(f"data set '{data.name}': the per-fold table has other columns")
    digest = hashlib.sha256(np.asarray(train, dtype=np.int64).tobytes()).hexdigest()[:16]
    return replace(data, states=[tuple(s) for s in table.states], fold_cuts=None,
                   codes=np.ascontiguousarray(table.codes, dtype=np.int64), fingerprint=f"{data.fingerprint}/{digest}")


def split_rows(n: int, split: Mapping[str, Any], fold: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(train, test) row indices of fold ``fold`` (k-fold) or of the seeded train/test split."""
    from bnstudio.data.split import k_folds, train_test_indices

    if split["folds"] is None:
        return train_test_indices(n, split["test_fraction"], seed)
    for k, (train, test) in enumerate(k_folds(n, split["folds"], seed)):
        if k == fold:
            return train, test
    raise ValueError(f"fold {fold} out of range")    # pragma: no cover (tasks are generated in range)


def single_state_columns(data: PreparedData, trains: Iterable[np.ndarray] = ()) -> list[str]:
    """The columns (the target aside) that end with a single state, so carry no information: on the prepared
    codes, and for a ``per_fold`` data set its cut columns in the cuts learnt on any of the training rows
    ``trains`` (the same cuts :func:`cut_on_rows` learns)."""
    from bnstudio.data import discretise_frame

    cuts = data.fold_cuts
    found = {name for name, states in zip(data.names, data.states, strict=True)
             if len(states) <= 1 and (cuts is None or name not in cuts.methods)}
    if cuts is not None:
        for train in trains:
            _, fitted = discretise_frame(cuts.frame.iloc[np.asarray(train)], cuts.methods, class_column=cuts.target)
            found |= {column for column, disc in fitted.items() if disc.n_bins <= 1}
    return [name for name in data.names if name in found and name != data.target]


def _read_csv(spec: DatasetSpec) -> Dataset:
    from bnstudio.data import read_table

    if not spec.discretise:
        table = read_table(spec.source)
    else:
        table = _discretised(spec)
    if spec.rows is not None:
        table = table.select_rows(slice(0, spec.rows))
    return table


def _discretised(spec: DatasetSpec) -> Dataset:
    """The CSV with its numeric columns cut as ``spec.discretise`` says (see :mod:`bnstudio.experiment.spec`)."""
    from bnstudio.data import discretise_frame, from_frame

    cuts = _uncut(spec, first_rows=False)
    cut, _ = discretise_frame(cuts.frame, cuts.methods, class_column=cuts.target)
    return from_frame(cut, source=spec.source)


def _fold_cuts(spec: DatasetSpec) -> FoldCuts:
    """The uncut table of a ``per_fold`` data set, its first ``rows`` as the prepared codes have."""
    return _uncut(spec, first_rows=True)


def _uncut(spec: DatasetSpec, first_rows: bool) -> FoldCuts:
    """The CSV as read (``first_rows``: its first ``spec.rows``) and the cut of each numeric column."""
    import pandas as pd

    from bnstudio.data import columns_to_cut

    try:
        frame = pd.read_csv(spec.source, skipinitialspace=True)
    except (OSError, ValueError) as exc:
        raise FormatError(f"cannot read the table: {exc}", spec.source) from None
    if first_rows and spec.rows is not None:
        frame = frame.iloc[:spec.rows].reset_index(drop=True)
    options = spec.discretise
    columns = options.get("columns") or columns_to_cut(frame, [spec.target] if spec.target else [],
                                                       options.get("categorical_max_distinct", 10))
    method: Any = "mdl" if options["method"] == "mdl" else (options["method"].replace("-", "_"), options["bins"])
    if method == "mdl" and spec.target not in frame.columns:
        raise ValidationError(f"data set '{spec.name}': mdl discretisation needs the target column '{spec.target}'")
    return FoldCuts(frame, {c: method for c in columns}, spec.target)


def file_digest(path: str) -> str:
    """SHA-256 of the file's bytes (a file's identity in task keys)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", str(Path(path))) from None
    return digest.hexdigest()
