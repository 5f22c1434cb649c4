"""BN Studio: build, learn and query discrete Bayesian networks.

The public Python API; the GUI (``bnstudio.gui``) is never imported from here.
"""
import os as _os

# Our numerical work is vectorised by hand into many small and medium array operations; a multi-threaded BLAS
# pays thread hand-offs on every small dot product (measured: 6.5 ms instead of 3 µs for a 20,000-element
# dot on a busy 2-core machine). Default to one BLAS thread unless the user chose otherwise; this only takes
# effect when bnstudio is imported before numpy.
for _var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

from bnstudio.core import Network, Variable, build_network, network_from_dsl
from bnstudio.errors import (BNStudioError, Cancelled, CycleError, EvidenceError, FormatError,
                             ImpossibleEvidence, MemoryBudgetExceeded, ValidationError)
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network, write_network
from bnstudio.sampling import forward_sample

__version__ = "0.1.0"

__all__ = [
    "BNStudioError", "Cancelled", "CycleError", "EvidenceError", "FormatError", "ImpossibleEvidence",
    "InferenceEngine", "MemoryBudgetExceeded", "Network", "ValidationError", "Variable", "build_network",
    "forward_sample", "network_from_dsl", "read_network", "write_network",
]
