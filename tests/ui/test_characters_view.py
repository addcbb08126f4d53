"""The Characters tab: the table model, and the sheet of the selected character."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt

from companion import operations
from companion.content.schema.base import Ability, HealthToken, Slot
from companion.rules.health import add_boost, suffer
from companion.rules.resources import BagToken, Side, TokenKind
from companion.ui.views.character_sheet import (
    CharacterSheet,
    bag_lines,
    energy_slots,
    health_slots,
    item_lines,
)
from companion.ui.views.characters import CharactersModel
from companion.ui.widgets import read_game
from tests.ui.helpers import make_window


def ash(campaign: operations.Campaign) -> Any:
    return next(c for c in read_game(campaign).characters if c.name == "Ash")


def test_the_model_without_a_window(demo: Any) -> None:
    model = CharactersModel()
    model.set_rows(demo.characters())
    assert model.rowCount() == 2
    assert model.data(model.index(0, 0)) == "Ash"
    assert model.data(model.index(0, 9)) == "5/5"
    assert model.headerData(9, Qt.Orientation.Horizontal) == "Energy"


def test_track_slots_for_injuries_and_energy(demo: Any) -> None:
    character = suffer(suffer(ash(demo), HealthToken.MAJOR_INJURY), HealthToken.MINOR_DISEASE)
    character = replace(character, energy=2)
    slots = health_slots(character)
    assert [s.kind for s in slots] == ["major_injury", "minor_disease", "", "", ""]
    assert slots[0].text == "Major\ninjury" and slots[2].text == "empty"
    assert [s.kind for s in energy_slots(character)] == ["energy"] * 2 + [""] * 3


def test_items_by_slot_and_the_bag_use_content_names(demo: Any) -> None:
    character = replace(
        ash(demo),
        items=(("stone-knife", Slot.HAND), ("reed-basket", Slot.BODY)),
        bag=(BagToken.material("flint"), BagToken.material("flint"),
             BagToken(TokenKind.MATERIAL, "bone", Side.PROCESSED),
             BagToken.perishable("fish"), BagToken(TokenKind.PERISHABLE_FOOD, "meat",
                                                   Side.FERMENTED),
             BagToken.tough("grain"), BagToken.water(), BagToken.water()),
    )
    items = dict(item_lines(character, demo.content))
    assert items["Hand (1/2)"] == "Stone Knife, 1 free"
    assert items["Body (1/3)"] == "Reed Basket, 2 free"
    assert items["Gear (0/3)"] == "3 free (empty)"
    bag = dict(bag_lines(character, demo.content))
    assert bag["Materials"] == "Flint (unprocessed) ×2, Bone (processed)"
    assert bag["Perishable food"] == "Fish (fresh), Meat (fermented)"
    assert bag["Tough food"] == "Grain (unprocessed)"
    assert bag["Water"] == "2 tokens"


def test_the_sheet_shows_incapacitation_and_boosts(qtbot: Any, demo: Any) -> None:
    sheet = CharacterSheet()
    qtbot.addWidget(sheet)
    character = ash(demo)
    for token in [HealthToken.MINOR_INJURY] * 4 + [HealthToken.MAJOR_DISEASE]:
        character = suffer(character, token)
    character = add_boost(add_boost(character, Ability.MIGHT, 1), Ability.MIGHT, 2)
    sheet.show_character(character, demo.content)
    assert not sheet.incapacitated.isHidden()
    assert "Incapacitated" in sheet.health_text.text()
    assert sheet.boost_rows["might"].texts() == ["+1", "+2"]
    assert sheet.boost_rows["might"].kinds() == ["boost_minor", "boost_major"]
    assert sheet.boost_rows["dexterity"].isHidden()
    assert sheet.detail_text("Mantle:") == "Hearthkeeper"
    assert sheet.detail_text("Traits:") == demo.content.traits["intrepid"].name


def test_the_sheet_follows_an_energy_change_made_through_an_operation(
        qtbot: Any, demo: Any) -> None:
    window = make_window(qtbot, demo)
    view = window.show_view("characters")  # in front, as a player sees it (issue 37)
    assert view.selected_name() == "Ash"
    assert view.sheet.energy.kinds() == ["energy"] * 5
    assert view.sheet.health.texts() == ["empty"] * 5
    assert sheet_title(view) == "Ash"
    assert window.run_operation(operations.move, name="Ash", to_hex="E09")
    assert view.sheet.energy.kinds() == ["energy"] * 3 + [""] * 2
    assert view.sheet.energy_text.text() == "3 of 5 energy"
    assert view.sheet.detail_text("Hex:") == "E09"
    view.select("Bryn")
    assert sheet_title(view) == "Bryn"
    assert view.sheet.energy.kinds() == ["energy"] * 5


def sheet_title(view: Any) -> str:
    return str(view.sheet.title.text())


def test_an_empty_campaign_and_the_new_character_button(qtbot: Any, campaign: Any,
                                                         monkeypatch: Any) -> None:
    """A campaign with no valley, challenge or characters yet (tests/ui/conftest.py)."""
    from companion.ui.character_dialog import CharacterDialog

    window = make_window(qtbot, campaign)
    view = window.view("characters")
    assert not view.sheet.no_selection.isHidden()
    assert "No characters yet" in view.empty.text()
    assert "nobody" in window.view("day").turn.text()
    society = window.view("society")
    assert society.events.item(0).text() == "No challenge is being played."

    def fill_and_create(dialog: CharacterDialog) -> int:
        assert dialog.hex.currentData() is None  # no valley yet: not placed
        dialog.name.setText("Gale")
        for spin, value in zip(dialog.dice, (4, 4, 3, 2, 1), strict=True):
            spin.setValue(value)
        dialog.create_character()
        return int(dialog.result())

    monkeypatch.setattr(CharacterDialog, "exec", fill_and_create)
    window.show_view("characters")  # its button is clicked on its tab (issue 37)
    view.new_button.click()
    assert [r.name for r in view.model.rows] == ["Gale"]
    assert view.selected_name() == "Gale"
    assert view.sheet.title.text() == "Gale"
    assert view.sheet.detail_text("Hex:") == "not placed"
