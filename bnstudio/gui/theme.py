"""Light or dark: the app follows the desktop's colour scheme (Qt 6's ``QStyleHints.colorScheme``), or the one
View ▸ Appearance forces. The colours are :mod:`bnstudio.display.themes`'; this module puts them on Qt.

Following the desktop, the app palette is the platform's (a default ``QPalette`` resolves every role against it,
and keeps following it when the desktop switches); where the desktop says dark but its palette is light (a
platform theme that reports the scheme without a palette of it), the app draws the dark palette itself. Widgets
that colour something themselves (message banners, the CPT's cells, the toolbar's icons) ask :func:`is_dark`
when they draw, and :class:`PaletteFollower` tells them when the palette changed.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from bnstudio.display import themes

SYSTEM, LIGHT, DARK = "system", themes.LIGHT, themes.DARK
#: View ▸ Appearance: (choice, menu text)
CHOICES = ((SYSTEM, "Follow the &Desktop"), (LIGHT, "&Light"), (DARK, "D&ark"))
_ROLE = QPalette.ColorRole
_ROLES = {"window": _ROLE.Window, "window_text": _ROLE.WindowText, "base": _ROLE.Base,
          "alternate_base": _ROLE.AlternateBase, "text": _ROLE.Text, "button": _ROLE.Button,
          "button_text": _ROLE.ButtonText, "bright_text": _ROLE.BrightText, "highlight": _ROLE.Highlight,
          "highlighted_text": _ROLE.HighlightedText, "link": _ROLE.Link, "tool_tip_base": _ROLE.ToolTipBase,
          "tool_tip_text": _ROLE.ToolTipText, "placeholder_text": _ROLE.PlaceholderText, "mid": _ROLE.Mid,
          "dark": _ROLE.Dark}


def palette_of(colours: dict[str, str]) -> QPalette:
    """A whole palette from :data:`bnstudio.display.themes.DARK_PALETTE` or ``LIGHT_PALETTE``."""
    palette = QPalette()
    for name, role in _ROLES.items():
        palette.setColor(role, QColor(colours[name]))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(colours["disabled_text"]))
    return palette


def is_dark(palette: QPalette | None = None) -> bool:
    """Whether ``palette`` (the application's by default) draws light text on a dark window."""
    if palette is None:
        palette = QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def scheme() -> str:
    """:data:`bnstudio.display.themes.DARK` or ``LIGHT``, as the application's palette is now."""
    return themes.scheme(is_dark())


def colour(table: dict[str, dict[str, str]], key: str) -> QColor:
    """``table[scheme][key]`` as a QColor (e.g. ``colour(themes.CELLS, "sum")``)."""
    return QColor(table[scheme()][key])


def apply(choice: str, app: QApplication | None = None) -> bool:
    """Draw the app light, dark or as the desktop does (``choice`` one of :data:`SYSTEM`, :data:`LIGHT`,
    :data:`DARK`; anything else is the desktop's: :func:`bnstudio.display.themes.palette_to_draw`); returns
    whether it is dark now."""
    running = app or QApplication.instance()
    if not isinstance(running, QApplication):
        raise RuntimeError("apply() needs the QApplication")
    app = running
    hints = app.styleHints()
    if choice in (LIGHT, DARK) and hasattr(hints, "setColorScheme"):   # Qt 6.8: native styles follow it too
        hints.setColorScheme(Qt.ColorScheme.Dark if choice == DARK else Qt.ColorScheme.Light)
    elif hasattr(hints, "unsetColorScheme"):
        hints.unsetColorScheme()
    app.setPalette(QPalette())     # every role from the platform (following it from now on) ...
    desktop = {Qt.ColorScheme.Dark: True, Qt.ColorScheme.Light: False}.get(hints.colorScheme())
    drawn = themes.palette_to_draw(choice, desktop, is_dark(app.palette()))
    if drawn != "platform":        # ... unless the choice, or the desktop's scheme, says otherwise
        app.setPalette(palette_of(themes.DARK_PALETTE if drawn == DARK else themes.LIGHT_PALETTE))
    return is_dark(app.palette())


class Appearance(QObject):
    """The app's choice of appearance: applies it, and again when the desktop switches while it is followed."""

    def __init__(self, choice: str = SYSTEM, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.choice = choice
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._desktop_switched)
        apply(choice)

    def set_choice(self, choice: str) -> None:
        self.choice = choice
        apply(choice)

    def _desktop_switched(self, _scheme: Qt.ColorScheme) -> None:
        if self.choice == SYSTEM:
            apply(SYSTEM)


class PaletteFollower(QObject):
    """Calls ``restyle()`` when ``widget``'s palette turns from light to dark or back (a widget that colours
    something itself); once now."""

    def __init__(self, widget: QWidget, restyle: Callable[[], None]) -> None:
        super().__init__(widget)
        self.restyle = restyle
        self.dark: bool | None = None
        widget.installEventFilter(self)
        self._check()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._check()
        return False

    def _check(self) -> None:
        dark = is_dark()
        if dark != self.dark:
            self.dark = dark
            self.restyle()


def banner_style(selector: str, level: str, extra: str = "border-radius: 4px;") -> str:
    """A style sheet for a message banner of ``level`` (info, warning, error): its background and border, and
    its labels' text (a label's own palette would draw light text on the banner's cream in a dark window)."""
    background, border, text = themes.BANNERS[scheme()].get(level, themes.BANNERS[scheme()]["info"])
    return (f"{selector} {{background: {background}; border: 1px solid {border}; {extra}}} "
            f"{selector} QLabel {{color: {text}; background: transparent; border: none;}}")


def text_style(kind: str) -> str:
    """``color: …;`` for words of ``kind`` (error, warning, muted) on the window's background."""
    return f"color: {themes.TEXT[scheme()][kind]};"
