"""BN Studio: build, learn and query discrete Bayesian networks.

The public Python API; the GUI (``bnstudio.gui``) is never imported from here.
"""
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
