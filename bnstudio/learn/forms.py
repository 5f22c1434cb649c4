"""The learner forms without a widget toolkit: which fields a learner's form shows for its current values, where
they start, and the keywords the values give, all read from the learner registry (:mod:`bnstudio.learn.registry`:
an option's ``applies_when``, ``unset_label`` and ``omit_default``), so the training and structure panels and the
command line follow the same rules (docs/architecture.md §4). The panels' widgets only render these.

A form's values are one per field, None for a field at its "unset" value (the learner decides).

>>> learner_options("clgd", {"criterion": "ae", "alpha": 0.4, "l2": 0.0, "max_iter": 50, "patience": None,
...                          "optimizer": "lbfgs"})
{'criterion': 'ae', 'l2': 0.0, 'optimizer': 'lbfgs', 'max_iter': 50}
>>> learner_options("clgd", {"criterion": "cll", "alpha": 0.0, "l2": None, "max_iter": 50, "patience": None,
...                          "optimizer": "lbfgs"})   # the learner's own default L2 (DEFAULT_L2 / N for clgd)
{'criterion': 'cll', 'optimizer': 'lbfgs', 'max_iter': 50}
"""
from __future__ import annotations

from functools import cache
from typing import Any, Mapping

from bnstudio.learn.registry import PARAMETER_LEARNERS, LearnerEntry, Option, parameter_learner, shown_options

#: each parameter learner's form fields, in registry order
FIELDS = {e.name: tuple(o.name for o in e.shown_options) for e in PARAMETER_LEARNERS}
#: every field of the training form, described as by the first learner taking it
SHOWN: dict[str, Option] = {name: option for name, (option, _methods) in shown_options(PARAMETER_LEARNERS).items()}


@cache
def varying() -> frozenset[str]:
    """The fields whose default differs between the learners that take them (the form resets them with the
    method); read on first use, as the defaults are the learner classes' (the command line imports this module
    without importing the learners)."""
    return frozenset(name for name in SHOWN if len({repr(e.defaults()[name]) for e in PARAMETER_LEARNERS
                                                    if name in e.option_names}) > 1)


def applies(option: Option, values: Mapping[str, Any]) -> bool:
    """Whether ``option`` matters given the form's ``values`` (its ``applies_when`` condition, if any)."""
    if option.applies_when is None:
        return True
    other, value = option.applies_when
    return values.get(other) == value


def fields_shown(entry: LearnerEntry, values: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields of ``entry``'s form that matter for ``values``, in registry order."""
    return tuple(o.name for o in entry.shown_options if applies(o, values))


def keywords(entry: LearnerEntry, values: Mapping[str, Any]) -> dict[str, Any]:
    """The keywords for ``entry.make`` from a form's ``values``: the fields shown (:func:`fields_shown`) that the
    form has, without an unset value (None) where the learner's own default is None too, nor an
    ``omit_default`` option at the learner's default."""
    defaults = entry.defaults()
    out: dict[str, Any] = {}
    for name in fields_shown(entry, values):
        if name not in values:
            continue
        value, default = values[name], defaults[name]
        if (value is None and default is None) or (entry.option(name).omit_default and value == default):
            continue
        out[name] = value
    return out


def visible_fields(method: str, values: Mapping[str, Any]) -> tuple[str, ...]:
    """The training form's fields for parameter learner ``method`` given ``values`` (em's prior and ESS only
    with the mp M-step, clgd's α only with the cll criterion, as the registry says)."""
    return fields_shown(parameter_learner(method), values)


def learner_options(method: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for :func:`bnstudio.learn.params.make_learner` from the training form's ``values``
    (patience None: no early stopping; L2 None: the learner's own penalty; α 0: no mixed objective)."""
    return keywords(parameter_learner(method), values)


def implied(entry: LearnerEntry, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` and what they imply: an option given whose ``applies_when`` condition is on an option not
    given, and not met by the learner's default, sets that option (em: a prior means the mp M-step).

    >>> implied(parameter_learner("em"), {"prior": "bdeu"})
    {'prior': 'bdeu', 'm_step': 'mp'}
    >>> implied(parameter_learner("clgd"), {"alpha": 0.5})     # cll is clgd's default criterion
    {'alpha': 0.5}
    """
    out = dict(options)
    defaults = entry.defaults()
    for option in entry.options:
        if option.name in options and option.applies_when is not None:
            other, value = option.applies_when
            if other not in options and defaults[other] != value:
                out.setdefault(other, value)
    return out


def start_value(name: str) -> Any:
    """The training form's first value of field ``name``: the default of the first learner taking it (fields in
    :func:`varying` then follow the method, :func:`method_starts`); where that is None, unset when the option has
    an unset value, else its lowest value (the seed starts at 0, so a run repeats)."""
    entry = next(e for e in PARAMETER_LEARNERS if name in e.option_names)
    value = entry.defaults()[name]
    option = SHOWN[name]
    if value is None and not option.unset_label:
        return int(option.low or 0) if option.kind == "int" else float(option.low or 0.0)
    return value


def method_starts(method: str) -> dict[str, Any]:
    """The values the form gives ``method``'s fields when the method is chosen: its own defaults
    (``LearnerEntry.defaults()``, the constructor's) for the fields whose default differs between learners,
    so ``em`` starts at 100 iterations and ``clgd`` at 200, as on the command line.

    >>> method_starts("em")["max_iter"], method_starts("clgd")["max_iter"]
    (100, 200)
    """
    defaults = parameter_learner(method).defaults()
    return {name: defaults[name] for name in FIELDS[method] if name in varying() and defaults[name] is not None}


def describe(method: str, options: Mapping[str, Any]) -> str:
    """A short run label from ``method`` and its keywords (:func:`learner_options`): the method and what
    distinguishes it.

    >>> describe("clgd", {"criterion": "cll", "alpha": 0.3, "max_iter": 50})
    'clgd (cll, α=0.30)'
    """
    bits = [str(options[k]) for k in ("criterion", "m_step") if k in options]
    bits += [f"α={options['alpha']:.2f}"] if "alpha" in options else []
    bits += [f"L2={options['l2']:g}"] if options.get("l2") else []
    bits += [f"{options['bags']} {'m-' if options.get('m_bagging') else ''}bags"] if "bags" in options else []
    return method + (f" ({', '.join(bits)})" if bits else "")
