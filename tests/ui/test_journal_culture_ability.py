"""Issue 35 item 10 in the window: the Journal's Culture page adds a culture ability
(Rulebook: Using the Journal > Culture), and Play › Apply Effects… offers "unlock
Delving" and "gain a culture ability"; each is one undoable operation."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion import operations
from companion.ui.play_dialogs.effects import EffectsDialog
from tests.ui.helpers import make_window


def abilities(page: Any) -> list[str]:
    return [page.abilities.item(n).text() for n in range(page.abilities.count())]


def test_culture_page_adds_an_ability_and_undo_takes_it_back(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    book = window.show_view("journal").book  # type: ignore[attr-defined]
    book.turn_to("culture")
    page = book.page("culture")
    assert abilities(page) == ["None yet."]
    page.ability_entry.setText("Fire Keeping")
    qtbot.keyClick(page.ability_entry, Qt.Key.Key_Return)
    assert abilities(page) == ["Fire Keeping"] and page.ability_entry.text() == ""
    assert demo.journal()[0].text == "Culture ability gained: Fire Keeping"
    page.ability_entry.setText("fire keeping")
    page.add_ability_button.click()
    assert refusals == ["The society already has the culture ability Fire Keeping."]
    assert page.ability_entry.text() == "fire keeping"  # kept, to be corrected
    window.run_operation(operations.undo)
    assert abilities(page) == ["None yet."]


def test_apply_effects_offers_unlock_delving_and_a_culture_ability(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = EffectsDialog(window)
    qtbot.addWidget(dialog)
    dialog.choose_kind("culture")
    assert not dialog.add_effect()  # no name yet
    assert "Type the culture ability" in dialog.form_note.text()
    dialog.culture.setText("Star  Reading")
    assert dialog.preview.text() == "In the form: culture ability: Star Reading"
    assert dialog.add_effect()
    dialog.choose_kind("unlock")
    assert dialog.add_effect()
    assert [dialog.list.item(n).text() for n in range(dialog.list.count())] == [
        "1. culture ability: Star Reading", "2. unlock Delving"]
    dialog.apply()
    assert refusals == []
    assert "Star Reading" in demo.status().culture
