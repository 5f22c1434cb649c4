"""Polak–Ribière conjugate gradient with Brent's line minimisation: the optimiser Zhou ran (§3.2.2, Numerical
Recipes' ``frprmn`` / ``linmin`` / ``mnbrak`` / ``brent``), written from the maths.

Each iteration minimises f along the direction h from x: the minimum is bracketed by golden-section steps with
parabolic extrapolation from t = 0 and t = 1 (``mnbrak``: a < b < c with f(b) ≤ f(a), f(c)), then located by
Brent's method (parabolic interpolation through the three best points, a golden-section step when the parabola
is not trusted) to a relative tolerance ``line_tol`` in t. The next direction is h' = −g' + β h with the
Polak–Ribière β = g'·(g' − g) / (g·g), used as it comes — no reset when β < 0, as ``frprmn`` does; the line
minimisation brackets in both directions, so a direction that is not downhill still gives a step that never
raises f. The run stops (``converged``) when an iteration lowers f by little:

    2 |f_new − f_old| ≤ ftol (|f_new| + |f_old| + EPS),   EPS = 1e-10

or when the gradient vanishes; ``max_iter`` iterations at most. The stop reasons and the
``on_iterate`` hook are those of :func:`bnstudio.learn.params.stopping.minimise`.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from bnstudio.errors import ValidationError
from bnstudio.learn.params.stopping import Outcome, StopRule, StopRun

#: golden ratio (bracket growth) and its complement 1 − 1/φ (Brent's golden-section step)
GOLD = (1.0 + math.sqrt(5.0)) / 2.0
CGOLD = (3.0 - math.sqrt(5.0)) / 2.0
#: the bracket's parabolic step is never more than this many times the last step
GROW_LIMIT = 100.0
#: the small constant of the stopping test (keeps it meaningful when f → 0)
EPS = 1e-10
#: Brent's absolute floor on the tolerance in t (a minimum at t = 0)
ZEPS = 1e-10
#: evaluations one line search may use (a bracket that keeps growing on a flat or unbounded loss stops here)
LINE_EVALUATIONS = 200
#: relative tolerance in t of Brent's line minimisation: ``linmin``'s TOL, ~ the square root of single precision
LINE_TOL = 2e-4

Fun = Callable[[np.ndarray], tuple[float, np.ndarray]]


class _Line:
    """f(x + t h) as a function of t, remembering each point's value and gradient (the next iteration's)."""

    def __init__(self, fun: Fun, x: np.ndarray, h: np.ndarray, f0: float, g0: np.ndarray) -> None:
        self.fun, self.x, self.h = fun, x, h
        self.seen: dict[float, tuple[float, np.ndarray]] = {0.0: (f0, g0)}
        self.evaluations = 0

    def __call__(self, t: float) -> float:
        if t not in self.seen:
            if self.evaluations >= LINE_EVALUATIONS:
                raise _LineExhausted
            self.evaluations += 1
            f, g = self.fun(self.x + t * self.h)
            if not (math.isfinite(f) and np.all(np.isfinite(g))):
                f, g = math.inf, g              # never accepted: a finite point is always lower
            self.seen[t] = (float(f), g)
        return self.seen[t][0]


class _LineExhausted(Exception):
    """The line search used its evaluations (the best point seen is taken)."""


def bracket(f: Callable[[float], float], a: float = 0.0, b: float = 1.0) -> tuple[float, float, float]:
    """(a, b, c) with b between a and c and f(b) ≤ f(a), f(b) ≤ f(c): a minimum of f lies in the bracket.
    Golden-section growth from the two starts, with a parabolic step through the last three points when it
    falls in a useful place (at most :data:`GROW_LIMIT` times the last step)."""
    fa, fb = f(a), f(b)
    if fb > fa:
        a, b, fa, fb = b, a, fb, fa
    c = b + GOLD * (b - a)
    fc = f(c)
    while fb > fc:
        # the vertex of the parabola through (a, fa), (b, fb), (c, fc)
        r, q = (b - a) * (fb - fc), (b - c) * (fb - fa)
        denom = 2.0 * math.copysign(max(abs(q - r), 1e-20), q - r)
        u = b - ((b - c) * q - (b - a) * r) / denom
        limit = b + GROW_LIMIT * (c - b)
        if (b - u) * (u - c) > 0.0:                 # vertex between b and c
            fu = f(u)
            if fu < fc:
                return b, u, c
            if fu > fb:
                return a, b, u
            u = c + GOLD * (c - b)
            fu = f(u)
        elif (c - u) * (u - limit) > 0.0:            # beyond c, within the limit
            fu = f(u)
            if fu < fc:
                b, c, fb, fc = c, u, fc, fu
                u = c + GOLD * (c - b)
                fu = f(u)
        elif (u - limit) * (limit - c) >= 0.0:       # beyond the limit: take the limit
            u = limit
            fu = f(u)
        else:                                        # vertex behind: a golden step
            u = c + GOLD * (c - b)
            fu = f(u)
        a, b, c, fa, fb, fc = b, c, u, fb, fc, fu
    return a, b, c


def brent(f: Callable[[float], float], a: float, b: float, c: float, tol: float = LINE_TOL,
          max_steps: int = 100) -> float:
    """The t of a minimum of f in the bracket (a, b, c) (:func:`bracket`) by Brent's method: parabolic
    interpolation through the best three points when the step lies inside the interval and is less than half
    the step before last, otherwise a golden-section step into the larger part; stops when the interval around
    the best t is within 2·(tol·|t| + ZEPS)."""
    lo, hi = min(a, c), max(a, c)
    x = w = v = b
    fx = fw = fv = f(b)
    step = last = 0.0         # the step taken, and the one before it
    for _ in range(max_steps):
        mid = 0.5 * (lo + hi)
        tol1 = tol * abs(x) + ZEPS
        tol2 = 2.0 * tol1
        if abs(x - mid) <= tol2 - 0.5 * (hi - lo):
            return x
        golden = True
        if abs(last) > tol1:
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            before = last
            last = step
            if abs(p) < abs(0.5 * q * before) and q * (lo - x) < p < q * (hi - x):
                step, golden = p / q, False
                u = x + step
                if u - lo < tol2 or hi - u < tol2:
                    step = math.copysign(tol1, mid - x)
        if golden:
            last = (lo - x) if x >= mid else (hi - x)
            step = CGOLD * last
        u = x + step if abs(step) >= tol1 else x + math.copysign(tol1, step)
        fu = f(u)
        if fu <= fx:
            if u >= x:
                lo = x
            else:
                hi = x
            v, w, x, fv, fw, fx = w, x, u, fw, fx, fu
        else:
            if u < x:
                lo = u
            else:
                hi = u
            if fu <= fw or w == x:
                v, w, fv, fw = w, u, fw, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    return x


def line_minimum(fun: Fun, x: np.ndarray, h: np.ndarray, f0: float, g0: np.ndarray,
                 tol: float = LINE_TOL) -> tuple[float, float, np.ndarray, int]:
    """(t, f, gradient, evaluations) at the lowest point found of f(x + t h) (``linmin``: :func:`bracket` from
    t = 0 and 1, then :func:`brent`); never higher than f0 = f(x)."""
    line = _Line(fun, x, h, f0, g0)
    try:
        brent(line, *bracket(line), tol=tol)
    except _LineExhausted:
        pass
    t = min(line.seen, key=lambda s: (line.seen[s][0], abs(s)))
    f, g = line.seen[t]
    return t, f, g, line.evaluations


def frprmn_converged(f_new: float, f_old: float, ftol: float) -> bool:
    """``frprmn``'s stop: 2|f_new − f_old| ≤ ftol (|f_new| + |f_old| + EPS)."""
    return 2.0 * abs(f_new - f_old) <= ftol * (abs(f_new) + abs(f_old) + EPS)


def pr_brent_minimise(fun: Fun, x0: np.ndarray, stop: StopRule, on_iterate: Callable[[np.ndarray], None],
                      line_tol: float = LINE_TOL) -> Outcome:
    """Minimise ``fun`` (loss and gradient) from ``x0`` by Polak–Ribière conjugate gradient with Brent line
    minimisation (module docstring); ``stop.tol`` is frprmn's FTOL, ``stop.max_iter`` its iteration limit.
    ``on_iterate(x)`` is called at ``x0`` and after each line minimisation (histories, progress, cancellation);
    it may raise :class:`~bnstudio.learn.params.stopping.StopRun`. Reasons: ``converged`` (the stop test, a
    zero gradient, or a line minimisation that finds nothing lower after at least one step), ``stalled`` (the
    first line minimisation finds nothing lower with a non-zero gradient), ``max_iter``, or the hook's reason."""
    x = np.array(x0, dtype=float)
    f, g = fun(x)
    f = float(f)
    if not (math.isfinite(f) and np.all(np.isfinite(g))):
        raise ValidationError("the training objective is not finite at the starting parameters")
    evaluations, iterations = 1, 0
    try:
        on_iterate(x)
    except StopRun as stop_run:
        return Outcome(x, f, stop_run.reason, stop_run.reason, evaluations, 0)
    h = -g
    reason, message = "max_iter", f"{stop.max_iter} iterations without meeting the tolerance"
    while iterations < stop.max_iter:
        if not np.any(g):
            reason, message = "converged", "zero gradient"
            break
        t, f_new, g_new, used = line_minimum(fun, x, h, f, g, line_tol)
        evaluations += used
        if t == 0.0:     # nothing lower along h: frprmn's test holds (f unchanged), after progress only
            reason = "converged" if iterations else "stalled"
            message = "the line minimisation found nothing lower"
            break
        iterations += 1
        x, f_old, f, g_old, g = x + t * h, f, f_new, g, g_new
        try:
            on_iterate(x)
        except StopRun as stop_run:
            return Outcome(x, f, stop_run.reason, stop_run.reason, evaluations, iterations)
        if frprmn_converged(f, f_old, stop.tol):
            reason, message = "converged", "relative reduction of the loss at most ftol"
            break
        beta = float(g @ (g - g_old)) / float(g_old @ g_old)
        h = -g + beta * h
    return Outcome(x, f, reason, message, evaluations, iterations)
