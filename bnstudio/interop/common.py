"""What the bridges to pgmpy and pyAgrum share: importing a peer, and saying what the other side drops."""
from __future__ import annotations

import importlib
import warnings
from types import ModuleType
from typing import Sequence

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError

#: the package to install for each peer module
INSTALL = {"pgmpy": "pgmpy", "pyagrum": "pyAgrum"}


class PeerWarning(UserWarning):
    """Part of a model that the other library cannot hold was left out (the message says which)."""


def import_peer(module: str) -> ModuleType:
    """``module`` imported, or a one-line ImportError naming what to install.

    SWIG-built peers (pyAgrum) warn while importing (DeprecationWarning: "builtin type SwigPyPacked has no
    __module__ attribute"); raised as an error there (python -W error, a test suite) it leaves pyAgrum's
    extensions half made and a later InfluenceDiagram() crashes the interpreter, so the import ignores it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return importlib.import_module(module)
    except ImportError as exc:
        package = INSTALL[module.split(".")[0]]
        raise ImportError(f"this needs {package}: pip install {package} "
                          f"(or pip install 'bnstudio[test]')") from exc


def check_kind(function: str, value: object, kinds: tuple[type, ...], expected: str) -> None:
    """A one-line ValidationError unless ``value`` is one of ``kinds`` (a converter given the wrong object)."""
    if not isinstance(value, kinds):
        raise ValidationError(f"{function} takes {expected}, not {type(value).__name__}")


def warn_dropped(peer: str, what: str, names: Sequence[str]) -> None:
    """One PeerWarning listing the variables whose ``what`` ``peer`` cannot hold."""
    if names:
        shown = ", ".join(list(names)[:8]) + (", ..." if len(names) > 8 else "")
        warnings.warn(f"{peer} cannot hold {what}; left out for {len(names)} variable(s): {shown}",
                      PeerWarning, stacklevel=3)


def warn_export_losses(net: Network, peer: str) -> None:
    """Warn about the Dirichlet counts and canonical models ``net`` has and ``peer`` cannot hold."""
    warn_dropped(peer, "Dirichlet counts (alpha)", [v for v in net.variables if net.alpha(v) is not None])
    warn_dropped(peer, "canonical models (noisy-MAX, deterministic; the expanded CPT is kept)",
                 [v for v in net.variables if v in net.canonical])


def families(net: Network) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(variable, states, parents) in the network's order."""
    return [(v, net.states(v), net.parents(v)) for v in net.variables]
