"""The training panel: parameter learning runs in the background with live convergence curves, scores,
run comparison and undoable application of the learned parameters."""
from bnstudio.gui.training_panel.commands import ApplyParameters
from bnstudio.gui.training_panel.panel import TrainingPanel
from bnstudio.gui.training_panel.runs import RunRecord

__all__ = ["ApplyParameters", "RunRecord", "TrainingPanel"]
