"""What the data panel hands to the training panel: aligned code arrays split into training, validation and
test rows, and the target. Plain Python (no Qt); the arrays are read-only snapshots, safe to pass to a job.

>>> import numpy as np
>>> train, val, test = split_rows(10, 0.2, 0.3, seed=0)
>>> len(train), len(val), len(test), sorted(np.r_[train, val, test].tolist()) == list(range(10))
(5, 2, 3, True)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bnstudio.core.network import Network
from bnstudio.data import train_test_indices
from bnstudio.errors import ValidationError

SPLITS = ("train", "validation", "test")


def _frozen(codes: np.ndarray) -> np.ndarray:
    out = np.array(codes, dtype=np.int64, order="C")
    out.setflags(write=False)
    return out


def split_rows(n: int, validation_fraction: float, test_fraction: float, seed: int | None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted (train, validation, test) row indices: the test part is drawn first with ``seed``, then the
    validation part from the rest with ``seed + 1`` (fractions are of all ``n`` rows; 0 = no such part)."""
    if not (0 <= validation_fraction < 1 and 0 <= test_fraction < 1):
        raise ValidationError("the validation and test fractions must lie in [0, 1)")
    if validation_fraction + test_fraction >= 0.95:
        raise ValidationError("keep at least 5% of the rows for training")
    rows = np.arange(n)
    test = np.zeros(0, dtype=np.int64)
    if test_fraction > 0:
        keep, pick = train_test_indices(n, test_fraction, seed)
        rows, test = rows[keep], rows[pick]
    validation = np.zeros(0, dtype=np.int64)
    if validation_fraction > 0:
        share = validation_fraction / (1.0 - test_fraction)
        keep, pick = train_test_indices(rows.size, share, None if seed is None else seed + 1)
        rows, validation = rows[keep], rows[pick]
    return rows, validation, test


@dataclass(frozen=True)
class DataSelection:
    """Aligned data for one network: codes in ``variables`` order (-1 = missing), split into parts.

    ``validation`` and ``test`` are None when no rows are held out. ``states`` records the network's state
    names at alignment, so :meth:`matches` notices any later change of variables or states.
    """

    variables: tuple[str, ...]
    states: tuple[tuple[str, ...], ...]
    train: np.ndarray
    validation: np.ndarray | None = None
    test: np.ndarray | None = None
    target: str | None = None
    source: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_codes(cls, net: Network, codes: np.ndarray, target: str | None = None,
                   validation_fraction: float = 0.0, test_fraction: float = 0.0, seed: int | None = 0,
                   source: str | None = None, settings: dict[str, Any] | None = None) -> "DataSelection":
        """Split ``codes`` (aligned to ``net.variables``) with :func:`split_rows`."""
        if target is not None and target not in net:
            raise ValidationError(f"the target '{target}' is not a variable of the network")
        train, val, test = split_rows(len(codes), validation_fraction, test_fraction, seed)
        return cls(tuple(net.variables), tuple(net.states(v) for v in net.variables), _frozen(codes[train]),
                   _frozen(codes[val]) if val.size else None, _frozen(codes[test]) if test.size else None,
                   target, source, dict(settings or {}))

    def matches(self, net: Network) -> bool:
        """Whether the codes still fit ``net`` (same variables in the same order, same states)."""
        return (tuple(net.variables) == self.variables
                and all(net.states(v) == s for v, s in zip(self.variables, self.states, strict=True)))

    def parts(self) -> list[tuple[str, np.ndarray]]:
        """(name, codes) of each part present, in the order train, validation, test."""
        return [(name, codes) for name, codes in zip(SPLITS, (self.train, self.validation, self.test), strict=True)
                if codes is not None]

    @property
    def n_rows(self) -> int:
        return sum(len(codes) for _, codes in self.parts())

    def describe(self) -> str:
        """E.g. ``"2,100 training · 450 validation · 450 test rows · target bronc"``."""
        words = {"train": "training", "validation": "validation", "test": "test"}
        text = " · ".join(f"{len(codes):,} {words[name]}" for name, codes in self.parts()) + " rows"
        return text + (f" · target {self.target}" if self.target else " · no target")
