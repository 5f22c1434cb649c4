"""The one learner shape, parameter and structure alike: scikit-learn's estimator protocol (docs/architecture.md §2).

A learner's constructor takes keyword options with defaults (the defaults live there and only there), checks
each one and keeps it as an attribute under its own name, checked and canonical (``float`` for a number, ``int``
for a count) — so checking a kept value again gives the very same object and ``sklearn.base.clone`` works.
:meth:`Learner.get_params` reads those attributes by the constructor's names; :meth:`Learner.set_params`
checks the new options together with the others by building the learner anew (an unknown name or a bad value is
one ValidationError, and the learner is then unchanged); ``repr`` lists the options away from their defaults.

>>> from bnstudio.learn.params import make_learner
>>> em = make_learner("em", max_iter=20)
>>> em, em.get_params()["max_iter"], em.max_iter
(ExpectationMaximisation(max_iter=20), 20, 20)
>>> em.set_params(tol=1e-4).tol
0.0001
"""
from __future__ import annotations

import inspect
from typing import Any, TypeVar

from bnstudio.errors import ValidationError

L = TypeVar("L", bound="Learner")


class Learner:
    """What every learner shares: its options by their constructor names (scikit-learn's ``get_params`` /
    ``set_params``) and a ``repr`` of the non-default ones. Subclasses keep each option as an attribute of
    the same name; ``name`` is the registry name (``mp``, ``hill-climb``) and ``kind`` what the name is called
    in messages (``method`` or ``algorithm``)."""

    name: str = ""
    kind: str = "learner"

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The constructor's keywords, in signature order."""
        return tuple(_signature(cls))

    def get_params(self, deep: bool = False) -> dict[str, Any]:
        """The options as the constructor takes them, by name (``deep`` is scikit-learn's; options are never
        estimators here, so it changes nothing)."""
        return {key: getattr(self, key) for key in self.option_names()}

    def set_params(self: L, **options: Any) -> L:
        """Change options by name, checked with the others as the constructor checks them; returns ``self``.
        An unknown name is a ValidationError naming the learner and its options; on any error nothing changes."""
        names = self.option_names()
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise ValidationError(f"{self.kind} '{self.name or type(self).__name__}' has no option "
                                  f"'{unknown[0]}'; its options: {', '.join(names) if names else 'none'}")
        fresh = type(self)(**{**self.get_params(), **options})
        self.__dict__.update(fresh.__dict__)
        return self

    def __repr__(self) -> str:
        """``ClassName(option=value, ...)`` with the options that differ from the constructor's defaults."""
        defaults = {key: p.default for key, p in _signature(type(self)).items()}
        changed = [f"{key}={value!r}" for key, value in self.get_params().items()
                   if not same_value(value, defaults[key])]
        return f"{type(self).__name__}({', '.join(changed)})"


def same_value(a: Any, b: Any) -> bool:
    """Whether two option values are the same: identical, equal plain values (numbers, text), or lists or tuples
    of such values (a network or an array is the same only as the very object)."""
    if a is b:
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):       # arcs given as a list or a tuple
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                       and not isinstance(a, bool) and not isinstance(b, bool)):
        return False
    if isinstance(a, (str, int, float, frozenset)):
        try:
            return bool(a == b)
        except (TypeError, ValueError):
            return False
    return False


def _signature(cls: type) -> dict[str, inspect.Parameter]:
    """The constructor's keyword parameters (not ``*args`` or ``**kwargs``)."""
    parameters = inspect.signature(cls).parameters
    return {key: p for key, p in parameters.items()
            if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)}
