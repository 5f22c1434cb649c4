"""Every kind of repair reaches the window's "Opened with repairs" message (one line naming node and rows)."""
from __future__ import annotations

import numpy as np


def test_hugin_weights_and_a_two_line_label_are_named_in_the_window(window, tmp_path):
    path = tmp_path / "weights.net"
    path.write_text('net { }\nnode A { label = "two\n  lines"; states = ("a" "b"); }\n'
                    'potential (A) { data = (10 90); }\n', encoding="utf-8")
    assert window.open_path(path)
    text = window.message_bar.label.text()
    assert window.message_bar.isVisible() and text.startswith("Opened with repairs: ")
    assert "row () of 'A' sums to 100" in text and "lines 2-3" in text
    np.testing.assert_allclose(window.document.network.cpt("A"), [0.1, 0.9], rtol=0, atol=1e-15)


def test_a_tiny_negative_probability_is_named_in_the_window(window, tmp_path):
    path = tmp_path / "noise.bif"
    path.write_text("network x {\n}\nvariable A {\n  type discrete [ 2 ] { a, b };\n}\n"
                    "probability ( A ) {\n  table -1.1920929E-7 1.0000001192 ;\n}\n", encoding="utf-8")
    assert window.open_path(path)
    assert "tiny negative probability to 0" in window.message_bar.label.text()
    assert window.document.network.cpt("A").tolist() == [0.0, 1.0]
