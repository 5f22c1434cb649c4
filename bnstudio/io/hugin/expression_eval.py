"""Evaluate Hugin table-generator expressions for every parent configuration at once (numpy broadcasting).

A node's value in an expression is an array over the parent configurations: parent i varies along axis i
(:mod:`bnstudio.io.hugin.expression_nodes` gives the value of a state). Each operator works on whole arrays, so
one expression costs a few array operations, not a loop over table rows; the only loop is over the model's
expressions (one per configuration of the model nodes, written out in the file).

What an expression means for the table of its node C (Hugin GUI help, "Table Generator Tutorial" and the
Hugin 5.7 help page "Expressions", which distinguishes deterministic expressions, ``nPeople = nMen + nWomen``,
from distributions, ``Binomial(nDice, 1/6)``):

* a label, Boolean or number: C takes the state with that label, truth value, number (numbered C) or the
  interval holding it (interval C, states [v_i, v_(i+1))) with probability 1;
* ``Distribution(p1, ..., pn)``: the weights of C's n states (rows are then judged as any Hugin table:
  :mod:`bnstudio.io.repairs`);
* ``Binomial(n, p)``: C numbered with the states 0, 1, ..., m and n <= m;
  ``Poisson(lambda)``: C numbered 0, 1, ..., m, the last state taking the tail P(X >= m) (the rule the Hugin
  5.7 help states for its unbounded discrete distributions: "n will get prob. mass of n, n+1, ...");
* ``NoisyOR(b1, p1, ..., bn, pn)``: C Boolean, false with probability prod_{i: b_i true} q_i, where q_i is
  p_i read as an inhibitor probability or 1 - p_i read as a causal strength (``noisy_or`` says which; the
  Hugin documentation at hand does not say, so the reader only uses it to check a table Hugin saved);
* ``if(c, x, y)``, ``and``, ``or``, ``not``, comparisons (``==``/``=``, ``!=``/``<>`` for labels and Booleans,
  all six for numbers), ``+ - * / ^``, ``min``, ``max``, ``abs``, ``floor``, ``ceil``, ``sqrt``, ``exp``,
  ``log``, ``log2``, ``log10``, the trigonometric and hyperbolic functions and ``mod`` (of numbers >= 0).

Everything else -- continuous distributions (their discretisation over interval states is not documented
where we looked), ``Geometric`` and ``NegativeBinomial`` (their parametrisation neither), ``truncate``, and
values of interval parents (Hugin samples points inside each interval) -- is an :class:`ExpressionError`
naming the function and saying "not supported". So is a value an expression does not have in some
configuration (division by zero, a logarithm of 0, a value that is not a state of C, ...), named with the
first such configuration; an ``if`` only answers for the branch it takes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence, Union

import numpy as np

from bnstudio.io.hugin.expression_nodes import NodeKind
from bnstudio.io.hugin.expressions import Binary, Bool, Call, Expr, ExpressionError, Num, Ref, Str, Unary, walk
from bnstudio.io.messages import shorten

UNSUPPORTED = {
    **{name: "a continuous distribution, and how Hugin discretises those over interval states is not documented"
       for name in ("Normal", "LogNormal", "Beta", "Gamma", "Exponential", "Weibull", "Uniform", "Triangular",
                    "PERT")},
    "Geometric": "its parametrisation is not documented in the sources we read",
    "NegativeBinomial": "its parametrisation is not documented in the sources we read",
    "truncate": "truncated distributions are not read",
}
_UNARY = {"log": (np.log, lambda x: x > 0, "a logarithm of a number <= 0"),
          "log2": (np.log2, lambda x: x > 0, "a logarithm of a number <= 0"),
          "log10": (np.log10, lambda x: x > 0, "a logarithm of a number <= 0"),
          "sqrt": (np.sqrt, lambda x: x >= 0, "the square root of a negative number"),
          **{name: (getattr(np, name), None, "") for name in ("exp", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                                               "abs", "floor", "ceil")}}
Reason = Union[str, Callable[[tuple, tuple], str]]  # why a configuration has no value: text, or f(index, shape)


@dataclass
class Value:
    """An expression's value over the configurations: ``kind`` is number, boolean, label or dist (``data`` then
    has C's states on a last axis); ``issues`` lists (mask, reason, offset) of configurations without a value."""

    kind: str
    data: np.ndarray
    issues: list[tuple[np.ndarray, Reason, int]] = field(default_factory=list)


@dataclass
class Generated:
    """A generated table (a CPT with C's states last, or a utility table), the state of a deterministic node
    in every configuration (else None) and the functions used."""

    table: np.ndarray
    states: np.ndarray | None
    functions: set[str]


class _Evaluator:
    """Evaluates expressions for the configurations where the model nodes take the states ``fixed``."""

    def __init__(self, child: NodeKind | None, parents: Sequence[NodeKind], fixed: dict[int, int],
                 noisy_or: str | None) -> None:
        self.child, self.parents, self.fixed, self.noisy_or = child, list(parents), fixed, noisy_or
        self.axes = {p.name: i for i, p in enumerate(parents)}
        self.shape = tuple(1 if i in fixed else p.card for i, p in enumerate(parents))
        self.functions: set[str] = set()

    # ------------------------------------------------------------------ leaves
    def eval(self, e: Expr) -> Value:
        if isinstance(e, Num):
            return Value("number", np.array(e.value))
        if isinstance(e, Str):
            return Value("label", np.array(e.value))
        if isinstance(e, Bool):
            return Value("boolean", np.array(e.value))
        if isinstance(e, Ref):
            return self.ref(e)
        if isinstance(e, Unary):
            operand = self.number(self.eval(e.operand), e.pos, f"'{e.op}'")
            return Value("number", -operand.data if e.op == "-" else operand.data, operand.issues)
        if isinstance(e, Binary):
            return self.binary(e)
        return self.call(e)

    def ref(self, e: Ref) -> Value:
        if e.name not in self.axes:
            what = "the node itself" if self.child is not None and e.name == self.child.name else "not a parent"
            raise ExpressionError(f"the expression names '{shorten(e.name)}', {what}", e.pos)
        axis = self.axes[e.name]
        node = self.parents[axis]
        if node.subtype == "interval":
            raise ExpressionError(f"the value of the interval node '{node.name}' is not supported (Hugin "
                                  f"samples points inside its intervals)", e.pos)
        if axis in self.fixed:
            index = np.full((1,) * len(self.shape), self.fixed[axis])
        else:
            index = np.arange(node.card).reshape(tuple(-1 if i == axis else 1 for i in range(len(self.shape))))
        if node.subtype == "number":
            assert node.values is not None  # a numbered node has its values (NodeKind.build)
            return Value("number", node.values[index])
        if node.subtype == "boolean":
            return Value("boolean", index == node.true_index)
        return Value("label", np.array(node.states)[index])

    # ------------------------------------------------------------------ operators
    def number(self, v: Value, pos: int, what: str) -> Value:
        if v.kind != "number":
            raise ExpressionError(f"{what} needs a number, got {_noun(v.kind)}", pos)
        return v

    def boolean(self, v: Value, pos: int, what: str) -> Value:
        if v.kind != "boolean":
            raise ExpressionError(f"{what} needs a Boolean, got {_noun(v.kind)}", pos)
        return v

    def checked(self, data: np.ndarray, issues: list, pos: int, ok: np.ndarray | None, reason: Reason) -> Value:
        """A number: configurations where ``ok`` fails or the result is not finite get ``reason`` (and 0)."""
        good = np.isfinite(data) if ok is None else ok & np.isfinite(data)
        if not np.all(good):
            issues = issues + [(~good, reason or "a result too large to represent", pos)]
            data = np.where(good, data, 0.0)
        return Value("number", data, issues)

    def binary(self, e: Binary) -> Value:
        group = next((g for g in ("+-", "*/") if e.op in g), None)
        if group is None:
            return self.operation(e, self.eval(e.left), self.eval(e.right))
        chain = []  # a flat chain a + b - c ... is a left spine: folded in a loop, however long
        node: Expr = e
        while isinstance(node, Binary) and node.op in group:
            chain.append(node)
            node = node.left
        value = self.eval(node)
        for link in reversed(chain):
            value = self.operation(link, value, self.eval(link.right))
        return value

    def operation(self, e: Binary, left: Value, right: Value) -> Value:
        issues = left.issues + right.issues
        if e.op in ("==", "!=", "<", "<=", ">", ">="):
            if left.kind != right.kind or left.kind == "dist" or (left.kind != "number" and e.op not in ("==", "!=")):
                raise ExpressionError(f"cannot compare {_noun(left.kind)} and {_noun(right.kind)} with '{e.op}'",
                                      e.pos)
            self.known_labels(e)
            compare = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
                       ">": np.greater, ">=": np.greater_equal}[e.op]
            return Value("boolean", compare(left.data, right.data), issues)
        a = self.number(left, e.pos, f"'{e.op}'").data
        b = self.number(right, e.pos, f"'{e.op}'").data
        if e.op == "/":
            return self.checked(a / np.where(b == 0, 1.0, b), issues, e.pos, b != 0, "a division by zero")
        if e.op == "^":
            return self.checked(np.power(a, b), issues, e.pos, None, "a power that is not a real number")
        return self.checked({"+": np.add, "-": np.subtract, "*": np.multiply}[e.op](a, b), issues, e.pos, None, "")

    def known_labels(self, e: Binary) -> None:
        """``A == "x"`` where the labelled node A has no state "x" is a typo, not a comparison."""
        for node, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(node, Ref) and isinstance(other, Str):
                parent = self.parents[self.axes[node.name]]
                if parent.subtype == "label" and other.value not in parent.states:
                    raise ExpressionError(f"'{parent.name}' has no state \"{shorten(other.value)}\"", other.pos)

    def call(self, e: Call) -> Value:
        self.functions.add(e.name)
        if e.name in UNSUPPORTED:
            raise ExpressionError(f"{e.name} is not supported: {UNSUPPORTED[e.name]}", e.pos)
        if e.name in ("Distribution", "Binomial", "Poisson", "NoisyOR"):
            return self.distribution(e)
        args = [self.eval(a) for a in e.args]
        issues = [issue for a in args for issue in a.issues]
        if e.name == "if":
            _count(e, args, 3)
            return self.choose(self.boolean(args[0], e.pos, "the condition of 'if'"), args[1], args[2], e.pos)
        if e.name in ("and", "or", "not"):
            _count(e, args, 1, None if e.name != "not" else 1)
            data = [self.boolean(a, e.pos, f"'{e.name}'").data for a in args]
            result = np.logical_not(data[0]) if e.name == "not" else \
                (np.logical_and if e.name == "and" else np.logical_or).reduce(np.broadcast_arrays(*data))
            return Value("boolean", result, issues)
        data = [self.number(a, e.pos, f"'{e.name}'").data for a in args]
        if e.name in ("min", "max"):
            _count(e, args, 1, None)
            return Value("number", (np.minimum if e.name == "min" else np.maximum).reduce(np.broadcast_arrays(*data)),
                         issues)
        if e.name == "mod":
            _count(e, args, 2)
            x, y = data
            ok = (y > 0) & (x >= 0)
            return self.checked(np.fmod(x, np.where(ok, y, 1.0)), issues, e.pos, ok,
                                "mod of a number < 0 or by a number <= 0 (not supported)")
        _count(e, args, 1)
        function, domain, reason = _UNARY[e.name]
        x = data[0]
        inside = None if domain is None else domain(x)
        return self.checked(function(x if inside is None else np.where(inside, x, 1.0)), issues, e.pos, inside, reason)

    def choose(self, cond: Value, a: Value, b: Value, pos: int) -> Value:
        """``if``: each configuration takes one branch, and only its problems."""
        if a.kind != b.kind:
            if "dist" not in (a.kind, b.kind):
                raise ExpressionError(f"the branches of 'if' give {_noun(a.kind)} and {_noun(b.kind)}", pos)
            a, b = self.as_distribution(a, pos), self.as_distribution(b, pos)
        c = cond.data[..., None] if a.kind == "dist" else cond.data
        issues = cond.issues + [(m & cond.data, r, p) for m, r, p in a.issues] + \
            [(m & ~cond.data, r, p) for m, r, p in b.issues]
        return Value(a.kind, np.where(c, a.data, b.data), issues)

    # ------------------------------------------------------------------ distributions of the node
    def needs(self, test: bool, what: str, e: Call) -> None:
        if self.child is None:
            raise ExpressionError(f"{e.name} gives a distribution, not a utility", e.pos)
        if not test:
            raise ExpressionError(f"{e.name} needs {what}; '{self.child.name}' is {self.child.describe()} "
                                  f"with the states {_states(self.child)}", e.pos)

    def distribution(self, e: Call) -> Value:
        args = [self.eval(a) for a in e.args]
        issues = [issue for a in args for issue in a.issues]
        child = self.child
        if e.name == "Distribution":
            self.needs(True, "", e)
            assert child is not None  # needs() refused a utility
            _count(e, args, child.card, child.card)
            weights = np.stack(np.broadcast_arrays(*[self.number(a, e.pos, "Distribution").data for a in args]), -1)
            ok = np.all(weights >= 0, axis=-1)
            return self.dist(weights, issues, e.pos, ok, "a negative weight in Distribution")
        if e.name == "NoisyOR":
            return self.noisy_or_of(e, args, issues)
        self.needs(child is not None and child.counts_from_zero(), "a numbered node with the states 0, 1, ..., m", e)
        assert child is not None  # needs() refused a utility
        from scipy import stats  # here: reading a network must not load scipy (tests/test_architecture.py)

        m = child.card - 1
        k = np.arange(child.card)
        if e.name == "Binomial":
            _count(e, args, 2)
            n, p = np.broadcast_arrays(*[self.number(a, e.pos, "Binomial").data for a in args])
            whole = (n >= 0) & (n == np.floor(n))
            # the ignores: mypy infers no type for a lambda with a default argument
            issues = issues + [
                (~whole, lambda i, s, n=n: f"the n of Binomial must be a whole number >= 0, got "  # type: ignore[misc]
                 f"{_g(_at(n, i, s))}", e.pos),
                (whole & (n > m), lambda i, s, n=n: f"Binomial with n = {_g(_at(n, i, s))} needs "  # type: ignore[misc]
                 f"the states 0..{_g(_at(n, i, s))} of '{child.name}' (it has 0..{m})", e.pos)]
            ok = whole & (n <= m) & (p >= 0) & (p <= 1)
            pmf = stats.binom.pmf(k, np.where(ok, n, 0)[..., None], np.where(ok, p, 0.5)[..., None])
            return self.dist(pmf, issues, e.pos, ok, "the p of Binomial must be in [0, 1]")
        _count(e, args, 1)
        rate = self.number(args[0], e.pos, "Poisson").data
        ok = rate >= 0
        safe = np.where(ok, rate, 1.0)[..., None]
        pmf = np.concatenate([stats.poisson.pmf(k[:-1], safe), stats.poisson.sf(m - 1, safe)], axis=-1)
        return self.dist(pmf, issues, e.pos, ok, "the mean of Poisson must be >= 0")

    def noisy_or_of(self, e: Call, args: list[Value], issues: list) -> Value:
        child = self.child
        self.needs(child is not None and child.subtype == "boolean", "a Boolean node", e)
        assert child is not None  # needs() refused a utility
        if len(args) < 2 or len(args) % 2:
            raise ExpressionError(f"NoisyOR takes pairs (Boolean, probability), got {len(args)} arguments", e.pos)
        if self.noisy_or is None:
            raise ExpressionError("NoisyOR without a 'data' table is not supported (whether its probabilities are "
                                  "inhibitor probabilities or causal strengths is not documented in the sources we "
                                  "read)", e.pos)
        causes = np.broadcast_arrays(*[self.boolean(a, e.pos, "NoisyOR").data for a in args[0::2]])
        probs = np.broadcast_arrays(*[self.number(a, e.pos, "NoisyOR").data for a in args[1::2]])
        ok = np.logical_and.reduce([(p >= 0) & (p <= 1) for p in probs])
        q = [p if self.noisy_or == "inhibitor" else 1 - p for p in probs]
        false = np.prod(np.broadcast_arrays(*[np.where(c, qi, 1.0) for c, qi in zip(causes, q, strict=True)]), axis=0)
        t = child.true_index
        table = np.stack([1 - false, false] if t == 0 else [false, 1 - false], -1)
        return self.dist(table, issues, e.pos, ok, "a NoisyOR probability outside [0, 1]")

    def dist(self, table: np.ndarray, issues: list, pos: int, ok: np.ndarray, reason: Reason) -> Value:
        ok = ok & np.all(np.isfinite(table), axis=-1)
        if not np.all(ok):
            issues = issues + [(~ok, reason, pos)]
            table = np.where(ok[..., None], table, 1.0)
        return Value("dist", table, issues)

    def as_distribution(self, v: Value, pos: int) -> Value:
        """A label, Boolean or number as probability 1 on the matching state of the node."""
        if v.kind == "dist":
            return v
        index, issues = self.state_index(v, pos)
        assert self.child is not None  # state_index() refused a utility
        return Value("dist", np.eye(self.child.card)[index], v.issues + issues)

    def state_index(self, v: Value, pos: int) -> tuple[np.ndarray, list]:
        child = self.child
        if child is None:
            raise ExpressionError(f"a utility must be a number, got {_noun(v.kind)}", pos)
        expected = {"label": "label", "boolean": "boolean", "number": "number", "interval": "number"}[child.subtype]
        if v.kind != expected:
            raise ExpressionError(f"'{child.name}' is {child.describe()}; the expression gives "
                                  f"{_noun(v.kind)}", pos)
        data = np.broadcast_to(v.data, self.shape)
        if child.subtype == "boolean":
            return np.where(data, child.true_index, 1 - child.true_index), []
        if child.subtype == "label":
            labels, inverse = np.unique(data, return_inverse=True)
            codes = np.array([child.states.index(s) if s in child.states else -1 for s in labels.tolist()])
            index = codes[inverse].reshape(data.shape)
        elif child.subtype == "number":
            assert child.values is not None  # a numbered node has its values (NodeKind.build)
            equal = np.isclose(data[..., None], child.values, rtol=1e-9, atol=1e-12)
            index = np.where(equal.any(-1), equal.argmax(-1), -1)
        else:
            assert child.values is not None  # so has an interval node
            index = np.searchsorted(child.values, data, side="right") - 1
            index = np.where((index >= 0) & (index < child.card), index, -1)
        missing = index < 0
        issues = [] if not missing.any() else [
            (missing, lambda i, s: f"the value {_show(_at(data, i, s))} is not a state of '{child.name}'", pos)]
        return np.where(missing, 0, index), issues


def generate(child: NodeKind | None, parents: Sequence[NodeKind], model_nodes: Sequence[str],
             expressions: Sequence[Expr], noisy_or: str | None = None) -> Generated:
    """The table a Hugin model gives ``child`` (None: a utility node) over ``parents``: one expression per
    configuration of ``model_nodes`` (parents, the first varying slowest). Sizes must have been checked."""
    pcards = tuple(p.card for p in parents)
    axes = {p.name: i for i, p in enumerate(parents)}
    for name in model_nodes:
        if name not in axes:
            raise ExpressionError(f"the model node '{shorten(name)}' is not a parent")
    if len(set(model_nodes)) != len(model_nodes):
        raise ExpressionError("a model node is listed twice")
    model_axes = [axes[name] for name in model_nodes]
    count = math.prod(pcards[a] for a in model_axes)
    if len(expressions) != count:
        raise ExpressionError(f"model_data has {len(expressions)} expressions, expected {count} (one per "
                              f"configuration of the model nodes)")
    table = np.empty(pcards + ((child.card,) if child is not None else ()))
    states = np.empty(pcards, dtype=int) if child is not None else None
    functions: set[str] = set()
    configurations = np.ndindex(*[pcards[a] for a in model_axes])
    with np.errstate(all="ignore"):
        for expr, config in zip(expressions, configurations, strict=True):
            ev = _Evaluator(child, parents, dict(zip(model_axes, config, strict=True)), noisy_or)
            value = ev.eval(expr)
            functions |= ev.functions
            if child is None:
                ev.number(value, _pos(expr), "a utility")
                data = np.broadcast_to(value.data, ev.shape)
            else:
                index = None
                if value.kind != "dist":
                    index, issues = ev.state_index(value, _pos(expr))
                    value = Value("dist", np.eye(child.card)[index], value.issues + issues)
                data = np.broadcast_to(value.data, ev.shape + (child.card,))
                if states is not None and index is not None:
                    states[_slot(ev)] = np.broadcast_to(index, ev.shape).reshape(_free(ev))
                else:
                    states = None
            _raise_first(value.issues, ev, parents)
            table[_slot(ev)] = data.reshape(_free(ev) + data.shape[len(ev.shape):])
    return Generated(table, states, functions)


def _slot(ev: _Evaluator) -> tuple:
    return tuple(ev.fixed.get(i, slice(None)) for i in range(len(ev.shape)))


def _free(ev: _Evaluator) -> tuple[int, ...]:
    return tuple(n for i, n in enumerate(ev.shape) if i not in ev.fixed)


def _raise_first(issues: list, ev: _Evaluator, parents: Sequence[NodeKind]) -> None:
    """The first configuration (in table order) without a value, and why."""
    if not issues:
        return
    masks = [np.broadcast_to(mask, ev.shape) for mask, _, _ in issues]
    union = np.logical_or.reduce(masks)
    if not union.any():
        return
    first = int(np.argmax(union))
    mask, reason, pos = next((i for m, i in zip(masks, issues, strict=True) if m.flat[first]))
    local = np.unravel_index(first, ev.shape)
    config = [ev.fixed.get(i, int(local[i])) for i in range(len(parents))]
    where = ", ".join(f"{shorten(p.name)}={shorten(p.states[k])}" for p, k in zip(parents, config, strict=True))
    text = reason(local, ev.shape) if callable(reason) else reason
    raise ExpressionError(f"{text} for ({where})" if parents else text, pos)


def _count(e: Call, args: list, low: int, high: int | None = -1) -> None:
    high = low if high == -1 else high
    if len(args) < low or (high is not None and len(args) > high):
        wanted = f"{low}" if high == low else f"at least {low}" if high is None else f"{low} to {high}"
        plural = "" if wanted.endswith(" 1") or wanted == "1" else "s"
        raise ExpressionError(f"{e.name} takes {wanted} argument{plural}, got {len(args)}", e.pos)


def _at(values: np.ndarray, index: tuple, shape: tuple):
    """The element of ``values`` (broadcast to ``shape``) at ``index``."""
    return np.broadcast_to(values, shape)[index]


def _pos(e: Expr) -> int:
    """Where ``e`` starts in the text (its leftmost part)."""
    return min(node.pos for node in walk(e))


def _noun(kind: str) -> str:
    return {"number": "a number", "boolean": "a Boolean", "label": "a label", "dist": "a distribution"}[kind]


def _show(value) -> str:
    return f'"{shorten(str(value))}"' if isinstance(value, str) else _g(value) if isinstance(
        value, (float, np.floating)) else str(value)


def _g(x) -> str:
    """A number in a message (6 significant digits)."""
    return f"{float(x):.6g}"


def _states(node: NodeKind) -> str:
    if node.values is not None and node.subtype == "number":
        shown = [_g(v) for v in node.values[:6]]
    else:
        shown = [f'"{shorten(s, 20)}"' for s in node.states[:6]]
    return ", ".join(shown) + (", ..." if node.card > 6 else "")
