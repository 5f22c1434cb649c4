"""Colours, fonts and metrics of the canvas (one place, so the look can be tuned without touching logic)."""
from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QFontMetricsF

from bnstudio.display import look
from bnstudio.display.look import (  # noqa: F401 - the canvas
    BAR_NODE_WIDTH,
    CORNER,
    HEADER_HEIGHT,
    NAME_COLUMN,
    NUMBER_COLUMN,
    PADDING,
    ROW_HEIGHT,
    UTILITY_HEIGHT,
    UTILITY_WIDTH,
    format_probability,  # reads them from here
)

BARS, COMPACT = "bars", "compact"
NODE_STYLES = (BARS, COMPACT)
#: how bar-chart nodes are drawn while too small for their bars (never a user's choice): the bar node's box
#: with the name and the most likely states, each with its probability over a bar, at a readable screen size
SUMMARY = "summary"

BACKGROUND = QColor("#FFFFFF")
NODE_FILL = QColor(look.NODE_FILL)
NODE_BORDER = QColor(look.NODE_BORDER)
HEADER_FILL = QColor(look.HEADER_FILL)
TEXT = QColor(look.TEXT)
MUTED_TEXT = QColor(look.MUTED_TEXT)
BAR = QColor(look.BAR)
BAR_TRACK = QColor(look.BAR_TRACK)
ROW_HOVER = QColor("#EEF3FA")
SUMMARY_BAR = QColor("#BCD3EF")          # the summary's bars lie behind text: lighter than BAR
SUMMARY_EVIDENCE_BAR = QColor("#F5C291")
SELECTED = QColor("#1F64D8")
EVIDENCE_BORDER = QColor(look.EVIDENCE_BORDER)
EVIDENCE_HEADER = QColor(look.EVIDENCE_HEADER)
EVIDENCE_BAR = QColor(look.EVIDENCE_BAR)
SOFT_EVIDENCE_HEADER = QColor(look.SOFT_EVIDENCE_HEADER)
ARC = QColor(look.ARC)
CUT_ARC = QColor(look.ARC).lighter(190)   # an arc into an intervened node: cut by the do(), drawn faded
INTERVENTION_BORDER = QColor("#00796B")  # do(X = x): teal, apart from the orange of an observation
INTERVENTION_HEADER = QColor("#CDEDEA")
INTERVENTION_BAR = QColor("#13988A")
SUMMARY_INTERVENTION_BAR = QColor("#9ED9D2")
BLANKET = QColor("#2E8B57")              # the Markov blanket highlighted on request
SEPARATED_OPACITY = 0.28                 # a node d-separated from the query's target (relevance overlay)
IRRELEVANT_OPACITY = 0.55                # a finding that cannot change p(target)
DECISION_HEADER = QColor("#D9EEDC")      # decision nodes (rectangles): a green header
BEST_BAR = QColor("#2E8B57")             # the option with the largest expected utility
OPTION_BAR = QColor("#9DB8D8")
UTILITY_FILL = QColor("#FFF4D6")         # utility nodes (diamonds)
UTILITY_BORDER = QColor("#B38A1E")
ARC_PREVIEW = QColor("#1F64D8")

COMPACT_HEIGHT = 30.0
COMPACT_MIN_WIDTH = 64.0

#: the bar view's state names (10 px) stay readable (7 px on screen) from this zoom up; below it, bar nodes are
#: drawn as a summary; they go back to bars from BARS_FROM (a little higher, so the view does not flicker)
COMPACT_BELOW, BARS_FROM = 0.68, 0.72
#: the summary's text in screen pixels (whatever the zoom), unless the node is too small on screen to hold it
SUMMARY_TITLE_PX, SUMMARY_STATE_PX = 11.0, 10.0
#: below this size on screen (a whole large network fitted) the summary draws its bars without text
SUMMARY_MIN_PX = 5.0


def shown_style(preferred: str, zoom: float, current: str) -> str:
    """The style to draw at ``zoom``: ``preferred``, except bars turn into their summary where they would be
    unreadable."""
    if preferred == COMPACT:
        return COMPACT
    if current == BARS:
        return SUMMARY if zoom < COMPACT_BELOW else BARS
    return BARS if zoom >= BARS_FROM else SUMMARY


def title_font() -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(12)
    font.setBold(True)
    return font


def state_font() -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(10)
    return font


_title_metrics: QFontMetricsF | None = None


def title_metrics() -> QFontMetricsF:
    global _title_metrics
    if _title_metrics is None:
        _title_metrics = QFontMetricsF(title_font())
    return _title_metrics


def node_size(name: str, n_states: int, style: str) -> tuple[float, float]:
    """(width, height) of a node drawn in ``style``."""
    if style in (BARS, SUMMARY):   # one size: switching between them moves nothing and keeps a fit exact
        return look.bar_node_size(n_states)
    width = title_metrics().horizontalAdvance(name) + 2 * 12.0
    return max(COMPACT_MIN_WIDTH, width), COMPACT_HEIGHT


def format_utility(value: float | None) -> str:
    """An expected utility with 4 significant digits (``—`` when there is none)."""
    if value is None:
        return "—"
    return f"{value:.4g}" if abs(value) < 1e5 else f"{value:.3e}"
