"""The network model: variables, DAG, CPTs, Dirichlet counts, consistent edits with events."""
from bnstudio.core.dsl import network_from_dsl
from bnstudio.core.events import Event, EventEmitter
from bnstudio.core.network import Network, build_network
from bnstudio.core.variable import Variable

__all__ = ["Event", "EventEmitter", "Network", "Variable", "build_network", "network_from_dsl"]
