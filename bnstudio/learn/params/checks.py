"""Hyper-parameter checks at the learner boundary: one-line :class:`ValidationError` naming the option.

Every learner validates its options in its constructor (``make_learner`` and the CLI pass them straight through),
so a bad value fails before any data is touched, with a message naming the option as the user types it and the
accepted range, e.g. ``l2 must be a finite number >= 0, got -5``.

>>> check_number("l2", 0.5, low=0.0)
0.5
>>> check_number("l2", -5, low=0.0)
Traceback (most recent call last):
...
bnstudio.errors.ValidationError: l2 must be a finite number >= 0, got -5
>>> check_integer("max_iter", 0, low=1, high=MAX_ITER)
Traceback (most recent call last):
...
bnstudio.errors.ValidationError: max_iter must be an integer in [1, 10000000], got 0
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

from bnstudio.errors import ValidationError
from bnstudio.learn.bounds import MAX_ESS, MAX_ITER, MAX_L2, MAX_MEMORY_BUDGET, MIN_ESS  # noqa: F401 (re-exported)


def show(value: Any) -> str:
    """A value as the user typed it: -5 for -5.0, nan, inf, 'text' for strings."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        number = float(value)
        return str(int(number)) if number.is_integer() and abs(number) < 1e16 else f"{number:g}"
    return repr(value)


def _bound(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


def _range(low: float | None, high: float | None, low_open: bool, high_open: bool) -> str:
    if low is not None and high is not None:
        return f"in {'(' if low_open else '['}{_bound(low)}, {_bound(high)}{')' if high_open else ']'}"
    if low is not None:
        return f"{'>' if low_open else '>='} {_bound(low)}"
    if high is not None:
        return f"{'<' if high_open else '<='} {_bound(high)}"
    return ""


def check_number(name: str, value: Any, *, low: float | None = None, high: float | None = None,
                 low_open: bool = False, high_open: bool = False, allow_inf: bool = False) -> float:
    """``value`` as a float if it is a real number (finite unless ``allow_inf``) within the bounds."""
    accepted = _range(low, high, low_open, high_open)
    kind = "a number" if allow_inf else "a finite number"
    message = f"{name} must be {kind}{' ' + accepted if accepted else ''}, got {show(value)}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValidationError(message)
    number = float(value)
    if math.isnan(number) or (math.isinf(number) and not allow_inf):
        raise ValidationError(message)
    if low is not None and (number < low or (low_open and number == low)):
        raise ValidationError(message)
    if high is not None and (number > high or (high_open and number == high)):
        raise ValidationError(message)
    return number


def check_integer(name: str, value: Any, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int if it is a whole number (not a bool) within [low, high]."""
    accepted = _range(low, high, False, False)
    message = f"{name} must be an integer{' ' + accepted if accepted else ''}, got {show(value)}"
    if isinstance(value, bool):
        raise ValidationError(message)
    if isinstance(value, numbers.Integral):
        number = int(value)
    elif isinstance(value, numbers.Real) and math.isfinite(float(value)) and float(value).is_integer():
        number = int(value)  # type: ignore[call-overload]  # the stubs give numbers.Real no __int__; floats have one
    else:
        raise ValidationError(message)
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValidationError(message)
    return number


def check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise ValidationError(f"unknown {name} {value!r}; use one of {', '.join(choices)}")
    return value


def check_seed(value: Any) -> int | None:
    """None or a non-negative integer below 2**63 (what numpy's generators take)."""
    return None if value is None else check_integer("seed", value, low=0, high=2 ** 63 - 1)


def check_ess(value: Any) -> float:
    """An equivalent sample size (pseudo-counts) in [MIN_ESS, MAX_ESS]."""
    return check_number("ess (the equivalent sample size)", value, low=MIN_ESS, high=MAX_ESS)


def check_memory_budget(value: Any) -> int:
    """The bytes one batched propagation (or batch of bags, rows) may use: an integer in [1, 2^50]. Batches are
    chunked to it; only a single case that does not fit raises MemoryBudgetExceeded."""
    return check_integer("memory_budget", value, low=1, high=MAX_MEMORY_BUDGET)
