"""Issue 36 (the real box, second evening), item 11: nothing jumps as a form fills in,
and nothing is cut, at the system font and at Settings ▸ Text size ▸ Larger: the New
Character dice row stays put and Tab goes die to die; the Night's Rest keeps its step
buttons in place as each character rests; the foraging tableau keeps its height when the
cards on offer are named; Settings shows its backup note whole (Rulebook: Character
Creation, Step 1; Night Phase > Rest; Foraging)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from companion import operations
from companion.ui.main_window import MainWindow
from tests.ui import newcomer
from tests.ui.helpers import make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then Larger text


def settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def top_in(widget: QWidget, window: QWidget) -> int:
    return int(widget.mapTo(window, QPoint(0, 0)).y())


def test_item11_new_character_dice_typed_with_tab_stay_in_place(
        qtbot: Any, tmp_path: Path, font_scale: float, refusals: list[str]) -> None:
    from companion.ui.character_dialog import CharacterDialog

    campaign = operations.new_campaign(tmp_path / "t.stonesaga", society_name="The Ember Folk",
                                       players=2, characters=2, seed=7)
    operations.set_up_valley(campaign, region="emberfen")
    window = make_window(qtbot, campaign)
    dialog = CharacterDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    settle()
    dialog.resize(dialog.width() + 100, dialog.height())  # a little wider than it opened
    settle()
    row = [top_in(dialog.dice[0], dialog), top_in(dialog.leave_out.button(0), dialog)]
    # Typing needs the dialog to be the active window, as it is at a table. Offscreen, a
    # window shown after another test's closed is not always made active (CI's machine:
    # no focus widget at all), so make it so and wait for it.
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=5000)
    dialog.name.setFocus()
    qtbot.keyClicks(dialog.name, "Cai")
    qtbot.keyClick(dialog.name, Qt.Key.Key_Tab)  # to Player
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)  # to Die 1
    for die in "65431":
        focused = dialog.focusWidget()
        assert focused in dialog.dice, focused and focused.accessibleName()
        qtbot.keyClicks(focused, die)
        qtbot.keyClick(focused, Qt.Key.Key_Tab)
        settle()
        assert [top_in(dialog.dice[0], dialog),
                top_in(dialog.leave_out.button(0), dialog)] == row, die
    assert dialog.rolled() == [6, 5, 4, 3, 1]
    assert dialog.removed() == 4  # the lowest die is left out
    dialog.grab().save(f"/tmp/shots/item11_dice_{font_scale}.png")
    assert refusals == []
    campaign.close()


def test_item11_the_rest_keeps_its_step_buttons_in_place(
        qtbot: Any, window: MainWindow, font_scale: float, refusals: list[str]) -> None:
    from companion.ui import fit
    from tests.ui.test_night_wizard import nightfall

    wizard = nightfall(qtbot, window)
    wizard.resize(fit.LAPTOP_WINDOW)
    settle()
    assert wizard.current_stage() == "rest"
    steps = wizard.step_widget
    first = top_in(steps, wizard)
    seen = [first]
    wizard.grab().save(f"/tmp/shots/item11_rest_start_{font_scale}.png")
    while wizard.current_stage() == "rest":
        qtbot.mouseClick(steps.option_buttons[0], Qt.MouseButton.LeftButton)
        settle()
        if wizard.current_stage() == "rest":
            seen.append(top_in(steps, wizard))
    assert len(seen) > 2 and set(seen) == {first}, seen
    assert refusals == []
    wizard.grab().save(f"/tmp/shots/item11_rest_{font_scale}.png")


def test_item11_the_tableau_keeps_its_height_when_the_cards_on_offer_are_named(
        qtbot: Any, demo: operations.Campaign, font_scale: float) -> None:
    from tests.ui.test_newcomer_layout import laptop_activity

    dialog = laptop_activity(qtbot, demo, "foraging", "plains")
    settle()
    panel = dialog.panel
    before = panel.board_area.height()
    assert dialog.answer("FP08")  # one card drawn: "Drawn so far: FP08"
    settle()
    assert "FP08" in panel.offer.text()
    assert panel.board_area.height() == before
    dialog.grab().save(f"/tmp/shots/item11_forage_{font_scale}.png")


def test_item11_settings_shows_its_backup_note_whole(qtbot: Any, font_scale: float) -> None:
    from companion.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    settle()
    for label in dialog.findChildren(QLabel):
        if label.wordWrap() and label.isVisible():
            assert label.height() >= label.heightForWidth(label.width()), label.text()
    note = next(label for label in dialog.findChildren(QLabel)
                if label.text().startswith("A backup is also taken"))
    assert note.height() >= note.heightForWidth(note.width())
    assert dialog.height() <= 768
    dialog.grab().save(f"/tmp/shots/item11_settings_{font_scale}.png")
