"""Exact inference: compiled junction tree (batched over cases and parameter sets) and pruned elimination."""
from bnstudio.inference.engine import DEFAULT_MEMORY_BUDGET, InferenceEngine

__all__ = ["DEFAULT_MEMORY_BUDGET", "InferenceEngine"]
