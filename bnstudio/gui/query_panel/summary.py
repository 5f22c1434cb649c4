"""The answer in words: p(q | e), its standard deviation, both credible intervals, the bootstrap spread of a
bagged ensemble, the warnings in plain language, and what to do when the network has no Dirichlet counts."""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from bnstudio.app.query.compute import QueryAnswer, describe
from bnstudio.gui.theme import PaletteFollower, banner_style, text_style
from bnstudio.uncertainty import FLAG_TEXT

NO_COUNTS_TEXT = ("<b>No error bars yet:</b> the tables carry no Dirichlet counts (how much data they rest on). "
                  "Give expert counts, or learn the parameters from the data with <i>mp</i>, which keeps them.")


def _interval(pair: tuple[float, float] | None) -> str:
    return "undefined" if pair is None else f"[{pair[0]:.4f}, {pair[1]:.4f}]"


def answer_html(answer: QueryAnswer) -> str:
    """The rich text shown for ``answer``."""
    given = describe(answer.evidence)
    if answer.interventions:
        do = "do(" + describe(answer.interventions) + ")"
        given = do if not answer.evidence else f"{do}, {given}"
    query = html.escape(f"p({describe(answer.target)} | {given})")
    if answer.mean is None:
        return f"<p>{query}</p><p style='{text_style('error')}'>{html.escape(answer.error)}</p>"
    bars, boot = answer.bars, answer.bootstrap
    level = f"{100 * answer.level:g}%"
    sampled = bars.sampling if bars is not None else None
    kind = "sd, delta method" if sampled is None else "parameter sd, delta method on sampled terms"
    sd = f" &nbsp; ± {bars.sd:.4f} ({kind})" if bars is not None else ""
    lines = [f"<p>{query}<br><span style='font-size:15pt'><b>{answer.mean:.4f}</b></span>{sd}</p>"]
    rows = []
    if bars is not None:
        rows += [(f"Normal {level} interval", _interval(bars.intervals.normal_clipped)),
                 (f"Beta {level} interval", _interval(bars.intervals.beta))]
    if sampled is not None:
        rows.append(("Sampling error", f"± {sampled.se:.4f} (se; likelihood weighting, {sampled.samples:,} samples)"))
    if boot is not None:
        rows.append((f"Bootstrap {level} ({len(boot.values)} bags)",
                     f"[{boot.low:.4f}, {boot.high:.4f}], bag mean {boot.mean:.4f}"))
    if rows:
        lines.append("<table cellspacing='2'>" + "".join(f"<tr><td>{a}&nbsp;</td><td>{b}</td></tr>"
                                                       for a, b in rows) + "</table>")
    warnings = [FLAG_TEXT[f].capitalize() + "." for f in (bars.intervals.flags if bars is not None else [])]
    if sampled is not None:
        warnings.append("Estimated: " + sampled.reason + ".")
    for text in warnings + answer.notes:
        lines.append(f"<p style='{text_style('warning')}'>⚠ {html.escape(text)}</p>")
    return "".join(lines)


class SummaryView(QWidget):
    """Text of the current answer plus a persistent notice (with a fix button) when there are no counts."""

    use_ess_requested = Signal()
    learn_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QLabel()
        self.notice = QFrame()
        self.notice_text = QLabel(NO_COUNTS_TEXT)
        self.use_ess = QPushButton("Use expert counts")
        self.learn = QPushButton("Learn from data")
        self.learn.setToolTip("Fit the parameters with mp on the data set of the Data panel (one undoable step)")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.notice_text.setWordWrap(True)
        self.notice.setObjectName("noCounts")
        self.shown: tuple[QueryAnswer | None, str] = (None, "")
        row = QHBoxLayout(self.notice)
        row.setContentsMargins(8, 6, 8, 6)
        row.addWidget(self.notice_text, 1)
        buttons = QVBoxLayout()
        buttons.addWidget(self.use_ess)
        buttons.addWidget(self.learn)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.notice)
        layout.addWidget(self.text)
        layout.addStretch(1)
        self.notice.hide()
        self.use_ess.clicked.connect(self.use_ess_requested)
        self.learn.clicked.connect(self.learn_requested)
        PaletteFollower(self, self._restyle)

    def _restyle(self) -> None:
        """Light or dark: the notice's colours, and the answer's coloured words written again."""
        self.notice.setStyleSheet(banner_style("QFrame#noCounts", "warning"))
        self.show_answer(*self.shown)

    def show_answer(self, answer: QueryAnswer | None, message: str = "") -> None:
        self.shown = (answer, message)
        self.notice.setVisible(answer is not None and answer.no_counts)
        self.text.setText(answer_html(answer) if answer is not None else html.escape(message))

    @property
    def no_counts_shown(self) -> bool:
        return not self.notice.isHidden()
