"""Undoable parameter edits: one CPT (a cell, a row, a pasted block or the whole table), Dirichlet counts,
and many tables at once (normalise everything, set an effective sample size everywhere)."""
from __future__ import annotations

import numpy as np

from bnstudio.app.commands.base import EditedDocument, NetworkCommand, is_normalised


class SetCpt(NetworkCommand):
    """Replace the CPT of ``var``; unnormalised rows are allowed (the editor highlights them)."""

    def __init__(self, document: EditedDocument, var: str, table: np.ndarray, text: str = "") -> None:
        super().__init__(document, text or f"Edit CPT of {var}")
        self.var = var
        self.old = document.network.cpt(var)
        self.new = np.array(table, dtype=float)

    def apply(self) -> None:
        self.net.set_cpt(self.var, self.new, check_sums=False)

    def revert(self) -> None:
        self.net.set_cpt(self.var, self.old, check_sums=False)


class SetAlpha(NetworkCommand):
    """Set (or remove, with None) the Dirichlet counts of ``var``."""

    def __init__(self, document: EditedDocument, var: str, alpha: np.ndarray | None, text: str = "") -> None:
        super().__init__(document, text or f"Edit Dirichlet counts of {var}")
        self.var = var
        self.old = document.network.alpha(var)
        self.new = None if alpha is None else np.array(alpha, dtype=float)

    def apply(self) -> None:
        self.net.set_alpha(self.var, self.new)

    def revert(self) -> None:
        self.net.set_alpha(self.var, self.old)


class SetParameters(NetworkCommand):
    """Replace several CPTs and/or Dirichlet counts as one core edit (``Network.set_parameters``)."""

    def __init__(self, document: EditedDocument, cpts: dict[str, np.ndarray],
                 alphas: dict[str, np.ndarray | None] | None = None, text: str = "Edit parameters") -> None:
        super().__init__(document, text)
        net = document.network
        self.cpts = {v: np.array(t, dtype=float) for v, t in cpts.items()}
        self.alphas = dict(alphas or {})
        self.old_cpts = {v: net.cpt(v) for v in self.cpts}
        self.old_alphas = {v: net.alpha(v) for v in self.alphas}

    def apply(self) -> None:
        self.net.set_parameters(self.cpts, self.alphas)

    def revert(self) -> None:
        if all(is_normalised(t) for t in self.old_cpts.values()):
            self.net.set_parameters(self.old_cpts, self.old_alphas)
            return
        for var, table in self.old_cpts.items():  # unnormalised tables cannot go through set_parameters
            self.net.set_cpt(var, table, check_sums=False)
        for var, alpha in self.old_alphas.items():
            self.net.set_alpha(var, alpha)
