"""Built-in studies (``bnstudio experiment --suite NAME``).

* ``papers`` — generative against discriminative parameters (Zhou Table 4-2; Zaidi et al. §7) on 8 data sets:
  Kohavi's mofn-3-7-10 (300 rows, Zhou's training size) and corral (128 rows, Zhou's size), and 5,000 fresh
  forward samples of the bundled networks with one discrete class each (insurance: PropCost and Accident, ALARM:
  BP, CHILD: Disease, ASIA: lung, SACHS: Akt, a discretised protein level) — samples drawn here, never the
  bundled CSV files the learners' defaults were chosen on. Structures NB, TAN and KDB-1 learned on each training
  part; methods ml, mp, clgd and wanbia with their default options; 5-fold cross-validation, one seed.
  Why 5,000 rows: on TAN and KDB-1, which are close to these networks' truth, CLGD's gain over the generative
  fit grows with n (Zhou §4.2.2 expects less gain on better structures; Figure 4.7 measures it over sample
  sizes). With 1,000 rows the two are at noise level on error (TAN 13/7/12 over 4 replicates, p = 0.33); with
  5,000, 21/5/6 (p < 0.001). ``benchmarks/papers_sizes_bench.py`` measures both; docs/experiments.md has the
  tables. ``papers_suite(rows=1000)`` is the small-sample version.
* ``singh-bagging`` — Singh §4.6's second experiment: ALARM, 75 data sets of n = 100 rows, 100 queries with one of
  ALARM's 8 diagnoses as query variable and 3 to 5 of its 16 findings as evidence (Beinlich et al. 1989), the
  true structure, and MP (uniform prior: Laplace, one pseudo-count per cell) against bagged MP and m-bagged MP
  (bags of ⌊√n⌋ rows), 30 bags each; the answers are compared with the true network's.
* ``ng-jordan`` — Ng & Jordan's (NIPS 2001, Fig. 1) learning curve on wide 0/1 data: the ``wide-binary``
  generator (200 bits, 20 of them noisy copies of others, so NB's independence assumption is wrong) at 7 sizes
  from 50 to 3,200 rows, 4 data sets (seeds) each, NB + mp (the generative classifier) against NB + clgd (= logistic regression, Zaidi et al. §3)
  with its default L2 toward the mp start and as plain logistic regression (``lr``: L2 toward β = 0, i.e.
  scikit-learn's LogisticRegression with C = 0.2, docs/learning.md), 5-fold cross-validation; the report draws
  held-out error against training rows.
* ``defaults`` — the evidence for clgd's default L2 (:func:`defaults_suite`: 24 data sets, NB and TAN, ``mp``
  against clgd with L2 = c / N for c = 0, 1, 10 and c chosen on the training rows), its protocol and decision rule
  written down before it ran (docs/experiments.md, "Choosing clgd's default"); ``defaults-seeds`` repeats it over
  seeds 0, 1 and 2.
* ``path`` — the automatic L2 rules ``l2 = "path"`` and ``"path-fine"`` of clgd (a warm-started penalty path
  on one inner hold-out) against ``mp`` and the default on the ``defaults`` suite's data sets (:func:`path_suite`).
* ``zhou`` — Zhou's protocol on four Table 4-2 rows (:func:`zhou_suite`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from bnstudio.errors import ValidationError
from bnstudio.experiment.spec import DatasetSpec, MethodSpec, QuerySpec, StructureSpec, Study
from bnstudio.resources import resource_root, suite_data

SUITES = ("papers", "singh-bagging", "ng-jordan", "defaults", "defaults-seeds", "path", "zhou")
NETWORK_CLASSES = [("insurance", "PropCost"), ("insurance", "Accident"), ("alarm", "BP"), ("child", "Disease"),
                   ("asia", "lung"), ("sachs", "Akt")]
ALARM_DIAGNOSES = ("HYPOVOLEMIA", "LVFAILURE", "ANAPHYLAXIS", "INSUFFANESTH", "PULMEMBOLUS", "INTUBATION",
                   "KINKEDTUBE", "DISCONNECT")
ALARM_FINDINGS = ("CVP", "PCWP", "HISTORY", "TPR", "BP", "CO", "HRBP", "HREKG", "HRSAT", "PAP", "SAO2", "FIO2",
                  "PRESS", "EXPCO2", "MINVOL", "MINVOLSET")


def networks_folder() -> Path:
    """The bundled example networks (``resources/networks``, read through :mod:`bnstudio.resources`)."""
    return resource_root() / "networks"


def papers_suite(rows: int = 5000, folds: int = 5) -> Study:
    """The ``papers`` study (see the module docstring)."""
    folder = networks_folder()
    datasets = [DatasetSpec("mofn-3-7-10", "generator", "mofn-3-7-10", "Class", 300, 1),
                DatasetSpec("corral", "generator", "corral", "Class", 128, 2)]
    datasets += [DatasetSpec(f"{name}-{target}", "network", str(folder / f"{name}.bif"), target, rows, 100 + k)
                 for k, (name, target) in enumerate(NETWORK_CLASSES)]
    structures = [StructureSpec("nb", "nb"), StructureSpec("tan", "tan"), StructureSpec("kdb-1", "kdb", {"k": 1})]
    methods = [MethodSpec(m, m) for m in ("ml", "mp", "clgd", "wanbia")]
    return Study("papers", datasets, structures, methods, folds=folds, seeds=[0], baseline="mp")


def singh_bagging_suite(rows: int = 100, replicates: int = 75, queries: int = 100, bags: int = 30) -> Study:
    """The ``singh-bagging`` query study (see the module docstring)."""
    alarm = str(networks_folder() / "alarm.bif")
    datasets = [DatasetSpec(f"alarm-n{rows}#{seed}", "network", alarm, None, rows, seed)
                for seed in range(1, replicates + 1)]
    methods = [MethodSpec("mp", "mp"), MethodSpec("bagged-mp", "bagged-mp", {"bags": bags}),
               MethodSpec("m-bagged-mp", "bagged-mp", {"bags": bags, "m_bagging": True})]
    spec = QuerySpec(queries, 0, ALARM_DIAGNOSES, ALARM_FINDINGS, (3, 5))
    return Study("singh-bagging", datasets, [StructureSpec("true", network="true")], methods, folds=None,
                 seeds=[0], metrics=["mse"], baseline="mp", queries=spec)


def ng_jordan_suite(sizes: tuple[int, ...] = (50, 100, 200, 400, 800, 1600, 3200), replicates: int = 4,
                    folds: int = 5) -> Study:
    """The ``ng-jordan`` learning-curve study (see the module docstring); data seed = 10⁶ · replicate + size."""
    datasets = [DatasetSpec(f"wide-binary-n{rows}#{r}", "generator", "wide-binary", "Class", rows, 10**6 * r + rows)
                for rows in sizes for r in range(1, replicates + 1)]
    methods = [MethodSpec("mp", "mp"), MethodSpec("clgd", "clgd"), MethodSpec("lr", "clgd", {"init": "uniform"})]
    return Study("ng-jordan", datasets, [StructureSpec("nb", "nb")], methods, folds=folds, seeds=[0],
                 baseline="mp")


def suite_data_folder() -> Path:
    """The suites' bundled tables (``resources/data/suite``: scikit-learn's data sets as CSV)."""
    return suite_data()


def uci_dataset(name: str, rows: int | None = None, per_fold: bool = True,
                categorical_max_distinct: int = 10) -> DatasetSpec:
    """A bundled UCI table (``resources/data/suite/NAME.csv``, class ``Class``), its numeric columns cut by
    Fayyad & Irani's MDL rule (the supervised entropy discretisation Zhou §4.2 used) on each fold's training rows,
    or (``per_fold=False``) on the whole file; integer columns with at most ``categorical_max_distinct`` distinct
    values stay categorical (0: every numeric column is cut)."""
    discretise = {"method": "mdl", "per_fold": per_fold, "categorical_max_distinct": categorical_max_distinct}
    return DatasetSpec(name, "csv", str(suite_data_folder() / f"{name}.csv"), "Class", rows, discretise=discretise)


#: (network, class, rows): the ``defaults`` suite's network samples, fixed before any result was seen
DEFAULTS_NETWORKS = [("asia", "dysp", 100), ("sachs", "Akt", 200), ("sachs", "Erk", 1000),
                     ("child", "Disease", 500), ("child", "Sick", 2000), ("insurance", "PropCost", 1000),
                     ("insurance", "DrivQuality", 300), ("insurance", "ThisCarDam", 5000),
                     ("alarm", "BP", 1000), ("alarm", "HYPOVOLEMIA", 300), ("alarm", "CO", 5000),
                     ("hailfinder", "R5Fcst", 1000), ("hailfinder", "Scenario", 2000),
                     ("hepar2", "PBC", 500), ("hepar2", "ChHepatitis", 2000), ("win95pts", "Problem1", 1000),
                     ("win95pts", "NetOK", 200)]
#: the ``defaults`` suite's candidate rules for clgd's L2 = c / N (N the fold's training rows)
DEFAULTS_L2_SCALES = (0.0, 1.0, 10.0)


def defaults_suite(folds: int = 5, seeds: tuple[int, ...] = (0,), per_fold: bool = True,
                   categorical_max_distinct: int = 10) -> Study:
    """The ``defaults`` study: the evidence for clgd's default L2 (docs/experiments.md, "Choosing clgd's
    default"). 24 data sets: 3 generated concepts (mofn-3-7-10 and corral at Zhou's sizes, parity-2-10), 4 UCI
    tables bundled with scikit-learn (MDL-discretised) and 17 forward samples of 8 networks (hailfinder, hepar2
    and win95pts from the bnlearn repository among them) with several classes and 100 to 5,000 rows; NB and TAN learned per fold; ``mp`` against
    ``clgd`` with L2 = c / N for c in 0 (Zhou's unpenalised fit), 1 and 10, and c picked per fold on an inner
    hold-out of the training rows; 5-fold cross-validation, seed 0. Data sets, metrics and the rule for
    choosing were written down before the first run. ``defaults-seeds`` is the follow-up after the decision:
    the same study over seeds 0, 1 and 2 (three splits per data set). The UCI tables are cut on each fold's
    training rows; ``per_fold=False, categorical_max_distinct=0`` gives the cuts of the runs before issue 35 (on
    the whole file, every numeric column)."""
    folder = networks_folder()
    datasets = [DatasetSpec("mofn-3-7-10", "generator", "mofn-3-7-10", "Class", 300, 1),
                DatasetSpec("corral", "generator", "corral", "Class", 128, 2),
                DatasetSpec("parity-2-10", "generator", "parity-2-10", "Class", 400, 3)]
    datasets += [uci_dataset(name, per_fold=per_fold, categorical_max_distinct=categorical_max_distinct)
                 for name in ("iris", "wine", "breast-wdbc", "digits")]
    datasets += [DatasetSpec(f"{name}-{target}-n{rows}", "network", str(folder / f"{name}.bif"), target, rows,
                             200 + k) for k, (name, target, rows) in enumerate(DEFAULTS_NETWORKS)]
    structures = [StructureSpec("nb", "nb"), StructureSpec("tan", "tan")]
    methods = [MethodSpec("mp", "mp")]
    methods += [MethodSpec(f"clgd-c{c:g}", "clgd", l2_scale=c) for c in DEFAULTS_L2_SCALES]
    methods += [MethodSpec("clgd-auto", "clgd", l2_choices=DEFAULTS_L2_SCALES)]
    name = "defaults" if tuple(seeds) == (0,) else "defaults-seeds"
    return Study(name, datasets, structures, methods, folds=folds, seeds=list(seeds),
                 metrics=["error", "cll", "time"], baseline="mp")


def path_suite(folds: int = 5) -> Study:
    """The ``path`` study (docs/experiments.md, "A cheaper automatic rule"; protocol fixed before it ran): the
    ``defaults`` suite's 24 data sets, NB and TAN, ``mp`` against clgd with the default L2 (c = 10) and with the
    automatic rules ``l2 = "path"`` and ``"path-fine"`` (:func:`bnstudio.learn.params.gradient.penalty_path_fit`);
    5-fold cross-validation, seed 0."""
    base = defaults_suite(folds=folds)
    methods = [MethodSpec("mp", "mp"), MethodSpec("clgd-c10", "clgd", l2_scale=10.0)]
    methods += [MethodSpec(f"clgd-{rule}", "clgd", {"l2": rule}) for rule in ("path", "path-fine")]
    return Study("path", base.datasets, base.structures, methods, folds=folds, seeds=[0],
                 metrics=["error", "cll", "time"], baseline="mp")


def zhou_suite(folds: int = 5, seeds: tuple[int, ...] | range = (0,), per_fold: bool = True,
               changed: dict[str, Any] | None = None) -> Study:
    """The ``zhou`` preset: Zhou's protocol (§4.2, Table 4-1, Table 4-2) on the four rows that can be rebuilt
    here — corral (128 rows) and mofn-3-7-10 (300) generated by their definitions, iris and breast (the original
    Wisconsin set, 683 complete rows, ``resources/data/suite/breast-wisconsin.csv``) MDL-discretised on each
    fold's training rows (as MLC++ did for Friedman et al. 1997; every numeric column, breast's 1–10 ratings too,
    as there: ``categorical_max_distinct`` 0). NB and TAN; LM (our ``mp``: one pseudo-count
    per cell) against CLGD as Zhou ran it (:data:`ZHOU_OPTIONS`): initialised from LM, no penalty (l2 = 0),
    Polak–Ribière conjugate gradient with Brent line minimisation and frprmn's stop. 5-fold cross-validation,
    seed 0, for corral, iris and breast; mofn-3-7-10 on Zhou's fixed split: trained on its 300 rows and tested
    on all 1,024 bit patterns (``test_set``; :func:`zhou_mofn_holdout` runs it outside a study). For the
    comparisons in docs/experiments.md: ``per_fold=False`` cuts iris and breast on the whole file, and
    ``changed`` replaces options of :data:`ZHOU_OPTIONS` (e.g. ``{"optimizer": "lbfgs"}``)."""
    datasets = [DatasetSpec("corral", "generator", "corral", "Class", 128, 2),
                DatasetSpec("mofn-3-7-10", "generator", "mofn-3-7-10", "Class", 300, 1,
                            test_set="mofn-3-7-10-patterns"),
                uci_dataset("iris", per_fold=per_fold, categorical_max_distinct=0),
                uci_dataset("breast-wisconsin", per_fold=per_fold, categorical_max_distinct=0)]
    methods = [MethodSpec("lm", "mp"), MethodSpec("clgd-zhou", "clgd", {**ZHOU_OPTIONS, **(changed or {})})]
    return Study("zhou", datasets, [StructureSpec("nb", "nb"), StructureSpec("tan", "tan")], methods,
                 folds=folds, seeds=list(seeds), metrics=["error", "cll", "time", "iterations"], baseline="lm")


#: Zhou Table 4-2, error in % as (mean, standard error) per (data set, structure, method) of the ``zhou`` preset
ZHOU_TABLE_4_2 = {(data, structure, method): cell
                  for data, row in (("corral", ((13.60, 2.99), (9.60, 1.60), (0.80, 0.80), (0.00, 0.00))),
                                    ("mofn-3-7-10", ((13.28, 1.06), (0.00, 0.00), (9.28, 0.91), (0.00, 0.00))),
                                    ("iris", ((4.67, 0.82), (4.67, 0.82), (5.33, 0.82), (4.67, 0.82))),
                                    ("breast-wisconsin", ((3.45, 0.83), (4.46, 0.48), (3.45, 0.58), (3.88, 0.37))))
                  for (structure, method), cell in zip((("nb", "lm"), ("nb", "clgd-zhou"), ("tan", "lm"),
                                                        ("tan", "clgd-zhou")), row, strict=True)}


def zhou_check(rows: list[dict[str, Any]]) -> list[tuple[str, str, str, list[float], int]]:
    """Per Table 4-2 cell of the ``zhou`` preset's finished ``rows`` (:meth:`StudyStore.rows`): (data set,
    structure, method, the error in % of each seed's split — the mean over its folds —, how many of them lie
    within Zhou's ± of his mean). Zhou's ± are standard errors (his corral TAN + LM 0.80 ± 0.80 is one error in
    one fold)."""
    per: dict[tuple[str, str, str], dict[int, list[float]]] = {}
    for row in rows:
        per.setdefault((row["dataset"], row["structure"], row["method"]), {}).setdefault(
            row["seed"], []).append(100 * row["metrics"]["error"])
    out = []
    for key, (mean, se) in ZHOU_TABLE_4_2.items():
        means = [sum(v) / len(v) for _, v in sorted(per.get(key, {}).items())]
        out.append((*key, means, sum(abs(m - mean) <= se + 1e-9 for m in means)))
    return out


#: the ``zhou_stopping_suite``'s CLGD variants: label -> options changed from :data:`ZHOU_OPTIONS`
ZHOU_VARIANTS: dict[str, dict[str, Any]] = {**{f"tol-{t:g}": {"tol": t} for t in (1e-3, 1e-4, 1e-5, 1e-8)}, "cg": {"optimizer": "cg"}, "lbfgs": {"optimizer": "lbfgs"},
                 "init-ml": {"init": "ml"}, "init-uniform": {"init": "uniform"},
                 **{f"iter-{k}": {"max_iter": k} for k in (2, 3, 5, 10, 20)}}


def zhou_stopping_suite() -> Study:
    """Where the ``zhou`` preset's corral, iris and breast CLGD cells depend on how CLGD stops or starts: the
    preset's folds, LM and CLGD as Zhou ran it against :data:`ZHOU_VARIANTS` (another tolerance, scipy's CG,
    the ML or uniform start, an iteration cap); docs/experiments.md, "The zhou preset"."""
    base = zhou_suite()
    methods = base.methods + [MethodSpec(label, "clgd", {**ZHOU_OPTIONS, **changed})
                              for label, changed in ZHOU_VARIANTS.items()]
    return Study("zhou-stopping", [d for d in base.datasets if d.name != "mofn-3-7-10"], base.structures,
                 methods, folds=base.folds, seeds=[0], metrics=["error", "iterations"], baseline="lm")


def zhou_mofn_holdout(seed: int = 1, rows: int = 300) -> dict[tuple[str, str], float]:
    """Zhou's protocol for mofn-3-7-10 (Table 4-1: a fixed split, not cross-validation): NB and TAN learned on
    one sample of ``rows`` rows (:func:`~bnstudio.experiment.generators.mofn_3_7_10`, ``seed``), LM (``mp``) and
    CLGD as Zhou ran it (:data:`ZHOU_OPTIONS`) fitted there, and the error on all 1,024 bit patterns
    (:func:`~bnstudio.experiment.generators.mofn_3_7_10_patterns`). Returns {(structure, method): error}; the
    preset's mofn-3-7-10 row cross-validates one sample instead (the study runner has one split per study)."""
    from bnstudio.experiment.generators import mofn_3_7_10, mofn_3_7_10_patterns
    from bnstudio.experiment.scores import classification_scores
    from bnstudio.learn.params import make_learner
    from bnstudio.learn.structure.api import learn_structure

    train, names, states = mofn_3_7_10(rows, seed)
    test = mofn_3_7_10_patterns()[0]
    errors = {}
    for structure in ("nb", "tan"):
        net = learn_structure(structure, train, names, states, target="Class").network
        for label, method, options in (("lm", "mp", {}), ("clgd-zhou", "clgd", ZHOU_OPTIONS)):
            fit = make_learner(method, **options).fit(net, train, target="Class")
            error = classification_scores(fit.network(net), test, "Class")["error"]
            assert error is not None  # every one of the 1,024 patterns has its class
            errors[structure, label] = error
    return errors


#: clgd as Zhou ran it (§3.2.2, §4.2.1): LM start, no penalty, Numerical Recipes' Polak–Ribière conjugate gradient
#: with Brent's line minimisation (``optimizer="pr-brent"``, :mod:`bnstudio.learn.params.conjugate`), which he
#: cites. He states none of its tolerances, so the book's are used, fixed before the preset was run with them:
#: FTOL = 1e-6 (``tol``: frprmn's stop 2|f_new − f_old| ≤ FTOL(|f_new| + |f_old| + 1e-10), the value of its example
#: driver), ITMAX = 200 (``max_iter``, frprmn's), and linmin's TOL = 2e-4 for Brent's method
#: (:data:`~bnstudio.learn.params.conjugate.LINE_TOL`, about the square root of single precision, the book's
#: arithmetic)
ZHOU_OPTIONS: dict[str, Any] = {"l2": 0.0, "init": "mp", "optimizer": "pr-brent", "tol": 1e-6, "max_iter": 200}

_BUILDERS: dict[str, Callable[[], Study]] = {
    "papers": papers_suite, "singh-bagging": singh_bagging_suite, "ng-jordan": ng_jordan_suite,
    "defaults": defaults_suite, "defaults-seeds": lambda: defaults_suite(seeds=(0, 1, 2)), "path": path_suite,
    "zhou": zhou_suite}


def suite(name: str) -> Study:
    """The built-in study called ``name``."""
    if name not in _BUILDERS:
        raise ValidationError(f"unknown suite '{name}'; use {', '.join(SUITES)}")
    return _BUILDERS[name]()
