"""Held-out conditional log-likelihood and error of ml, mp, clgd and wanbia on NB and TAN, k-fold, seeded.

    .venv/bin/python benchmarks/discriminative_bench.py [--quick] [--grid] [--rows N] [--folds K]
    .venv/bin/python benchmarks/discriminative_bench.py --papers R

What the defaults of ``clgd`` and ``wanbia`` are judged by (docs/learning.md): discriminative training should
beat ``ml`` / ``mp`` on held-out CLL (Zhou 2002, Table 4-2; Zaidi et al. §7), not over-fit toward zero CLL.
For each data set (resources/data, the first N rows), class variable and fold, the structure (NB or TAN) is
learned on the training part only, then every method fits its parameters there; the held-out rows are scored
by log p(class | attributes) in closed form (complete rows: log p(y, x) for every class value, log-sum-exp), so
a zero in a CPT shows up as -inf instead of an exception. Reported: mean held-out CLL (natural log, per row),
classification error (over the folds whose fit succeeded), and per method the smallest CPT entry, the number
of training rows with p(e) = 0 (log-space sums), of failed fits, and of folds where ``evaluate`` refused the
training rows (ImpossibleEvidence from underflow), over all folds. scikit-learn's LogisticRegression (default
C = 1, one-hot attributes) is the reference peer for NB + clgd. ``--grid`` adds clgd / wanbia at several L2
strengths (c / N per training case) to show how the default was chosen. Runs our code only (plus scikit-learn
when installed), so it also runs against an older checkout: ``PYTHONPATH=<old checkout> python
benchmarks/discriminative_bench.py`` gives the "before" figures.

``--papers R`` instead measures rules for clgd's L2 on the data sets of ``bnstudio experiment --suite papers`` at
1,000 network rows (``papers_suite(rows=1000)``, the suite's size when these rules were compared; NB, TAN, KDB-1
learned on each training part, 5 folds): replicate 0 is that suite, replicate r > 0 draws
fresh samples (data seeds + 1000 r) and folds (seed r). Rules, none of which looks at the test fold: the default
c / N; L2 chosen by 3-fold cross-validation on the training rows (held-out CLL, c in 1, 10, 100, 1000; Zaidi et
al. §5.2 suggest tuning λ so); early stopping on 20% of the training rows with patience 5 and a refit on all of
them for the best number of iterations (default L2); early stopping alone (l2 = 0, the best validation
parameters). Prints wins/draws/losses against mp per replicate and pooled over the replicates (paired by data
set and replicate; Wilcoxon signed-rank test on the fold means).
"""
from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
from scipy.special import logsumexp

from bnstudio.data import align, read_csv
from bnstudio.data.split import k_folds
from bnstudio.evaluate import evaluate
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.terms import Terms
from bnstudio.learn.structure.api import learn_structure

ROOT = Path(__file__).resolve().parents[1] / "resources"
CASES = [("insurance", "PropCost", 1200), ("insurance", "Accident", 1200), ("alarm", "BP", 1000),
         ("child", "Disease", 1000), ("asia", "lung", 1000), ("sachs", "Akt", 1000)]
QUICK = [("insurance", "PropCost", 1200), ("child", "Disease", 600)]


def class_log_posteriors(net, codes: np.ndarray, target: str) -> np.ndarray:
    """log p(y = k | x) for complete rows, (n, |Y|); rows with p(x) = 0 get -inf everywhere."""
    t = net.variables.index(target)
    terms = Terms(net)
    joint = []
    for k in range(net.cardinality(target)):
        rows = codes.copy()
        rows[:, t] = k
        with np.errstate(divide="ignore"):
            joint.append(terms.stats(rows, np.ones(len(rows)), want_counts=False).logp)
    joint = np.column_stack(joint)
    with np.errstate(invalid="ignore"):
        norm = logsumexp(joint, axis=1, keepdims=True)
        return np.where(np.isfinite(norm), joint - norm, -np.inf)


def held_out_scores(net, test: np.ndarray, target: str) -> tuple[float, float]:
    """(mean log p(q | e), error rate) on complete rows."""
    y = test[:, net.variables.index(target)]
    post = class_log_posteriors(net, test, target)
    own = post[np.arange(len(y)), y]
    return float(own.mean()), float((post.argmax(axis=1) != y).mean())


def impossible_training_rows(net, train: np.ndarray) -> int:
    with np.errstate(divide="ignore"):
        return int((~np.isfinite(Terms(net).stats(train, np.ones(len(train)), want_counts=False).logp)).sum())


def evaluate_fails(net, train: np.ndarray, target: str) -> bool:
    """Whether ``evaluate`` (the batched engine, not the log-space sums above) refuses the training rows."""
    try:
        with np.errstate(all="ignore"):
            evaluate(net, train, target)
    except Exception:
        return True
    return False


def methods(structure: str, grid: bool) -> list[tuple[str, str, dict]]:
    """(label, method, options); ``None`` l2 means the learner's default."""
    out = [("ml", "ml", {}), ("mp", "mp", {}), ("clgd", "clgd", {}), ("clgd l2=0", "clgd", {"l2": 0.0}),
           ("wanbia", "wanbia", {}), ("wanbia l2=0", "wanbia", {"l2": 0.0})]
    if grid:
        for c in (0.1, 0.3, 1.0, 3.0, 30.0):     # the default is c = 10
            out += [(f"clgd c={c:g}", "clgd", {"l2_per_n": c}), (f"wanbia c={c:g}", "wanbia", {"l2_per_n": c})]
    return out


def logistic_regression(train: np.ndarray, test: np.ndarray, t: int, cards: list[int]) -> tuple[float, float]:
    """scikit-learn's LogisticRegression (lbfgs, C = 1) on one-hot attributes: the NB + clgd peer."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import OneHotEncoder
    attrs = [j for j in range(train.shape[1]) if j != t]
    enc = OneHotEncoder(categories=[np.arange(cards[j]) for j in attrs], handle_unknown="ignore")
    x_train, x_test = enc.fit_transform(train[:, attrs]), enc.transform(test[:, attrs])
    model = LogisticRegression(max_iter=5000).fit(x_train, train[:, t])
    proba = np.full((len(test), cards[t]), 1e-300)
    proba[:, model.classes_] = np.maximum(model.predict_proba(x_test), 1e-300)
    y = test[:, t]
    return float(np.log(proba[np.arange(len(y)), y]).mean()), float((proba.argmax(axis=1) != y).mean())


def run_case(name: str, target: str, n: int, folds: int, seed: int, grid: bool) -> dict:
    net = read_network(ROOT / "networks" / f"{name}.bif")
    codes = align(read_csv(ROOT / "data" / f"{name}.csv", allow_constant=True), net).codes[:n]
    names, states = net.variables, [net.states(v) for v in net.variables]
    t = names.index(target)
    results: dict = {}
    for train_idx, test_idx in k_folds(len(codes), folds, seed):
        train, test = codes[train_idx], codes[test_idx]
        for structure in ("nb", "tan"):
            base = learn_structure(structure, train, names, states, target=target).network
            for label, method, options in methods(structure, grid):
                options = dict(options)
                if "l2_per_n" in options:
                    options["l2"] = options.pop("l2_per_n") / len(train)
                cell = results.setdefault((structure, label), {"cll": [], "err": [], "min": [], "bad": 0,
                                                               "reasons": set(), "failed": 0, "eval": 0})
                try:
                    with np.errstate(all="ignore"):
                        fitted = make_learner(method, **options).fit(base, train, target=target)
                        net_fit = fitted.network(base)
                except Exception as exc:    # an older checkout: non-finite CPTs are refused by the network
                    cell["failed"] += 1
                    cell["reasons"].add(type(exc).__name__)
                    continue
                cll, err = held_out_scores(net_fit, test, target)
                cell["cll"].append(cll), cell["err"].append(err)
                cell["min"].append(min(float(np.min(net_fit.cpt(v))) for v in names))
                cell["bad"] += impossible_training_rows(net_fit, train)
                cell["eval"] += evaluate_fails(net_fit, train, target)
                cell["reasons"].add(fitted.stop_reason)
            if structure == "nb":
                try:
                    cll, err = logistic_regression(train, test, t, [net.cardinality(v) for v in names])
                except ImportError:
                    continue
                cell = results.setdefault(("nb", "sklearn LR C=1"), {"cll": [], "err": [], "min": [], "bad": 0,
                                                                     "reasons": {"-"}, "failed": 0, "eval": 0})
                cell["cll"].append(cll), cell["err"].append(err), cell["min"].append(math.nan)
    return results


# ------------------------------------------------------------------------------------- --papers: L2 rules
L2_GRID = (1.0, 10.0, 100.0, 1000.0)
RULES = ("clgd 10/N", "clgd L2 by CV", "clgd early stop+refit", "clgd early stop, l2=0")


def _cll(net, fit, codes: np.ndarray, target: str) -> float:
    from bnstudio.experiment.scores import classification_scores

    return classification_scores(fit.network(net), codes, target, fit.ensemble)["cll"]


def cv_l2(net, train: np.ndarray, target: str, seed: int, folds: int = 3) -> float:
    """c of the L2 c / N with the best held-out CLL in ``folds``-fold cross-validation on the training rows."""
    def score(c: float) -> float:
        return sum(_cll(net, make_learner("clgd", l2=c / len(tr)).fit(net, train[tr], target=target), train[te],
                        target) * len(te) for tr, te in k_folds(len(train), folds, seed))
    return max(L2_GRID, key=score)


def rule_fits(net, train: np.ndarray, target: str, seed: int) -> tuple[dict, float]:
    """Every rule's fit on ``train``, and the c that cross-validation chose."""
    from bnstudio.data.split import train_test_indices

    keep, held = train_test_indices(len(train), 0.2, seed)
    stopped = make_learner("clgd", patience=5).fit(net, train[keep], target=target, validation=train[held])
    best = int(np.argmin([h["val_cnll"] for h in stopped.history])) + 1
    c = cv_l2(net, train, target, seed)
    return {"mp": make_learner("mp").fit(net, train, target=target),
            RULES[0]: make_learner("clgd").fit(net, train, target=target),
            RULES[1]: make_learner("clgd", l2=c / len(train)).fit(net, train, target=target),
            RULES[2]: make_learner("clgd", max_iter=best).fit(net, train, target=target),
            RULES[3]: make_learner("clgd", l2=0.0, patience=5).fit(net, train[keep], target=target,
                                                                   validation=train[held])}, c


def papers_unit(job: tuple[int, int, str, int]) -> tuple[tuple, dict]:
    """(replicate, data set, structure, fold) -> {rule: (error, CLL)} on the held-out fold, and under "c" the
    cross-validated c."""
    import dataclasses

    from bnstudio.experiment.datasets import prepare
    from bnstudio.experiment.evaluation import derived_seed, split_rows
    from bnstudio.experiment.scores import classification_scores
    from bnstudio.experiment.suite import papers_suite

    replicate, index, structure, fold = job
    spec = papers_suite(rows=1000).datasets[index]
    data = prepare(dataclasses.replace(spec, seed=spec.seed + 1000 * replicate))
    train, test = split_rows(len(data.codes), {"folds": 5}, fold, replicate)
    options = {"k": 1} if structure == "kdb" else {}
    net = learn_structure(structure, data.codes[train], data.names, data.states, target=data.target,
                          **options).network
    fits, c = rule_fits(net, data.codes[train], data.target, derived_seed(replicate, fold, 2))
    scores = {rule: classification_scores(fit.network(net), data.codes[test], data.target) for rule, fit in
              fits.items()}
    return (replicate, data.name, structure, fold), {"c": c, **{r: (s["error"], s["cll"]) for r, s in
                                                               scores.items()}}


def papers(replicates: int) -> None:
    """Run :func:`papers_unit` for every replicate, data set, structure and fold on two processes; print tables."""
    from concurrent.futures import ProcessPoolExecutor

    from bnstudio.experiment.summary import paired_comparison
    from bnstudio.experiment.worker_start import worker_context

    jobs = [(r, d, s, f) for r in range(replicates) for d in range(8) for s in ("nb", "tan", "kdb")
            for f in range(5)]
    start = time.perf_counter()
    with ProcessPoolExecutor(2, mp_context=worker_context()) as pool:
        results = dict(pool.map(papers_unit, jobs))
    print(f"{len(jobs)} (replicate, data set, structure, fold) units in {time.perf_counter() - start:.0f} s; "
          "wins/draws/losses against mp, Wilcoxon p")
    means: dict = {}
    chosen: dict = {}
    for (replicate, name, structure, _), scores in results.items():
        c = scores.pop("c")
        chosen.setdefault(structure, {}).setdefault(c, 0)
        chosen[structure][c] += 1
        for rule, values in scores.items():
            means.setdefault((replicate, name, structure, rule), []).append(values)
    keys = sorted({(r, n) for r, n, _, _ in means})
    for metric, col in (("error", 0), ("cll", 1)):
        for structure in ("nb", "tan", "kdb"):
            for subset, label in [([k for k in keys if k[0] == r], f"replicate {r}") for r in range(replicates)] \
                    + [(keys, "pooled")]:
                cells = []
                for rule in RULES:
                    a = [np.mean([v[col] for v in means[r, n, structure, rule]]) for r, n in subset]
                    b = [np.mean([v[col] for v in means[r, n, structure, "mp"]]) for r, n in subset]
                    c = paired_comparison(a, b, metric)
                    cells.append(f"{c.wins}/{c.draws}/{c.losses} p={c.wilcoxon_p:.3f}")
                print(f"  {metric:5} {structure:4} {label:11} " + " | ".join(
                    f"{rule}: {cell}" for rule, cell in zip(RULES, cells, strict=True)), flush=True)
    for structure, counts in chosen.items():
        print(f"  c chosen by cross-validation, {structure}: " + ", ".join(
            f"{c:g}: {k} fits" for c, k in sorted(counts.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two data sets only")
    parser.add_argument("--grid", action="store_true", help="also clgd / wanbia at several L2 strengths")
    parser.add_argument("--rows", type=int, help="rows per data set (default: per data set, 600-1200)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--papers", type=int, metavar="R", help="L2 rules on the papers suite, R replicates")
    args = parser.parse_args()
    if args.papers:
        papers(args.papers)
        return
    for name, target, n in QUICK if args.quick else CASES:
        n = args.rows or n
        start = time.perf_counter()
        results = run_case(name, target, n, args.folds, args.seed, args.grid)
        print(f"\n{name}, class {target}, {n} rows, {args.folds}-fold ({time.perf_counter() - start:.0f} s)")
        print(f"  {'structure':9} {'method':16} {'held-out CLL':>12} {'error':>7} {'min entry':>10} "
              f"{'p(e)=0 train':>12} {'failed':>6} {'eval fails':>10}  stop")
        for (structure, label), cell in results.items():
            cll = np.mean(cell["cll"]) if cell["cll"] else math.nan
            err = np.mean(cell["err"]) if cell["err"] else math.nan
            smallest = np.nanmin(cell["min"]) if not np.all(np.isnan(cell["min"] or [math.nan])) else math.nan
            print(f"  {structure:9} {label:16} {cll:12.4f} {err:7.3f} {smallest:10.2g} {cell['bad']:12d} "
                  f"{cell['failed']:6d} {cell['eval']:10d}  {','.join(sorted(cell['reasons']))}", flush=True)


if __name__ == "__main__":
    main()
