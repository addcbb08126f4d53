"""The New Character dialog on the demo campaign: typed dice, app-rolled dice, refusals."""

from __future__ import annotations

from typing import Any

import pytest

from companion import operations
from companion.ui.character_dialog import CharacterDialog
from companion.ui.main_window import MainWindow


@pytest.fixture
def demo(demo: operations.Campaign) -> operations.Campaign:
    """The demo campaign after Ash ages out: one of its two characters' places is free
    (the campaign's character count, D8)."""
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")
    return demo


def make_dialog(qtbot: Any, window: MainWindow) -> CharacterDialog:
    dialog = CharacterDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def type_dice(dialog: CharacterDialog, values: list[int]) -> None:
    for spin, value in zip(dialog.dice, values, strict=True):
        spin.setValue(value)


def test_typed_dice_create_a_character(qtbot: Any, window: MainWindow, demo: Any) -> None:
    dialog = make_dialog(qtbot, window)
    dialog.name.setText("Cora")
    type_dice(dialog, [6, 2, 5, 4, 3])
    assert dialog.removed() == 1  # the lowest die is left out until the player chooses
    assert sorted(dialog.kept()) == [3, 4, 5, 6]
    assert dialog.assignment() == {"might": 6, "dexterity": 5, "awareness": 4,
                                   "conviction": 3}
    assert not dialog.second_trait.isEnabled()  # sum 18 > 11
    dialog.leave_out.button(4).setChecked(True)  # leave out the 3 instead
    assert dialog.assignment() == {"might": 6, "dexterity": 5, "awareness": 4,
                                   "conviction": 2}
    dialog.abilities["might"].setCurrentIndex(dialog.abilities["might"].findData(2))
    dialog.abilities["conviction"].setCurrentIndex(dialog.abilities["conviction"].findData(6))
    assert "✓" in dialog.assignment_note.text()
    worn = {dialog.mantle.itemData(i) for i in range(dialog.mantle.count())}
    assert "pathfinder" not in worn  # Bryn wears it (Ash's mantle is free again)
    assert dialog.hex.currentData() == "E01"
    dialog.create_button.click()
    assert dialog.result() == dialog.DialogCode.Accepted
    cora = next(c for c in demo.characters() if c.name == "Cora")
    assert (cora.might, cora.dexterity, cora.awareness, cora.conviction) == (2, 5, 4, 6)
    assert cora.hex_id == "E01"
    assert cora.mantle == demo.content.mantles[str(dialog.mantle.currentData())].name
    characters = window.view("characters")
    assert [r.name for r in characters.model.rows] == ["Bryn", "Cora"]


def test_app_roll_fills_the_dice_and_creates(qtbot: Any, window: MainWindow,
                                             demo: Any) -> None:
    seen: list[Any] = []
    window.campaign_changed.connect(seen.append)
    dialog = make_dialog(qtbot, window)
    dialog.name.setText("Dara")
    dialog.roll_button.click()
    rolled = seen[-1].detail
    assert len(rolled) == 5 and dialog.rolled() == list(rolled)
    assert "Dara's abilities" in demo.journal(limit=1)[0].text
    dialog.create_button.click()
    assert dialog.result() == dialog.DialogCode.Accepted
    dara = next(c for c in demo.characters() if c.name == "Dara")
    kept = sorted(v for i, v in enumerate(rolled) if i != rolled.index(min(rolled)))
    assert sorted((dara.might, dara.dexterity, dara.awareness, dara.conviction)) == kept


def test_an_illegal_assignment_is_refused_and_changes_nothing(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    dialog = make_dialog(qtbot, window)
    dialog.name.setText("Eri")
    type_dice(dialog, [6, 5, 4, 3, 1])
    dialog.abilities["dexterity"].setCurrentIndex(dialog.abilities["dexterity"].findData(6))
    assert "must use exactly the kept dice" in dialog.assignment_note.text()
    before = (len(demo.characters()), demo.status().journal_events)
    dialog.create_button.click()
    assert warnings and "kept dice" in warnings[0]
    assert (len(demo.characters()), demo.status().journal_events) == before
    assert dialog.isVisible() and dialog.result() != dialog.DialogCode.Accepted
    # Fix it and create from the same dialog.
    dialog.abilities["dexterity"].setCurrentIndex(dialog.abilities["dexterity"].findData(5))
    dialog.create_button.click()
    assert "Eri" in [c.name for c in demo.characters()]


def test_a_second_trait_only_when_the_abilities_sum_to_11_or_less(
        qtbot: Any, window: MainWindow, demo: Any) -> None:
    dialog = make_dialog(qtbot, window)
    dialog.name.setText("Fen")
    type_dice(dialog, [1, 1, 2, 3, 4])
    assert sum(dialog.assignment().values()) == 10
    assert dialog.second_trait.isEnabled()
    dialog.trait.setCurrentIndex(dialog.trait.findData("cunning"))
    dialog.second_trait.setCurrentIndex(dialog.second_trait.findData("wise"))
    dialog.create_button.click()
    fen = next(c for c in demo.characters() if c.name == "Fen")
    assert fen.traits == ("cunning", "wise")
    type_dice(dialog, [6, 6, 6, 6, 6])
    assert not dialog.second_trait.isEnabled()
    assert dialog.traits() == [str(dialog.trait.currentData())]


def test_creation_dice_start_blank_and_roll_once(qtbot: Any, window: MainWindow, demo: Any,
                                                 warnings: list[str]) -> None:
    # Rulebook: Character Creation, step 1: nothing passes before the five dice are
    # typed or rolled, and the app's roll is made once.
    dialog = make_dialog(qtbot, window)
    dialog.name.setText("Gil")
    assert "✓" not in dialog.assignment_note.text()
    before = len(demo.characters())
    dialog.create_button.click()
    assert warnings and warnings[0].startswith("Type the five dice")
    assert len(demo.characters()) == before
    dialog.roll_button.click()
    assert not dialog.roll_button.isEnabled()
    assert all(1 <= spin.value() <= 6 and spin.isReadOnly() for spin in dialog.dice)
    assert "✓" in dialog.assignment_note.text()


def test_character_count_d8_a_full_campaign_refuses_another_character(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    dialog = make_dialog(qtbot, window)
    dialog.name.setText("Cora")
    type_dice(dialog, [6, 2, 5, 4, 3])
    dialog.create_button.click()
    second = make_dialog(qtbot, window)
    second.name.setText("Dara")
    type_dice(second, [6, 2, 5, 4, 3])
    second.create_button.click()
    assert warnings == ["this campaign plays with 2 characters: Bryn, Cora are in play"]
    assert second.isVisible() and [c.name for c in demo.characters()] == ["Bryn", "Cora"]


def test_character_death_replacement_is_placed_in_a_hex_with_shelter(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    from companion.operations.effects import apply_effects

    dialog = make_dialog(qtbot, window)
    dialog.replacement.setChecked(True)
    # Reading D22: with no shelter anywhere, the starting hex is offered.
    assert dialog.hex.currentText() == "E01 — no hex has shelter: starting hex or outpost"
    apply_effects(demo, name="Bryn", effects=[{"do": "place", "token": "shelter"}])
    dialog.replacement.setChecked(False)
    dialog.replacement.setChecked(True)
    assert dialog.hex.currentData() == "E01"
    dialog.name.setText("Cora")
    type_dice(dialog, [6, 2, 5, 4, 3])
    dialog.create_button.click()
    assert warnings == []
    cora = demo.character_detail("Cora")
    assert (cora.energy, cora.hex) == (0, "E01")
