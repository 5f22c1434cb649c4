"""Value of information on ALARM, side by side with pyAgrum and pgmpy in one run, printing ours ÷ theirs.

    .venv/bin/python benchmarks/voi_bench.py [--repeats 20] [--settings 5]

Each setting is a target and 0-4 findings taken from a seeded forward sample (so p(e) > 0); every other
unobserved variable is a candidate (32-36 of them). Timed, median over ``--repeats`` (CPU time, garbage
collector held off):

* ours: one call of :func:`bnstudio.inference.voi.value_of_information` on a kept engine (|T| cases in one
  batched propagation); also a cold call (a fresh engine: the junction tree compiled inside);
* pyAgrum: ``InformationTheory(ie, T, O).mutualInformationXY()`` for each candidate, on a LazyPropagation with
  the evidence set (its per-candidate equivalent);
* pgmpy: ``VariableElimination.query([T, O], evidence)`` for each candidate and the mutual information from
  that joint (pgmpy has no mutual-information query), timed once.

The largest |ours − pyAgrum| over every candidate's mutual information is printed too. The goal: all
candidates in one call under 50 ms.
"""
from __future__ import annotations

import argparse
import gc
import logging
import statistics
import time
import warnings
from functools import partial
from pathlib import Path

import numpy as np

from bnstudio.inference import InferenceEngine
from bnstudio.inference.voi import value_of_information
from bnstudio.io import read_network
from bnstudio.sampling import forward_sample

ALARM = Path(__file__).resolve().parents[1] / "resources" / "networks" / "alarm.bif"


def settings(net, n: int, seed: int = 7) -> list[tuple[str, dict[str, str]]]:
    """Seeded (target, evidence) pairs from a forward sample: a random target and 0-4 findings."""
    rng = np.random.default_rng(seed)
    names = net.variables
    out = []
    for k, row in enumerate(forward_sample(net, n, seed=seed)):
        order = rng.permutation(len(names))
        out.append((names[order[0]], {names[j]: net.states(names[j])[row[j]] for j in order[1:1 + k % 5]}))
    return out


def cpu(fn, repeats: int) -> float:
    """Median CPU seconds of ``fn()`` over ``repeats`` calls, with the garbage collector off."""
    times = []
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.process_time()
            fn()
            times.append(time.process_time() - start)
    finally:
        gc.enable()
    return statistics.median(times)


def pyagrum_mi(bn, target: str, evidence: dict, candidates: list[str]) -> dict[str, float]:
    """pyAgrum's I(T; O | e) per candidate, a LazyPropagation each (one kept across candidates loses variables
    after the first: 'does not belong to this optimized inference', pyAgrum 3.3.1)."""
    import pyagrum as gum
    out = {}
    for c in candidates:
        ie = gum.LazyPropagation(bn)
        ie.setEvidence(evidence)
        out[c] = gum.InformationTheory(ie, target, c).mutualInformationXY()
    return out


def pgmpy_mi(model, target: str, evidence: dict, candidates: list[str]) -> dict[str, float]:
    from pgmpy.inference import VariableElimination
    ve = VariableElimination(model)
    out = {}
    for c in candidates:
        joint = ve.query([target, c], evidence=evidence, show_progress=False, joint=True)
        table = joint.values if joint.variables == [target, c] else joint.values.T
        outer = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True)
        cells = table > 0
        out[c] = float(np.sum(table[cells] * np.log2(table[cells] / outer[cells])))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--settings", type=int, default=5)
    args = parser.parse_args()
    logging.getLogger("pgmpy").setLevel(logging.ERROR)
    warnings.simplefilter("ignore", FutureWarning)       # pgmpy's deprecation notes on import
    from bnstudio.interop import to_pgmpy, to_pyagrum

    net = read_network(ALARM)
    engine = InferenceEngine(net)
    bn, model = to_pyagrum(net), to_pgmpy(net)
    print(f"{'target':<14}{'findings':>9}{'cands':>6}{'ours ms':>9}{'cold ms':>9}{'pyAgrum ms':>12}{'ratio':>8}"
          f"{'pgmpy ms':>10}{'ratio':>8}{'max |diff|':>12}")
    worst = 0.0
    for target, evidence in settings(net, args.settings):
        result = value_of_information(engine, target, evidence)
        names = [c.name for c in result.candidates]
        ours = cpu(partial(value_of_information, engine, target, evidence), args.repeats)
        cold = cpu(lambda target=target, evidence=evidence:
                   value_of_information(InferenceEngine(net), target, evidence), max(3, args.repeats // 5))
        theirs = cpu(partial(pyagrum_mi, bn, target, evidence, names), max(3, args.repeats // 5))
        slow = cpu(partial(pgmpy_mi, model, target, evidence, names), 1)
        agum = pyagrum_mi(bn, target, evidence, names)
        diff = max(abs(c.mutual_information - agum[c.name]) for c in result.candidates)
        worst = max(worst, ours)
        print(f"{target:<14}{len(evidence):>9}{len(names):>6}{ours * 1e3:>9.2f}{cold * 1e3:>9.2f}"
              f"{theirs * 1e3:>12.2f}{ours / theirs:>8.3f}{slow * 1e3:>10.1f}{ours / slow:>8.4f}{diff:>12.1e}")
    print(f"slowest warm call: {worst * 1e3:.2f} ms (goal: under 50 ms)")


if __name__ == "__main__":
    main()
