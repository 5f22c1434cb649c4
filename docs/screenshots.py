"""Regenerate the screenshots in docs/ (offscreen; no display needed):

    .venv/bin/python docs/screenshots.py
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bnstudio.gui.screenshot import render_screenshot  # noqa: E402

ALARM = ROOT / "resources" / "networks" / "alarm.bif"
OIL = ROOT / "resources" / "decision" / "oil_wildcatter.json"
DOCS = ROOT / "docs"


def _unnormalised_row(window) -> None:
    """Edit one cell so the editor shows how a row that does not sum to 1 is highlighted."""
    model = window.cpt_editor.model
    model.setData(model.index(2, model.n_parents), "0.5")  # row 3: 0.5 + 0.3 = 0.8


def _meu_error_bar(window) -> None:
    """The Decisions dock on the error bar of the MEU, with expert counts (ESS 20) for every chance CPT row."""
    panel = window.decision_panel
    panel.tabs.setCurrentIndex(1)
    panel.use_ess.setChecked(True)


def main() -> None:
    # first sight (issues 23, 38), just opened and nothing touched: docs/canvas_screenshots.py
    out = render_screenshot(DOCS / "screenshot-alarm-evidence.png", ALARM, (1920, 1200),
                            {"HRBP": "HIGH", "BP": "LOW"}, docks=[])
    print("wrote", out)
    out = render_screenshot(DOCS / "screenshot-cpt-editor.png", ALARM, (1600, 1000), {"HRBP": "HIGH"},
                            select="CATECHOL", zoom=1.0, prepare=_unnormalised_row)
    print("wrote", out)
    out = render_screenshot(DOCS / "screenshot-insurance-compact.png", ROOT / "resources" / "networks" /
                            "insurance.bif", (1400, 900), node_style="compact", docks=[],
                            prepare=lambda window: window.auto_layout())
    print("wrote", out)
    out = render_screenshot(DOCS / "screenshot-influence-diagram.png", OIL, (1366, 768), {"Result": "closed"},
                            prepare=_meu_error_bar)
    print("wrote", out)


if __name__ == "__main__":
    main()
