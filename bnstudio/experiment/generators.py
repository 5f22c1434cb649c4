"""Kohavi & John's artificial concepts used by Zhou (Table 4-1, after Friedman et al. 1997) to test feature
selection: every attribute binary and uniform, the class a function of some of them.

* ``mofn-3-7-10``: ten bits A0..A9; the class is 1 when at least 3 of the 7 bits A2..A8 are 1; A0, A1 and A9
  are irrelevant. NB + CLGD classifies it perfectly (Zhou Table 4-2), NB + counting does not.
* ``corral``: the class is (A0 ∧ A1) ∨ (B0 ∧ B1); ``Irrelevant`` is noise and ``Correlated`` agrees with the
  class on 75 % of the rows, which lures greedy and naive learners (TAN + CLGD: 0 % error in Zhou Table 4-2).
* ``wide-binary``: 200 bits for Ng & Jordan's learning curve (NB against logistic regression), see
  :func:`wide_binary`.

>>> codes, names, states = corral(8, seed=0)
>>> names[-1], codes.shape, states[0]
('Class', (8, 7), ('0', '1'))
>>> codes, names, _ = mofn_3_7_10(5, seed=0)
>>> bool(((codes[:, 2:9].sum(axis=1) >= 3) == codes[:, -1]).all())
True
"""
from __future__ import annotations

from typing import Callable

import numpy as np

BINARY = ("0", "1")
Generated = tuple[np.ndarray, list[str], list[tuple[str, ...]]]


def mofn_3_7_10(rows: int, seed: int | None) -> Generated:
    """(codes, names, states) of ``rows`` seeded rows of mofn-3-7-10 (class column ``Class`` last)."""
    return _mofn(np.random.default_rng(seed).integers(0, 2, (rows, 10)))


def mofn_3_7_10_patterns() -> Generated:
    """Every one of the 2¹⁰ bit patterns of mofn-3-7-10 once, with its class: the 1,024-row test set of Zhou
    Table 4-1 (his 300 training rows are a sample, :func:`mofn_3_7_10`).

    >>> codes, names, _ = mofn_3_7_10_patterns()
    >>> codes.shape, int(codes[:, -1].sum())
    ((1024, 11), 792)
    """
    return _mofn((np.arange(1024)[:, None] >> np.arange(10)) & 1)


def _mofn(bits: np.ndarray) -> Generated:
    """The ten bits with mofn-3-7-10's class (at least 3 of A2..A8 are 1) as the last column ``Class``."""
    label = (bits[:, 2:9].sum(axis=1) >= 3).astype(np.int64)
    names = [f"A{k}" for k in range(10)] + ["Class"]
    return np.column_stack([bits, label]).astype(np.int64), names, [BINARY] * len(names)


def corral(rows: int, seed: int | None) -> Generated:
    """(codes, names, states) of ``rows`` seeded rows of corral (class column ``Class`` last)."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, (rows, 5))
    label = ((bits[:, 0] & bits[:, 1]) | (bits[:, 2] & bits[:, 3])).astype(np.int64)
    correlated = np.where(rng.random(rows) < 0.75, label, 1 - label)
    names = ["A0", "A1", "B0", "B1", "Irrelevant", "Correlated", "Class"]
    return np.column_stack([bits, correlated, label]).astype(np.int64), names, [BINARY] * len(names)


def parity_2_10(rows: int, seed: int | None) -> Generated:
    """(codes, names, states) of ``rows`` seeded rows of a parity concept: ten uniform bits A0..A9, the class is
    A0 XOR A1 (A2..A9 irrelevant). Each bit alone says nothing of the class, so NB cannot learn it at all, while
    a TAN with the arc A0 → A1 (or back) can represent it exactly."""
    bits = np.random.default_rng(seed).integers(0, 2, (rows, 10))
    names = [f"A{k}" for k in range(10)] + ["Class"]
    return np.column_stack([bits, bits[:, 0] ^ bits[:, 1]]).astype(np.int64), names, [BINARY] * len(names)


WIDE_CONCEPT_SEED = 29     # the wide-binary distribution is fixed: data sets of any size sample the same one


def wide_binary(rows: int, seed: int | None, informative: int = 180, copies: int = 20) -> Generated:
    """(codes, names, states) of ``rows`` rows of a wide 0/1 problem for Ng & Jordan's (NIPS 2001) learning
    curve: a uniform binary class, ``informative`` bits X_i ~ Bernoulli(p_{i,y}), p_{i,y} ~ U(0.35, 0.65) drawn
    once (seed :data:`WIDE_CONCEPT_SEED`, so every size samples one distribution), and ``copies`` bits each equal
    to one of the first 10 bits, flipped with probability 0.1. The copies break NB's independence assumption (NB counts their
    evidence twice), so NB + mp's asymptotic error is above logistic regression's (NB + clgd) while it gets
    there with fewer rows — the two regimes of Ng & Jordan §3 (Fig. 1).

    >>> codes, names, states = wide_binary(4, seed=0)
    >>> codes.shape, names[-1]
    ((4, 201), 'Class')
    """
    concept = np.random.default_rng(WIDE_CONCEPT_SEED)
    p = concept.uniform(0.35, 0.65, (2, informative))
    source = concept.integers(0, 10, copies)
    rng = np.random.default_rng(seed)
    label = rng.integers(0, 2, rows)
    bits = (rng.random((rows, informative)) < p[label]).astype(np.int8)
    copied = bits[:, source] ^ (rng.random((rows, copies)) < 0.1)
    names = [f"X{k}" for k in range(informative + copies)] + ["Class"]
    codes = np.column_stack([bits, copied, label]).astype(np.int64)
    return codes, names, [BINARY] * len(names)


def wide_categorical(rows: int, seed: int | None, attributes: int, states: int = 2, classes: int = 2,
                     flat: float = 1.0) -> Generated:
    """(codes, names, states) of ``rows`` rows from a naive Bayes model with ``attributes`` attributes of
    ``states`` states: a uniform class, p(X_i | y) ~ Dirichlet(``flat``) per class and attribute (a larger
    ``flat`` makes the classes overlap more), drawn from the same ``seed`` as the rows; class ``Class`` last.
    Wide data for the scikit-learn comparisons (benchmarks/wide_bench.py, tests/learn/test_wide_sklearn.py).

    >>> codes, names, states = wide_categorical(3, 0, attributes=5, states=4)
    >>> codes.shape, states[0], names[-1]
    ((3, 6), ('0', '1', '2', '3'), 'Class')
    """
    rng = np.random.default_rng(seed)
    probs = np.cumsum(rng.dirichlet(np.full(states, flat), size=(classes, attributes)), axis=2)
    label = rng.integers(0, classes, rows)
    codes = np.empty((rows, attributes + 1), dtype=np.int64)
    for part in range(0, rows, 4096):        # (rows, attributes, states) in blocks: memory follows the block
        block = slice(part, part + 4096)
        u = rng.random((len(label[block]), attributes, 1))
        codes[block, :-1] = (u > probs[label[block]]).sum(axis=2)
    codes[:, -1] = label
    names = [f"X{k}" for k in range(attributes)] + ["Class"]
    return codes, names, [tuple(str(v) for v in range(states))] * attributes + [tuple(f"c{k}" for k in range(classes))]


#: generator name -> function(rows, seed); every generator's class column is ``Class``
GENERATORS: dict[str, Callable[[int, int | None], Generated]] = {"mofn-3-7-10": mofn_3_7_10, "corral": corral,
                                                                 "parity-2-10": parity_2_10,
                                                                 "wide-binary": wide_binary}
#: fixed test set name -> function() giving its rows (``DatasetSpec.test_set``; the names are
#: :data:`bnstudio.experiment.spec.TEST_SETS`)
TEST_SETS: dict[str, Callable[[], Generated]] = {"mofn-3-7-10-patterns": mofn_3_7_10_patterns}
