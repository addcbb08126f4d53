"""A challenge card the app doesn't know yet, typed in its form from Start Challenge,
and End Challenge with the outcome the card names (Rulebook: Set Up > Select
Challenge; Continuing Play; issue 25 part 5), clicking the real controls."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox

from companion.operations.challenge import end_challenge
from companion.ui import play_dialogs
from companion.ui.challenge_card_form import ChallengeCardDialog
from companion.ui.codex_outcome import OutcomeDialog
from companion.ui.main_window import MainWindow


def show(qtbot: Any, dialog: Any) -> Any:
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def type_card(qtbot: Any, form: ChallengeCardDialog) -> None:
    """The group types the card in hand."""
    qtbot.keyClicks(form.name, "The Salt Wind")
    form.priority.setValue(2)
    form.omen.setCurrentIndex(form.omen.findData("cloud"))
    qtbot.keyClicks(form.vital, "Salt the Meat: Hold 4 meat at the end of a Night.")
    qtbot.keyClick(form.vital, Qt.Key.Key_Return)
    qtbot.keyClicks(form.vital, "First Hearth")
    qtbot.keyClicks(form.epoch, "Old Songs: Gain 5 lore.")
    qtbot.keyClicks(form.outcome, "412")
    at: QSpinBox = form.event_widget(0, 0)
    at.setValue(5)
    form.event_widget(0, 2).setCurrentIndex(form.event_widget(0, 2).findData("societal"))
    qtbot.keyClicks(form.event_widget(0, 3), "The folk quarrel")
    qtbot.keyClicks(form.event_widget(0, 4), "unrest 1")
    qtbot.mouseClick(form.add_event_button, Qt.MouseButton.LeftButton)
    form.event_widget(1, 0).setValue(12)
    form.event_widget(1, 2).setCurrentIndex(form.event_widget(1, 2).findData("ongoing"))
    assert form.event_widget(1, 1).isEnabled()  # the range's end, ongoing only
    form.event_widget(1, 1).setValue(18)
    qtbot.keyClicks(form.event_widget(1, 4), "energy -1")


def test_set_up_a_looming_card_the_app_does_not_know_is_typed_and_started(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    end_challenge(demo, looming=["C41"])
    window.refresh_all()
    start = show(qtbot, play_dialogs.StartChallengeDialog(window))
    assert "C41" in start.unknown_note.text()
    assert not start.start_button.isEnabled()  # C41 is the only looming one
    qtbot.mouseClick(start.unknown_button, Qt.MouseButton.LeftButton)
    form = start.card_form
    assert form.card_id.text() == "C41"  # the looming id typed at the last end
    qtbot.mouseClick(form.start_button, Qt.MouseButton.LeftButton)
    assert "Type the card's id and name" in form.problem.text()  # nothing written
    type_card(qtbot, form)
    qtbot.mouseClick(form.start_button, Qt.MouseButton.LeftButton)
    assert warnings == []
    assert demo.status().challenge_id == "C41"
    assert "Entered the challenge card The Salt Wind (C41)" in demo.journal(1)[0].text
    assert demo.content.challenges["C41"].events[1].until == 18
    assert not start.isVisible()  # Start Challenge closed with its form

    end = show(qtbot, play_dialogs.EndChallengeDialog(window))
    assert end.outcome.text() == "412"  # the typed card names it
    assert "names entry 412" in end.outcome_source.text()


def test_set_up_typed_card_a_bad_effect_is_said_in_game_words(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    end_challenge(demo, looming=["C41"])
    start = show(qtbot, play_dialogs.StartChallengeDialog(window))
    form = start.enter_unknown()
    type_card(qtbot, form)
    qtbot.keyClicks(form.event_widget(0, 4), ", gain")
    qtbot.mouseClick(form.start_button, Qt.MouseButton.LeftButton)
    assert "The event at 5" in form.problem.text() and form.problem.isVisible()
    assert demo.status().challenge_id is None


def test_continuing_play_end_challenge_the_card_names_its_outcome_read_in_the_codex(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    """Issue 27 item 7: the sample card names its outcome; End Challenge fills it in,
    and after ending it is read in the Codex."""
    end = show(qtbot, play_dialogs.EndChallengeDialog(window))
    assert end.outcome.text() == "301"
    assert "The challenge card names entry 301" in end.outcome_source.text()
    end.check_looming("C2")
    qtbot.keyClicks(end.other_looming, "C41, C42")
    assert end.looming_chosen() == ["C2", "C41", "C42"]
    qtbot.mouseClick(end.end_button, Qt.MouseButton.LeftButton)
    assert warnings == []
    assert demo.status().challenge_id is None
    assert demo.journal(1)[0].text == "Codex: read entry 301"
    assert "C41 (a card to enter when it is started)" in demo.journal(2)[1].text
    # Issue 27 item 6: the outcome is shown and its effect offered, then applied.
    [shown] = [d for d in window.findChildren(OutcomeDialog) if d.isVisible()]
    assert end.outcome_read is shown
    assert "Frost in the Fur (C2)" in shown.text.toPlainText()
    assert "lore" in shown.status.text()
    lore = demo.status().lore
    qtbot.mouseClick(shown.apply_button, Qt.MouseButton.LeftButton)
    assert demo.status().lore == lore + 1
    assert "301" in demo.journal(1)[0].text


def test_continuing_play_end_challenge_of_a_card_naming_no_outcome_asks_for_it(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    from companion.operations.challenge_cards import challenge_from_typed, start_typed_challenge

    end_challenge(demo, looming=["C41"])
    card, goals = challenge_from_typed(demo.content, id="C41", name="The Salt Wind",
                                       priority=2, starting_omen="cloud",
                                       vital_goals=["First Hearth"], events=["19 immediate"])
    start_typed_challenge(demo, card=card, goals=goals)
    end = show(qtbot, play_dialogs.EndChallengeDialog(window))
    assert end.outcome.text() == ""
    assert "Type the outcome entry printed on the challenge card" in end.outcome_source.text()
    assert not end.end_button.isEnabled()
    qtbot.keyClicks(end.outcome, "412")
    qtbot.mouseClick(end.end_button, Qt.MouseButton.LeftButton)
    assert warnings == []
    assert "outcome entry 412" in demo.journal(2)[1].text
    assert demo.journal(1)[0].text == "Codex: looked for entry 412; there is none"
