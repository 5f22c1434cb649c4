"""Models from and to the peers, pgmpy and pyAgrum (issue 28): identical CPTs (state order, parent order) and
names, and a :class:`PeerWarning` naming what the other side cannot hold (Dirichlet counts, canonical models,
positions). pyAgrum's ``InfluenceDiagram`` goes both ways too (:class:`~bnstudio.decision.InfluenceDiagram`).
The peers are optional: each is imported inside the function that needs it, and a missing one
raises an ImportError naming what to install."""
from bnstudio.interop.common import PeerWarning
from bnstudio.interop.pgmpy_bridge import from_pgmpy, to_pgmpy
from bnstudio.interop.pyagrum_bridge import from_pyagrum, to_pyagrum

__all__ = ["PeerWarning", "from_pgmpy", "from_pyagrum", "to_pgmpy", "to_pyagrum"]
