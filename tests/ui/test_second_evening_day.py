"""Issue 36 (the real box, second evening), items 6-10: the Day tab and the forms it
opens act for what is shown, keep in view what must happen next, say why an action
waits, and start from the deck being foraged (Rulebook: Game Structure > Day Phase;
Actions > Explore; Foraging)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion import operations
from companion.ui.main_window import MainWindow
from companion.ui.views.valley import ValleyView


def valley_tray_form(window: MainWindow, name: str) -> ValleyView:
    """The Valley tab with the new tray's form open for ``name``."""
    valley = window.show_view("valley")
    assert isinstance(valley, ValleyView)
    valley.character_combo.setCurrentText(name)
    valley.explore_button.setChecked(True)
    return valley


def hex_of(campaign: operations.Campaign, name: str) -> str | None:
    return next(c.hex_id for c in campaign.characters() if c.name == name)


# -- item 6: Explore a new tray ----------------------------------------------------------


def test_item6_the_new_tray_is_explored_by_the_character_shown(
        qtbot: Any, window: MainWindow, demo: operations.Campaign,
        refusals: list[str]) -> None:
    valley = valley_tray_form(window, "Ash")
    valley.character_combo.setCurrentText("Bryn")  # chosen after the form opened
    assert valley.explore_box.name == "Bryn"
    qtbot.mouseClick(valley.place_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert hex_of(demo, "Ash") == "E01" and hex_of(demo, "Bryn") != "E01"
    assert "Bryn" in demo.journal(limit=1)[0].text


def test_item6_the_form_opened_again_starts_empty(
        qtbot: Any, window: MainWindow) -> None:
    valley = valley_tray_form(window, "Ash")
    first = valley.explore_box.tile_edits[0]
    qtbot.keyClicks(first, "E05")
    valley.explore_button.setChecked(False)  # closed without placing
    valley.explore_button.setChecked(True)
    assert [e.text() for e in valley.explore_box.tile_edits] == ["", "", ""]
    qtbot.keyClicks(first, "E05")
    assert first.text() == "E05"  # not "E05E05"
