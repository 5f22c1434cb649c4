"""Apply a run's learned parameters: one undoable command, one core edit (``net.set_parameters``)."""
from __future__ import annotations

import numpy as np

from bnstudio.app.commands.base import EditedDocument, NetworkCommand, is_normalised, restore, snapshot


class ApplyParameters(NetworkCommand):
    """Set every CPT given (and its Dirichlet counts: the run's, or none when the run has none, since old
    counts would describe other parameters); undo puts the previous tables and counts back exactly."""

    def __init__(self, document: EditedDocument, cpts: dict[str, np.ndarray],
                 alphas: dict[str, np.ndarray] | None, label: str) -> None:
        super().__init__(document, f"Apply parameters of {label}")
        self.cpts = {v: np.array(t, dtype=float) for v, t in cpts.items()}
        self.alphas = {v: (None if alphas is None or alphas.get(v) is None else np.array(alphas[v], dtype=float))
                       for v in self.cpts}
        self.old = snapshot(document.network, list(self.cpts))

    def apply(self) -> None:
        self.net.set_parameters(self.cpts, self.alphas)

    def revert(self) -> None:
        if all(is_normalised(f.cpt) for f in self.old.values()):
            self.net.set_parameters({v: f.cpt for v, f in self.old.items()},
                                    {v: f.alpha for v, f in self.old.items()})
        else:  # an editor left unnormalised rows: put them back table by table
            restore(self.net, self.old)
