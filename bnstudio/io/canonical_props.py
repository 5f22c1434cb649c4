"""Canonical models (noisy-MAX, deterministic) through formats that only keep a table and string properties.

BIF, XMLBIF and Hugin NET files get the expanded CPT (what every other reader needs) and, in the variable's
block, the property ``bnstudio_canonical = "<the model on one line>"`` (:func:`bnstudio.core.canonical.
canonical_to_text`, with ``order=`` for a child whose absent state is not its last); reading takes it back into
``net.canonical``. The model counts only while it still gives the
table (:func:`bnstudio.core.canonical.canonical_of`), so a file whose table was edited elsewhere reads as a plain
CPT. (pyAgrum 3.3.1 writes its noisy-OR nodes to BIF as plain tables too.)
"""
from __future__ import annotations

from bnstudio.core.canonical import canonical_from_text, canonical_of, canonical_to_text
from bnstudio.core.network import Network
from bnstudio.errors import ValidationError

KEY = "bnstudio_canonical"


def with_model_properties(net: Network) -> Network:
    """``net``, or a copy with one ``"V.bnstudio_canonical"`` property per variable with a valid model."""
    models = {v: m for v in net.canonical if v in net and (m := canonical_of(net, v)) is not None}
    if not models:
        return net
    out = net.copy()
    for var, model in models.items():
        out.properties[f"{var}.{KEY}"] = canonical_to_text(model)
    return out


def take_model_properties(net: Network) -> Network:
    """Move the ``"V.bnstudio_canonical"`` properties of ``net`` into ``net.canonical`` (unreadable ones stay
    properties); returns ``net``."""
    for var in net.variables:
        text = net.properties.get(f"{var}.{KEY}")
        if text is None:
            continue
        try:
            net.canonical[var] = canonical_from_text(text)
        except ValidationError:
            continue
        del net.properties[f"{var}.{KEY}"]
    return net
