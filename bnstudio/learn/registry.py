"""The learner registry: one entry per learner, parameter and structure, the only place a learner is described.

An entry names the learner, the class that implements it (imported on first use, so the command line can offer
the names and options without importing the learners or scipy), its options (type, range, help, form label),
what it needs (a target, a structure) and whether it is seeded or iterative, and the rules a form follows (when
an option applies, its "unset" value: :class:`Option`). The command line's options (:mod:`bnstudio.cli.fit`,
:mod:`bnstudio.cli.learn`), the forms of the training and structure panels (their Qt-free logic in
:mod:`bnstudio.learn.forms`), the training panel's target check, the study file's validation and
:func:`bnstudio.learn.params.make_learner` are generated from it. Default values are *not* written here: they are
the learner class's constructor defaults (:meth:`LearnerEntry.defaults`), one place for each.

Adding a learner: write its class (``__init__`` stores and checks its options, ``fit`` returns a result with a
history and a stop reason), add one entry below; tests/learn/test_conformance.py then runs it through the shared
checks (docs/architecture.md §4).

>>> parameter_learner("wanbia").needs_target, [o.name for o in parameter_learner("mp").options]
(True, ['prior', 'ess', 'prior_network'])
"""
from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from bnstudio.defaults import DEFAULT_L2
from bnstudio.errors import ValidationError
from bnstudio.learn.bounds import MAX_BAGS, MAX_ESS, MAX_ITER, MAX_L2, MAX_MEMORY_BUDGET, MAX_RESTARTS, MIN_ESS

#: scores that decompose over families
DECOMPOSABLE = ("bic", "bdeu", "k2", "ll")
#: every structure score
SCORES = DECOMPOSABLE + ("cll", "cll-mdl")

#: option kinds: what a front end shows and parses
KINDS = ("int", "float", "bool", "choice", "network", "arcs", "tiers", "start", "variable", "text")


@dataclass(frozen=True)
class Option:
    """One hyper-parameter: its keyword, kind, accepted range or choices and a one-line help.

    ``optional``: None is a value, meaning "the learner decides" (e.g. a fresh seed, the DEFAULT_L2 / N penalty).
    ``advanced``: offered by the API only, not by the command line or the forms (tolerances, memory budget);
    likewise ``api_choices``, choices beyond ``choices`` that need an advanced option (a prior network).

    The rules the forms and the command line read (:mod:`bnstudio.learn.forms`, docs/architecture.md §4):
    ``unset_label``: an optional option's "unset" (None) in a form, under this name ("off", "default", "random"):
    a combo's item or a spin box's value one step below its range; without it a form always sets the option
    (the training form's seed, so a run repeats). ``applies_when``: ``(other, value)``, the option matters only
    when option ``other`` of the same learner is ``value`` (em's prior with the mp M-step): a form hides it
    otherwise and the command line implies ``other`` when the option is given alone. ``omit_default``: a form
    leaves the option out of the keywords at the learner's default (α 0, the plain discriminative objective).
    """

    name: str
    kind: str
    help: str
    label: str = ""
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    choices: tuple[str, ...] = ()
    api_choices: tuple[str, ...] = ()
    optional: bool = False
    advanced: bool = False
    unset_label: str = ""
    applies_when: tuple[str, str] | None = None
    omit_default: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r}")
        if self.unset_label and not self.optional:
            raise ValueError(f"option {self.name}: an unset label needs optional=True (None as a value)")

    @property
    def flag(self) -> str:
        """The command-line flag: ``--max-iter`` for ``max_iter``."""
        return "--" + self.name.replace("_", "-")

    def describe_range(self) -> str:
        """The accepted values as a short text (``1..10000000``, ``[0, 1]``, ``laplace, bdeu``)."""
        if self.choices:
            return ", ".join(self.choices)
        if self.kind == "int" and self.low is not None and self.high is not None:
            return f"{int(self.low)}..{int(self.high)}"
        if self.low is not None and self.high is not None:
            return f"{'(' if self.low_open else '['}{self.low:g}, {self.high:g}]"
        if self.low is not None:
            return f"{'>' if self.low_open else '>='} {self.low:g}"
        return ""


@dataclass(frozen=True)
class LearnerEntry:
    """One learner: ``kind`` is "parameters" (``fit(net, data, ...)``) or "structure" (``fit(data, names, ...)``).

    ``factory`` is "module:Class"; ``fixed`` are keywords the name implies (``lgd`` is gradient training on the
    log-likelihood); ``needs_target`` says whether ``fit`` requires a target (class) variable; ``structure``
    says which network structures it accepts.
    """

    name: str
    kind: str
    factory: str
    summary: str
    options: tuple[Option, ...]
    fixed: Mapping[str, Any] = field(default_factory=dict)
    needs_target: bool = False
    structure: str = "any"
    seeded: bool = False
    iterative: bool = False

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.options)

    @property
    def shown_options(self) -> tuple[Option, ...]:
        """The options the command line and the forms offer."""
        return tuple(o for o in self.options if not o.advanced)

    def learner_class(self) -> type:
        module, name = self.factory.split(":")
        return getattr(importlib.import_module(module), name)

    def defaults(self) -> dict[str, Any]:
        """Each option's default value: the learner class's own constructor default (the one place it is kept)."""
        parameters = inspect.signature(self.learner_class()).parameters
        return {o.name: parameters[o.name].default for o in self.options}

    def make(self, **options: Any) -> Any:
        """The learner with these options; an option it does not take is a one-line ValidationError."""
        unknown = sorted(set(options) - set(self.option_names))
        if unknown:
            kind = "method" if self.kind == "parameters" else "algorithm"
            raise ValidationError(f"{kind} '{self.name}' has no option '{unknown[0]}'; its options: "
                                  f"{', '.join(self.option_names) if self.options else 'none'}")
        return self.learner_class()(**self.fixed, **options)


# -- the options, each written once and shared by the learners that take it ----------------------------------------

PRIOR = Option("prior", "choice", "Dirichlet prior: laplace (ess pseudo-counts per cell) or bdeu (ess spread over "
               "the family); the API also takes network (a prior network's CPTs times ess)", "Prior",
               choices=("laplace", "bdeu"), api_choices=("network",))
ESS = Option("ess", "float", "pseudo-counts per cell (laplace) or equivalent sample size (bdeu)", "ESS",
             low=MIN_ESS, high=MAX_ESS)
PRIOR_NETWORK = Option("prior_network", "network", "the prior network of prior 'network'", advanced=True)
MAX_ITER_OPTION = Option("max_iter", "int", "iteration limit", "Max iterations", low=1, high=MAX_ITER)
TOL = Option("tol", "float", "relative improvement below which the run has converged", low=0.0, advanced=True)
MAX_TIME = Option("max_time", "float", "time limit in seconds (inf: none)", low=0.0, low_open=True, advanced=True)
SEED = Option("seed", "int", "seed for anything random (default: fresh entropy, a different result each run)",
              "Seed", low=0, high=2 ** 63 - 1, optional=True)
MEMORY = Option("memory_budget", "int", "bytes one batched propagation may use", low=1, high=MAX_MEMORY_BUDGET,
                advanced=True)
L2 = Option("l2", "float", "L2 penalty per case: clgd toward its generative start, wanbia toward w = 1 (default "
            f"for both {DEFAULT_L2:g}/N, N = rows), lgd on beta (default 0)", "L2 penalty", low=0.0, high=MAX_L2, optional=True,
            unset_label="default")
OPTIMIZER = Option("optimizer", "choice", "gradient optimiser", "Optimiser", choices=("lbfgs", "cg", "pr-brent"))
PATIENCE = Option("patience", "int", "stop after this many iterations without improvement of the validation "
                  "score (needs validation rows; default: no early stopping)", "Patience", low=1, high=MAX_ITER,
                  optional=True, unset_label="off")
GRADIENT_INIT = Option("init", "choice", "where the gradient starts", choices=("mp", "ml", "current", "uniform"),
                       advanced=True)
CRITERION = Option("criterion", "choice", "clgd criterion: conditional log-likelihood, absolute or squared error",
                   "Criterion", choices=("cll", "ae", "se"))
ALPHA = Option("alpha", "float", "clgd mixed objective log p(q|e) + alpha log p(e), 0..1", "α (mixed)",
               low=0.0, high=1.0, omit_default=True)
#: clgd's mixed objective: with the cll criterion only
CLGD_ALPHA = replace(ALPHA, applies_when=("criterion", "cll"))
LEVEL = Option("level", "choice", "wanbia weighting level", "Weights",
               choices=("attribute", "attribute-value", "attribute-value-class", "parameter"))
M_STEP = Option("m_step", "choice", "em M-step: ml or mp (with the prior)", "M-step", choices=("ml", "mp"))
#: em's prior and its strength matter with the mp M-step only
EM_PRIOR, EM_ESS = (replace(o, applies_when=("m_step", "mp")) for o in (PRIOR, ESS))
RESTARTS = Option("restarts", "int", "em random restarts", "Restarts", low=0, high=MAX_RESTARTS)
EM_INIT = Option("init", "choice", "where em starts", choices=("current", "random"), advanced=True)
BAGS = Option("bags", "int", "bagged-mp: number of bootstrap bags", "Bags", low=1, high=MAX_BAGS)
M_BAGGING = Option("m_bagging", "bool", "bags of floor(sqrt(n)) rows instead of n (Singh §4.6.1)", "m-bagging")
RESAMPLE = Option("resample", "bool", "draw bootstrap bags (off: every bag is the data)", advanced=True)

_ITERATIVE = (MAX_ITER_OPTION, TOL, MAX_TIME)
_PARAMS = "bnstudio.learn.params."

#: the parameter learners, in the order the front ends list them
PARAMETER_LEARNERS: tuple[LearnerEntry, ...] = (
    LearnerEntry("ml", "parameters", _PARAMS + "counting:MaximumLikelihood", "maximum likelihood", ()),
    LearnerEntry("mp", "parameters", _PARAMS + "counting:MeanPosterior", "mean posterior (Dirichlet)",
                 (PRIOR, ESS, PRIOR_NETWORK)),
    LearnerEntry("em", "parameters", _PARAMS + "em:ExpectationMaximisation", "expectation maximisation",
                 (M_STEP, EM_PRIOR, EM_ESS, *_ITERATIVE, RESTARTS, EM_INIT, SEED, MEMORY), seeded=True, iterative=True),
    LearnerEntry("lgd", "parameters", _PARAMS + "gradient:GradientTraining", "gradient on log-likelihood",
                 (replace(ALPHA, advanced=True, high=0.0, help="0: lgd has no mixed objective"), L2, OPTIMIZER, GRADIENT_INIT, *_ITERATIVE, PATIENCE, MEMORY), fixed={"criterion": "ll"},
                 iterative=True),
    LearnerEntry("clgd", "parameters", _PARAMS + "gradient:GradientTraining", "discriminative gradient",
                 (CRITERION, CLGD_ALPHA, L2, OPTIMIZER, GRADIENT_INIT, *_ITERATIVE, PATIENCE, MEMORY),
                 needs_target=True, iterative=True),
    LearnerEntry("wanbia", "parameters", _PARAMS + "wanbia:WeightedConditional", "weighted conditional",
                 (LEVEL, L2, PRIOR, ESS, *_ITERATIVE, MEMORY), needs_target=True,
                 structure="class root, attributes with at most one attribute parent", iterative=True),
    LearnerEntry("bagged-mp", "parameters", _PARAMS + "bagging:BaggedMeanPosterior", "bagged mean posterior",
                 (BAGS, PRIOR, ESS, M_BAGGING, RESAMPLE, SEED, MEMORY), seeded=True),
)

# -- structure learners -----------------------------------------------------------------------------------------------

SCORE = Option("score", "choice", "decomposable score (default ll: mutual information for the trees, reported "
               "value for nb / kdb)", "Score", choices=DECOMPOSABLE, optional=True, unset_label="default")
SEARCH_SCORE = Option("score", "choice", "score to climb (default bic; ll needs max_parents)", "Score",
                      choices=DECOMPOSABLE, optional=True, unset_label="default")
BNC_SCORE = Option("score", "choice", "cll (BNC-kP, max_parents default 2) or cll-mdl (BNC-MDL)", "Score",
                   choices=("cll", "cll-mdl"), optional=True, unset_label="default")
STRUCTURE_ESS = Option("ess", "float", "equivalent sample size (bdeu, k2, priors)", "Equivalent sample size",
                       low=MIN_ESS, high=MAX_ESS)
MAX_PARENTS = Option("max_parents", "int", "at most this many parents per variable (default: no limit)",
                     "Max parents", low=0, optional=True, unset_label="no limit")
REQUIRED = Option("required", "arcs", "arcs (parent, child) every result has")
FORBIDDEN = Option("forbidden", "arcs", "arcs (parent, child) no result has")
TIERS = Option("tiers", "tiers", "lists of names: a later tier is never a parent of an earlier one", optional=True)
STRUCTURE_PRIOR = Option("prior", "choice", "parameters of the returned network: mean posterior with ess "
                         "(default: maximum likelihood)", "Parameters", choices=("laplace", "bdeu"), optional=True,
                         unset_label="maximum likelihood")
ROOT = Option("root", "variable", "root of the tree (default: the first variable)", "Tree root", optional=True,
              unset_label="first variable")
K = Option("k", "int", "attribute parents per attribute", "k (KDB parents)", low=0)
START = Option("start", "start", "empty, tree, nb, a network or arcs (default: hill-climb the Chow-Liu tree, "
               "bnc the empty network)", optional=True)
TABU = Option("tabu", "int", "tabu search: moves in a row without improvement", "Tabu list", low=0, high=MAX_ITER)
SEARCH_RESTARTS = Option("restarts", "int", "random restarts", "Random restarts", low=0, high=MAX_RESTARTS)
PERTURB = Option("perturb", "int", "random moves per restart", "Moves per restart", low=1, high=MAX_ITER,
                 optional=True, unset_label="default")
SEARCH_MAX_ITER = Option("max_iter", "int", "moves per climb (0: keep the start; default: no limit)", "Max moves",
                         low=0, high=MAX_ITER, optional=True, unset_label="no limit")
SEARCH_SEED = Option("seed", "int", "seed of the restarts (default: fresh entropy)", "Seed", low=0,
                     high=2 ** 63 - 1, optional=True, unset_label="random")

_CONSTRAINTS = (STRUCTURE_ESS, MAX_PARENTS, REQUIRED, FORBIDDEN, TIERS, STRUCTURE_PRIOR)
_SEARCH = (START, TABU, SEARCH_RESTARTS, PERTURB, SEARCH_SEED, SEARCH_MAX_ITER)
_STRUCTURE = "bnstudio.learn.structure.learners:"

#: the structure learners, in the order the front ends list them
STRUCTURE_LEARNERS: tuple[LearnerEntry, ...] = (
    LearnerEntry("nb", "structure", _STRUCTURE + "NaiveBayes", "naive Bayes", (SCORE, *_CONSTRAINTS),
                 needs_target=True),
    LearnerEntry("tan", "structure", _STRUCTURE + "TreeAugmented", "tree-augmented naive Bayes (TAN)",
                 (SCORE, *_CONSTRAINTS, ROOT), needs_target=True),
    LearnerEntry("kdb", "structure", _STRUCTURE + "KDependence", "k-dependence Bayesian classifier (KDB)",
                 (SCORE, *_CONSTRAINTS, K), needs_target=True),
    LearnerEntry("chow-liu", "structure", _STRUCTURE + "ChowLiu", "Chow-Liu tree", (SCORE, *_CONSTRAINTS, ROOT)),
    LearnerEntry("hill-climb", "structure", _STRUCTURE + "HillClimb", "hill climbing (score search)",
                 (SEARCH_SCORE, *_CONSTRAINTS, *_SEARCH), seeded=True, iterative=True),
    LearnerEntry("bnc", "structure", _STRUCTURE + "ConditionalSearch", "BNC (discriminative, CLL)",
                 (BNC_SCORE, *_CONSTRAINTS, *_SEARCH), needs_target=True, seeded=True, iterative=True),
)

#: parameter-learning methods (``make_learner(method)``)
METHODS = tuple(e.name for e in PARAMETER_LEARNERS)
#: structure-learning algorithms (``make_structure_learner(algorithm)``)
ALGORITHMS = tuple(e.name for e in STRUCTURE_LEARNERS)


def parameter_learner(method: str) -> LearnerEntry:
    """The entry of a parameter learner; an unknown name is a one-line ValidationError listing the names."""
    for entry in PARAMETER_LEARNERS:
        if entry.name == method:
            return entry
    raise ValidationError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")


def structure_learner(algorithm: str) -> LearnerEntry:
    """The entry of a structure learner; an unknown name is a one-line ValidationError listing the names."""
    for entry in STRUCTURE_LEARNERS:
        if entry.name == algorithm:
            return entry
    raise ValidationError(f"unknown algorithm {algorithm!r}; use one of {', '.join(ALGORITHMS)}")


def options_text(entry: LearnerEntry) -> str:
    """The options of ``entry`` as a bullet list (name, kind or choices, range, default, help), for the docstring
    of the learner's class: ``help(type(make_learner("mp")))`` lists ``prior``, ``ess`` and ``prior_network``."""
    defaults = entry.defaults()
    lines = [f"Options of ``{entry.name}`` ({entry.summary}; :mod:`bnstudio.learn.registry`):", ""]
    for option in entry.options:
        kind = "{" + ", ".join(option.choices + option.api_choices) + "}" if option.choices else option.kind
        text = "" if option.choices else option.describe_range()
        bounds = f" {text}" if text.startswith(("<", ">")) else f" in {text}" if text else ""
        lines.append(f"* ``{option.name}`` ({kind}{bounds}, default ``{defaults[option.name]!r}``): {option.help}")
    fixed = ", ".join(f"``{k}={v!r}``" for k, v in entry.fixed.items())
    return "\n".join(lines + ([f"* fixed by the name: {fixed}"] if fixed else [] if entry.options else ["* none"]))


def document_options(entries: tuple[LearnerEntry, ...]) -> None:
    """Append :func:`options_text` of each entry to its class's docstring (a class serving two entries, such as
    lgd and clgd, lists both)."""
    for entry in entries:
        cls = entry.learner_class()
        cls.__doc__ = inspect.cleandoc(cls.__doc__ or "") + "\n\n" + options_text(entry)


def shown_options(entries: tuple[LearnerEntry, ...]) -> dict[str, tuple[Option, tuple[str, ...]]]:
    """Every option a front end offers, once per keyword, with the learners that take it (in registry order).

    Learners may share a keyword with their own help (``score``); the first entry's option describes it."""
    out: dict[str, tuple[Option, tuple[str, ...]]] = {}
    for entry in entries:
        for option in entry.shown_options:
            first, names = out.get(option.name, (option, ()))
            out[option.name] = (first, names + (entry.name,))
    return out
