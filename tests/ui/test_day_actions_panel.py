"""The Day panel's controls for every Day action, clicked as a player would (Rulebook:
Day Actions; Building an Outpost; Building Structures; Processing; exchanges; Mantle >
Exceeding Item Limits; a Discovery test asks for the die)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QInputDialog

from companion import operations
from companion.operations import day as day_ops
from companion.operations.effects import apply_effects, parse_effect
from companion.ui import day_dialogs
from companion.ui.views.day import DayView
from tests.ui.helpers import energy


def gain(day: DayView, name: str, *effects: str) -> None:
    day.window_.run_operation(apply_effects, name=name,
                              effects=[parse_effect(e) for e in effects])


def click(qtbot: Any, button: Any) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_day_actions_each_terrain_has_its_own_button(day: DayView) -> None:
    texts = [b.text() for b in day.buttons["Ash"]]
    assert "Forage at the plains: 2 energy" in texts
    assert "Forage at the forest: 2 energy" in texts
    assert "Build an outpost over the plains: 4 energy…" in texts
    assert "Process: 1 energy (+1 per energy icon)…" in texts
    assert "Craft with two material tokens: 1 energy…" in texts
    assert "Exchange items and materials…" in texts


def test_building_an_outpost_then_a_structure_by_clicking(qtbot: Any, day: DayView,
                                                          demo: Any, refusals: list[str]
                                                          ) -> None:
    click(qtbot, day.button("Ash", "Build an outpost over the plains"))
    dialog = day.dialog
    assert isinstance(dialog, day_dialogs.BuildOutpostDialog)
    qtbot.keyClicks(dialog.outpost_name, "Hearth")
    dialog.contributions.spins["Bryn"].setValue(3)
    assert dialog.contributions.share.text() == "Ash pays 1 of 4 energy (has 5)."
    click(qtbot, dialog.ok_button())
    assert refusals == []
    assert (energy(demo, "Ash"), energy(demo, "Bryn")) == (4, 2)
    assert demo.status().outposts == 1
    gain(day, "Bryn", "gain wood 2", "gain fiber 1")
    click(qtbot, day.button("Bryn", "Build a structure at Hearth"))
    dialog = day.dialog
    assert isinstance(dialog, day_dialogs.BuildStructureDialog)
    dialog.select("drying-rack")
    assert dialog.why.text() == "Can be built now."
    click(qtbot, dialog.ok_button())
    assert refusals == []
    assert demo.journal(limit=1)[0].text.startswith("Bryn built Drying Rack at Hearth")
    assert energy(demo, "Bryn") == 1


def test_building_structures_a_structure_that_cannot_be_built_says_why(
        qtbot: Any, day: DayView, demo: Any, refusals: list[str]) -> None:
    operations.build_outpost(demo, name="Ash", feature="plains", outpost_name="Hearth",
                             contributions={"Bryn": 2})
    day.refresh()
    click(qtbot, day.button("Bryn", "Build a structure at Hearth"))
    dialog = day.dialog
    dialog.select("palisade")
    assert dialog.why.text() == "no one in the hex has a Woodcraft item"
    assert not dialog.ok_button().isEnabled()
    dialog.select("drying-rack")
    assert "Drying Rack needs 2" in dialog.why.text() and not dialog.ok_button().isEnabled()
    gain(day, "Bryn", "gain wood 2", "gain fiber 1")
    assert refusals == []
    dialog.close()


def test_a_refused_build_keeps_the_dialog_open_and_changes_nothing(
        qtbot: Any, day: DayView, demo: Any, refusals: list[str]) -> None:
    click(qtbot, day.button("Ash", "Build an outpost over the plains"))
    dialog = day.dialog
    # Ash loses 3 energy while the dialog is open; Bryn gives nothing: refused.
    day.window_.run_operation(apply_effects, name="Ash",
                              effects=[parse_effect("energy -3")])
    before = demo.characters()
    click(qtbot, dialog.ok_button())
    assert refusals == ["Ash has 2 energy; Build Outpost costs 4"]
    assert dialog.isVisible() and demo.characters() == before
    dialog.close()


def test_processing_by_clicking(qtbot: Any, day: DayView, demo: Any,
                                refusals: list[str]) -> None:
    from companion.ui.play_dialogs import ProcessDialog

    gain(day, "Ash", "gain fiber 1", "item bone-needle")
    click(qtbot, day.button("Ash", "Process"))
    dialog = day.dialog
    assert isinstance(dialog, ProcessDialog)
    assert dialog.character.currentData() == "Ash"
    dialog.check_token(0)
    click(qtbot, dialog.process_button)
    assert refusals == []
    assert [str(t) for t in demo.character_detail("Ash").bag] == ["processed fiber"]
    assert energy(demo, "Ash") == 4


def test_exchanges_by_clicking(qtbot: Any, day: DayView, demo: Any,
                               refusals: list[str]) -> None:
    gain(day, "Ash", "gain wood 2", "item stone-knife")
    click(qtbot, day.button("Ash", "Exchange items and materials"))
    dialog = day.exchange_dialog
    assert isinstance(dialog, day_dialogs.ExchangeDialog)
    assert dialog.other.currentText() == "Bryn"
    dialog.mine.item(1).setCheckState(Qt.CheckState.Checked)
    click(qtbot, dialog.give_tokens)
    click(qtbot, dialog.give_item)
    assert refusals == []
    assert [str(t) for t in demo.character_detail("Bryn").bag] == ["unprocessed wood"]
    assert [str(i) for i, _ in demo.character_detail("Bryn").items] == ["stone-knife"]
    assert dialog.theirs.count() == 1 and dialog.mine.count() == 1
    assert energy(demo, "Ash") == 5  # exchanges cost nothing
    dialog.close()


def test_exchanges_into_a_full_slot_ask_which_item_goes(qtbot: Any, day: DayView, demo: Any,
                                                        monkeypatch: Any,
                                                        refusals: list[str]) -> None:
    gain(day, "Bryn", "item stone-knife", "item sling")
    gain(day, "Ash", "item pine-torch")
    asked: list[str] = []

    def choose(self: day_dialogs.ExcessChoice) -> int:
        asked.append(self.item.currentText())
        self.item.setCurrentIndex(self.item.findData("sling"))
        self.to.setCurrentIndex(self.to.findData("Ash"))
        return int(QDialog.DialogCode.Accepted.value)

    monkeypatch.setattr(day_dialogs.ExcessChoice, "exec", choose)
    click(qtbot, day.button("Ash", "Exchange items and materials"))
    dialog = day.exchange_dialog
    click(qtbot, dialog.give_item)
    assert asked and refusals == []
    assert [str(i) for i, _ in demo.character_detail("Ash").items] == ["sling"]
    assert demo.journal(limit=1)[0].text == ("Ash gave the Pine Torch to Bryn; Bryn had no "
                                             "room and gave the Sling to Ash")
    dialog.close()


def test_exceeding_item_limits_the_panel_asks_and_the_choice_clears_it(
        qtbot: Any, day: DayView, demo: Any, refusals: list[str]) -> None:
    gain(day, "Ash", "item stone-knife", "item sling", "item pine-torch")
    assert not day.button("Ash", "Gather Water").isEnabled()
    assert not day.button("Ash", "Pass").isEnabled()
    # The choice is asked at once, and stays on the panel until it is made.
    dialog = day.dialog
    assert isinstance(dialog, day_dialogs.ExcessDialog) and dialog.isVisible()
    dialog.close()
    click(qtbot, day.excess_buttons["Ash"])
    dialog = day.dialog
    assert isinstance(dialog, day_dialogs.ExcessDialog)
    assert [dialog.to.itemText(i) for i in range(dialog.to.count())] == ["to Bryn"]
    dialog.item.setCurrentIndex(dialog.item.findData("pine-torch"))
    click(qtbot, dialog.ok_button())
    assert refusals == []
    assert [str(i) for i, _ in demo.character_detail("Bryn").items] == ["pine-torch"]
    assert day_ops.excess_items(demo) == [] and "Ash" not in day.excess_buttons
    assert day.button("Ash", "Gather Water").isEnabled()


def test_a_discovery_drawn_at_the_table_asks_for_the_die(qtbot: Any, day: DayView, demo: Any,
                                                         monkeypatch: Any,
                                                         refusals: list[str]) -> None:
    click(qtbot, day.button("Ash", "Explore the unexplored hex north-east of Ashen Ford"))
    asked: list[str] = []

    def get_int(parent: Any, title: str, label: str, *args: Any) -> tuple[int, bool]:
        asked.append(label)
        return 5, True

    monkeypatch.setattr(QInputDialog, "getInt", get_int)
    qtbot.keyClicks(day.discovery_typed.combo.lineEdit(), "DI02")
    click(qtbot, day.discovery_use)
    assert refusals == []
    assert asked and "tests dexterity (6+)" in asked[0]  # with its stakes (issue 27)
    assert "rolled 5" in demo.journal(limit=1)[0].text


def test_explore_a_new_tray_opens_the_valley_placements(qtbot: Any, day: DayView,
                                                        demo: Any) -> None:
    from companion.ui.views.valley import ValleyView

    click(qtbot, day.button("Ash", "Explore the unexplored hex south-east of Ashen Ford"))
    day.window_.run_operation(operations.draw_discovery, name="Ash")
    day.window_.run_operation(operations.pass_turn, name="Bryn")
    tray = day.button("Ash", "Explore a new Emberfen Lowlands tray")
    assert tray.text().startswith("Explore a new Emberfen Lowlands tray (") and \
        tray.text().endswith("places): 2 energy…")
    assert sum(b.text().startswith("Explore a new") for b in day.buttons["Ash"]) == 1
    click(qtbot, tray)
    valley = day.window_.current_view()
    assert isinstance(valley, ValleyView)
    assert valley.explore_button.isChecked() and valley.character() == "Ash"
    assert valley.placements.currentRow() == 0
    assert valley.place_tray()
    assert energy(demo, "Ash") == 1


def test_exchanges_from_the_play_menu_choose_who(qtbot: Any, day: DayView, demo: Any,
                                                refusals: list[str]) -> None:
    gain(day, "Bryn", "gain wood 1")
    dialog = day_dialogs.open_exchange(day.window_)
    assert isinstance(dialog, day_dialogs.ExchangeDialog)
    assert dialog.who.currentText() == "Ash" and dialog.mine.count() == 0
    dialog.who.setCurrentIndex(dialog.who.findData("Bryn"))
    assert dialog.windowTitle() == "Exchange: Bryn" and dialog.other.currentText() == "Ash"
    dialog.mine.item(0).setCheckState(Qt.CheckState.Checked)
    click(qtbot, dialog.give_tokens)
    assert refusals == []
    assert [str(t) for t in demo.character_detail("Ash").bag] == ["unprocessed wood"]
    dialog.close()


@pytest.mark.parametrize(
    ("hex_", "button", "kind", "feature"),
    [("E01", "Forage at the forest", "foraging", "forest"),
     ("E01", "Forage at the plains", "foraging", "plains"),
     ("E05", "Mine at the dried flats", "mining", "dried-flats"),
     ("E05", "Mine at the cave", "mining", "cave"),
     ("E05", "Delve at the cave", "delving", "cave"),
     ("E09", "Fish at the lake", "fishing", "lake")],
)
def test_day_actions_each_activity_button_starts_its_procedure(
        qtbot: Any, day: DayView, demo: Any, hex_: str, button: str, kind: str,
        feature: str, refusals: list[str]) -> None:
    from companion.operations import procedures

    if hex_ != "E01":
        day.window_.run_operation(operations.move, name="Ash", to_hex=hex_)
        day.window_.run_operation(operations.draw_discovery, name="Ash", card="DI01")
        day.window_.run_operation(operations.pass_turn, name="Bryn")
    click(qtbot, day.button("Ash", button))
    assert refusals == []
    view = procedures.in_progress(demo)
    assert view is not None and view.kind == kind and view.actor == "Ash"
    for widget in day.window_.findChildren(QDialog):
        widget.close()


@pytest.mark.parametrize(("structures", "listed", "refusal"), [
    # Reading D21: an outpost by itself is no storage container: only Bryn is listed.
    ((), ["Bryn"], None),
    # A Storehouse holds 3: 0 + 4 wood > 3 is refused in game words, nothing moves.
    (("storehouse",), ["Bryn", "The Storehouse at Hearth (0 of 3)"],
     "holds at most 3 materials (0 stored, room for 3); 4 will not fit"),
])
def test_day_actions_storage_containers_by_clicking(
        qtbot: Any, day: DayView, demo: Any, refusals: list[str],
        structures: tuple[str, ...], listed: list[str], refusal: str | None) -> None:
    """Rulebook: Day Actions ("any storage container in their hex"); reading D21."""
    from tests.operations.test_night_cards import with_outpost

    with_outpost(demo, *structures)
    gain(day, "Ash", "gain wood 4")
    click(qtbot, day.button("Ash", "Exchange items and materials"))
    dialog = day.exchange_dialog
    assert [dialog.other.itemText(i) for i in range(dialog.other.count())] == listed
    if refusal is None:
        dialog.close()
        return
    dialog.other.setCurrentIndex(1)
    for row in range(4):
        dialog.mine.item(row).setCheckState(Qt.CheckState.Checked)
    click(qtbot, dialog.give_tokens)
    assert refusals and refusal in refusals[-1]
    assert len(demo.character_detail("Ash").bag) == 4
    for row in range(3):
        dialog.mine.item(row).setCheckState(Qt.CheckState.Checked)
    click(qtbot, dialog.give_tokens)
    assert dialog.theirs.count() == 3
    assert len(demo.character_detail("Ash").bag) == 1
    dialog.close()


def test_overlays_outposts_the_player_chooses_the_overlay_by_clicking(
        qtbot: Any, day: DayView, demo: Any, refusals: list[str]) -> None:
    """Rulebook: Overlays > Outposts: "Choose an outpost overlay that suits that outpost"."""
    from sqlmodel import select

    from companion.store import models

    click(qtbot, day.button("Ash", "Build an outpost over the plains"))
    dialog = day.dialog
    assert isinstance(dialog, day_dialogs.BuildOutpostDialog)
    assert [dialog.overlay.itemData(i) for i in range(dialog.overlay.count())] == \
        ["OP1", "OP2", "OP3", "OP4"]
    dialog.overlay.setCurrentIndex(dialog.overlay.findData("OP4"))
    qtbot.keyClicks(dialog.outpost_name, "Hearth")
    dialog.contributions.spins["Bryn"].setValue(2)
    click(qtbot, dialog.ok_button())
    assert refusals == []
    with demo.file.read() as session:
        assert session.exec(select(models.Outpost)).one().overlay_id == "OP4"


def test_day_actions_no_exchange_while_a_discovery_card_is_due_by_clicking(
        qtbot: Any, day: DayView, demo: Any, refusals: list[str]) -> None:
    """Rulebook: Day Actions (exchanges before or after an action); Actions > Move: Bryn
    reaches E09 and draws; Ash follows, and until Ash's card is drawn no exchange."""
    gain(day, "Ash", "gain wood 1")
    operations.move(demo, name="Bryn", to_hex="E09")
    operations.draw_discovery(demo, name="Bryn", card="DI01")
    operations.move(demo, name="Ash", to_hex="E09")
    dialog = day_dialogs.open_exchange(day.window_, "Ash")
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert dialog.other.currentText() == "Bryn"
    dialog.mine.item(0).setCheckState(Qt.CheckState.Checked)
    click(qtbot, dialog.give_tokens)
    assert refusals and "Ash must draw a Discovery card first (arrived in E09)" in \
        refusals[-1]
    assert [str(t) for t in demo.character_detail("Ash").bag] == ["unprocessed wood"]
    dialog.close()
