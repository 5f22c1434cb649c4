"""A file's layout drawn by another tool for smaller nodes (Netica, Hugin, GeNIe) is stretched, each axis on its
own, until none of our nodes overlap; a layout that already fits is left exactly as it is."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from bnstudio.display import placement
from bnstudio.display.placement import MAX_SPREAD, SPREAD_GAP, spread, spread_factors

DNE = Path(__file__).resolve().parents[1] / "io" / "corpus" / "dne"


def overlapping_pairs(centres: np.ndarray, sizes: np.ndarray, gap: float = SPREAD_GAP - 1e-9) -> list:
    """Brute force: the pairs whose boxes (with ``gap``) overlap, coincident centres left out."""
    out = []
    for i, j in combinations(range(len(centres)), 2):
        d, need = np.abs(centres[i] - centres[j]), (sizes[i] + sizes[j]) / 2 + gap
        if np.all(d < need) and np.any(d > 0):
            out.append((i, j))
    return out


def test_a_layout_that_fits_is_left_exactly_as_it_is():
    centres = np.array([[0.0, 0.0], [300.0, 0.0], [0.0, 200.0]])
    sizes = np.full((3, 2), [200.0, 80.0])
    assert spread_factors(centres, sizes) == (1.0, 1.0)
    assert np.array_equal(spread(centres, sizes), centres)


def test_a_row_drawn_for_narrow_nodes_is_widened_only():
    """Netica's chest clinic: nodes 100 px apart, ours 205 px wide: the row needs (205 + 16) / 100 in x, no
    height at all."""
    centres = np.array([[0.0, 0.0], [100.0, 0.0], [200.0, 0.0]])
    sizes = np.full((3, 2), [205.0, 64.0])
    sx, sy = spread_factors(centres, sizes)
    assert sx == pytest.approx((205 + SPREAD_GAP) / 100) and sy == 1.0


@pytest.mark.parametrize("seed", range(8))
def test_random_layouts_end_without_overlaps_and_no_larger_than_one_factor_for_both(seed):
    """Layouts sparse enough to be parted within the cap (checked: the cap is never reached), so the brute-force
    checks run for every seed."""
    rng = np.random.default_rng(seed)
    n = 12
    centres = rng.uniform(0, 2000, size=(n, 2)).round()
    sizes = np.column_stack([rng.uniform(60, 210, n), rng.uniform(40, 110, n)])
    pairs = overlapping_pairs(centres, sizes)
    sx, sy = spread_factors(centres, sizes)
    assert max(sx, sy) < MAX_SPREAD, (sx, sy)
    assert overlapping_pairs(spread(centres, sizes), sizes) == []
    # the isotropic stretch that parts every pair, brute force: never smaller in area than ours
    iso = max([min((((sizes[i] + sizes[j]) / 2 + SPREAD_GAP) / np.maximum(np.abs(centres[i] - centres[j]),
                                                                             1e-300)).tolist())
               for i, j in pairs], default=1.0)
    assert sx * sy <= iso * iso + 1e-9
    assert pairs or (sx, sy) == (1.0, 1.0)


def test_a_stretch_within_the_cap_wins_over_a_capped_one():
    """The least-area stretch (6.5, 1) is beyond the cap; (2.05, 5.05) parts every pair within it, and the cap
    must not be applied to the first, leaving a pair overlapping."""
    centres = np.array([[0.0, 0.0], [17.85, 23.2], [1000.0, 1000.0], [1058.0, 1014.5]])
    sizes = np.full((4, 2), 100.0)
    sx, sy = spread_factors(centres, sizes)
    assert max(sx, sy) <= MAX_SPREAD
    assert overlapping_pairs(spread(centres, sizes), sizes) == []


def test_blocks_give_the_same_factors_as_one_pass(monkeypatch):
    rng = np.random.default_rng(3)
    centres, sizes = rng.uniform(0, 3000, size=(700, 2)), np.full((700, 2), [205.0, 80.0])
    whole = spread_factors(centres, sizes)
    monkeypatch.setattr(placement, "SPREAD_BLOCK", 64)
    assert spread_factors(centres, sizes) == whole


def _rects(window) -> dict:
    scene = window.scene
    items = {**scene.nodes, **scene.utility_items}
    return {name: item.sceneBoundingRect() for name, item in items.items()}


@pytest.mark.parametrize("name", ["chest_clinic.dne", "oil_wildcatter.dne"])
def test_a_netica_file_opens_without_overlapping_nodes(window, name):
    """Seen at 1366x768: Netica's chest clinic opened with Tuberculosis, Cancer and Bronchitis drawn over each
    other, and the oil wildcatter with its cost diamond on top of Result (utility nodes were placed by our own
    layout, in other coordinates than the file's)."""
    assert window.open_path(DNE / name)
    rects = _rects(window)
    hits = [(a, b) for a, b in combinations(rects, 2) if rects[a].intersects(rects[b])]
    assert hits == []


def test_reopening_a_project_keeps_its_layout(window, tmp_path):
    """A project's layout is BN Studio's own (made in whatever node style): it comes back as saved, never
    stretched, even when its nodes are closer than bar-chart nodes need."""
    from bnstudio.io import read_network
    from bnstudio.io.project import project_from_network, save_project

    net = read_network(DNE / "chest_clinic.dne")   # Netica's tight layout, kept as it is in the project
    path = tmp_path / "mine.bnsproj"
    save_project(project_from_network(net), path)
    assert window.open_path(path)
    assert window.document.network.positions == net.positions
