"""A row of zeros made uniform reaches the window's "Opened with repairs" banner, saying whether it changes
anything (the files are the ones of tests/io/test_zero_rows.py)."""
from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "io" / "corpus" / "zero_rows"


def test_an_influence_diagram_whose_zero_rows_no_policy_reaches_opens_saying_nothing_changes(window):
    path = CORPUS / "agrum_screening_id.xmlbif"
    assert window.open_path(path)
    text = window.message_bar.text
    assert text == (f"Opened with repairs: {path}: made 2 rows of zeros uniform: row (Screen=skip, "
                     f"Result=positive) of 'Confirm', row (Screen=test, Result=none) of 'Confirm' (impossible parent "
                     f"configurations: no probability changes)")
    assert window.document.decisions is not None
    assert window.document.network.cpt("Confirm")[1, 0].tolist() == [0.5, 0.5]


def test_a_reachable_zero_row_opens_saying_the_mass_the_file_left_unassigned(window, tmp_path):
    path = tmp_path / "screening.bif"
    path.write_text((CORPUS / "agrum_screening.bif").read_text(encoding="utf-8")
                    .replace("(female, yes) 0.947 0.053", "(female, yes) 0 0"), encoding="utf-8")
    assert window.open_path(path)
    assert window.message_bar.text.endswith("row (Sex=female, Pregnant=yes) of 'Test' (parent configuration has "
                                            "probability 0.052): the file's joint summed to 0.948")
