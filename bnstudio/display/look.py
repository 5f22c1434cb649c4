"""The canvas's look that does not need Qt: node metrics, colours (hex) and how probabilities are written. The
app (:mod:`bnstudio.gui.canvas.style`) and the notebook drawings (:mod:`bnstudio.display.svg`) both use these,
so a network looks the same in both."""
from __future__ import annotations

NODE_FILL = "#FBFCFE"
NODE_BORDER = "#8A97AB"
HEADER_FILL = "#E3EBF6"
TEXT = "#1E2732"
MUTED_TEXT = "#5F6B7A"
BAR = "#3F7CC8"
BAR_TRACK = "#E9EDF3"
EVIDENCE_BORDER = "#CC5F12"
EVIDENCE_HEADER = "#FCE2C6"
EVIDENCE_BAR = "#E07020"
SOFT_EVIDENCE_HEADER = "#EADCF5"
ARC = "#5B6778"

BAR_NODE_WIDTH = 200.0
HEADER_HEIGHT = 21.0
ROW_HEIGHT = 15.0
PADDING = 6.0
NAME_COLUMN = 72.0     # state names, left
NUMBER_COLUMN = 42.0   # probabilities, right
CORNER = 5.0
UTILITY_WIDTH = 168.0  # an influence diagram's utility node (a diamond)
UTILITY_HEIGHT = 76.0


def bar_node_size(n_states: int) -> tuple[float, float]:
    """(width, height) of a bar-chart node with ``n_states`` rows."""
    return BAR_NODE_WIDTH, HEADER_HEIGHT + n_states * ROW_HEIGHT + PADDING


def format_probability(p: float) -> str:
    """``37.2%``; tiny non-zero values as ``<0.1%`` so they are not mistaken for zero.

    >>> format_probability(0.3721), format_probability(1e-5), format_probability(0.99999)
    ('37.2%', '<0.1%', '>99.9%')
    """
    pct = 100.0 * p
    if pct >= 99.95:
        return "100%" if p >= 1 - 1e-12 else ">99.9%"
    if 0 < pct < 0.05:
        return "<0.1%"
    return f"{pct:.1f}%"
