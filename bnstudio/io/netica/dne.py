"""Read Netica's DNE text files (``.dne``, first line ``// ~->[DNET-1]->~``); the writer is
:mod:`bnstudio.io.netica.dne_writer`, the syntax :mod:`bnstudio.io.netica.dne_syntax`::

    bnet ChestClinic {
        node Dyspnea {
            kind = NATURE; discrete = TRUE; chance = CHANCE;
            states = (Present, Absent);
            parents = (TbOrCa, Bronchitis);
            probs =
                // Present  Absent        // TbOrCa  Bronchitis
                (((0.9,     0.1),         // True    Present
                  (0.7,     0.3)),        // True    Absent
                 ((0.8,     0.2),         // False   Present
                  (0.1,     0.9)));       // False   Absent
            title = "Shortness of breath"; visual V1 { center = (420, 310); };
        };
    };

Conventions
-----------
* ``probs`` is nested one level per parent, in the order of ``parents`` (the first outermost), the child's
  distribution innermost: flattened, **the child varies fastest, then the last parent** -- the row-major order of
  our CPT layout (the row comments Netica writes, ``// TbOrCa Bronchitis`` then ``// True Present``, say so).
  Only the count of numbers matters, so a flat list reads too. ``functable`` (``chance = DETERMIN`` nodes) gives
  the child's state (by name, ``#k`` index, or for a discretised node a value inside its interval) for each parent
  configuration in the same order: the node is read as a deterministic canonical model (``net.canonical``).
* ``kind = NATURE`` nodes are chance nodes. Influence diagrams (:func:`read_dne_model`, see
  :mod:`bnstudio.io.influence`): ``kind = DECISION`` nodes (``states``; ``parents`` are informational parents, a
  stored policy is not read) and ``kind = UTILITY`` nodes (``functable``: one number per parent configuration in
  the order of ``probs``). :func:`read_dne` refuses them in one line.
* States: ``states``; else the value of each ``levels`` entry (``discrete = TRUE``); else ``numstates`` states
  named ``state0``, ``state1``, ... as Netica names new states. A discretised continuous node (``discrete =
  FALSE`` with ``levels = (t0, t1, ..., tn)``) is read as discrete, as Netica compiles it: n states named by
  ``states`` or by their intervals (``t0 to t1``; ``< t1`` and ``>= t(n-1)`` for infinite ends). A continuous node
  without ``levels`` is refused, as are nodes defined by an ``equation`` Netica has not turned into a table.
* Repairs (:mod:`bnstudio.io.repairs`, the policy of every format; Netica's own handling of rows off 1 is not
  documented, so no normaliser): a row of ``@imposs`` entries (an impossible parent configuration) or of ``*``
  (no value) and a missing table (a structure-only file, as CaMML writes) become uniform; ``@imposs`` among
  numbers is 0; ``CONSTANT`` and ``DISCONNECTED`` nodes without children (Netica's labels and placeholders) are
  left out. Each is reported; strict reading refuses instead.
* ``title`` becomes the variable's description (``comment`` wins over it) unless it repeats the name; ``visual V1
  { center = (x, y); }`` is the node's position. Fields not used (``whenchanged``, ``belief``, ``evidence``,
  ``numcases``, ``inputs``, ``NodeSet``, fonts, ...) are skipped. BN Studio's writer keeps names Netica cannot
  hold in ``user U1 { bnstudio_name = "..."; bnstudio_states = "[...]"; }``, read back here.
* Netica's encrypted binary ``.neta`` is refused in one line (save as ``.dne`` from Netica).
"""
from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Callable, cast

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io.atomic import PathLike, read_bytes, read_text
from bnstudio.io.bif.writer import NAME_KEY, STATES_KEY
from bnstudio.io.common import NUMBER, Family, assemble, checked_name, first_duplicate
from bnstudio.io.influence import diagram_with, not_a_network
from bnstudio.io.messages import listing, shorten
from bnstudio.io.netica.dne_syntax import Block, Items, Token, flatten
from bnstudio.io.netica.dne_tables import Node, TableReader

if TYPE_CHECKING:
    import numpy as np

    from bnstudio.decision.model import InfluenceDiagram

NETA = "Netica's encrypted binary format (.neta), which only Netica reads: open it in Netica and save it as .dne"
KINDS = ("NATURE", "DECISION", "UTILITY", "CONSTANT", "DISCONNECTED")
_INFINITE = {"INFINITY": math.inf, "+INFINITY": math.inf, "-INFINITY": -math.inf}


class _Reader(TableReader):
    """The nodes of one DNE text: states, parents, texts and positions, assembled into a network (the values and
    tables are read by :class:`~bnstudio.io.netica.dne_tables.TableReader`)."""

    # ------------------------------------------------------------------ nodes
    def read(self) -> tuple[Network, list, list, Callable[[str | None, str], FormatError]]:
        """(network, decisions (name, informational parents), utilities (name, parents, table), fail_at)."""
        name, top = self.syntax.network()
        blocks = top.blocks("node")
        self.budget.variables(len(blocks), lambda m: self.error(m, top))
        nodes: dict[str, Node] = {}
        for ident, block in blocks:
            # the ignore: mypy infers no type for a lambda with a default argument
            var = checked_name(ident.value, "node", lambda m, t=ident: self.error(m, t))  # type: ignore[misc]
            if var in nodes:
                first = self.syntax.error("", nodes[var].ident.offset).line
                raise self.error(f"node '{var}' is defined twice (first on line {first})", ident)
            nodes[var] = self.node(var, ident, block)
        for var, node in nodes.items():
            node.parents = self.parents(var, node, nodes)
        nodes = self.without_labels(nodes)
        new = self.original_names(nodes)
        by_name = {new[v]: node for v, node in nodes.items()}
        families: list[Family] = []
        decisions: list[tuple[str, list[str]]] = []
        utilities: list[tuple[str, list[str], np.ndarray]] = []
        self.read_untouched(nodes)
        for var, node in nodes.items():
            parents = [new[p] for p in node.parents]
            if node.kind == "UTILITY":
                utilities.append((new[var], parents, self.utilities(var, node, nodes)))
            elif node.kind == "DECISION":
                families.append((new[var], node.states, (), None))
                decisions.append((new[var], parents))
            else:
                families.append((new[var], node.states, parents, self.table(var, node, nodes)))
        fail_at = lambda v, m: self.error(m, by_name[v].ident if v in by_name else top)  # noqa: E731
        kept = self.user(top, NAME_KEY)
        net = assemble(families, kept.value if kept else name.value.strip() or "network", fail_at)
        for var, node in nodes.items():
            if node.kind != "UTILITY":
                self.describe(net, new[var], var, node)
        for text, items in self.pending.items():
            self.repairs.note(f"{text}: {listing(items, quote=False)}", lambda m: self.error(m, top))
        return net, decisions, utilities, fail_at

    def node(self, var: str, ident: Token, block: Block) -> Node:
        where = f"node '{shorten(var)}'"
        kind = self.word(block, "kind", where, KINDS) or "NATURE"
        node = Node(ident, block, kind)
        if kind in ("UTILITY", "CONSTANT", "DISCONNECTED"):
            return node  # no states read: utilities are numbers, labels and placeholders are left out
        discrete = self.word(block, "discrete", where, ("TRUE", "FALSE")) != "FALSE"
        levels = self.one(block, "levels", (Items,), where)
        names = self.one(block, "states", (Items,), where)
        count = self.one(block, "numstates", (Token,), where)
        if not discrete and kind in ("NATURE", "DECISION"):
            if levels is None:
                raise self.error(f"node '{var}' is continuous (discrete = FALSE without levels), which is not "
                                 f"supported: only discrete and discretised nodes are read", ident)
            node.discretised = True
        level_values: list[float] = []  # node.levels, when it has levels
        if levels is not None:
            node.levels = level_values = self.numbers(levels, var, node.discretised)
        n = (len(names.items) if names is not None else len(level_values) - node.discretised if levels is not None
             else self.count(count, var) if count is not None else None)
        if n is None:
            raise self.error(f"node '{var}' has no states (no states, levels or numstates)", ident)
        self.budget.states(var, n, lambda m: self.error(m, ident))
        if count is not None and self.count(count, var) != n:
            raise self.error(f"node '{var}' has numstates = {count.value} but {n} states", count)
        if names is not None:
            node.states = self.state_names(var, names)
        elif levels is not None:
            node.states = _interval_names(levels, level_values) if node.discretised else tuple(
                t.value for t in cast("list[Token]", flatten(levels)))  # numbers() refused empty entries
        else:
            node.states = tuple(f"state{k}" for k in range(n))
        if levels is not None and len(node.states) != len(level_values) - node.discretised:
            raise self.error(f"node '{var}' has {len(node.states)} states but {len(level_values)} levels", levels)
        if not node.states:
            raise self.error(f"node '{var}' has no states", names or ident)
        twice = first_duplicate(node.states)
        if twice is not None:
            raise self.error(f"node '{var}' has the state '{twice}' twice", levels or ident)
        renamed = self.user(block, STATES_KEY)
        if renamed is not None:
            node.file_states = node.states
            node.states = self.restored_states(var, renamed, node.states)
        return node

    def count(self, tok: Token, var: str) -> int:
        if not (tok.value.isascii() and tok.value.isdigit()):  # str.isdigit() alone takes '²', which int() refuses
            raise self.error(f"numstates of '{var}' must be a whole number, found '{shorten(tok.value, 40)}'", tok)
        if len(tok.value) > 18:   # beyond any size limit (and int() refuses more than 4,300 digits)
            raise self.error(f"numstates of '{var}' is {len(tok.value):,} digits long: far above any size limit",
                             tok)
        return int(tok.value)

    def numbers(self, levels: Items, var: str, thresholds: bool) -> list[float]:
        """The numbers of ``levels`` (``INFINITY`` allowed at the ends of thresholds), increasing."""
        out = []
        for tok in flatten(levels):
            if tok is None or not (NUMBER.fullmatch(tok.value) or (thresholds and tok.value.upper() in _INFINITE)):
                raise self.error(f"the levels of '{var}' must be numbers", tok or levels)
            text = tok.value.upper()
            out.append(_INFINITE[text] if text in _INFINITE else float(text))
            if not math.isfinite(out[-1]) and not thresholds:
                raise self.error(f"the levels of '{var}' must be finite numbers", tok)
            if len(out) > 1 and not out[-1] > out[-2] and thresholds:
                raise self.error(f"the levels of '{var}' must increase", tok)
        if thresholds and len(out) < 2:
            raise self.error(f"the levels of discretised node '{var}' need at least two thresholds", levels)
        return out

    def state_names(self, var: str, names: Items) -> tuple[str, ...]:
        states = []
        for tok in names.items:
            if not isinstance(tok, Token):
                raise self.error(f"node '{var}' has a state without a name", names)
            # the ignore: mypy infers no type for a lambda with a default argument
            states.append(checked_name(tok.value, f"state of '{var}'",
                                       lambda m, t=tok: self.error(m, t)))  # type: ignore[misc]
        return tuple(states)

    def restored_states(self, var: str, field: Token, states: tuple[str, ...]) -> tuple[str, ...]:
        """The original state names BN Studio's writer kept (a JSON list in user ``field``), if they fit."""
        if field.value not in self.parsed:  # a file repeats the same few lists (parsed once each, not changed)
            try:
                self.parsed[field.value] = json.loads(field.value)
            except ValueError:
                self.parsed[field.value] = None
        names = self.parsed[field.value]
        ok = isinstance(names, list) and len(names) == len(states) and all(isinstance(s, str) for s in names)
        if not ok or first_duplicate(names) is not None:
            raise self.error(f"the user field {STATES_KEY} of '{var}' is not a list of its {len(states)} state "
                             f"names", field)
        return tuple(checked_name(s, f"state of '{var}'", lambda m: self.error(m, field)) for s in names)

    def parents(self, var: str, node: Node, nodes: dict[str, Node]) -> list[str]:
        listed = self.one(node.block, "parents", (Items,), f"node '{shorten(var)}'")
        out: list[str] = []
        for tok in listed.items if listed is not None else []:
            if not isinstance(tok, Token):
                assert listed is not None  # its items are read
                raise self.error(f"node '{var}' has an empty parent entry", listed)
            if tok.value not in nodes:
                raise self.error(f"unknown parent '{tok.value}' of '{var}'", tok)
            if tok.value == var:
                raise self.error(f"cycle {var} -> {var} ('{var}' is its own parent)", tok)
            if tok.value in out:
                raise self.error(f"parent '{tok.value}' of '{var}' is listed twice", tok)
            kind = nodes[tok.value].kind
            if kind == "UTILITY":
                raise self.error(f"utility node '{tok.value}' has a child '{var}'; utility nodes cannot have "
                                 f"children", tok)
            if kind in ("CONSTANT", "DISCONNECTED"):
                raise self.error(f"parent '{tok.value}' of '{var}' is a {kind} node, which is not supported "
                                 f"(only nature, decision and utility nodes are read)", tok)
            out.append(tok.value)
        self.budget.parents(var, len(out), lambda m: self.error(m, node.ident))
        return out

    def without_labels(self, nodes: dict[str, Node]) -> dict[str, Node]:
        """``nodes`` without CONSTANT and DISCONNECTED ones (no one's parents: :meth:`parents` checked)."""
        left = [v for v, node in nodes.items() if node.kind in ("CONSTANT", "DISCONNECTED")]
        for v in left:
            # the ignore: mypy infers no type for a lambda with a default argument
            self.repair("left out CONSTANT and DISCONNECTED nodes without children", f"'{shorten(v)}'",
                        lambda m, v=v: self.error(m, nodes[v].ident))  # type: ignore[misc]
        return {v: node for v, node in nodes.items() if v not in left}

    # ------------------------------------------------------------------ tables
    # ------------------------------------------------------------------ texts
    def user(self, block: Block, key: str) -> Token | None:
        """The string user field ``key`` of ``block`` (in ``user U1 { key = "..."; }``), or None."""
        for _, user in block.blocks("user"):
            for _, value in user.get(key):
                if isinstance(value, Token) and value.kind == "str":
                    return value
        return None

    def original_names(self, nodes: dict[str, Node]) -> dict[str, str]:
        """{name in the file: name}: the original name BN Studio's writer kept when it had to change one."""
        out = {}
        for var, node in nodes.items():
            kept = self.user(node.block, NAME_KEY)
            fail = lambda m, t=kept: self.error(m, t)  # noqa: E731
            out[var] = var if kept is None else checked_name(kept.value, "node", fail)
        twice = first_duplicate(out.values())
        if twice is not None:
            second = [n for v, n in nodes.items() if out[v] == twice][-1]
            raise self.error(f"two nodes are named '{twice}'", second.ident)
        return out

    def describe(self, net: Network, var: str, ident: str, node: Node) -> None:
        """Description (``comment``, else a ``title`` that does not repeat the name) and position of ``var``
        (``ident`` in the file)."""
        where = f"node '{shorten(ident)}'"
        texts = [self.one(node.block, key, (Token,), where) for key in ("comment", "title")]
        comment, title = (t.value.strip() if t is not None else "" for t in texts)
        if comment or (title and title not in (var, ident)):
            net.set_description(var, comment or title)
        visual = node.block.blocks("visual")
        centre = self.one(visual[0][1], "center", (Items,), where) if visual else None
        if centre is not None:
            xy = flatten(centre)
            if len(xy) != 2 or not all(t is not None and NUMBER.fullmatch(t.value) for t in xy):
                raise self.error(f"the center of node '{var}' must be (x, y)", centre)
            x, y = (float(t.value) for t in xy if t is not None)  # none is None (tested above)
            if math.isfinite(x) and math.isfinite(y):
                net.positions[var] = (x, y)
        if ident in self.models:
            net.canonical[var] = self.models[ident]


def _interval_names(levels: Items, values: list[float]) -> tuple[str, ...]:
    """The states of a discretised node, as Netica shows them: ``t0 to t1``, ``< t1``, ``>= t(n-1)``."""
    texts = [t.value for t in cast("list[Token]", flatten(levels))]  # numbers() refused empty entries
    out = []
    for k in range(len(values) - 1):
        low, high = texts[k], texts[k + 1]
        if math.isinf(values[k]) != math.isinf(values[k + 1]):
            out.append(f"< {high}" if math.isinf(values[k]) else f">= {low}")
        else:
            out.append(f"{low} to {high}")
    return tuple(out)


def parse_dne_model(text: str, path: str = "<string>", strict: bool = False) -> Network | InfluenceDiagram:
    """Parse DNE ``text`` (see the module docstring) into a network, or an influence diagram when it has decision
    or utility nodes; every problem is a :class:`FormatError` with its line and column; ``strict`` refuses what
    would need a repair (see :mod:`bnstudio.io.repairs`)."""
    reader = _Reader(text, str(path), strict)
    net, decisions, utilities, fail_at = reader.read()
    model = diagram_with(net, decisions, utilities, fail_at) if decisions or utilities else net
    reader.repairs.warn(model)
    return model


def parse_dne(text: str, path: str = "<string>", strict: bool = False) -> Network:
    """As :func:`parse_dne_model`, but a file with decision or utility nodes is refused in one line."""
    reader = _Reader(text, str(path), strict)
    net, decisions, utilities, fail_at = reader.read()
    if decisions or utilities:
        first = (decisions + utilities)[0][0]
        raise fail_at(first, not_a_network([d for d, _ in decisions], [u for u, _, _ in utilities]))
    reader.repairs.warn(net)
    return net


def _text(path: PathLike) -> str:
    """The text of a ``.dne`` file; a binary one (a renamed ``.neta``) is refused saying what it may be."""
    try:
        return read_text(path)
    except FormatError as exc:
        if "not UTF-8" not in str(exc) or not _looks_binary(read_bytes(path)):
            raise   # a text file in another encoding: the byte, line and column say where
        raise FormatError(f"not a DNE text file: binary content, as in {NETA}", path=str(path)) from None


def _looks_binary(data: bytes) -> bool:
    """A NUL byte in the first KiB, or no DNE text start (``//`` or ``bnet`` after blanks)."""
    head = data[:1024]
    return b"\0" in head or not head.lstrip().startswith((b"//", b"bnet", b"\xef\xbb\xbf"))


def read_dne(path: PathLike, strict: bool = False) -> Network:
    """Read a Netica ``.dne`` file; every failure is a :class:`FormatError`."""
    return parse_dne(_text(path), str(path), strict)


def read_dne_model(path: PathLike, strict: bool = False) -> Network | InfluenceDiagram:
    """Read a Netica ``.dne`` file into a network or an influence diagram."""
    return parse_dne_model(_text(path), str(path), strict)


def read_neta(path: PathLike, strict: bool = False) -> Network:
    """``.neta`` files are refused in one line saying what they are and what to do."""
    raise FormatError(f"this is {NETA}", path=str(path))


def write_neta(net: Network, path: PathLike) -> None:
    """``.neta`` files are not written: one line saying to write ``.dne``, which Netica opens."""
    raise FormatError("cannot write Netica's encrypted binary format (.neta): write a .dne file, which Netica "
                      "opens", path=str(path))
