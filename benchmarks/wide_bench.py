"""Wide data, side by side with scikit-learn in one run: NB + mp against BernoulliNB / CategoricalNB and NB + clgd
against LogisticRegression on one-hot attributes (Ng & Jordan, NIPS 2001), with times, ratios and the
held-out differences.

    .venv/bin/python benchmarks/wide_bench.py [--rows 20000] [--attributes 1000] [--quick]
    .venv/bin/python benchmarks/wide_bench.py --structures [--structure-rows 10000] [--widths 1000,10000]
                                              [--algorithms nb,tan,kdb,nb+clgd]

Data: ``wide_categorical`` (bnstudio.experiment.generators, seed 29) — 0/1 attributes, then 8-state attributes,
the class-conditional distributions Dirichlet(0.2·d·(|X| − 1)) so that the classes overlap (held-out error 4-8 %
rather than 0) — with ``--rows`` training and ``--rows // 4`` test rows, and scikit-learn's ``load_digits`` binarised (pixel > 7:
64 bits, 10 classes, the first 1,200 rows train, the other 597 test). Timed (best of 3, seconds):

* ``fit``: our ``make_learner(...).fit`` on the NB network (built once beforehand, like choosing the model class)
  and the fitted network it returns, against scikit-learn's ``fit``; the NB structure's own time (``learn_structure("nb")``) is printed apart;
* ``predict``: ``target_posteriors`` (closed form, bnstudio.evaluate.blanket) against ``predict_proba``;
* the one-hot encoding LogisticRegression needs is done once, untimed.

``--structures``: TAN, KDB-1 and naive Bayes over ``wide_categorical`` 0/1 data (and 8-state data at the first
width) with ``--structure-rows`` training rows, each learned in its own child process (benchmarks/processes.py)
that loads the codes (int64, as the data layer gives them) from an .npy file: ``learn_structure`` (which also
makes the ML network) then ``mp`` on it, and NB + ``clgd`` (the widest fit). Printed: seconds, the child's whole
peak resident memory (VmHWM, from the start of the process: interpreter, imports, data and fit) and the peak
beyond the loaded data; the CPU seconds of the process (structure + fit) as well, steadier than the wall clock
on a shared machine. There is no scikit-learn TAN or KDB: the ratio is of CPU seconds to our own NB structure
+ mp on the same data in the same run.

Matching settings: mp (Laplace, one pseudo-count per cell) = BernoulliNB / CategoricalNB with alpha = 1 and
``class_prior`` = mp's (N_k + 1)/(N + K). clgd with ``init="uniform"`` (L2 toward β = 0) and λ = 2/(C·N) (binary
class; 1/(C·N) for K > 2 classes) against LogisticRegression(C) — the same penalty on the attribute weights,
not an identical problem (docs/learning.md, "Wide data against scikit-learn") — and clgd with l2 = 0 against
LogisticRegression(C = inf), the same optimum. Both optimisers at their default tolerances (clgd tol 1e-9,
LBFGS; LogisticRegression tol 1e-4, lbfgs).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bnstudio.evaluate.metrics import target_posteriors
from bnstudio.experiment.generators import wide_categorical
from bnstudio.learn.params import make_learner
from bnstudio.learn.structure.api import learn_structure


def best(fn, repeat: int = 3):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def held_out(post: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(error rate, mean log p(y | x))."""
    with np.errstate(divide="ignore"):
        return float((post.argmax(axis=1) != y).mean()), float(np.log(post[np.arange(len(y)), y]).mean())


def compare(label: str, ours_fit, theirs_fit, ours_predict, theirs_predict, y: np.ndarray, repeat: int) -> None:
    t_fit, fitted = best(ours_fit, repeat)
    s_fit, model = best(theirs_fit, repeat)
    t_pred, ours = best(lambda: ours_predict(fitted), repeat)
    s_pred, theirs = best(lambda: theirs_predict(model), repeat)
    (e1, c1), (e2, c2) = held_out(ours, y), held_out(theirs, y)
    print(f"  {label}: fit {t_fit:.3f} s vs {s_fit:.3f} s (x{t_fit / s_fit:.2f}); predict {t_pred:.3f} s vs "
          f"{s_pred:.3f} s (x{t_pred / s_pred:.2f}); fit+predict x{(t_fit + t_pred) / (s_fit + s_pred):.2f}; "
          f"max|dp| {np.abs(ours - theirs).max():.1e}, error {e1:.4f} vs {e2:.4f}, CLL {c1:.5f} vs {c2:.5f}",
          flush=True)


def run(name: str, train: np.ndarray, test: np.ndarray, names, states, repeat: int, unpenalised: bool) -> None:
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import BernoulliNB, CategoricalNB
    from sklearn.preprocessing import OneHotEncoder

    n, d = train.shape[0], train.shape[1] - 1
    k, cards = len(states[-1]), [len(s) for s in states[:-1]]
    print(f"{name}: {n} training rows, {len(test)} test rows, {d} attributes ({max(cards)} states), {k} classes",
          flush=True)
    t_nb, res = best(lambda: learn_structure("nb", train, names, states, target="Class"), 1)
    print(f"  NB structure (learn_structure, with its ML fit): {t_nb:.3f} s", flush=True)
    net, x, y, xt, yt = res.network, train[:, :-1], train[:, -1], test[:, :-1], test[:, -1]
    prior = (np.bincount(y, minlength=k) + 1.0) / (n + k)
    ours_predict = lambda fitted: target_posteriors(fitted, test, "Class")  # noqa: E731
    mp = lambda: make_learner("mp").fit(net, train, target="Class").network(net)  # noqa: E731
    if max(cards) == 2:
        compare("NB+mp vs BernoulliNB", mp, lambda: BernoulliNB(alpha=1.0, class_prior=prior).fit(x, y),
                ours_predict, lambda m: m.predict_proba(xt), yt, repeat)
    compare("NB+mp vs CategoricalNB", mp,
            lambda: CategoricalNB(alpha=1.0, class_prior=prior, min_categories=cards).fit(x, y),
            ours_predict, lambda m: m.predict_proba(xt), yt, repeat)
    encoder = OneHotEncoder(categories=[list(range(c)) for c in cards]).fit(x)
    t_enc, z = best(lambda: encoder.transform(x), 1)
    zt = encoder.transform(xt)
    print(f"  one-hot encoding of the training rows for LogisticRegression: {t_enc:.3f} s (not in its times)")
    c = 1.0
    lam = (2.0 if k == 2 else 1.0) / (c * n)
    compare(f"NB+clgd(init=uniform, l2={lam:.3g}) vs LogisticRegression(C={c:g})",
            lambda: make_learner("clgd", init="uniform", l2=lam).fit(net, train, target="Class").network(net),
            lambda: LogisticRegression(C=c).fit(z, y), ours_predict, lambda m: m.predict_proba(zt), yt, repeat)
    if unpenalised:
        compare("NB+clgd(l2=0) vs LogisticRegression(C=inf)",
                lambda: make_learner("clgd", l2=0.0).fit(net, train, target="Class").network(net),
                lambda: LogisticRegression(C=np.inf, max_iter=1000).fit(z, y), ours_predict,
                lambda m: m.predict_proba(zt), yt, repeat)


def status_mib(field: str) -> float:
    """A VmRSS / VmHWM line of /proc/self/status in MiB."""
    with open("/proc/self/status") as handle:
        line = next(row for row in handle if row.startswith(field + ":"))
    return int(line.split()[1]) / 1024


def structure_child(path: str, algorithm: str) -> None:
    """In a fresh process: load the codes, learn ``algorithm`` (nb / tan / kdb, + mp; or nb+clgd), print JSON."""
    codes = np.load(path)
    d = codes.shape[1] - 1
    states = [tuple(str(v) for v in range(int(codes[:, j].max()) + 1 if j < d else 2)) for j in range(d + 1)]
    states = [s if len(s) > 1 else ("0", "1") for s in states]
    names = [f"X{k}" for k in range(d)] + ["Class"]
    loaded = status_mib("VmRSS")
    cpu = time.process_time()
    t0 = time.perf_counter()
    structure = "nb" if algorithm == "nb+clgd" else algorithm
    res = learn_structure(structure, codes, names, states, target="Class", k=1)
    t1 = time.perf_counter()
    method = "clgd" if algorithm == "nb+clgd" else "mp"
    make_learner(method).fit(res.network, codes, target="Class")
    t2 = time.perf_counter()
    print(json.dumps({"structure": t1 - t0, "fit": t2 - t1, "cpu": time.process_time() - cpu,
                      "peak": status_mib("VmHWM"), "loaded": loaded, "arcs": len(res.arcs)}))


def structures(rows: int, widths: list[int], algorithms: list[str]) -> None:
    """TAN / KDB-1 / NB (+ mp) and NB + clgd at each width, each in its own process (module docstring)."""
    from processes import run_child
    print(f"\nTAN / KDB over wide data: {rows} rows; seconds and peak resident memory of each whole child "
          f"process (beyond the loaded codes in brackets); ratio = CPU time / NB structure + mp's", flush=True)
    cases = [(width, 2) for width in widths] + [(widths[0], 8)]
    with tempfile.TemporaryDirectory() as folder:
        for width, states in cases:
            codes, _, _ = wide_categorical(rows, 29, width, states, 2, 0.2 * width * (states - 1))
            path = str(Path(folder) / f"wide_{width}_{states}.npy")
            np.save(path, codes)
            mib = codes.nbytes / 2**20
            del codes
            print(f"  {width} attributes x {rows} rows, {states} states (int64 codes {mib:.0f} MiB):", flush=True)
            base = None
            for algorithm in algorithms:
                out = run_child(os.path.abspath(__file__), path, algorithm)
                if "error" in out:
                    print(f"    {algorithm}: failed: {out['error']}", flush=True)
                    continue
                total = out["structure"] + out["fit"]
                base = out["cpu"] if algorithm == "nb" else base
                ratio = f"x{out['cpu'] / base:.1f} NB" if base else "-"
                print(f"    {algorithm:8s} structure {out['structure']:7.2f} s + fit {out['fit']:6.2f} s = "
                      f"{total:7.2f} s, CPU {out['cpu']:7.2f} s ({ratio}); peak {out['peak']:6.0f} MiB "
                      f"(+{out['peak'] - out['loaded']:.0f} beyond the loaded data); {out['arcs']} arcs", flush=True)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        structure_child(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--attributes", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="2,000 rows x 200 attributes, one repeat")
    parser.add_argument("--structures", action="store_true", help="only the TAN / KDB rows (time, memory)")
    parser.add_argument("--structure-rows", type=int, default=10000)
    parser.add_argument("--widths", default="1000,10000", help="attribute counts of the TAN / KDB rows")
    parser.add_argument("--algorithms", default="nb,tan,kdb,nb+clgd", help="of the TAN / KDB rows")
    args = parser.parse_args()
    if args.structures:
        structures(args.structure_rows, [int(w) for w in args.widths.split(",")], args.algorithms.split(","))
        return
    rows, d, repeat = (2000, 200, 1) if args.quick else (args.rows, args.attributes, 3)
    test = rows // 4
    for states in (2, 8):      # Dirichlet concentration 0.2·d·(|X| − 1): about 3 nats of evidence in all
        codes, names, st = wide_categorical(rows + test, 29, d, states, 2, 0.2 * d * (states - 1))
        run(f"wide {states}-state", codes[:rows], codes[rows:], names, st, repeat, unpenalised=states == 2)
    from sklearn.datasets import load_digits
    digits = load_digits()
    codes = np.column_stack([(digits.data > 7).astype(np.int64), digits.target])
    names = [f"p{j}" for j in range(64)] + ["Class"]
    states = [("0", "1")] * 64 + [tuple(str(v) for v in range(10))]
    run("digits (binarised)", codes[:1200], codes[1200:], names, states, repeat, unpenalised=False)


if __name__ == "__main__":
    main()
