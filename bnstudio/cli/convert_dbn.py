"""``bnstudio convert`` for two-slice networks (docs/temporal.md, "GeNIe's dynamic XDSL"): which input is written
in GeNIe's dynamic form and what that form did not keep.

A 2TBN in pyAgrum's naming (X0 / Xt, any format) converted to ``.xdsl`` becomes a GeNIe dynamic network
(:func:`bnstudio.temporal.xdsl.write_dbn_xdsl`) unless ``--plain`` is given; ``--slices T`` sets its
``numslices`` (default: the count read with the input, else 10) and refuses, in one line, an input that is not a
2TBN or an output that is not ``.xdsl``. The other way needs nothing: a dynamic ``.xdsl`` reads as the 2TBN
(:mod:`bnstudio.io.genie.xdsl_dynamic`), its ``numslices`` kept as the network property ``numslices``.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bnstudio.core.network import Network
    from bnstudio.temporal.model import TwoSliceNetwork


def two_slice_target(args: argparse.Namespace, net: Network) -> TwoSliceNetwork | None:
    """The 2TBN to write as a GeNIe dynamic network (module docstring), or None to write ``net`` as it is."""
    from bnstudio.errors import BNStudioError, ValidationError
    from bnstudio.temporal.model import from_network
    from bnstudio.temporal.timeline import as_two_slice

    xdsl = str(args.output).lower().endswith(".xdsl")
    if args.slices is None:
        return as_two_slice(net) if xdsl and not args.plain else None
    if not xdsl:
        raise ValidationError(f"--slices writes GeNIe's dynamic XDSL: the output must end in .xdsl, not "
                              f"'{args.output}'")
    try:
        return from_network(net)
    except BNStudioError as exc:
        raise ValidationError(f"--slices writes a two-slice network (pyAgrum's X0 / Xt names) and "
                              f"{args.input} is not one: {exc}") from None


def lost_two_slice_information(before: Network, after: Network) -> list[str]:
    """What of the 2TBN ``before`` the dynamic XDSL file, read back as ``after``, does not have
    (:func:`bnstudio.cli.convert.lost_information` once each family's parents are put back in ``before``'s
    order; GeNIe's slice count itself is not a loss)."""
    import numpy as np

    from bnstudio.cli.convert import lost_information
    from bnstudio.io.genie.xdsl_dynamic import NUMSLICES

    if set(before.variables) != set(after.variables):
        return ["structure"]
    aligned = after.copy()
    for var in before.variables:
        want, have = list(before.parents(var)), list(aligned.parents(var))
        if set(want) != set(have):
            return ["structure"]
        if want != have:
            order = [have.index(p) for p in want] + [len(want)]
            aligned.set_parents(var, want, np.transpose(aligned.cpt(var), order))
    kept = before.copy()
    for net in (kept, aligned):
        net.properties.pop(NUMSLICES, None)
    return lost_information(kept, aligned)
