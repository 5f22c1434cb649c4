"""The training panel: parameter learning runs in the background with live convergence curves, scores,
run comparison and undoable application of the learned parameters."""
from bnstudio.app.training.commands import ApplyParameters
from bnstudio.app.training.runs import RunRecord
from bnstudio.gui.training_panel.panel import TrainingPanel

__all__ = ["ApplyParameters", "RunRecord", "TrainingPanel"]
