"""Stopping: the shared knobs (:class:`StopRule`), the stop reasons, and the optimiser driver (:func:`minimise`).

Every :class:`~bnstudio.learn.params.base.FitResult` says why its run ended, in one small vocabulary:

==================  ==========================================================================================
``closed_form``     a one-shot estimate (``ml``, ``mp``, ``bagged-mp``)
``converged``       the optimiser met its tolerance, and every objective value on the way was finite and never
                    worse than the one before
``max_iter``        the iteration (or function-evaluation) limit was reached first
``max_time``        the time limit was reached first
``early_stopping``  the validation score did not improve for ``patience`` iterations (best validation
                    parameters returned)
``stalled``         the optimiser stopped short of its tolerance without a limit (line search failed, no
                    progress possible in floating point); the best parameters seen are returned
``diverged``        the objective became non-finite or got worse; the best finite parameters seen are returned
==================  ==========================================================================================

A run stopped by its reporter raises :class:`~bnstudio.errors.Cancelled` and returns nothing
(docs/architecture.md §3.5).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from scipy.optimize import minimize

from bnstudio.errors import ValidationError
from bnstudio.learn.params.checks import MAX_ITER, check_integer, check_number

STOP_REASONS = ("closed_form", "converged", "max_iter", "max_time", "early_stopping", "stalled", "diverged")
#: each stop reason in words, for the front ends (the app's results and status line)
STOP_TEXT = {"closed_form": "closed form", "converged": "converged", "max_iter": "iteration limit reached",
             "max_time": "time limit reached", "early_stopping": "stopped early (validation)",
             "stalled": "stalled (no further progress)", "diverged": "diverged (best finite kept)"}


def stop_text(reason: str) -> str:
    """A stop reason in words (an unknown or empty reason, e.g. from an old project file, as it is)."""
    return STOP_TEXT.get(reason, reason)

#: relative slack for "got worse": objective values that differ by rounding only are not a divergence
ROUNDING = 1e-9


def _slack(value: float) -> float:
    """How far a loss may move from ``value`` by rounding alone."""
    return ROUNDING * max(abs(value), 1.0)


@dataclass(frozen=True)
class StopRule:
    """Shared stopping knobs: at most ``max_iter`` iterations, relative improvement ``tol``, ``max_time`` s.

    Validated here: ``max_iter`` an integer in [1, 10^7], ``tol`` a finite number ≥ 0, ``max_time`` > 0 (inf allowed).
    """

    max_iter: int = 100
    tol: float = 1e-6
    max_time: float = math.inf

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_iter", check_integer("max_iter", self.max_iter, low=1, high=MAX_ITER))
        object.__setattr__(self, "tol", check_number("tol", self.tol, low=0.0))
        object.__setattr__(self, "max_time", check_number("max_time", self.max_time, low=0.0, low_open=True,
                                                          allow_inf=True))

    def reason(self, iteration: int, previous: float, current: float, elapsed: float) -> str | None:
        """Why to stop now (or None) for a quantity that must never decrease (EM's log-likelihood or
        log-posterior): "diverged" if it is not finite or fell by more than rounding, "converged" when the
        relative change is at most ``tol``, then "max_iter" or "max_time"."""
        scale = max(abs(previous), 1e-12)
        if not math.isfinite(current) or current < previous - _slack(previous):
            return "diverged"
        if abs(current - previous) <= self.tol * scale:
            return "converged"
        if iteration >= self.max_iter:
            return "max_iter"
        if elapsed >= self.max_time:
            return "max_time"
        return None


class StopRun(Exception):
    """Raised by an iteration hook to end a run now with ``reason`` (``early_stopping``, ``max_time``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Outcome:
    """Where a :func:`minimise` run ended: the parameters to return, their loss and the honest stop reason."""

    x: np.ndarray
    loss: float
    reason: str
    message: str
    evaluations: int
    iterations: int


def minimise(fun: Callable[[np.ndarray], tuple[float, np.ndarray]], x0: np.ndarray, stop: StopRule,
             on_iterate: Callable[[np.ndarray], None], method: str = "L-BFGS-B",
             options: dict | None = None) -> Outcome:
    """Minimise ``fun`` (loss and gradient) from ``x0`` with scipy, watching every accepted iterate.

    At most ``stop.max_iter`` iterations; L-BFGS-B's relative-reduction tolerance is ``stop.tol`` (``options``
    adds or overrides scipy options). ``on_iterate(x)`` is called at ``x0`` and at each iterate (histories,
    progress); it may raise :class:`StopRun`.
    The run is ``diverged`` as soon as an iterate's loss is non-finite or higher than the previous one (beyond
    rounding), or when the optimiser gives up after a non-finite evaluation. Whether it ``converged`` is judged
    from what the optimiser did (:func:`judge_end`), never from scipy's wording, which changes between releases.
    The returned ``x`` is always the iterate with the lowest finite loss.
    A non-finite loss at ``x0`` is a :class:`ValidationError` (there is nothing finite to return).
    """
    state: dict[str, Any] = {"evaluations": 1, "nonfinite": False, "reason": None}  # changed by the closures
    x0 = np.array(x0, dtype=float)
    loss0, grad0 = fun(x0)
    if not (math.isfinite(loss0) and np.all(np.isfinite(grad0))):
        raise ValidationError("the training objective is not finite at the starting parameters")
    best: dict[str, Any] = {"loss": float(loss0), "x": x0}
    path = Trajectory(float(loss0), x0)
    try:
        on_iterate(x0)
    except StopRun as stop_run:
        return Outcome(x0, float(loss0), stop_run.reason, stop_run.reason, 1, 0)

    def guarded(x: np.ndarray) -> tuple[float, np.ndarray]:
        state["evaluations"] += 1
        loss, grad = fun(x)
        if math.isfinite(loss) and np.all(np.isfinite(grad)):
            return loss, grad
        state["nonfinite"] = True          # a huge value with no slope: the line search backs off
        return 1e300, np.zeros_like(x)

    def callback(intermediate_result) -> None:
        x = np.array(intermediate_result.x, dtype=float)
        loss = getattr(intermediate_result, "fun", None)
        loss = float(fun(x)[0] if loss is None else loss)
        previous = path.last_loss
        if not math.isfinite(loss) or loss >= 1e300 or \
                loss > previous + _slack(previous):
            state["reason"] = "diverged"
            raise StopIteration
        path.accept(loss, x)
        if loss <= best["loss"]:
            best.update(loss=loss, x=x)
        try:
            on_iterate(x)
        except StopRun as stop_run:
            state["reason"] = stop_run.reason
            raise StopIteration from None

    settings = {"maxiter": stop.max_iter, **({"ftol": stop.tol} if method == "L-BFGS-B" else {}), **(options or {})}
    result = minimize(guarded, x0, jac=True, method=method, options=settings, callback=callback)
    final = float(result.fun) if result.fun is not None else math.nan
    if state["reason"] is None and math.isfinite(final) and final < 1e300 and final < best["loss"]:
        best.update(loss=final, x=np.array(result.x, dtype=float))
        path.accept(final, best["x"])
    reason = state["reason"]
    if reason is None:
        clean_end = math.isfinite(final) and final < 1e300 and final <= best["loss"] + _slack(best["loss"])
        gradient = _gradient_at(fun, best["x"], result)
        limit_hit = path.iterations >= stop.max_iter or \
            state["evaluations"] >= settings.get("maxfun", math.inf) or getattr(result, "status", None) == 1
        reason = judge_end(path, gradient, clean_end, state["nonfinite"], limit_hit,
                           gtol=float(settings.get("gtol", 1e-5)), ftol=stop.tol)
    return Outcome(best["x"], best["loss"], reason, str(result.message), state["evaluations"],
                   int(getattr(result, "nit", 0)))


@dataclass
class Trajectory:
    """The accepted iterates' losses as the run went: the start, the last two, and how many steps."""

    start_loss: float
    last_x: np.ndarray
    last_loss: float = math.nan
    before_last: float = math.nan
    moved_last: bool = False
    iterations: int = 0

    def __post_init__(self) -> None:
        self.last_loss = self.start_loss

    def accept(self, loss: float, x: np.ndarray) -> None:
        """Record an accepted iterate (and whether it moved from the one before)."""
        self.moved_last = not np.array_equal(x, self.last_x)
        self.before_last, self.last_loss, self.last_x = self.last_loss, loss, x
        self.iterations += 1


def _gradient_at(fun: Callable[[np.ndarray], tuple[float, np.ndarray]], x: np.ndarray, result) -> np.ndarray:
    """The objective's gradient at ``x``: scipy's own when it ended there, else one more evaluation."""
    jac = getattr(result, "jac", None)
    if jac is not None and np.array_equal(np.asarray(result.x, dtype=float), x):
        return np.asarray(jac, dtype=float)
    return np.asarray(fun(x)[1], dtype=float)


def judge_end(path: Trajectory, gradient: np.ndarray, clean_end: bool, nonfinite: bool, limit_hit: bool,
              gtol: float, ftol: float) -> str:
    """The stop reason of a run the optimiser ended by itself, from what it did (not what scipy says).

    ``converged``: the end is clean (finite, the best loss seen) and either the gradient is flat there
    (``max |g| <= gtol``, a stationary point) or the run made real progress and its last step moved the
    parameters while improving the loss by a relative amount ``(f_{k-1} - f_k) / max(|f_{k-1}|, |f_k|, 1) <= ftol``
    (L-BFGS-B's own test, Byrd et al. 1995). A run that never got below its start with a non-flat gradient, or
    whose last step did not move, could make no progress: ``stalled`` (a wrong gradient, a failed line search).
    Then ``max_iter`` when a limit was reached, ``diverged`` after non-finite values or an unclean end.
    """
    flat = bool(np.all(np.isfinite(gradient))) and float(np.max(np.abs(gradient), initial=0.0)) <= gtol
    progressed = path.last_loss < path.start_loss - _slack(path.start_loss)
    relative = (path.before_last - path.last_loss) / max(abs(path.before_last), abs(path.last_loss), 1.0)
    settled = progressed and path.moved_last and math.isfinite(relative) and relative <= ftol
    if clean_end and (flat or settled):
        return "converged"
    if limit_hit:
        return "max_iter"
    return "diverged" if nonfinite or not clean_end else "stalled"
