"""The window in a dark palette (and a light one): the words and marks one must read keep their contrast, measured
on the rendered pixels (issue 38, item 7). Seen with a dark desktop palette: message text light on cream, the
CPT's Sum cell invisible (light text on a light tint), dark icons on a dark toolbar.

Contrast is WCAG's ratio (bnstudio.display.themes.contrast_ratio): the text's pixels against the pixel of the
background they are drawn on; anti-aliasing only lowers it, so the strongest pixel in the text's box is the
text's colour."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage, QPalette
from PySide6.QtWidgets import QApplication

from bnstudio.display.themes import GRAPHIC_CONTRAST, TEXT_CONTRAST, contrast_ratio
from bnstudio.gui import settings as cfg
from bnstudio.gui import theme

from .conftest import ASIA


def pixels(image: QImage) -> np.ndarray:
    """(h, w, 4) RGBA bytes of ``image``."""
    image = image.convertToFormat(QImage.Format_RGBA8888)
    data = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    return data.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, :image.width()].copy()


def hex_of(rgb) -> str:
    return "#{:02X}{:02X}{:02X}".format(*(int(c) for c in rgb[:3]))


def strongest_contrast(rgba: np.ndarray, rect: QRect, background: str) -> float:
    """The largest contrast against ``background`` of the pixels in ``rect``."""
    box = rgba[rect.top():rect.bottom() + 1, rect.left():rect.right() + 1].reshape(-1, 4)
    colours = {hex_of(p) for p in np.unique(box[:, :3], axis=0)}
    return max(contrast_ratio(c, background) for c in colours)


@pytest.fixture(params=[theme.DARK, theme.LIGHT])
def themed_window(request, qtbot, settings, recovery, no_dialogs):
    """A main window built under a forced dark (or light) palette, on ASIA, at 1366x768."""
    from bnstudio.gui.main_window import MainWindow

    settings.set_value(cfg.APPEARANCE, request.param)
    w = MainWindow(settings, recovery)
    w.setWindowState(Qt.WindowNoState)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(ASIA)
    yield w, request.param
    w.document.mark_saved()
    w.close()
    w.deleteLater()
    theme.apply(theme.SYSTEM)          # the next test gets the platform's palette again


def settle(qtbot) -> None:
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(10)


def test_the_palette_is_the_one_asked_for(themed_window):
    w, scheme = themed_window
    assert theme.is_dark() == (scheme == theme.DARK)
    assert w.menu_actions.appearance[scheme].isChecked()
    assert theme.is_dark(w.toolbar.palette()) == (scheme == theme.DARK)


@pytest.mark.parametrize("level", ["info", "warning", "error"])
def test_message_text_reads_on_its_banner(qtbot, themed_window, level):
    w, scheme = themed_window
    w.show_message(level, "Impossible evidence: HR=LOW has probability 0 here")
    settle(qtbot)
    bar = w.message_bar
    rgba = pixels(bar.grab().toImage())
    background = hex_of(rgba[bar.height() // 2, 4])          # inside the border, left of the text
    assert theme.is_dark() == (scheme == theme.DARK)
    dark_banner = contrast_ratio(background, "#000000") < contrast_ratio(background, "#FFFFFF")
    assert dark_banner == (scheme == theme.DARK), background   # not cream in a dark window
    label = bar.label.geometry()
    assert strongest_contrast(rgba, label, background) >= TEXT_CONTRAST, (scheme, level, background)


def test_the_cpt_sum_cell_reads(qtbot, themed_window):
    w, scheme = themed_window
    w.scene.select_only(["either"])
    settle(qtbot)
    table, model = w.cpt_editor.table, w.cpt_editor.model
    column = next(c for c in range(model.columnCount()) if model.is_sum_column(c))
    rgba = pixels(table.viewport().grab().toImage())
    for c in (column, 0):                                      # the Sum column and a parent column
        cell = table.visualRect(model.index(0, c))
        background = hex_of(rgba[cell.top() + 2, cell.left() + 2])
        assert strongest_contrast(rgba, cell.adjusted(1, 1, -1, -1), background) >= TEXT_CONTRAST, (scheme, c)


def test_toolbar_icons_stand_out_from_the_toolbar(themed_window):
    w, scheme = themed_window
    background = hex_of(w.toolbar.palette().color(QPalette.Window).getRgb())
    drawn = [action for action, _draw in w.menu_actions.drawn_icons]
    assert w.menu_actions.tool_select in drawn and w.menu_actions.fit in drawn
    for action in drawn:
        rgba = pixels(action.icon().pixmap(32, 32).toImage())
        ink = rgba[rgba[..., 3] > 200]                         # the icon's opaque strokes and fills
        ratios = np.array([contrast_ratio(hex_of(p), background) for p in ink])
        # its strokes stand out: a line's worth of pixels at least (a box's soft fill need not)
        assert np.sum(ratios >= GRAPHIC_CONTRAST) >= 40, (scheme, action.text(), background)


def test_switching_the_appearance_redraws_banners_and_icons(qtbot, themed_window):
    w, scheme = themed_window
    other = theme.LIGHT if scheme == theme.DARK else theme.DARK
    w.show_message("warning", "A message shown before the switch")
    before = w.menu_actions.fit.icon().pixmap(32, 32).toImage()
    w.menu_actions.appearance[other].trigger()                     # View ▸ Appearance
    settle(qtbot)
    assert theme.is_dark() == (other == theme.DARK)
    assert w.settings.value(cfg.APPEARANCE) == other
    assert w.menu_actions.fit.icon().pixmap(32, 32).toImage() != before
    bar = w.message_bar
    rgba = pixels(bar.grab().toImage())
    background = hex_of(rgba[bar.height() // 2, 4])
    assert strongest_contrast(rgba, bar.label.geometry(), background) >= TEXT_CONTRAST
