"""The discrete Bayesian network: variables, a DAG, one CPT per variable, optional Dirichlet counts.

The network is the single source of truth (docs/architecture.md §3.2). Every edit keeps it consistent (CPT
shapes follow the structure, see :mod:`bnstudio.core.cpt_ops` for the policy), refuses cycles with a message
naming the cycle, bumps ``structure_version`` or ``parameter_version`` (compiled engines use these to know when
to recompile) and emits a before/after :class:`~bnstudio.core.events.Event`.

CPT layout of X with parents (P1, ..., Pk)::

    cpt[p1, ..., pk, x] = p(X = x | P1 = p1, ..., Pk = pk)      shape (|P1|, ..., |Pk|, |X|)

>>> net = Network()
>>> net.add_variable("Rain", ["yes", "no"], cpt=[0.2, 0.8])
>>> net.add_variable("Wet", ["yes", "no"], parents=["Rain"], cpt=[[0.9, 0.1], [0.1, 0.9]])
>>> float(net.cpt("Wet")[net.states("Rain").index("no"), 0])
0.1
"""
from __future__ import annotations

import contextlib
import math
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, Sequence

import numpy as np

from bnstudio import hooks
from bnstudio.core import cpt_ops
from bnstudio.core.digraph import DiGraph
from bnstudio.core.events import Event, EventEmitter
from bnstudio.core.validation import ROW_TOLERANCE, check_table, row_label, validate_network
from bnstudio.core.variable import Variable, check_name
from bnstudio.errors import BNStudioError, CycleError, UnknownVariableError, ValidationError

if TYPE_CHECKING:  # imported by graph() only: networkx costs a process more than numpy
    import networkx as nx


def _as_table(table: np.ndarray | Sequence, shape: tuple[int, ...]) -> np.ndarray | Sequence:
    """Accept a flat sequence in row-major CPT order as a convenience; anything else must have ``shape``."""
    try:
        flat = np.ndim(table) == 1 and len(shape) > 1 and np.size(table) == int(np.prod(shape))
    except ValueError:  # ragged nested lists: let check_table report them
        return table
    return np.reshape(table, shape) if flat else table


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr = np.array(arr, dtype=float)
    arr.setflags(write=False)
    return arr


class Network:
    """A discrete Bayesian network. See the module docstring for the CPT layout."""

    def __init__(self, name: str = "network") -> None:
        self.name = name
        self.events = EventEmitter()
        self.positions: dict[str, tuple[float, float]] = {}
        self.properties: dict[str, str] = {}
        #: variable -> the canonical model (noisy-MAX, deterministic) its CPT was expanded from; only valid while
        #: the expansion equals the CPT (see bnstudio.core.canonical.canonical_of)
        self.canonical: dict[str, object] = {}
        self._vars: dict[str, Variable] = {}
        self._parents: dict[str, tuple[str, ...]] = {}
        self._cpt: dict[str, np.ndarray] = {}
        self._alpha: dict[str, np.ndarray | None] = {}
        self._dag: DiGraph[str] | None = DiGraph()  # None: build from the parent lists on first use
        self.structure_version = 0
        self.parameter_version = 0

    @property
    def _graph(self) -> DiGraph[str]:
        """The DAG; a network read from a file builds it on first use (reading needs none)."""
        if self._dag is None:
            dag: DiGraph[str] = DiGraph()
            for name in self._vars:
                dag.add_node(name)
            dag.add_edges_from((p, child) for child in self._vars for p in self._parents[child])
            self._dag = dag
        return self._dag

    @_graph.setter
    def _graph(self, graph: DiGraph[str]) -> None:
        self._dag = graph

    # ------------------------------------------------------------------ queries
    @property
    def variables(self) -> list[str]:
        """Variable names in the network's order (insertion order; ``add_variable(index=...)`` inserts)."""
        return list(self._vars)

    def __contains__(self, name: object) -> bool:
        return name in self._vars

    def __len__(self) -> int:
        return len(self._vars)

    def variable(self, name: str) -> Variable:
        try:
            return self._vars[name]
        except (KeyError, TypeError):
            raise UnknownVariableError(f"unknown variable '{name}'") from None

    def states(self, name: str) -> tuple[str, ...]:
        return self.variable(name).states

    def cardinality(self, name: str) -> int:
        return len(self.variable(name).states)

    def parents(self, name: str) -> tuple[str, ...]:
        self.variable(name)
        return self._parents[name]

    def children(self, name: str) -> list[str]:
        self.variable(name)
        return [c for c in self._vars if name in self._parents[c]]

    def cpt(self, name: str) -> np.ndarray:
        """The (read-only) CPT of ``name``, shape ``family_shape(name)``."""
        self.variable(name)
        return self._cpt[name]

    def alpha(self, name: str) -> np.ndarray | None:
        """The (read-only) Dirichlet counts of ``name``, or None."""
        self.variable(name)
        return self._alpha[name]

    def family_shape(self, name: str) -> tuple[int, ...]:
        return tuple(self.cardinality(p) for p in self.parents(name)) + (self.cardinality(name),)

    def arcs(self) -> list[tuple[str, str]]:
        return [(p, c) for c in self._vars for p in self._parents[c]]

    def topological_order(self) -> list[str]:
        """Parents before children; ties broken by insertion order (deterministic)."""
        rank = {v: i for i, v in enumerate(self._vars)}
        return self._graph.topological_order(key=rank.__getitem__)

    def graph(self) -> nx.DiGraph:
        """A copy of the DAG as a networkx DiGraph."""
        return self._graph.to_networkx()

    def n_parameters(self) -> int:
        """Free parameters: sum over variables of (|X| - 1) * prod |Pa|."""
        return int(sum((self.cardinality(v) - 1) * int(np.prod(self.family_shape(v)[:-1])) for v in self._vars))

    def validate(self) -> None:
        """Raise :class:`ValidationError` naming the first invalid CPT row or table."""
        validate_network(self)

    def __repr__(self) -> str:
        """What the network is, in one line: ``<Network 'asia': 8 variables, 8 arcs, 18 free parameters>``."""
        n_arcs = sum(len(p) for p in self._parents.values())
        counts = [(len(self), "variable"), (n_arcs, "arc"), (self.n_parameters(), "free parameter")]
        return f"<Network {self.name!r}: " + ", ".join(f"{n:,} {word}{'s' if n != 1 else ''}"
                                                     for n, word in counts) + ">"

    # ------------------------------------------------------------------ notebooks (drawn by bnstudio.display)
    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        """Jupyter's display: the app's drawing with beliefs, as HTML (a scrolling box) and SVG
        (:data:`bnstudio.hooks.network_bundle`)."""
        return hooks.network_bundle(self)

    def _repr_svg_(self) -> str:
        return hooks.network_svg(self)

    def copy(self) -> "Network":
        """A deep copy without listeners (arrays are immutable, so they are shared)."""
        new = Network(self.name)
        new.positions = dict(self.positions)
        new.properties = dict(self.properties)
        new.canonical = dict(self.canonical)
        new._vars = dict(self._vars)
        new._parents = dict(self._parents)
        new._cpt = dict(self._cpt)
        new._alpha = dict(self._alpha)
        new._dag = None if self._dag is None else self._dag.copy()
        return new

    # ------------------------------------------------------------------ events
    @contextlib.contextmanager
    def _edit(self, kind: str, structural: bool, **data: object) -> Iterator[None]:
        if structural:       # a lazy DAG is built from the parent lists before a structural edit changes them
            self._graph  # noqa: B018
        self.events.emit(Event(kind, "before", structural, dict(data)))
        yield
        if structural:
            self.structure_version += 1
        self.parameter_version += 1
        self.events.emit(Event(kind, "after", structural, dict(data)))

    def _cycle_through(self, parent: str, child: str) -> list[str] | None:
        """The cycle an arc parent->child would close, as [child, ..., parent, child], or None."""
        if parent == child:
            return [parent, child]
        path = self._graph.shortest_path(child, parent)
        return None if path is None else path + [child]

    def _refuse_cycle(self, parent: str, child: str) -> None:
        cycle = self._cycle_through(parent, child)
        if cycle is not None:
            raise CycleError(f"arc {parent} -> {child} would create the cycle {' -> '.join(cycle)}", cycle)

    # ------------------------------------------------------------------ variable edits
    def add_variable(self, name: str, states: Sequence[str], parents: Sequence[str] = (),
                     cpt: np.ndarray | Sequence | None = None, alpha: np.ndarray | None = None,
                     description: str = "", position: tuple[float, float] | None = None,
                     index: int | None = None) -> None:
        """Add a variable with its parents (which must exist) and CPT (uniform if omitted).

        ``position`` is the canvas position; ``index`` the place in the variable order (the end by default),
        so that undoing a deletion puts the variable back where it was.
        """
        if name in self._vars:
            raise ValidationError(f"a variable named '{name}' already exists")
        valid = isinstance(index, (int, np.integer)) and not isinstance(index, bool) and 0 <= index <= len(self)
        if index is not None and not valid:
            raise ValidationError(f"variable index {index!r} of '{name}' must be an integer in 0..{len(self)}")
        variable = Variable(name, tuple(states), description)
        parents = tuple(parents)
        for p in parents:
            self.variable(p)
        if len(set(parents)) != len(parents):
            raise ValidationError(f"variable '{name}' lists a parent twice: {list(parents)}")
        shape = tuple(self.cardinality(p) for p in parents) + (variable.cardinality,)
        # check the tables before announcing the edit (check_table looks the family up, so add it tentatively)
        self._vars[name], self._parents[name] = variable, parents
        try:
            table = cpt_ops.uniform_cpt(shape[:-1], shape[-1]) if cpt is None else _as_table(cpt, shape)
            table = _frozen(check_table(self, name, table))
            counts = None if alpha is None else _frozen(
                check_table(self, name, alpha, what="Dirichlet counts", check_sums=False))
        finally:
            del self._vars[name], self._parents[name]
        with self._edit("add_variable", True, name=name):
            if index is None or index == len(self):
                self._vars[name] = variable
            else:
                items = list(self._vars.items())
                self._vars = dict(items[:index] + [(name, variable)] + items[index:])
            self._parents[name] = parents
            self._cpt[name], self._alpha[name] = table, counts
            self._graph.add_node(name)
            self._graph.add_edges_from((p, name) for p in parents)
            if position is not None:
                self.positions[name] = (float(position[0]), float(position[1]))

    def remove_variable(self, name: str) -> None:
        """Remove ``name`` and its arcs; its children's CPTs are averaged over it (see cpt_ops)."""
        self.variable(name)
        with self._edit("remove_variable", True, name=name):
            for child in self.children(name):
                self._drop_parent(name, child)
            del self._vars[name], self._parents[name], self._cpt[name], self._alpha[name]
            self._graph.remove_node(name)
            self.positions.pop(name, None)

    def rename_variable(self, old: str, new: str) -> None:
        self.variable(old)
        check_name(new, "variable")
        if new == old:
            return
        if new in self._vars:
            raise ValidationError(f"a variable named '{new}' already exists")
        with self._edit("rename_variable", True, old=old, new=new):
            rename = (lambda v: new if v == old else v)  # noqa: E731
            v = self._vars[old]
            self._vars = {rename(k): (Variable(new, v.states, v.description) if k == old else val)
                          for k, val in self._vars.items()}
            self._parents = {rename(k): tuple(map(rename, ps)) for k, ps in self._parents.items()}
            self._cpt = {rename(k): t for k, t in self._cpt.items()}
            self._alpha = {rename(k): t for k, t in self._alpha.items()}
            self.positions = {rename(k): p for k, p in self.positions.items()}
            self._graph = self._graph.relabel({old: new})

    def set_description(self, name: str, description: str) -> None:
        v = self.variable(name)
        with self._edit("set_description", False, name=name):
            self._vars[name] = Variable(name, v.states, description)

    # ------------------------------------------------------------------ state edits
    def _tables_along(self, var: str) -> Iterator[tuple[str, int, bool]]:
        """(owner, axis, is_child) for every CPT with an axis over ``var``'s states."""
        yield var, -1, True
        for child in self.children(var):
            yield child, self._parents[child].index(var), False

    def _map_tables(self, var: str, fn_cpt, fn_alpha) -> None:
        for owner, axis, is_child in list(self._tables_along(var)):
            self._cpt[owner] = _frozen(fn_cpt(self._cpt[owner], axis, is_child))
            if self._alpha[owner] is not None:
                self._alpha[owner] = _frozen(fn_alpha(self._alpha[owner], axis, is_child))

    def add_state(self, var: str, state: str, index: int | None = None) -> None:
        """Add a state (at the end by default); see cpt_ops for how CPTs and alpha follow."""
        v = self.variable(var)
        index = v.cardinality if index is None else index
        if not 0 <= index <= v.cardinality:
            raise ValidationError(f"state index {index} of '{var}' is out of range 0..{v.cardinality}")
        new_var = Variable(var, v.states[:index] + (state,) + v.states[index:], v.description)
        with self._edit("add_state", True, variable=var, state=state, index=index):
            fn = lambda t, axis, child: cpt_ops.add_state(t, axis, index, is_child=child)  # noqa: E731
            self._map_tables(var, fn, fn)
            self._vars[var] = new_var

    def remove_state(self, var: str, state: str) -> None:
        v = self.variable(var)
        index = v.index(state)
        if v.cardinality == 1:
            raise ValidationError(f"cannot remove the only state '{state}' of '{var}'")
        with self._edit("remove_state", True, variable=var, state=state, index=index):
            self._map_tables(
                var,
                lambda t, a, c: cpt_ops.remove_state(t, a, index, is_child=c, renormalise=True),
                lambda t, a, c: cpt_ops.remove_state(t, a, index, is_child=c, renormalise=False))
            self._vars[var] = Variable(var, v.states[:index] + v.states[index + 1:], v.description)

    def rename_state(self, var: str, old: str, new: str) -> None:
        v = self.variable(var)
        index = v.index(old)
        states = list(v.states)
        states[index] = new
        new_var = Variable(var, tuple(states), v.description)
        with self._edit("rename_state", True, variable=var, old=old, new=new):
            self._vars[var] = new_var

    def reorder_states(self, var: str, new_order: Sequence[str]) -> None:
        """Put the states in ``new_order`` (a permutation of the current states); tables are permuted."""
        v = self.variable(var)
        if sorted(new_order) != sorted(v.states) or len(new_order) != v.cardinality:
            raise ValidationError(f"new order {list(new_order)} is not a permutation of the states of '{var}'")
        order = [v.index(s) for s in new_order]
        with self._edit("reorder_states", True, variable=var, order=list(new_order)):
            fn = lambda t, axis, child: cpt_ops.permute_states(t, axis, order)  # noqa: E731
            self._map_tables(var, fn, fn)
            self._vars[var] = Variable(var, tuple(new_order), v.description)

    # ------------------------------------------------------------------ arc edits
    def _append_parent(self, parent: str, child: str) -> None:
        card = self.cardinality(parent)
        self._parents[child] = self._parents[child] + (parent,)
        self._cpt[child] = _frozen(cpt_ops.add_parent_axis(self._cpt[child], card, split=False))
        alpha = self._alpha[child]
        if alpha is not None:
            self._alpha[child] = _frozen(cpt_ops.add_parent_axis(alpha, card, split=True))
        self._graph.add_edge(parent, child)

    def _drop_parent(self, parent: str, child: str) -> None:
        axis = self._parents[child].index(parent)
        self._parents[child] = tuple(p for p in self._parents[child] if p != parent)
        self._cpt[child] = _frozen(cpt_ops.remove_parent_axis(self._cpt[child], axis, pool=False))
        alpha = self._alpha[child]
        if alpha is not None:
            self._alpha[child] = _frozen(cpt_ops.remove_parent_axis(alpha, axis, pool=True))
        self._graph.remove_edge(parent, child)

    def add_arc(self, parent: str, child: str) -> None:
        """Add parent -> child (as the child's last parent); the child's CPT is copied across the new axis."""
        self.variable(parent), self.variable(child)
        if parent in self._parents[child]:
            raise ValidationError(f"arc {parent} -> {child} already exists")
        self._refuse_cycle(parent, child)
        with self._edit("add_arc", True, parent=parent, child=child):
            self._append_parent(parent, child)

    def remove_arc(self, parent: str, child: str) -> None:
        """Remove parent -> child; the child's CPT rows are averaged over the parent's states."""
        self.variable(parent)
        if parent not in self.parents(child):
            raise ValidationError(f"there is no arc {parent} -> {child}")
        with self._edit("remove_arc", True, parent=parent, child=child):
            self._drop_parent(parent, child)

    def reverse_arc(self, parent: str, child: str) -> None:
        """Turn parent -> child into child -> parent (refused if another path would close a cycle)."""
        self.variable(parent)
        if parent not in self.parents(child):
            raise ValidationError(f"there is no arc {parent} -> {child}")
        self._graph.remove_edge(parent, child)
        try:
            self._refuse_cycle(child, parent)
        finally:
            self._graph.add_edge(parent, child)
        with self._edit("reverse_arc", True, parent=parent, child=child):
            self._drop_parent(parent, child)
            self._append_parent(child, parent)

    def set_parents(self, var: str, parents: Sequence[str], cpt: np.ndarray | Sequence | None = None,
                    alpha: np.ndarray | None = None) -> None:
        """Replace the whole parent list of ``var`` (in this order) and its CPT (uniform if omitted)."""
        self.variable(var)
        parents = tuple(parents)
        if len(set(parents)) != len(parents):
            raise ValidationError(f"variable '{var}' lists a parent twice: {list(parents)}")
        old_parents = self._parents[var]
        self._graph.remove_edges_from((p, var) for p in old_parents)
        try:
            for p in parents:
                self.variable(p)
                self._refuse_cycle(p, var)
        finally:
            self._graph.add_edges_from((p, var) for p in old_parents)
        shape = tuple(self.cardinality(p) for p in parents) + (self.cardinality(var),)
        old = (self._parents[var], self._cpt[var], self._alpha[var])
        self._parents[var] = parents  # so that check_table sees the new family
        try:
            table = _frozen(check_table(self, var, cpt_ops.uniform_cpt(shape[:-1], shape[-1]) if cpt is None
                                        else _as_table(cpt, shape)))
            counts = None if alpha is None else _frozen(check_table(self, var, alpha, what="Dirichlet counts",
                                                                    check_sums=False))
        finally:
            self._parents[var] = old[0]
        with self._edit("set_parents", True, variable=var, parents=list(parents)):
            self._graph.remove_edges_from((p, var) for p in old_parents)
            self._graph.add_edges_from((p, var) for p in parents)
            self._parents[var], self._cpt[var], self._alpha[var] = parents, table, counts

    # ------------------------------------------------------------------ parameter edits
    def set_cpt(self, var: str, cpt: np.ndarray | Sequence, *, check_sums: bool = True) -> None:
        """Replace the CPT of ``var`` (same shape); ``check_sums=False`` lets an editor hold unnormalised rows."""
        table = _frozen(check_table(self, var, cpt, check_sums=check_sums))
        with self._edit("set_cpt", False, variable=var):
            self._cpt[var] = table

    def set_cpt_row(self, var: str, parent_states: dict[str, str] | Sequence[str], row: Sequence[float], *,
                    check_sums: bool = True) -> None:
        """Replace one row, addressed by the parents' states (a dict or a tuple in parent order)."""
        parents = self.parents(var)
        if isinstance(parent_states, dict):
            missing = [p for p in parents if p not in parent_states]
            if missing or len(parent_states) != len(parents):
                raise ValidationError(f"row of '{var}' must name exactly its parents {list(parents)}")
            parent_states = [parent_states[p] for p in parents]
        if len(parent_states) != len(parents):
            raise ValidationError(f"row of '{var}' needs {len(parents)} parent states, got {len(parent_states)}")
        index = tuple(self.variable(p).index(s) for p, s in zip(parents, parent_states, strict=True))
        try:
            values = np.array(row, dtype=float)
        except (TypeError, ValueError):
            raise ValidationError(f"CPT of '{var}', row {row_label(self, var, index)} is not numeric") from None
        if values.shape != (self.cardinality(var),):
            raise ValidationError(f"CPT of '{var}', row {row_label(self, var, index)} has shape {values.shape}, "
                                  f"expected ({self.cardinality(var)},)")
        table = np.array(self._cpt[var])
        table[index] = values
        self.set_cpt(var, table, check_sums=check_sums)

    def set_alpha(self, var: str, alpha: np.ndarray | None) -> None:
        """Set (or clear with None) the Dirichlet counts of ``var``; same shape as its CPT, all >= 0."""
        counts = None if alpha is None else _frozen(check_table(self, var, alpha, what="Dirichlet counts",
                                                                check_sums=False))
        with self._edit("set_alpha", False, variable=var):
            self._alpha[var] = counts

    def set_parameters(self, cpts: Mapping[str, np.ndarray],
                       alphas: Mapping[str, np.ndarray | None] | None = None) -> None:
        """Replace many CPTs (and optionally alphas) as one edit (one event, one version bump)."""
        tables = {v: _frozen(check_table(self, v, t)) for v, t in cpts.items()}
        counts = {v: None if a is None else _frozen(check_table(self, v, a, what="Dirichlet counts",
                                                                check_sums=False))
                  for v, a in (alphas or {}).items()}
        with self._edit("set_parameters", False, variables=sorted(set(tables) | set(counts))):
            self._cpt.update(tables)
            self._alpha.update(counts)


def build_network(families: Iterable[tuple[str, Sequence[str], Sequence[str], np.ndarray | None]],
                  name: str = "network") -> Network:
    """Build a network from (name, states, parents, cpt) tuples, keeping their order (parsers use this).

    Unknown parents and cycles raise :class:`ValidationError` / :class:`CycleError` naming them. A ``None`` cpt is
    uniform; a flat cpt in row-major order is accepted as :meth:`Network.add_variable` accepts it.

    Valid input is built in bulk (:func:`_bulk_network`: the variables, one acyclicity check, every table checked
    in one numpy pass over their concatenation, which also holds the frozen tables); anything it doubts is built
    edit by edit (:func:`_network_by_edits`), which raises the error naming what is wrong.
    """
    families = list(families)
    return _bulk_network(families, name) or _network_by_edits(families, name)


def _network_by_edits(families: list, name: str) -> Network:
    """The reference build: one ``add_variable`` per variable, then one ``set_parents`` each (exact errors)."""
    net = Network(name)
    for var, states, _, _ in families:
        net.add_variable(var, states)
    for var, _, parents, cpt in families:
        unknown = [p for p in parents if p not in net]
        if unknown:
            raise ValidationError(f"variable '{var}' has unknown parent(s): {', '.join(unknown)}")
        net.set_parents(var, parents, cpt)
    return net


def _bulk_network(families: list, name: str) -> Network | None:
    """The network of valid ``families`` built without per-edit checks and events, or None when anything needs
    the reference build's judgement (a bad name, an unknown or repeated parent, a cycle, a table of the wrong
    shape, a negative or non-finite entry, a row off 1 by nearly :data:`ROW_TOLERANCE` or more)."""
    variables: dict[str, Variable] = {}
    parents_of: dict[str, tuple[str, ...]] = {}
    try:
        for var, states, parents, _ in families:
            if var in variables or isinstance(states, str):
                return None
            variables[var] = Variable(var, tuple(states))
            parents_of[var] = tuple(parents)
    except (BNStudioError, TypeError):
        return None
    for parents in parents_of.values():
        if len(set(parents)) != len(parents) or not all(p in variables for p in parents):
            return None
    if not _acyclic(parents_of):
        return None
    tables = _checked_tables(families, variables, parents_of)
    if tables is None:
        return None
    net = Network(name)
    with net._edit("build_network", True, name=name):
        net._vars, net._parents = variables, parents_of
        net._cpt, net._alpha = tables, dict.fromkeys(variables)
        net._dag = None  # built from the parent lists on first use
    return net


def _acyclic(parents_of: dict[str, tuple[str, ...]]) -> bool:
    """Whether the parent lists form a DAG (Kahn's algorithm: repeatedly remove a variable without parents)."""
    waiting = {var: len(parents) for var, parents in parents_of.items()}
    children: dict[str, list[str]] = {var: [] for var in parents_of}
    for var, parents in parents_of.items():
        for p in parents:
            children[p].append(var)
    ready = [var for var, n in waiting.items() if n == 0]
    done = 0
    while ready:
        var = ready.pop()
        done += 1
        for child in children[var]:
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
    return done == len(parents_of)


def _checked_tables(families: list, variables: dict[str, Variable],
                    parents_of: dict[str, tuple[str, ...]]) -> dict[str, np.ndarray] | None:
    """Every family's table as a read-only view of one concatenated copy, after one vectorised check of all of
    them (finite, non-negative, each row summing to 1 within a hair less than :data:`ROW_TOLERANCE`, so that a
    borderline row goes to :func:`check_table`); None if any table fails or has the wrong shape."""
    shapes, flats = [], []
    for var, _, _, cpt in families:
        shape = tuple(len(variables[p].states) for p in parents_of[var]) + (len(variables[var].states),)
        if cpt is None:
            table = cpt_ops.uniform_cpt(shape[:-1], shape[-1])
        else:
            try:
                table = np.asarray(cpt, dtype=float)
            except (TypeError, ValueError):
                return None
            if table.shape != shape and not (table.ndim == 1 and len(shape) > 1 and table.size == math.prod(shape)):
                return None
        shapes.append(shape)
        flats.append(table.ravel())
    if not flats:
        return {}
    flat = np.concatenate(flats)  # the one copy: every table is a view of it
    cards = np.array([shape[-1] for shape in shapes])
    rows = np.array([flat_table.size for flat_table in flats]) // cards
    row_starts = np.concatenate(([0], np.cumsum(np.repeat(cards, rows))[:-1]))
    sums = np.add.reduceat(flat, row_starts) if flat.size else flat
    if not (flat.min() >= 0 and np.all(np.abs(sums - 1.0) <= ROW_TOLERANCE * (1 - 1e-9))):  # NaN fails too
        return None
    flat.setflags(write=False)
    tables, offset = {}, 0
    for (var, *_), shape, flat_table in zip(families, shapes, flats, strict=True):
        tables[var] = flat[offset:offset + flat_table.size].reshape(shape)
        offset += flat_table.size
    return tables
