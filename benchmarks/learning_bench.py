"""Parameter learning, side by side: bnstudio vs pgmpy vs pyAgrum vs scikit-learn, in one run, with ratios.

    .venv/bin/python benchmarks/learning_bench.py [--quick]

1. ML on 100,000 ALARM rows: our counting once encoded, and CSV -> fitted network end to end (best of 3); pgmpy
   MaximumLikelihoodEstimator and pyAgrum BNLearner.learnParameters (its learner built from the CSV, best of 3).
2. EM seconds per iteration on 5,000 ALARM rows with 20% of cells missing at random (ours vs pyAgrum; pgmpy's EM
   does not accept missing cells), and with one latent variable (ours vs pyAgrum vs pgmpy).
3. NB + clgd (l2 = 0) vs scikit-learn LogisticRegression(lbfgs, C = 1e12) to the same optimum (time and training
   CNLL); held-out comparisons with the default L2 are in discriminative_bench.py.
4. wanbia vs clgd: iterations to reach the same conditional NLL (Zaidi §7.4).
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from inference_bench import timed_result

from bnstudio.core import network_from_dsl
from bnstudio.data import align, read_csv
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.sampling import codes_to_frame, forward_sample, hide_at_random, write_samples_csv

ALARM = Path(__file__).resolve().parents[1] / "resources" / "networks" / "alarm.bif"



def ml_bench(net, n: int, folder: Path) -> None:
    codes = forward_sample(net, n, seed=1)
    csv = folder / "alarm.csv"
    write_samples_csv(net, codes, csv)
    ours, _ = timed_result(lambda: make_learner("ml").fit(net, codes), repeat=3)
    end, _ = timed_result(lambda: make_learner("ml").fit(net, align(read_csv(csv), net).codes), repeat=3)
    print(f"ML, {n} ALARM rows: bnstudio {ours * 1e3:.1f} ms encoded, {end:.2f} s CSV->fitted", flush=True)
    frame = codes_to_frame(net, codes).astype(str)
    try:
        from pgmpy.models import DiscreteBayesianNetwork
        from pgmpy.parameter_estimator.discrete_mle import DiscreteMLE
        model = DiscreteBayesianNetwork(net.arcs())
        t, _ = timed_result(lambda: model.fit(frame, estimator=DiscreteMLE()))
        print(f"  pgmpy DiscreteMLE: {t * 1e3:.0f} ms (x{t / ours:.0f})", flush=True)
    except Exception as exc:  # report and continue
        print(f"  pgmpy failed: {type(exc).__name__}: {exc}")
    try:
        import pyagrum as gum
        bn = gum.loadBN(str(ALARM))
        t_build, learner = timed_result(lambda: gum.BNLearner(str(csv), bn), repeat=3)
        learner.useNoPrior()
        t, _ = timed_result(lambda: learner.learnParameters(bn.dag()), repeat=3)
        print(f"  pyAgrum learnParameters: {t * 1e3:.1f} ms (x{t / ours:.1f}) + {t_build:.2f} s to build the "
              f"learner from the CSV (end to end {t + t_build:.2f} s, x{(t + t_build) / end:.2f} of ours)", flush=True)
    except ImportError:
        pass


def em_bench(net, folder: Path, quick: bool) -> None:
    data = hide_at_random(forward_sample(net, 5000, seed=2), 0.2, seed=3)
    iters = 3
    t, fit = timed_result(lambda: make_learner("em", max_iter=iters, tol=0).fit(net, data))
    ours = t / fit.n_iterations
    print(f"EM, 5000 ALARM rows, 20% MCAR: bnstudio {ours * 1e3:.0f} ms/iteration", flush=True)
    csv = folder / "mcar.csv"
    write_samples_csv(net, data, csv)
    _pyagrum_em(csv, ours, "MCAR", quick)
    latent = forward_sample(net, 5000, seed=4)
    latent[:, net.variables.index("HYPOVOLEMIA")] = -1
    t, fit = timed_result(lambda: make_learner("em", max_iter=iters, tol=0).fit(net, latent))
    ours = t / fit.n_iterations
    print(f"EM, 5000 ALARM rows, HYPOVOLEMIA latent: bnstudio {ours * 1e3:.0f} ms/iteration", flush=True)
    csv = folder / "latent.csv"
    write_samples_csv(net, latent, csv)
    _pyagrum_em(csv, ours, "latent", quick)
    if not quick:
        try:
            from pgmpy.models import DiscreteBayesianNetwork
            from pgmpy.parameter_estimator.discrete_em import DiscreteEM
            frame = codes_to_frame(net, latent).drop(columns=["HYPOVOLEMIA"]).astype(str)
            model = DiscreteBayesianNetwork(net.arcs(), latents={"HYPOVOLEMIA"})
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(frame, estimator=DiscreteEM(max_iter=1, latent_card={"HYPOVOLEMIA": 2}, seed=0))
            t = time.perf_counter() - t0
            print(f"  pgmpy ExpectationMaximization (latent): {t:.1f} s/iteration (x{t / ours:.0f})", flush=True)
        except Exception as exc:
            print(f"  pgmpy EM failed: {type(exc).__name__}: {str(exc)[:120]}")


def _pyagrum_em(csv: Path, ours: float, label: str, quick: bool) -> None:
    if quick:
        return
    try:
        t = pyagrum_em_seconds(csv, ALARM)
    except ImportError:
        return
    print(f"  pyAgrum EM ({label}): {t:.1f} s/iteration (x{t / ours:.0f})", flush=True)


def pyagrum_em_seconds(csv: Path, bif: Path) -> float:
    """Seconds of one pyAgrum EM iteration on ``csv`` ('?' or empty = missing) for the network ``bif``."""
    import pyagrum as gum
    bn = gum.loadBN(str(bif))
    learner = gum.BNLearner(str(csv), bn, ["?", ""])
    learner.useSmoothingPrior(1)        # pyAgrum refuses parent configurations absent from the data otherwise
    learner.useEM(1e-12)
    learner.EMsetMaxIter(1)
    t0 = time.perf_counter()
    learner.learnParameters(bn.dag())
    return time.perf_counter() - t0


def discriminative_bench() -> None:
    attrs = [f"X{i}" for i in range(20)]
    net = network_from_dsl("C->" + ",".join(attrs), seed=5, states={a: ["a", "b", "c", "d"] for a in attrs})
    data = forward_sample(net, 20_000, seed=6)
    flip = np.random.default_rng(0).random(len(data)) < 0.1
    data[flip, 0] = 1 - data[flip, 0]
    # l2 = 0: the unregularised optimum, the one LogisticRegression(C=1e12) finds (the default L2 is 10 / N)
    t_ours, fit = timed_result(lambda: make_learner("clgd", l2=0.0, max_iter=500, tol=1e-12).fit(net, data, target="C"))
    print(f"NB + clgd, 20 attributes x 20,000 rows: {t_ours:.2f} s, train CNLL {fit.history[-1]['cnll']:.6f}, "
          f"{fit.n_iterations} iterations", flush=True)
    try:
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import OneHotEncoder
        x = OneHotEncoder().fit_transform(data[:, 1:])
        t_lr, lr = timed_result(lambda: LogisticRegression(C=1e12, max_iter=5000, tol=1e-10).fit(x, data[:, 0]))
        cnll = -np.log(lr.predict_proba(x)[np.arange(len(data)), data[:, 0]]).mean()
        print(f"  scikit-learn LogisticRegression(lbfgs): {t_lr:.2f} s, train CNLL {cnll:.6f} "
              f"(ours/theirs time x{t_ours / t_lr:.2f})", flush=True)
    except ImportError:
        pass
    t_w, wan = timed_result(lambda: make_learner("wanbia", l2=0.0, max_iter=500, tol=1e-12).fit(net, data, target="C"))
    goal = fit.history[-1]["cnll"] + 1e-4
    reach = lambda hist: next((h["iteration"] for h in hist if h["cnll"] <= goal), None)  # noqa: E731
    print(f"  wanbia (parameter level): {t_w:.2f} s, reaches CNLL {goal:.5f} at iteration {reach(wan.history)} "
          f"vs clgd at {reach(fit.history)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the slow peer EM runs")
    args = parser.parse_args()
    net = read_network(ALARM)
    with tempfile.TemporaryDirectory() as tmp:
        ml_bench(net, 100_000, Path(tmp))
        em_bench(net, Path(tmp), args.quick)
    discriminative_bench()
    print(f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
