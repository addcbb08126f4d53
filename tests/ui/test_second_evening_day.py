"""Issue 36 (the real box, second evening), items 6-10: the Day tab and the forms it
opens act for what is shown, keep in view what must happen next, say why an action
waits, and start from the deck being foraged (Rulebook: Game Structure > Day Phase;
Actions > Explore; Foraging)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget

from companion import operations
from companion.operations import procedures
from companion.ui.main_window import MainWindow
from companion.ui.views.day import DayView
from companion.ui.views.valley import ValleyView
from tests.ui import newcomer

font_scale = newcomer.font_scale  # the fixture: the system font, then Larger text


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


# -- item 7: what blocks the turn is what is in view --------------------------------------


def settle() -> None:
    """The new boxes laid out (the event loop places them in steps), as a player sees
    them before the next click."""
    for _ in range(4):
        QApplication.processEvents()


def shown_in_scroller(day: DayView, widget: QWidget) -> bool:
    """``widget`` lies whole in the Day tab's visible part."""
    settle()
    bar = day.scroller.verticalScrollBar()
    top = widget.mapTo(day.body, QPoint(0, 0)).y()
    seen = day.scroller.viewport().height()
    return bar.value() <= top and top + widget.height() <= bar.value() + seen


def day_tab(window: MainWindow) -> DayView:
    view = window.show_view("day")
    assert isinstance(view, DayView)
    window.resize(1280, 700)
    settle()
    return view


def test_item7_a_discovery_due_is_in_view_not_the_next_character(
        qtbot: Any, window: MainWindow, font_scale: float, refusals: list[str]) -> None:
    day = day_tab(window)
    qtbot.mouseClick(day.button("Ash", "Explore the unexplored hex north-east"),
                     Qt.MouseButton.LeftButton)
    assert refusals == [] and day.due_box is not None
    assert day.next_thing() is day.due_box
    assert shown_in_scroller(day, day.due_box)
    window.grab().save(f"/tmp/shots/item7_discovery_{font_scale}.png")


def test_item7_begin_the_night_is_in_view_once_everyone_passed(
        qtbot: Any, window: MainWindow, font_scale: float, refusals: list[str]) -> None:
    day = day_tab(window)
    qtbot.mouseClick(day.button("Ash", "Pass"), Qt.MouseButton.LeftButton)
    settle()
    # Bryn explores on, draws the Discovery, and passes last: the page had followed
    # Bryn down (Bryn's box below Ash's), and stayed there.
    qtbot.mouseClick(day.button("Bryn", "Explore the unexplored hex north-east"),
                     Qt.MouseButton.LeftButton)
    settle()
    qtbot.mouseClick(day.discovery_draw, Qt.MouseButton.LeftButton)
    settle()
    qtbot.mouseClick(day.button("Bryn", "Pass"), Qt.MouseButton.LeftButton)
    assert refusals == [] and day.night_button.isEnabled()
    assert shown_in_scroller(day, day.night_button)
    window.grab().save(f"/tmp/shots/item7_night_{font_scale}.png")


# -- item 8: after End Challenge ----------------------------------------------------------


def test_item8_after_end_challenge_no_day_action_is_enabled(
        qtbot: Any, window: MainWindow, demo: operations.Campaign,
        warnings: list[str]) -> None:
    from companion.ui.play_dialogs import EndChallengeDialog

    day = day_tab(window)
    end = EndChallengeDialog(window)
    qtbot.addWidget(end)
    end.show()
    end.outcome.setText("301")
    end.end_button.click()
    assert warnings == [] and demo.status().challenge_id is None
    for name in ("Ash", "Bryn"):
        assert [b.text() for b in day.buttons[name] if b.isEnabled()] == [], name
        assert all("challenge has ended" in r.text() for r in day.reasons[name]), name
    assert not day.night_button.isEnabled()
    assert "Start Challenge" in day.turn.text()
    # What the buttons say is what the operations answer (the CLI too).
    with pytest.raises(operations.Refused, match="challenge has ended"):
        operations.move(demo, name="Ash", to_hex="north-east")


# -- item 10: a procedure left open ---------------------------------------------------------


def test_item10_an_activity_left_open_says_so_and_one_button_goes_back(
        qtbot: Any, window: MainWindow, demo: operations.Campaign,
        refusals: list[str]) -> None:
    from companion.ui.procedure_dialog import ProcedureDialog

    day = day_tab(window)
    qtbot.mouseClick(day.button("Ash", "Forage at the plains"), Qt.MouseButton.LeftButton)
    dialog = next(d for d in window.findChildren(ProcedureDialog) if d.isVisible())
    dialog.close()  # the foraging window closed part-way: the energy is spent
    QApplication.processEvents()
    assert procedures.in_progress(demo) is not None
    for name in ("Ash", "Bryn"):
        assert [b.text() for b in day.buttons[name] if b.isEnabled()] == [], name
        assert all("foraging is still in progress" in r.text()
                   for r in day.reasons[name]), name
    back = day.night_button
    assert back.text().replace("&", "") == "Continue the foraging…" and back.isEnabled()
    assert day.next_thing() is day.night_row and shown_in_scroller(day, back)
    window.grab().save("/tmp/shots/item10_left_open.png")
    qtbot.mouseClick(back, Qt.MouseButton.LeftButton)
    assert any(d.isVisible() for d in window.findChildren(ProcedureDialog))
    assert refusals == []


# -- item 9: the forage card form --------------------------------------------------------


def test_item9_a_card_entered_while_foraging_the_plains_is_a_plains_card(
        qtbot: Any, window: MainWindow, refusals: list[str]) -> None:
    from companion.ui.card_form import CardForm
    from companion.ui.procedure_dialog import ProcedureDialog

    day = day_tab(window)
    qtbot.mouseClick(day.button("Ash", "Forage at the plains"), Qt.MouseButton.LeftButton)
    dialog = next(d for d in window.findChildren(ProcedureDialog) if d.isVisible())
    field = dialog.step_widget.card_field
    edit = field.combo.lineEdit()
    edit.clear()
    qtbot.keyClicks(edit, "FP77")  # a card of the box the app does not know
    qtbot.mouseClick(field.use_button, Qt.MouseButton.LeftButton)
    assert field.enter_button.isVisible()
    qtbot.mouseClick(field.enter_button, Qt.MouseButton.LeftButton)
    form = next(f for f in window.findChildren(CardForm) if f.isVisible())
    assert form.editor.editors["deck"].value() == "plains"
    assert form.data()["id"] == "FP77"
    form.grab().save("/tmp/shots/item9_form.png")
    form.reject()
    assert refusals == []
