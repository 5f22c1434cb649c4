"""The app's colours in a light and a dark window, as plain hex, and the contrast they must keep (Qt-free: the
app's :mod:`bnstudio.gui.theme` applies them; tests measure them).

Contrast is WCAG 2.x's ratio of relative luminances, (L1 + 0.05) / (L2 + 0.05) with L = 0.2126 R + 0.7152 G +
0.0722 B over linearised sRGB channels (W3C, *Web Content Accessibility Guidelines 2.1*, §1.4.3 and the
definitions of "contrast ratio" and "relative luminance"): at least 4.5 for text, 3 for icons and other
non-text marks (§1.4.11).
"""
from __future__ import annotations

from typing import Any

LIGHT, DARK = "light", "dark"
#: the least contrast of text against its background, and of an icon's strokes against the toolbar
TEXT_CONTRAST = 4.5
GRAPHIC_CONTRAST = 3.0

#: the window's own colours (Qt palette roles), one row per role: (role, light, dark); the dark column is the
#: palette the app draws itself when the desktop's is not dark enough
PALETTE_ROLES = (
    ("window", "#EFEFEF", "#2B2F36"),
    ("window_text", "#1E2732", "#E6E9EE"),
    ("base", "#FFFFFF", "#1F2328"),
    ("alternate_base", "#F5F7FA", "#272C33"),
    ("text", "#1E2732", "#E6E9EE"),
    ("button", "#EFEFEF", "#343A42"),
    ("button_text", "#1E2732", "#E6E9EE"),
    ("bright_text", "#FFFFFF", "#FFFFFF"),
    ("highlight", "#3F7CC8", "#3F7CC8"),
    ("highlighted_text", "#FFFFFF", "#FFFFFF"),
    ("link", "#1F5FAF", "#8AB4F8"),
    ("tool_tip_base", "#FFFFDC", "#343A42"),
    ("tool_tip_text", "#1E2732", "#E6E9EE"),
    ("placeholder_text", "#6B7480", "#9AA3AF"),
    ("mid", "#B8BEC6", "#4A525C"),
    ("dark", "#9DA4AD", "#181B1F"),
    ("disabled_text", "#8A929C", "#7D8590"),
)
#: message banners by level: (level, light, dark), each (background, border, text)
BANNER_LEVELS = (
    ("info", ("#E8F1FC", "#9DBFEA", "#12345A"), ("#1D3352", "#3E6A9E", "#DCEBFF")),
    ("warning", ("#FFF4DB", "#E9C46A", "#5A4100"), ("#45370F", "#8A6D1E", "#FFF1CC")),
    ("error", ("#FDE7E4", "#E8998F", "#6B1A10"), ("#4D1F1A", "#8F3B30", "#FFE1DC")),
)
#: words in a colour of their own on the window's background: (kind, light, dark)
TEXT_KINDS = (
    ("error", "#A3231A", "#FF9A8F"),
    ("warning", "#6B4D00", "#F2C75C"),
    ("muted", "#5F6B7A", "#A9B2BD"),
)
#: table cells of a kind (the CPT's parent columns, its Sum column, a row that does not sum to 1, a marked cell,
#: the best value): (kind, light, dark)
CELL_KINDS = (
    ("parent", "#F1F4F8", "#2C343E"),
    ("sum", "#F7F8FA", "#262B31"),
    ("unnormalised", "#FBD9D3", "#6A2A22"),
    ("marked", "#FFF1C2", "#54461A"),
    ("best", "#E6F2E6", "#23432A"),
)
#: toolbar icons: strokes and the fill of the little node boxes, (part, light, dark)
ICON_PARTS = (
    ("ink", "#33475B", "#D5DEE8"),
    ("fill", "#E3EBF6", "#3A506B"),
)


def by_scheme(rows: tuple[tuple[str, Any, Any], ...]) -> dict[str, dict[str, Any]]:
    """(key, light, dark) rows as {LIGHT: {key: light}, DARK: {key: dark}}.

    >>> by_scheme((("ink", "#000000", "#FFFFFF"),))
    {'light': {'ink': '#000000'}, 'dark': {'ink': '#FFFFFF'}}
    """
    return {LIGHT: {key: light for key, light, _dark in rows}, DARK: {key: dark for key, _light, dark in rows}}


LIGHT_PALETTE, DARK_PALETTE = (by_scheme(PALETTE_ROLES)[s] for s in (LIGHT, DARK))
BANNERS: dict[str, dict[str, tuple[str, str, str]]] = by_scheme(BANNER_LEVELS)
TEXT: dict[str, dict[str, str]] = by_scheme(TEXT_KINDS)
CELLS: dict[str, dict[str, str]] = by_scheme(CELL_KINDS)
ICONS: dict[str, dict[str, str]] = by_scheme(ICON_PARTS)


def relative_luminance(colour: str) -> float:
    """WCAG relative luminance of ``#RRGGBB``: 0 for black, 1 for white.

    >>> relative_luminance("#000000"), relative_luminance("#FFFFFF")
    (0.0, 1.0)
    """
    channels = [int(colour.lstrip("#")[k:k + 2], 16) / 255 for k in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: str, second: str) -> float:
    """WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white); symmetric.

    >>> round(contrast_ratio("#000000", "#FFFFFF"), 2), round(contrast_ratio("#777777", "#FFFFFF"), 2)
    (21.0, 4.48)
    """
    a, b = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def scheme(dark: bool) -> str:
    return DARK if dark else LIGHT


def palette_to_draw(choice: str, desktop_dark: bool | None, platform_dark: bool) -> str:
    """Which palette the app draws: ``"light"`` or ``"dark"`` (its own) or ``"platform"`` (the desktop's).

    ``choice`` is the user's (``"light"``, ``"dark"``, anything else follows the desktop); ``desktop_dark`` the
    desktop's colour scheme (None: unknown) and ``platform_dark`` whether the platform's palette is dark. Following
    the desktop, the platform's palette is used unless it contradicts the scheme the desktop reports.

    >>> palette_to_draw("dark", False, False), palette_to_draw("system", True, False)
    ('dark', 'dark')
    >>> palette_to_draw("system", True, True), palette_to_draw("system", None, False)
    ('platform', 'platform')
    >>> palette_to_draw("system", False, True)
    'light'
    """
    if choice in (LIGHT, DARK):
        return choice
    if desktop_dark is not None and desktop_dark != platform_dark:
        return scheme(desktop_dark)
    return "platform"
