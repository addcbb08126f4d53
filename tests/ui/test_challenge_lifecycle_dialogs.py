"""The challenge lifecycle clicking the real controls (Rulebook: Continuing Play;
Retaining Supplies, D13; Determine Starting Hex and Place Characters; Ruins)."""

from __future__ import annotations

from typing import Any

from companion import operations
from companion.operations.effects import apply_effects, parse_effect
from companion.ui import play_dialogs
from companion.ui.main_window import MainWindow


def show(qtbot: Any, dialog: Any) -> Any:
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_continuing_play_end_then_the_next_challenge_ready_and_placed(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("gain flint 2"),
                                             parse_effect("suffer minor_injury"),
                                             parse_effect("energy -4")])
    operations.change_unrest(demo, amount=6)
    end = show(qtbot, play_dialogs.EndChallengeDialog(window))
    end.outcome.setText("112")
    end.check_material("Ash", 0)
    end.check_looming("C2")
    end.end_button.click()
    assert warnings == []
    # The last event is the outcome read in the Codex (issue 27 item 7); before it, the end.
    assert "goes back to the box" in demo.journal(2)[1].text
    ash = demo.character_detail("Ash")
    assert (ash.bag, ash.items) == ((), ())  # the rest went back to the box

    start = show(qtbot, play_dialogs.StartChallengeDialog(window))
    assert start.places_box.isVisibleTo(start)
    assert start.placements["Ash"].currentData() == "E01"
    start.choose("C2")
    start.start_button.click()
    assert warnings == []
    ash = demo.character_detail("Ash")
    # Full energy less 1 at unrest 6+, no injury, the flint retained taken up once.
    assert (ash.energy, ash.health, ash.hex, [t.name for t in ash.bag]) == (
        4, (), "E01", ["flint"])


def test_ruins_and_retained_supplies_dialog(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    from tests.operations.test_night_cards import with_outpost

    with_outpost(demo, "longhouse")
    window.refresh_all()
    dialog = show(qtbot, play_dialogs.RetainedAndRuinsDialog(window))
    assert dialog.supplies.item(0).text() == "Nothing waits to be taken up."
    assert not dialog.claim_button.isEnabled()
    assert dialog.outposts.currentData() == "Hearth"
    dialog.reason.setText("Activity 14: a storm batters the outposts")
    dialog.ruin_button.click()
    assert warnings == []
    assert "Hearth becomes a ruin (Activity 14" in dialog.result_label.text()
    assert not dialog.ruin_button.isEnabled()


def test_retained_supplies_a_successor_takes_them_up(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("gain flint 1")])
    from companion.operations.challenge import end_challenge

    end_challenge(demo, outcome="112", looming=["C2"], retained={"Ash": ([], [0])})
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")  # Ash ages out before the next game
    operations.start_challenge(demo, challenge="C2")
    operations.create_character(
        demo, name="Cael", player="Player 1", rolled=(6, 5, 4, 3, 1), removed=4,
        assignment={"might": 6, "dexterity": 5, "awareness": 4, "conviction": 3},
        traits=["cunning"], mantle="stormcaller", hex_tile="E01")
    window.refresh_all()
    dialog = show(qtbot, play_dialogs.RetainedAndRuinsDialog(window))
    assert dialog.supplies.item(0).text() == "Ash (Player 1) retained: Flint"
    dialog.taker.setCurrentIndex(dialog.taker.findData("Cael"))
    dialog.claim_button.click()
    assert warnings == []
    assert [t.name for t in demo.character_detail("Cael").bag] == ["flint"]
    assert dialog.supplies.item(0).text() == "Nothing waits to be taken up."


def test_outposts_a_structure_removed_is_erased_from_the_card(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    """Rulebook: Overlays > Outposts — a removed structure is erased from the card."""
    from tests.operations.test_night_cards import with_outpost

    with_outpost(demo, "longhouse", "drying-rack")
    window.refresh_all()
    dialog = show(qtbot, play_dialogs.RetainedAndRuinsDialog(window))
    assert [dialog.structures.itemText(i) for i in range(dialog.structures.count())] == \
        ["Longhouse", "Drying Rack"]
    dialog.structures.setCurrentIndex(1)
    dialog.remove_button.click()
    assert warnings == []
    assert "The Drying Rack is erased from Hearth's outpost card" in \
        dialog.result_label.text()
    assert [dialog.structures.itemText(i) for i in range(dialog.structures.count())] == \
        ["Longhouse"]
