"""The study file: a TOML document (read with the standard library's ``tomllib``) made into a :class:`Study`.

::

    name = "nb-vs-tan"
    folds = 5                      # k-fold cross-validation (or test_fraction = 0.3: one split per seed)
    seeds = [0]                    # each seed: another fold split (and the seed of seeded learners)
    structures = ["nb", "tan", "kdb-2"]          # or tables {label, algorithm, options} / {label, network}
    methods = ["ml", "mp", "clgd", {label = "clgd-l2", method = "clgd", options = {l2 = 1e-3}}]
    metrics = ["error", "cll", "brier", "auc", "ece", "time", "iterations"]
    baseline = "mp"                # the method every other one is compared with in the report

    [[datasets]]
    name = "alarm-BP"
    network = "alarm.bif"          # forward samples of a network (or csv = "x.csv", or generator = "corral")
    rows = 1000
    seed = 11                      # seed = [1, 2] or replicates = 75 make one data set per seed
    target = "BP"

A CSV data set may cut numeric columns: ``discretise = {method = "mdl"}`` (or ``"equal-width"`` /
``"equal-frequency"`` with ``bins``; ``columns`` = the columns, default every numeric column but the target);
the cut points are learnt on each fold's training rows and applied to its test rows (as MLC++ did for Friedman
et al. 1997 and Zhou §4.2; docs/architecture.md §3.26: supervised preprocessing belongs to the fold); only
``per_fold = false`` learns them on the whole file, test rows included, and the report's header says so. A
numeric column of whole numbers with at most ``categorical_max_distinct`` (default 10; 0: none) distinct values
is read as categorical, not cut, unless ``columns`` names it. A generated data set may
be tested on a fixed set instead of cross-validated: ``test_set = "mofn-3-7-10-patterns"`` (every bit pattern
once, Zhou Table 4-1) trains on all its rows and tests on that set, one task per seed. Structures: ``nb``, ``tan``, ``kdb-K``, ``chow-liu``,
``hill-climb``, ``bnc`` (learned on each training part), ``true`` (the network a data set was sampled from) or
``{label = "...", network = "file.bif"}``. Methods: the learners' names, ``m-bagged-mp`` (bagged-mp with
bags of ⌊√n⌋ rows, Singh §4.5.1), or tables with ``options`` (passed to the learner) and ``validation`` (a
fraction of the training rows held out for early stopping). A ``[queries]`` table (``count``, ``seed``,
``query`` and ``evidence`` variables, ``evidence_size = [3, 5]``) evaluates query answers against the generating
network instead of classifying (Singh §4.6). Metrics (:data:`METRICS`): ``auc`` is the macro one-vs-rest
area under the ROC (higher is better; n/a on a fold whose test rows show one state of the target), ``ece`` the
expected calibration error over 10 bins (lower is better), both from :mod:`bnstudio.evaluate.curves`; the
report also draws each data set's reliability diagram, whatever the metrics. Every mistake is one :class:`~bnstudio.errors.FormatError` naming
the file and the key.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping

from bnstudio.errors import FormatError, ValidationError
from bnstudio.io.messages import shorten, shown
from bnstudio.learn.names import ALGORITHMS, METHODS

#: classification scores a study can report (per task, on the held-out rows)
METRICS = ("error", "cll", "ll", "brier", "auc", "ece", "ae", "se", "time", "iterations")
DEFAULT_METRICS = ("error", "cll", "ll", "brier", "auc", "ece", "time", "iterations")
#: what a query study reports: the squared error of each answer against the true network's (Singh §4.6)
QUERY_METRICS = ("mse", "time", "iterations")
GENERATORS = ("mofn-3-7-10", "corral", "parity-2-10", "wide-binary")
#: fixed test sets of generated data sets (``test_set``): name -> the generator whose rows they test
TEST_SETS = {"mofn-3-7-10-patterns": "mofn-3-7-10"}
DISCRETISATIONS = ("mdl", "equal-width", "equal-frequency")
MAX_FOLDS = 1000
MAX_REPLICATES = 100_000
MAX_SEEDS = MAX_FOLDS  # seeds of the study: each one is another split into folds
MAX_QUERIES = 100_000
MAX_ROWS = 100_000_000
STUDY_KEYS = {"name", "folds", "test_fraction", "seeds", "structures", "methods", "metrics", "baseline",
              "datasets", "queries"}


@dataclass(frozen=True)
class DatasetSpec:
    """Where a data set comes from: ``kind`` csv (``source`` = file), network (forward samples of the file
    ``source``) or generator (``source`` = its name); ``rows`` (the first rows of a CSV), ``seed`` (sampling);
    ``discretise`` (:func:`discretise_options`: ``per_fold`` True, the default, learns the cuts on each fold's
    training rows); ``test_set``: a fixed test set (:data:`TEST_SETS`) in place of cross-validation."""

    name: str
    kind: str
    source: str
    target: str | None = None
    rows: int | None = None
    seed: int | None = None
    discretise: Mapping[str, Any] = field(default_factory=dict)
    test_set: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "discretise", discretise_options(self.discretise))

    def to_json(self) -> dict[str, Any]:
        out = {**asdict(self), "discretise": dict(self.discretise)}
        if self.test_set is None:       # only when set: the keys of data sets without one do not change
            del out["test_set"]
        return out

    @property
    def per_fold(self) -> bool:
        """Whether the numeric columns are cut on each fold's training rows (the default of a discretised set)."""
        return bool(self.discretise.get("per_fold"))


#: what a ``discretise`` table holds when a key is left out (``bins`` only for the unsupervised methods)
DISCRETISE_DEFAULTS: dict[str, Any] = {"per_fold": True, "categorical_max_distinct": 10}


def discretise_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with every default written out (none for a data set that is not discretised), so that a spec
    whose cut points are learnt per fold never has the key of whole-file cuts: until issue 35 the whole-file
    cuts were the default and written ``{"method": "mdl"}``, now that table reads per fold and gets a new key."""
    return {**DISCRETISE_DEFAULTS, **options} if options else {}


@dataclass(frozen=True)
class StructureSpec:
    """A structure: learned by ``algorithm`` (with ``options``) on each training part, or a fixed ``network``
    (``"true"``: the data set's generating network; otherwise a file)."""

    label: str
    algorithm: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    network: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "algorithm": self.algorithm, "options": dict(self.options),
                "network": self.network}


@dataclass(frozen=True)
class MethodSpec:
    """A parameter learner ``method`` with its ``options``; ``validation``: held-out share for early stopping.

    Penalties that follow each fold's training size N (``clgd``, ``wanbia``): ``l2_scale`` = c sets the option
    ``l2`` to c / N; ``l2_choices`` = (c₁, c₂, ...) picks c on an inner hold-out of the training rows
    (:data:`~bnstudio.experiment.evaluation.INNER_HOLDOUT`, lowest error, then highest CLL) and refits on all of
    them with c / N — never looking at the test fold."""

    label: str
    method: str
    options: Mapping[str, Any] = field(default_factory=dict)
    validation: float | None = None
    l2_scale: float | None = None
    l2_choices: tuple[float, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "method": self.method, "options": dict(self.options),
                               "validation": self.validation}
        if self.l2_scale is not None:        # only when set: the keys of studies without them do not change
            out["l2_scale"] = self.l2_scale
        if self.l2_choices is not None:
            out["l2_choices"] = list(self.l2_choices)
        return out


@dataclass(frozen=True)
class QuerySpec:
    """Generated queries p(q | e): ``count`` of them, one query variable and ``evidence_size`` evidence
    assignments each (Singh §3.6, §4.6), drawn with ``seed`` among the named variables (default: roots as query
    variables, leaves as evidence)."""

    count: int = 100
    seed: int = 0
    query: tuple[str, ...] | None = None
    evidence: tuple[str, ...] | None = None
    evidence_size: tuple[int, int] = (3, 5)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Study:
    """A whole study: every data set × structure × method × fold × seed is one task."""

    name: str
    datasets: list[DatasetSpec]
    structures: list[StructureSpec]
    methods: list[MethodSpec]
    folds: int | None = 5
    test_fraction: float | None = None
    seeds: list[int] = field(default_factory=lambda: [0])
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    baseline: str | None = None
    queries: QuerySpec | None = None
    source: Path | None = None

    @property
    def evaluation(self) -> str:
        """``classification`` (held-out rows) or ``queries`` (answers against the generating network)."""
        return "queries" if self.queries is not None else "classification"

    def store_path(self) -> Path:
        """The SQLite file next to the study file (``STUDY.toml`` -> ``STUDY.sqlite``)."""
        if self.source is None:
            return Path(f"{self.name}.sqlite")
        return self.source.with_suffix(".sqlite")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "folds": self.folds, "test_fraction": self.test_fraction, "seeds": self.seeds,
                "metrics": self.metrics, "baseline": self.baseline, "evaluation": self.evaluation,
                "datasets": [d.to_json() for d in self.datasets],
                "structures": [s.to_json() for s in self.structures],
                "methods": [m.to_json() for m in self.methods],
                "queries": None if self.queries is None else self.queries.to_json()}


def load_study(path: str | Path) -> Study:
    """Read and check a study file; relative file names in it are relative to its folder."""
    path = Path(path)
    from bnstudio.io.atomic import read_text  # a regular UTF-8 file, else one FormatError line

    text = read_text(path)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"not valid TOML: {exc}", str(path)) from None
    except RecursionError:
        raise FormatError("not valid TOML: nested too deeply", str(path)) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise FormatError(f"not valid TOML: {shorten(str(exc), 120)}", str(path)) from None
    study = study_from_dict(doc, path.parent, str(path))
    study.source = path
    return study


class _Reader:
    """Typed access to the TOML document; every problem is a FormatError naming the file and the key."""

    def __init__(self, source: str, base: Path) -> None:
        self.source, self.base = source, base

    def fail(self, where: str, message: str) -> FormatError:
        return FormatError(f"{where}: {message}" if where else message, self.source)

    def integer(self, where: str, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(where, f"must be an integer in [{low}, {high}], got {shown(value)}")
        return value

    def text(self, where: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"must be a non-empty string, got {shown(value)}")
        return value.strip()

    def table(self, where: str, value: Any, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be a table, got {shown(value)}")
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise self.fail(where, f"unknown key '{unknown[0]}'; the keys are {', '.join(sorted(allowed))}")
        return value

    def texts(self, where: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not value:
            raise self.fail(where, f"must be a non-empty list of strings, got {shown(value)}")
        return tuple(self.text(f"{where}[{k}]", v) for k, v in enumerate(value))

    def file(self, where: str, value: Any) -> str:
        path = Path(self.text(where, value))
        path = path if path.is_absolute() else self.base / path
        from bnstudio.io.atomic import check_regular_file

        try:  # a folder, FIFO or device is said as such, not as "no such file"
            check_regular_file(path)
        except FormatError as exc:
            detail = str(exc).removeprefix(f"{exc.path}: ")
            raise self.fail(where, f"{detail}: {str(path)!r}") from None
        return str(path.resolve())


def study_from_dict(doc: Mapping[str, Any], base: Path, source: str = "study") -> Study:
    """The study described by a parsed TOML document (see the module docstring)."""
    r = _Reader(source, Path(base))
    r.table("", dict(doc), STUDY_KEYS)
    queries = _queries(r, doc["queries"]) if "queries" in doc else None
    folds, fraction = _split(r, doc, queries)
    listed = _list(r, "seeds", doc.get("seeds", [0]), MAX_SEEDS)
    seeds = [r.integer(f"seeds[{k}]", s, 0, 2**63 - 1) for k, s in enumerate(listed)]
    if len(set(seeds)) != len(seeds):
        raise r.fail("seeds", "must be distinct")
    datasets = _datasets(r, doc.get("datasets"), queries)
    default_structures = ["true"] if queries is not None else ["nb", "tan"]
    structures = [_structure(r, f"structures[{k}]", s)
                  for k, s in enumerate(_list(r, "structures", doc.get("structures", default_structures)))]
    methods = [_method(r, f"methods[{k}]", m) for k, m in enumerate(_list(r, "methods", doc.get("methods", ["mp"])))]
    for what, items in (("structures", [s.label for s in structures]), ("methods", [m.label for m in methods])):
        if len(set(items)) != len(items):
            raise r.fail(what, f"labels must be distinct, got {', '.join(items)}")
    allowed = QUERY_METRICS if queries is not None else METRICS
    metrics = list(r.texts("metrics", doc["metrics"])) if "metrics" in doc else (
        ["mse"] if queries is not None else list(DEFAULT_METRICS))
    bad = [m for m in metrics if m not in allowed]
    if bad:
        kind = "a query study" if queries is not None else "a classification study"
        raise r.fail("metrics", f"unknown metric '{bad[0]}' for {kind}; use {', '.join(allowed)}")
    baseline = r.text("baseline", doc["baseline"]) if "baseline" in doc else _default_baseline(methods)
    if baseline not in [m.label for m in methods]:
        raise r.fail("baseline", f"'{baseline}' is not one of the methods ({', '.join(m.label for m in methods)})")
    if queries is not None:
        _check_query_study(r, datasets, structures)
    name = r.text("name", doc["name"]) if "name" in doc else Path(source).stem
    return Study(name, datasets, structures, methods, folds, fraction, seeds, metrics, baseline, queries)


def _list(r: _Reader, where: str, value: Any, limit: int | None = None) -> list[Any]:
    if not isinstance(value, list) or not value:
        raise r.fail(where, f"must be a non-empty list, got {shown(value)}")
    if limit is not None and len(value) > limit:
        raise r.fail(where, f"must have at most {limit:,} entries, got {len(value):,}")
    return value


def _default_baseline(methods: list[MethodSpec]) -> str:
    labels = [m.label for m in methods]
    return "mp" if "mp" in labels else labels[0]


def _split(r: _Reader, doc: Mapping[str, Any], queries: QuerySpec | None) -> tuple[int | None, float | None]:
    """(folds, test_fraction): k-fold by default, a train/test split with ``test_fraction``, none for queries."""
    if "folds" in doc and "test_fraction" in doc:
        raise r.fail("", "give either folds or test_fraction, not both")
    if queries is not None:
        if "folds" in doc or "test_fraction" in doc:
            raise r.fail("queries", "a query study learns from every row: leave out folds and test_fraction")
        return None, None
    if "test_fraction" in doc:
        value = doc["test_fraction"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
            raise r.fail("test_fraction", f"must be a number strictly between 0 and 1, got {shown(value)}")
        return None, float(value)
    return r.integer("folds", doc.get("folds", 5), 2, MAX_FOLDS), None


def _datasets(r: _Reader, value: Any, queries: QuerySpec | None) -> list[DatasetSpec]:
    out: list[DatasetSpec] = []
    for k, item in enumerate(_list(r, "datasets", value)):
        out.extend(_dataset(r, f"datasets[{k}]", item, queries))
    names = [d.name for d in out]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise r.fail("datasets", f"two data sets are named '{dup}'; give each a distinct name")
    return out


def _dataset(r: _Reader, where: str, item: Any, queries: QuerySpec | None) -> list[DatasetSpec]:
    keys = {"name", "csv", "network", "generator", "target", "rows", "seed", "replicates", "discretise",
            "test_set"}
    item = r.table(where, item, keys)
    sources = [k for k in ("csv", "network", "generator") if k in item]
    if len(sources) != 1:
        raise r.fail(where, "needs exactly one of csv, network or generator")
    kind = {"csv": "csv", "network": "network", "generator": "generator"}[sources[0]]
    if kind == "generator":
        source = r.text(f"{where}.generator", item["generator"])
        if source not in GENERATORS:
            raise r.fail(f"{where}.generator", f"unknown generator '{source}'; use {', '.join(GENERATORS)}")
    else:
        source = r.file(f"{where}.{kind}", item[kind])
    target = r.text(f"{where}.target", item["target"]) if "target" in item else None
    if target is None and kind != "generator" and queries is None:
        raise r.fail(where, "needs a target (the class variable)")
    rows = r.integer(f"{where}.rows", item["rows"], 1, MAX_ROWS) if "rows" in item else None
    if rows is None and kind != "csv":
        raise r.fail(where, f"a {kind} data set needs rows (how many to draw)")
    discretise = _discretise(r, f"{where}.discretise", item["discretise"]) if "discretise" in item else {}
    if discretise and kind != "csv":
        raise r.fail(f"{where}.discretise", "applies to CSV data sets only")
    test_set = _test_set(r, f"{where}.test_set", item["test_set"], source, queries) if "test_set" in item else None
    seeds = _dataset_seeds(r, where, item, kind)
    name = r.text(f"{where}.name", item["name"]) if "name" in item else _default_name(kind, source, target)
    named = [name] if len(seeds) == 1 else [f"{name}#{s}" for s in seeds]
    return [DatasetSpec(n, kind, source, target, rows, s, discretise, test_set)
            for n, s in zip(named, seeds, strict=True)]


def _test_set(r: _Reader, where: str, value: Any, source: str, queries: QuerySpec | None) -> str:
    name = r.text(where, value)
    if name not in TEST_SETS:
        raise r.fail(where, f"unknown test set '{name}'; use {', '.join(TEST_SETS)}")
    if TEST_SETS[name] != source:
        raise r.fail(where, f"test set '{name}' tests generator '{TEST_SETS[name]}' data, not '{source}'")
    if queries is not None:
        raise r.fail(where, "a query study fits on every row: it has no test set")
    return name


def _dataset_seeds(r: _Reader, where: str, item: Mapping[str, Any], kind: str) -> list[int | None]:
    seed = item.get("seed", None if kind == "csv" else 0)
    if kind == "csv" and ("seed" in item or "replicates" in item):
        raise r.fail(where, "a CSV data set is read as it is: seed and replicates apply to sampled data sets")
    if isinstance(seed, list):
        if "replicates" in item:
            raise r.fail(where, "give either a list of seeds or replicates, not both")
        seeds = [r.integer(f"{where}.seed[{k}]", s, 0, 2**63 - 1) for k, s in enumerate(_list(r, where, seed, MAX_REPLICATES))]
        if len(set(seeds)) != len(seeds):
            raise r.fail(f"{where}.seed", "must be distinct")
        return list(seeds)
    if seed is None:
        return [None]
    first = r.integer(f"{where}.seed", seed, 0, 2**63 - 1 - MAX_REPLICATES)
    count = r.integer(f"{where}.replicates", item.get("replicates", 1), 1, MAX_REPLICATES)
    return list(range(first, first + count))


def _default_name(kind: str, source: str, target: str | None) -> str:
    stem = source if kind == "generator" else Path(source).stem
    return f"{stem}-{target}" if target else stem


def _discretise(r: _Reader, where: str, value: Any) -> dict[str, Any]:
    spec = r.table(where, value, {"method", "bins", "columns", "per_fold", "categorical_max_distinct"})
    method = r.text(f"{where}.method", spec.get("method", "mdl"))
    if method not in DISCRETISATIONS:
        raise r.fail(f"{where}.method", f"unknown method '{method}'; use {', '.join(DISCRETISATIONS)}")
    out: dict[str, Any] = {"method": method}
    if method != "mdl":
        out["bins"] = r.integer(f"{where}.bins", spec.get("bins", 3), 2, 1000)
    elif "bins" in spec:
        raise r.fail(f"{where}.bins", "mdl chooses the number of intervals itself")
    if "columns" in spec:
        out["columns"] = list(r.texts(f"{where}.columns", spec["columns"]))
    per_fold = spec.get("per_fold", True)
    if not isinstance(per_fold, bool):
        raise r.fail(f"{where}.per_fold", f"must be true or false (true, the default: cut points learnt on each "
                                          f"fold's training rows; false: on the whole file), got {shown(per_fold)}")
    out["per_fold"] = per_fold
    out["categorical_max_distinct"] = r.integer(f"{where}.categorical_max_distinct",
                                                spec.get("categorical_max_distinct", 10), 0, 1000)
    return out


_KDB = re.compile(r"kdb-(\d+)$")


def _structure(r: _Reader, where: str, item: Any) -> StructureSpec:
    if isinstance(item, str):
        match = _KDB.match(item.strip())
        if match:
            return StructureSpec(item.strip(), "kdb", {"k": int(match.group(1))})
        if item.strip() == "true":
            return StructureSpec("true", network="true")
        if item.strip() not in ALGORITHMS:
            raise r.fail(where, f"unknown structure '{item}'; use {', '.join(ALGORITHMS)}, kdb-K, true or a table")
        return StructureSpec(item.strip(), item.strip())
    spec = r.table(where, item, {"label", "algorithm", "options", "network"})
    if ("algorithm" in spec) == ("network" in spec):
        raise r.fail(where, "needs exactly one of algorithm or network")
    if "network" in spec:
        network = "true" if spec["network"] == "true" else r.file(f"{where}.network", spec["network"])
        label = r.text(f"{where}.label", spec.get("label", "true" if network == "true" else Path(network).stem))
        return StructureSpec(label, None, {}, network)
    algorithm = r.text(f"{where}.algorithm", spec["algorithm"])
    if algorithm not in ALGORITHMS:
        raise r.fail(f"{where}.algorithm", f"unknown algorithm '{algorithm}'; use {', '.join(ALGORITHMS)}")
    options = r.table(f"{where}.options", spec.get("options", {}), _structure_options())
    return StructureSpec(r.text(f"{where}.label", spec.get("label", algorithm)), algorithm, dict(options))


def _structure_options() -> set[str]:
    """The structure learners' options a study may set, from the learner registry (data, names and target come
    from the data set)."""
    from bnstudio.learn.registry import STRUCTURE_LEARNERS

    return {option.name for entry in STRUCTURE_LEARNERS for option in entry.options}


def _method(r: _Reader, where: str, item: Any) -> MethodSpec:
    if isinstance(item, str):
        item = {"method": item}
    spec = r.table(where, item, {"label", "method", "options", "validation", "l2_scale", "l2_choices"})
    method = r.text(f"{where}.method", spec.get("method"))
    options = dict(r.table(f"{where}.options", spec.get("options", {}), _any_key(spec.get("options", {}))))
    if method == "m-bagged-mp":     # Singh's m-bagging: bags of floor(sqrt(n)) rows
        method, options = "bagged-mp", {**options, "m_bagging": True}
        spec.setdefault("label", "m-bagged-mp")
    if method not in METHODS:
        raise r.fail(f"{where}.method", f"unknown method '{method}'; use {', '.join(METHODS)} or m-bagged-mp")
    _check_learner(r, f"{where}.options", method, options)
    validation = spec.get("validation")
    if validation is not None and (isinstance(validation, bool) or not isinstance(validation, (int, float))
                                   or not 0 < validation < 1):
        raise r.fail(f"{where}.validation", f"must be a number strictly between 0 and 1, got {shown(validation)}")
    scale, choices = _l2_rule(r, where, spec, method, options)
    return MethodSpec(r.text(f"{where}.label", spec.get("label", method)), method, options,
                      None if validation is None else float(validation), scale, choices)


def _l2_scale_value(r: _Reader, where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1e12:
        raise r.fail(where, f"must be a number in [0, 1e12], got {shown(value)}")
    return float(value)


def _l2_rule(r: _Reader, where: str, spec: Mapping[str, Any], method: str,
             options: Mapping[str, Any]) -> tuple[float | None, tuple[float, ...] | None]:
    """``l2_scale`` (c: l2 = c / N) or ``l2_choices`` (c picked on an inner hold-out), for penalised methods."""
    if "l2_scale" not in spec and "l2_choices" not in spec:
        return None, None
    if method not in ("clgd", "lgd", "wanbia"):
        raise r.fail(where, f"l2_scale and l2_choices apply to clgd, lgd and wanbia, not '{method}'")
    if "l2" in options or ("l2_scale" in spec and "l2_choices" in spec):
        raise r.fail(where, "give one of options.l2, l2_scale and l2_choices")
    if "l2_scale" in spec:
        return _l2_scale_value(r, f"{where}.l2_scale", spec["l2_scale"]), None
    listed = _list(r, f"{where}.l2_choices", spec["l2_choices"], 20)
    return None, tuple(_l2_scale_value(r, f"{where}.l2_choices[{k}]", c) for k, c in enumerate(listed))


def _any_key(value: Any) -> set[str]:
    return set(value) if isinstance(value, dict) else set()


def _check_learner(r: _Reader, where: str, method: str, options: dict[str, Any]) -> None:
    """The learner's own checks (unknown option, value out of range) at load time, not in the middle of a run."""
    from bnstudio.learn.params import make_learner

    try:
        make_learner(method, **options)
    except (ValidationError, TypeError) as exc:
        raise r.fail(where, str(exc)) from None


def _queries(r: _Reader, value: Any) -> QuerySpec:
    spec = r.table("queries", value, {"count", "seed", "query", "evidence", "evidence_size"})
    count = r.integer("queries.count", spec.get("count", 100), 1, MAX_QUERIES)
    seed = r.integer("queries.seed", spec.get("seed", 0), 0, 2**63 - 1)
    query = r.texts("queries.query", spec["query"]) if "query" in spec else None
    evidence = r.texts("queries.evidence", spec["evidence"]) if "evidence" in spec else None
    size = spec.get("evidence_size", [3, 5])
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in size) or not 0 <= size[0] <= size[1]):
        raise r.fail("queries.evidence_size", f"must be [least, most] evidence variables, got {shown(size)}")
    return QuerySpec(count, seed, query, evidence, (size[0], size[1]))


def _check_query_study(r: _Reader, datasets: list[DatasetSpec], structures: list[StructureSpec]) -> None:
    not_sampled = [d.name for d in datasets if d.kind != "network"]
    if not_sampled:
        raise r.fail("queries", f"needs data sampled from a network (the true answers); '{not_sampled[0]}' is not")
    sources = {d.source for d in datasets}
    if len(sources) != 1:
        raise r.fail("queries", "every data set of a query study must be sampled from the same network")
    learned = [s.label for s in structures if s.network is None]
    if learned:
        raise r.fail("queries", f"structures must be fixed networks ('true' or a file), not '{learned[0]}'")
