"""Dynamic Bayesian networks: two-slice models (2TBN), unrolling, filtering and smoothing with error bars, learning
from sequences.

Docs: docs/temporal.md. Qt-free; pandas only where a table is given.
"""
from bnstudio.temporal.em import SequenceEM, fit_sequences_em
from bnstudio.temporal.errorbars import TemporalBars, temporal_error_bars
from bnstudio.temporal.forward_backward import TemporalBeliefs, filtering, iter_filter, prediction, smoothing
from bnstudio.temporal.learning import fit_sequences
from bnstudio.temporal.model import TwoSliceNetwork, from_network, split_name, two_slice_network
from bnstudio.temporal.sample import sample_sequences, sequences_frame
from bnstudio.temporal.unroll import unroll, unrolled_posterior
from bnstudio.temporal.xdsl import format_dbn_xdsl, read_dbn_xdsl, write_dbn_xdsl

__all__ = ["SequenceEM", "TemporalBars", "TemporalBeliefs", "TwoSliceNetwork", "filtering", "fit_sequences", "fit_sequences_em",
           "format_dbn_xdsl", "read_dbn_xdsl", "write_dbn_xdsl",
           "from_network", "iter_filter", "prediction", "sample_sequences", "sequences_frame", "smoothing",
           "split_name", "temporal_error_bars", "two_slice_network", "unroll", "unrolled_posterior"]
