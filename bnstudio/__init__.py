"""BN Studio: build, learn and query discrete Bayesian networks.

Quickstart::

    import bnstudio
    net = bnstudio.read_network("asia.bif")                    # BIF, XMLBIF, NET, XDSL, DNE, UAI, .bnsproj
    engine = bnstudio.InferenceEngine(net)
    engine.query("lung", {"smoke": "yes"})                     # a labelled answer; engine.posterior: arrays
    rows = bnstudio.forward_sample(net, 1000, seed=0, as_frame=True)

Where things live: learning in :mod:`bnstudio.learn` (``bnstudio.learn.params.make_learner`` for parameters,
``bnstudio.learn.structure.make_structure_learner`` for structures, :mod:`bnstudio.learn.registry` for every
learner's options), error bars in :mod:`bnstudio.uncertainty` (``error_bars``), held-out scores and
cross-validation in :mod:`bnstudio.evaluate`, data tables in :mod:`bnstudio.data`, studies in
:mod:`bnstudio.experiment`, a scikit-learn classifier in :mod:`bnstudio.sklearn` (the ``sklearn`` extra).
The guides are docs/*.md (docs/python.md first); ``make docs`` builds the API reference.

The public Python API; the GUI (``bnstudio.gui``) is never imported from here. The names below are loaded on
first use (PEP 562 module ``__getattr__``), so ``import bnstudio`` — and every ``bnstudio`` subcommand, which
imports it first — costs no numpy, networkx, pandas or scipy until a name that needs them is asked for.

The facade sits above every Qt-free layer, so it also connects the hooks the lower layers call
(:mod:`bnstudio.hooks`) to the higher modules that provide them, imported on a hook's first call: the notebook
drawings (:mod:`bnstudio.display.notebook`) and table coding (:mod:`bnstudio.data.tables`).
"""
from __future__ import annotations

import os as _os
from typing import TYPE_CHECKING

from bnstudio import hooks as _hooks
from bnstudio.lazy_names import lazy_names as _lazy_names

# Our numerical work is vectorised by hand into many small and medium array operations; a multi-threaded BLAS
# pays thread hand-offs on every small dot product (measured: 6.5 ms instead of 3 µs for a 20,000-element
# dot on a busy 2-core machine). Default to one BLAS thread unless the user chose otherwise; this only takes
# effect when bnstudio is imported before numpy.
for _var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"

#: public name -> the module defining it (imported on first access)
_LAZY: dict[str, str] = {
    "Network": "bnstudio.core", "Variable": "bnstudio.core", "build_network": "bnstudio.core",
    "network_from_dsl": "bnstudio.core",
    **{name: "bnstudio.errors" for name in ("BNStudioError", "Cancelled", "CycleError", "EvidenceError",
                                            "FormatError", "ImpossibleEvidence", "MemoryBudgetExceeded",
                                            "ValidationError")},
    "InferenceEngine": "bnstudio.inference",
    **{name: "bnstudio.inference.explanations" for name in ("Explanation", "Explanations", "MapExplanation")},
    "read_network": "bnstudio.io", "write_network": "bnstudio.io",
    "forward_sample": "bnstudio.sampling",
    "show": "bnstudio.display.notebook", "side_by_side": "bnstudio.display.notebook",
    **{name: "bnstudio.interop" for name in ("from_pgmpy", "from_pyagrum", "to_pgmpy", "to_pyagrum")},
}

__all__ = sorted(_LAZY)


def _load_notebook_drawings() -> None:
    """Import the module providing the notebook hooks (a network's, a fit's and error bars' drawings)."""
    from bnstudio.display import notebook  # provides the hooks when imported


def _load_table_coding() -> None:
    """Import the module providing the table hooks (DataFrames, Datasets and files given to a learner)."""
    from bnstudio.data import tables  # provides the hooks when imported


for _hook in _hooks.NOTEBOOK:
    _hook.load_with(_load_notebook_drawings)
for _hook in _hooks.TABLES:
    _hook.load_with(_load_table_coding)


__getattr__, __dir__ = _lazy_names("bnstudio", _LAZY, globals())


if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from bnstudio.core import Network, Variable, build_network, network_from_dsl
    from bnstudio.display.notebook import show, side_by_side
    from bnstudio.errors import (
        BNStudioError,
        Cancelled,
        CycleError,
        EvidenceError,
        FormatError,
        ImpossibleEvidence,
        MemoryBudgetExceeded,
        ValidationError,
    )
    from bnstudio.inference import InferenceEngine
    from bnstudio.inference.explanations import Explanation, Explanations, MapExplanation
    from bnstudio.interop import from_pgmpy, from_pyagrum, to_pgmpy, to_pyagrum
    from bnstudio.io import read_network, write_network
    from bnstudio.sampling import forward_sample
