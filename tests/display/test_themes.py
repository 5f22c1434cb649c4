"""The app's light and dark colours keep WCAG contrast (bnstudio.display.themes): banner text on its banner,
coloured words on the window, cell text on every tinted cell, icon ink on the toolbar. The contrast formula is
checked against WCAG's published values."""
from __future__ import annotations

import pytest

from bnstudio.display import themes
from bnstudio.display.themes import GRAPHIC_CONTRAST, TEXT_CONTRAST, contrast_ratio

PALETTES = {themes.LIGHT: themes.LIGHT_PALETTE, themes.DARK: themes.DARK_PALETTE}


def test_the_contrast_ratio_is_wcags():
    # WCAG 2.1's understanding notes: #767676 on white is the lightest grey passing 4.5 (4.54), #777777 fails
    assert contrast_ratio("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.01)
    assert contrast_ratio("#777777", "#FFFFFF") < 4.5
    assert contrast_ratio("#FFFFFF", "#000000") == pytest.approx(21.0)
    assert contrast_ratio("#3F7CC8", "#3F7CC8") == pytest.approx(1.0)


@pytest.mark.parametrize("scheme", [themes.LIGHT, themes.DARK])
def test_every_colour_pair_keeps_its_contrast(scheme):
    palette = PALETTES[scheme]
    for level, (background, _border, text) in themes.BANNERS[scheme].items():
        assert contrast_ratio(text, background) >= TEXT_CONTRAST, (scheme, level)
    for kind, colour in themes.TEXT[scheme].items():
        for role in ("window", "base"):
            assert contrast_ratio(colour, palette[role]) >= TEXT_CONTRAST, (scheme, kind, role)
    for kind, colour in themes.CELLS[scheme].items():
        assert contrast_ratio(palette["text"], colour) >= TEXT_CONTRAST, (scheme, kind)
    assert contrast_ratio(themes.ICONS[scheme]["ink"], palette["window"]) >= GRAPHIC_CONTRAST
    assert contrast_ratio(palette["window_text"], palette["window"]) >= TEXT_CONTRAST
    assert contrast_ratio(palette["text"], palette["base"]) >= TEXT_CONTRAST


def test_dark_banners_are_dark_and_light_ones_light():
    """A dark window gets dark banners (not cream), so its text colour is the light one."""
    for level in ("info", "warning", "error"):
        assert themes.relative_luminance(themes.BANNERS[themes.DARK][level][0]) < 0.1
        assert themes.relative_luminance(themes.BANNERS[themes.LIGHT][level][0]) > 0.7
