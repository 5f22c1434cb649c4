"""What a newcomer sees in the first minute: counts in words that agree with their number, and nothing left
over from a network that is no longer open (issue 23)."""
from __future__ import annotations


def test_the_status_bar_counts_one_node_in_the_singular(window):
    doc = window.document
    assert window.summary_label.text() == "0 nodes · 0 arcs"
    doc.network.add_variable("Rain", ["yes", "no"])
    window._update_status()
    assert window.summary_label.text() == "1 node · 0 arcs"
