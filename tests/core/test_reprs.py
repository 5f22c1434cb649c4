"""A network says what it is in one line (issue 39): name, variables, arcs and free parameters, counted here
from the CPT shapes."""
from __future__ import annotations

import numpy as np

from bnstudio.core import Network, network_from_dsl
from bnstudio.io import read_network
from bnstudio.resources import bundled_example


def test_repr_counts_variables_arcs_and_parameters():
    net = read_network(bundled_example("alarm.bif"))
    free = sum(net.cpt(v).size // net.cpt(v).shape[-1] * (net.cpt(v).shape[-1] - 1) for v in net.variables)
    arcs = sum(len(net.parents(v)) for v in net.variables)
    assert repr(net) == f"<Network {net.name!r}: {len(net.variables)} variables, {arcs} arcs, {free} free parameters>"
    assert (len(net.variables), arcs, free) == (37, 46, 509)     # ALARM as published (Beinlich et al. 1989)


def test_repr_of_small_and_empty_networks():
    assert repr(Network("empty")) == "<Network 'empty': 0 variables, 0 arcs, 0 free parameters>"
    one = network_from_dsl("A->B", cpts={"A": [0.3, 0.7], "B": np.array([[0.9, 0.1], [0.2, 0.8]])})
    assert repr(one).endswith(": 2 variables, 1 arc, 3 free parameters>")
