"""The play dialogs on the demo campaign: effects, a test, processing, goals, ending a
challenge and starting the next, a new epoch, ageing."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from companion import operations
from companion.operations.effects import apply_effects
from companion.ui import play_dialogs
from companion.ui.main_window import MainWindow


@pytest.fixture
def demo(demo: operations.Campaign) -> operations.Campaign:
    """The shared demo campaign, with flint and sinew in Ash's bag."""
    apply_effects(demo, name="Ash", effects=[{"do": "gain", "resource": "flint"},
                                             {"do": "gain", "resource": "sinew"}])
    return demo


def show(qtbot: Any, dialog: Any) -> Any:
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_effects_apply_a_list_together(qtbot: Any, window: MainWindow, demo: Any,
                                       warnings: list[str]) -> None:
    dialog = show(qtbot, play_dialogs.EffectsDialog(window, "Bryn"))
    dialog.source.setText("Forage card: Thorn thicket")
    dialog.choose_kind("gain")
    dialog.choose_resource("berries")
    dialog.amount.setValue(2)
    assert dialog.add_effect()
    dialog.choose_kind("suffer")
    assert dialog.add_effect()
    dialog.choose_kind("energy")
    dialog.amount.setValue(-1)
    assert dialog.add_effect()
    dialog.choose_kind("read")
    dialog.outcome.setText("1x")  # not three digits: refused in the form, not added
    assert not dialog.add_effect()
    assert "vocabulary" in dialog.form_note.text()
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == [
        "1. gain 2 Berries", "2. suffer 1 minor injury", "3. energy -1"]
    dialog.apply_button.click()
    assert warnings == []
    bryn = demo.character_detail("Bryn")
    assert [t.name for t in bryn.bag] == ["berries", "berries"]
    assert [str(t) for t in bryn.health] == ["minor_injury"]
    assert "Thorn thicket" in dialog.result_label.text()
    assert dialog.effects == []


def test_effects_refusal_keeps_the_dialog_open(qtbot: Any, window: MainWindow,
                                               warnings: list[str]) -> None:
    dialog = show(qtbot, play_dialogs.EffectsDialog(window, "Ash"))
    dialog.choose_kind("read")
    dialog.outcome.setText("104")
    dialog.add_effect()
    dialog.choose_kind("gain_item")
    dialog.item.setCurrentIndex(dialog.item.findData("stone-knife"))
    dialog.apply_button.click()  # reading an outcome and an item: applied
    assert warnings == []
    dialog.choose_kind("gain")
    dialog.apply_button.click()  # an empty list applies the form's effect
    assert dialog.isVisible()


def test_ability_test_with_a_typed_die(qtbot: Any, window: MainWindow, demo: Any,
                                       warnings: list[str]) -> None:
    dialog = show(qtbot, play_dialogs.AbilityTestDialog(window, "Ash"))
    dialog.ability.setCurrentIndex(dialog.ability.findData("might"))
    dialog.difficulty.setValue(12)
    dialog.die.setValue(5)
    dialog.traits["intrepid"].setValue(1)  # Ash is intrepid
    dialog.traits["wise"].setValue(3)  # Ash is not wise: it does not count
    assert "Ash has it" in dialog.trait_labels["intrepid"].text()
    dialog.test_button.click()
    assert warnings == []
    assert dialog.breakdown.text() == ("Die 5 + might 6 + boosts 0 + traits +1 = 12 against "
                                       "12: succeeds")
    assert "tests might" in demo.journal(1)[0].text


def test_processing_shows_icons_and_flips(qtbot: Any, window: MainWindow, demo: Any,
                                          warnings: list[str]) -> None:
    dialog = show(qtbot, play_dialogs.ProcessDialog(window, "Ash"))
    assert "needs Cutting edge" in dialog.tokens.item(0).text()
    dialog.check_token(0)
    assert "short of Cutting edge" in dialog.tally.text()
    apply_effects(demo, name="Ash", effects=[{"do": "gain_item", "item": "stone-knife"}])
    window.refresh_all()
    assert "Stone Knife" in dialog.available.text()
    dialog.check_token(0)
    assert "all available" in dialog.tally.text()
    dialog.process_button.click()
    assert warnings == []
    assert str(demo.character_detail("Ash").bag[0].side) == "processed"


def test_goals_hide_sealed_text_and_complete(qtbot: Any, window: MainWindow, demo: Any,
                                             warnings: list[str]) -> None:
    dialog = show(qtbot, play_dialogs.GoalsDialog(window))
    texts = [dialog.goals.item(i).text() for i in range(dialog.goals.count())]
    assert texts[0].startswith("First Hearth — vital goal")
    assert "Sealed goal — not yet revealed" in texts
    sealed = demo.content.goals.get("G-hidden-spring") or \
        demo.content.set_aside_goals.get("G-hidden-spring")
    assert sealed is None or all(sealed.name not in t for t in texts)
    dialog.choose("G-first-hearth")
    dialog.complete_button.click()
    assert warnings == []
    assert ("G-first-hearth", "completed") in demo.goals_in_play()
    assert not dialog.goals.item(0).flags()  # completed: no longer selectable


@pytest.mark.parametrize(("goal", "unrest_lore"), [
    ("G-songs", (0, 1)),         # Songs for the Young: reward 1 lore, 0 + 1
    ("G-first-hearth", (0, 0)),  # First Hearth: reward unrest -1, 0 stays 0
])
def test_set_up_vital_and_epoch_goals_a_completed_goal_gives_its_reward(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str], goal: str,
        unrest_lore: tuple[int, int]) -> None:
    dialog = show(qtbot, play_dialogs.GoalsDialog(window))
    dialog.choose(goal)
    qtbot.mouseClick(dialog.complete_button, Qt.MouseButton.LeftButton)
    assert warnings == []
    assert (goal, "completed") in demo.goals_in_play()
    status = demo.status()
    assert (status.unrest, status.lore) == unrest_lore


def test_end_the_challenge_then_start_the_next(qtbot: Any, window: MainWindow, demo: Any,
                                               warnings: list[str]) -> None:
    epoch = show(qtbot, play_dialogs.NewEpochDialog(window))
    assert not epoch.epoch_button.isEnabled()  # only between challenges
    start = show(qtbot, play_dialogs.StartChallengeDialog(window))
    assert not start.start_button.isEnabled()
    assert "end it first" in start.explanation.text()

    end = show(qtbot, play_dialogs.EndChallengeDialog(window))
    assert "The Long Thaw" in end.heading.text()
    assert end.outcome.text() == "301"  # the card names it (issue 27 item 7)
    end.outcome.clear()
    assert not end.end_button.isEnabled()  # no outcome entry
    end.outcome.setText("112")
    end.check_material("Ash", 0)  # the flint
    end.check_looming("C2")
    assert end.retained() == {"Ash": ([], [0])}
    end.end_button.click()
    assert warnings == []
    assert demo.status().challenge_id is None
    from sqlmodel import select

    from companion.store import models

    with demo.file.read() as session:
        kept = session.exec(select(models.RetainedSupply)).all()
    assert [(k.items, k.materials) for k in kept] == [([], ["flint"])]

    assert epoch.epoch_button.isEnabled()  # refreshed by campaign_changed
    start.refresh()
    assert [start.choices.item(i).data(256) for i in range(start.choices.count())] == ["C2"]
    assert "priority" in start.explanation.text()
    start.choose("C2")
    start.start_button.click()
    assert warnings == []
    assert demo.status().challenge_id == "C2"


def test_end_challenge_limits_retained_supplies(qtbot: Any, window: MainWindow,
                                                demo: Any) -> None:
    apply_effects(demo, name="Ash", effects=[{"do": "gain", "resource": "bone", "amount": 4}])
    end = show(qtbot, play_dialogs.EndChallengeDialog(window))
    end.outcome.setText("112")
    for index in range(6):
        end.check_material("Ash", index)
    assert not end.end_button.isEnabled()
    assert "more than" in end.problem.text()
    end.check_material("Ash", 5, False)
    assert end.end_button.isEnabled()


def test_ageing_and_degrading(qtbot: Any, window: MainWindow, demo: Any,
                              warnings: list[str]) -> None:
    apply_effects(demo, name="Ash", effects=[{"do": "suffer", "token": "major_injury"}])
    dialog = show(qtbot, play_dialogs.AgeingDialog(window, "Ash"))
    assert dialog.age.text() == "Young"
    dialog.age_button.click()
    assert warnings == []
    assert dialog.age.text() == "Old"
    dialog.health.setCurrentRow(0)
    dialog.degrade_button.click()
    assert [str(t) for t in demo.character_detail("Ash").health] == ["minor_injury"]


def test_entry_functions_open_modeless_dialogs(qtbot: Any, window: MainWindow) -> None:
    for opener in (play_dialogs.open_effects, play_dialogs.open_ability_test,
                   play_dialogs.open_processing, play_dialogs.open_start_challenge,
                   play_dialogs.open_end_challenge, play_dialogs.open_goals,
                   play_dialogs.open_new_epoch, play_dialogs.open_ageing):
        dialog = opener(window)
        assert dialog is not None and dialog.isVisible() and not dialog.isModal()
        dialog.close()


def test_effect_words_the_dialog_offers_the_cli_words_and_applies_them(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    """One vocabulary (issue 26): the dialog lists exactly the CLI's words; place fire,
    a major dexterity boost (2) and the mark 'spiral' applied to Bryn by clicking."""
    from companion.content.schema.base import Ability
    from companion.operations.state import load_game
    from companion.rules.effect_words import EFFECT_WORDS

    dialog = show(qtbot, play_dialogs.EffectsDialog(window, "Bryn"))
    assert [dialog.kind.itemData(i) for i in range(dialog.kind.count())] == \
        [w.do for w in EFFECT_WORDS]
    dialog.choose_kind("place")
    dialog.place.setCurrentIndex(dialog.place.findData("fire"))
    assert dialog.add_effect()
    dialog.choose_kind("boost")
    dialog.ability.setCurrentIndex(dialog.ability.findData("dexterity"))
    dialog.major.setChecked(True)
    assert dialog.add_effect()
    dialog.choose_kind("mark")
    assert not dialog.add_effect() and "Type the mark" in dialog.form_note.text()
    qtbot.keyClicks(dialog.mark, "spiral")
    assert dialog.add_effect()
    assert dialog.list.item(2).text() == "3. write the mark spiral on the character card"
    dialog.apply_button.click()
    assert warnings == []
    with demo.file.read() as session:
        game = load_game(session, demo.content)
    bryn = game.character("Bryn")
    assert bryn.hex in game.tokens.fires
    assert bryn.boosts[Ability.DEXTERITY] == (2,) and bryn.marks == ("spiral",)
