"""Issue 27 (a newcomer at the table), item 13: Edit ▸ Settings ▸ Text size makes the
text larger, and every window still fits a 1366x768 laptop at that size: My Cards'
buttons are on screen, fishing shows every strike location while the dice are placed,
and the odds columns are whole. (The layout tests, tests/ui/test_layout.py, run every
window at the larger size too.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

from companion import settings as preferences
from companion.ui import fit
from tests.ui import layout_checks, newcomer
from tests.ui.helpers import make_window


@pytest.fixture
def larger_text(qtbot: Any, monkeypatch: Any) -> Iterator[QApplication]:
    """Settings ▸ Text size ▸ Larger, chosen in the Settings dialog and OK pressed; the
    system font again afterwards. On a laptop's screen."""
    from companion.ui.settings_dialog import SettingsDialog

    monkeypatch.setattr(fit, "room", lambda widget: fit.LAPTOP_WINDOW)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.font()
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    dialog.text_size.setCurrentIndex(dialog.text_size.findData(125))
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    yield app
    app.setFont(original)


def inside(widget: QWidget, window: QWidget) -> bool:
    return window.rect().contains(QRect(widget.mapTo(window, QPoint(0, 0)), widget.size()))


def test_text_size_setting_is_saved_and_makes_the_text_larger(qtbot: Any,
                                                              monkeypatch: Any) -> None:
    from companion.ui.settings_dialog import SettingsDialog

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.font()
    before = app.font().pointSizeF()
    try:
        dialog = SettingsDialog()
        qtbot.addWidget(dialog)
        assert dialog.text_size.currentData() == 100
        dialog.text_size.setCurrentIndex(dialog.text_size.findData(125))
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        assert preferences.load().text_size == 125
        assert app.font().pointSizeF() == pytest.approx(before * 1.25)
        again = SettingsDialog()
        qtbot.addWidget(again)
        assert again.text_size.currentData() == 125  # shown as saved
        again.text_size.setCurrentIndex(again.text_size.findData(100))
        again.buttons.button(again.buttons.StandardButton.Ok).click()
        assert app.font().pointSizeF() == pytest.approx(before)  # the system's again
    finally:
        app.setFont(original)


def test_my_cards_buttons_on_screen_at_the_larger_text(qtbot: Any, demo: Any,
                                                      larger_text: QApplication) -> None:
    from companion.ui.my_cards import open_my_cards

    window = make_window(qtbot, demo)
    cards = open_my_cards(window)
    qtbot.addWidget(cards)
    QApplication.processEvents()
    laptop = QRect(QPoint(0, 0), fit.LAPTOP_WINDOW)
    assert laptop.contains(QRect(QPoint(0, 0), cards.size()))
    buttons = cards.findChildren(QPushButton)
    assert buttons
    for button in buttons:
        assert inside(button, cards), button.text()
    assert not layout_checks.problems(cards)


def test_fishing_shows_every_strike_location_and_whole_odds_at_the_larger_text(
        qtbot: Any, demo: Any, refusals: list[str], larger_text: QApplication) -> None:
    # Rulebook: Fishing > step 4: place each die on a strike location.
    dialog = newcomer.fishing_at_placing(qtbot, demo)
    assert dialog.step.prompt.startswith("Step 4")
    assert QRect(QPoint(0, 0), fit.LAPTOP_WINDOW).contains(dialog.geometry().translated(
        -dialog.geometry().topLeft()))
    area = dialog.tabs.widget(0)
    viewport = area.viewport()
    water = dialog.panel.water

    def every_location_in_view() -> bool:
        top = water.mapTo(viewport, QPoint(0, 0)).y()
        return top >= 0 and top + water.height() <= viewport.height()

    qtbot.waitUntil(every_location_in_view)
    assert water.rowCount() == 5
    # Odds: every cell's text is whole, within the panel's view.
    panel = dialog.odds_panel
    odds_view = panel.tables_area.viewport()
    cells = [label for label in panel.body.findChildren(QLabel) if label.isVisible()]
    assert len(cells) > 6
    for label in cells:
        assert label.width() >= label.sizeHint().width() or label.wordWrap(), label.text()
        left = label.mapTo(odds_view, QPoint(0, 0)).x()
        assert left >= 0 and left + label.width() <= odds_view.width(), label.text()
    assert not layout_checks.problems(dialog)


def test_every_main_tab_fits_at_the_larger_text(qtbot: Any, demo: Any,
                                                larger_text: QApplication) -> None:
    window = make_window(qtbot, demo)
    window.resize(fit.LAPTOP_WINDOW)
    found: list[str] = []
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        QApplication.processEvents()
        found += [f"{window.tabs.tabText(index)}: {p}"
                  for p in layout_checks.problems(window)]
        assert inside(window.tabs.tabBar(), window)
    assert not found, "\n".join(found)
