"""Regenerate the screenshots in docs/ (offscreen; no display needed):

    .venv/bin/python docs/screenshots.py [--out DIR]

The first sights (issues 23, 38), just opened and nothing touched, are docs/canvas_screenshots.py's.
"""
from __future__ import annotations

from screenshot_script import NETWORKS, ROOT, main, shot

ALARM = NETWORKS / "alarm.bif"
OIL = ROOT / "resources" / "decision" / "oil_wildcatter.json"


def _unnormalised_row(window) -> None:
    """Edit one cell so the editor shows how a row that does not sum to 1 is highlighted."""
    model = window.cpt_editor.model
    model.setData(model.index(2, model.n_parents), "0.5")  # row 3: 0.5 + 0.3 = 0.8


def _meu_error_bar(window) -> None:
    """The Decisions dock on the error bar of the MEU, with expert counts (ESS 20) for every chance CPT row."""
    panel = window.decision_panel
    panel.tabs.setCurrentIndex(1)
    panel.use_ess.setChecked(True)


SHOTS = [shot("screenshot-alarm-evidence.png", ALARM, (1920, 1200), evidence={"HRBP": "HIGH", "BP": "LOW"},
              docks=[]),
         shot("screenshot-cpt-editor.png", ALARM, (1600, 1000), evidence={"HRBP": "HIGH"}, select="CATECHOL",
              zoom=1.0, prepare=_unnormalised_row),
         shot("screenshot-insurance-compact.png", NETWORKS / "insurance.bif", (1400, 900), node_style="compact",
              docks=[], prepare=lambda window: window.auto_layout()),
         shot("screenshot-influence-diagram.png", OIL, (1366, 768), evidence={"Result": "closed"},
              prepare=_meu_error_bar)]

if __name__ == "__main__":
    main(SHOTS, __doc__)
