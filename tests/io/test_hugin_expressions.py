"""Hugin NET potentials with table-generator expressions (model_nodes / model_data): the generated table in
``data`` is read; expressions alone are refused in one line naming the node."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import FormatError
from bnstudio.io.hugin_net import parse_net

NET = """net { }
node A { states = ("yes" "no"); }
node C { states = ("yes" "no"); }
potential (A) { data = (0.3 0.7); }
potential (C | A) {
    model_nodes = ();
    model_data = ( NoisyOR (A, 0.9, true, 0.1) );
    DATA
}
"""


def test_the_generated_table_is_read_beside_the_expressions():
    net = parse_net(NET.replace("DATA", "data = ((0.91 0.09) (0.1 0.9));"))
    np.testing.assert_allclose(net.cpt("C"), [[0.91, 0.09], [0.1, 0.9]], rtol=0, atol=0)


def test_expressions_without_a_table_are_refused_in_one_line():
    with pytest.raises(FormatError) as info:
        parse_net(NET.replace("DATA", ""), "x.net")
    message = str(info.value)
    assert message.startswith("x.net:5:") and "\n" not in message
    assert "'C' has Hugin expressions (model_data) but no 'data' table" in message
