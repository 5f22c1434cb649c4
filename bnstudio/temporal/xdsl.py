"""A 2TBN written as a GeNIe dynamic network in XDSL (docs/temporal.md, "GeNIe's dynamic XDSL").

The format is described (with its sources) in :mod:`bnstudio.io.genie.xdsl_dynamic`, which reads it back: every
variable X is a plate node (``dynamic="plate"``) whose ``<nodes>`` table is ``X0``'s and whose ``<dynamic>``
table of order 1 is ``Xt``'s, over X's parents inside the slice, then its parents in slice t-1, child fastest.

GeNIe has one set of arcs inside a slice for every slice, while a 2TBN may give ``X0`` and ``Xt`` different
parents inside their slices: the plate node takes both sets (``X0``'s parents first), each table repeated over
the parents it does not have, which changes no probability. Refused, one line each: a radical that is not a
GeNIe identifier (a letter, then letters, digits, ``_``), arcs inside the slices that together make a cycle,
and a variable without parents in slice t-1 whose two tables differ (GeNIe gives such a node its slice-0 table
in every slice).

``numslices`` is the count given, else the one read with the 2TBN (the network property ``numslices``,
:func:`~bnstudio.io.genie.xdsl_dynamic.slice_count`), else :data:`DEFAULT_SLICES`. File ▸ Save of a 2TBN to
``.xdsl`` (:mod:`bnstudio.app.file_io`) and ``bnstudio convert`` (:mod:`bnstudio.cli.convert_dbn`) write with it.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.errors import CycleError, ValidationError
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.bulk import number_text
from bnstudio.io.common import is_identifier
from bnstudio.io.genie.xdsl import format_xdsl, read_xdsl
from bnstudio.io.genie.xdsl_dynamic import slice_count
from bnstudio.temporal.model import TwoSliceNetwork, from_network

#: GeNIe's slice count written when none is given nor was read with the 2TBN
DEFAULT_SLICES = 10


def format_dbn_xdsl(tbn: TwoSliceNetwork, slices: int | None = None) -> str:
    """The XDSL text of ``tbn`` as a GeNIe dynamic network of ``slices`` slices (GeNIe's slice count; None: the
    count read with the 2TBN (:func:`~bnstudio.io.genie.xdsl_dynamic.slice_count`), else
    :data:`DEFAULT_SLICES`)."""
    count = dynamic_slices(tbn.network, slices)
    for radical in tbn.radicals:
        if not is_identifier(radical):
            raise ValidationError(f"'{radical}' is not a GeNIe identifier (a letter, then letters, digits or _): "
                                  f"rename it before writing a dynamic XDSL file")
    inside = {r: list(dict.fromkeys(list(tbn.initial_parents(r)) +
                                    [p for p, lag in tbn.transition_parents(r) if lag == 0]))
              for r in tbn.radicals}
    families = [(r, list(tbn.states(r)), inside[r], _spread(tbn.initial_cpt(r), list(tbn.initial_parents(r)),
                                                            inside[r], tbn)) for r in tbn.radicals]
    try:
        plate = build_network(families, tbn.name)
    except CycleError as exc:
        raise ValidationError(f"the arcs inside slice 0 and inside slice t together make the cycle "
                              f"{' -> '.join(exc.cycle)}: GeNIe has one set of arcs inside a slice") from None
    for r in tbn.radicals:
        position = tbn.network.positions.get(r + "0")
        if position is not None:
            plate.positions[r] = position
        description = tbn.network.variable(r + "0").description
        if description:
            plate.set_description(r, description)
    root = ET.fromstring(format_xdsl(plate))
    nodes = root.find("nodes")
    assert nodes is not None  # format_xdsl writes one
    for node in nodes:
        node.set("dynamic", "plate")
    dynamic = ET.Element("dynamic", numslices=str(count))
    for r in tbn.radicals:
        lagged = [p for p, lag in tbn.transition_parents(r) if lag == 1]
        named = [p + ("0" if lag == 1 else "t") for p, lag in tbn.transition_parents(r)]
        table = _spread(tbn.transition_cpt(r), named, [p + "t" for p in inside[r]] + [p + "0" for p in lagged],
                        tbn)
        if not lagged:
            if not np.allclose(table, plate.cpt(r), rtol=0, atol=1e-12):
                raise ValidationError(f"'{r}' has no parent in slice t-1 but different tables in slice 0 and "
                                      f"slice t: GeNIe would use its slice-0 table in every slice")
            continue
        cpt = ET.SubElement(dynamic, "cpt", id=r, order="1")
        ET.SubElement(cpt, "parents").text = " ".join(lagged)
        ET.SubElement(cpt, "probabilities").text = number_text(table)
    root.insert(list(root).index(nodes) + 1, dynamic)
    genie = root.find("extensions/genie")
    if genie is not None and plate.positions:
        xs = [x for x, _ in plate.positions.values()]
        ys = [y for _, y in plate.positions.values()]
        box = ET.Element("plate", leftwidth="120", rightwidth="120")
        box.text = " ".join(str(round(c)) for c in (min(xs) - 80, min(ys) - 60, max(xs) + 80, max(ys) + 60))
        genie.insert(0, box)
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def dynamic_slices(net: Network, slices: int | None = None) -> int:
    """GeNIe's slice count for writing ``net``: ``slices`` if given (a whole number >= 1, else refused), else the
    count read with it, else :data:`DEFAULT_SLICES`."""
    if slices is None:
        return slice_count(net) or DEFAULT_SLICES
    if isinstance(slices, bool) or int(slices) != slices or slices < 1:
        raise ValidationError(f"the number of slices must be a whole number >= 1, got {slices}")
    return int(slices)


def write_dbn_xdsl(tbn: TwoSliceNetwork, path: PathLike, slices: int | None = None) -> None:
    """Write ``tbn`` as a GeNIe dynamic network (``.xdsl``) to ``path`` atomically."""
    atomic_write_text(path, format_dbn_xdsl(tbn, slices))


def read_dbn_xdsl(path: PathLike) -> TwoSliceNetwork:
    """The 2TBN of a GeNIe dynamic network (``.xdsl``; read by :mod:`bnstudio.io.genie.xdsl_dynamic`)."""
    net = read_xdsl(path)
    if not any(v.endswith("t") for v in net.variables) or not all(v[-1:] in "0t" for v in net.variables):
        raise ValidationError(f"{path}: not a dynamic network (no <dynamic> element, no plate node)")
    return from_network(net)


def _spread(cpt: np.ndarray, have: list[str], want: list[str], tbn: TwoSliceNetwork) -> np.ndarray:
    """``cpt`` (parent axes ``have``, then the child) over the parents ``want`` (a superset, in any order): axes
    moved to ``want``'s order, repeated over the parents it does not depend on. Names may carry a slice suffix."""
    extra = [p for p in want if p not in have]
    table = cpt.reshape(cpt.shape[:-1] + (1,) * len(extra) + cpt.shape[-1:])
    table = np.broadcast_to(table, cpt.shape[:-1] + tuple(tbn.cardinality(_radical(p, tbn)) for p in extra)
                            + cpt.shape[-1:])
    order = [(have + extra).index(p) for p in want] + [len(want)]
    return np.ascontiguousarray(np.transpose(table, order))


def _radical(name: str, tbn: TwoSliceNetwork) -> str:
    return name if name in tbn.radicals else name[:-1]
