"""Dynamic Bayesian networks: two-slice models (2TBN), unrolling, filtering and smoothing with error bars, learning
from sequences.

Docs: docs/temporal.md. Qt-free; pandas only where a table is given. The public names are imported on first use
(PEP 562 module ``__getattr__``, as the ``bnstudio`` package does): the canvas draws a 2TBN's plate from
:mod:`bnstudio.temporal.model` alone, and importing the package must not load the learners (scipy.optimize, about
0.3 s of the app's start-up; benchmarks/startup_bench.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bnstudio.lazy_names import lazy_names

# imported now (numpy and the core only): the function ``unroll`` shares its module's name, and a lazy name would
# lose to the submodule, which Python binds on the package whenever bnstudio.temporal.unroll is imported
from bnstudio.temporal.unroll import unroll, unrolled_posterior

#: public name -> the module that defines it
_LAZY = {
    **dict.fromkeys(("SequenceEM", "fit_sequences_em"), "bnstudio.temporal.em"),
    **dict.fromkeys(("TemporalBars", "temporal_error_bars"), "bnstudio.temporal.errorbars"),
    **dict.fromkeys(("TemporalBeliefs", "filtering", "iter_filter", "prediction", "smoothing"),
                    "bnstudio.temporal.forward_backward"),
    "fit_sequences": "bnstudio.temporal.learning",
    **dict.fromkeys(("TwoSliceNetwork", "from_network", "split_name", "two_slice_network"), "bnstudio.temporal.model"),
    **dict.fromkeys(("sample_sequences", "sequences_frame"), "bnstudio.temporal.sample"),
    **dict.fromkeys(("format_dbn_xdsl", "read_dbn_xdsl", "write_dbn_xdsl"), "bnstudio.temporal.xdsl"),
}

__all__ = sorted([*_LAZY, "unroll", "unrolled_posterior"])


__getattr__, __dir__ = lazy_names("bnstudio.temporal", _LAZY, globals())


if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from bnstudio.temporal.em import SequenceEM, fit_sequences_em
    from bnstudio.temporal.errorbars import TemporalBars, temporal_error_bars
    from bnstudio.temporal.forward_backward import TemporalBeliefs, filtering, iter_filter, prediction, smoothing
    from bnstudio.temporal.learning import fit_sequences
    from bnstudio.temporal.model import TwoSliceNetwork, from_network, split_name, two_slice_network
    from bnstudio.temporal.sample import sample_sequences, sequences_frame
    from bnstudio.temporal.xdsl import format_dbn_xdsl, read_dbn_xdsl, write_dbn_xdsl
