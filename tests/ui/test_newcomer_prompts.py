"""Issue 27 (a newcomer at the table): what a prompt says and what a key means.

Item 4: every test asks its die with its stakes: who tests, which ability, the difficulty,
and what success and failure do (Rulebook: Basic Concepts > Tests).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtWidgets import QInputDialog

from companion.rules.procedure import Decider
from tests.ui import newcomer
from tests.ui.test_newcomer_night import night_at_its_first_card

STAKES = re.compile(r"^(?P<who>\w+) tests (?P<ability>might|dexterity|awareness|conviction) "
                    r"\((?P<difficulty>\d+)\+\).*Success: .+\. Failure: .+\.$")


def test_night_card_test_prompt_says_its_stakes(qtbot: Any, demo: Any,
                                                refusals: list[str]) -> None:
    # N13 Quiet Night: test might 6+; failure: suffer a minor injury.
    wizard = night_at_its_first_card(qtbot, demo)
    drawer = wizard.step.prompt.split()[0]
    field = wizard.step_widget.card_field
    field.combo.setEditText("N13")
    field.use_button.click()
    assert not refusals
    assert wizard.step.decider is Decider.DICE
    prompt = wizard.step_widget.prompt.text()
    match = STAKES.match(prompt)
    assert match, prompt
    assert (match["who"], match["ability"], match["difficulty"]) == (drawer, "might", "6")
    assert "for Quiet Night" in prompt and "Failure: suffer 1 minor injury." in prompt
    assert "die + might" in prompt


def test_delving_test_prompt_says_its_stakes(qtbot: Any, demo: Any,
                                             refusals: list[str]) -> None:
    # Rulebook: Delving > step 2: a card's test, its die asked with its stakes.
    dialog = newcomer.delving_from_e05(qtbot, demo)
    seen: list[str] = []
    for _ in range(60):
        step = dialog.step
        if step is None:
            break
        if step.decider is Decider.DICE:
            seen.append(dialog.step_widget.prompt.text())
        widget = dialog.step_widget
        if step.decider is Decider.PLAYER:
            (widget.option_buttons[0] if widget.option_buttons else widget.choose_button).click()
        else:
            widget.app_button.click()
    assert not refusals
    assert seen, "the delve asked for no test"
    for prompt in seen:
        match = STAKES.match(prompt)
        assert match and match["who"] == "Ash", prompt


def test_discovery_test_typed_at_the_table_says_its_stakes(qtbot: Any, day: Any, demo: Any,
                                                           monkeypatch: Any,
                                                           refusals: list[str]) -> None:
    # Rulebook: Actions > Explore: a Discovery card with a test, drawn at the table.
    from companion.operations.exploration import discovery_tests

    card = next(c for c in demo.content.discovery_cards if discovery_tests(demo, c))
    asked: list[str] = []

    def get_int(parent: Any, title: str, label: str, *args: Any) -> tuple[int, bool]:
        asked.append(label)
        return 6, True

    monkeypatch.setattr(QInputDialog, "getInt", get_int)
    day.button("Ash", "Explore the unexplored hex north-east of Ashen Ford").click()
    assert not refusals
    day.discovery_typed.combo.setEditText(card)
    day.discovery_use.click()
    assert asked, "no die was asked"
    first = asked[0].splitlines()[0]
    assert STAKES.match(first) and first.startswith("Ash tests"), asked[0]
    assert f"for {demo.content.discovery_cards[card].name}" in first


# -- item 5: a number key means the thing it is printed on -------------------------------


def press(qtbot: Any, dialog: Any, key: Any) -> None:
    from PySide6.QtWidgets import QApplication

    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    widget = QApplication.focusWidget()
    assert widget is not None
    qtbot.keyClick(widget, key)
    QApplication.processEvents()


def test_fishing_location_keys_keep_their_numbers_as_locations_fill(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    # Rulebook: Fishing > step 4: place each die on a strike location. Location 1 holds
    # one die; once it is full, key 4 still places on location 4 (not the 4th left).
    from PySide6.QtCore import Qt

    from companion.operations import procedures

    dialog = newcomer.fishing_at_placing(qtbot, demo)
    assert dialog.step.options[0] == "1"
    press(qtbot, dialog, Qt.Key.Key_1)  # location 1 (holds one die) is full now
    assert "1" not in dialog.step.options and "4" in dialog.step.options
    texts = [b.text() for b in dialog.step_widget.option_buttons]
    assert all(t.startswith(f"&{o}   location {o} ") for t, o in
               zip(texts, dialog.step.options, strict=True)), texts
    press(qtbot, dialog, Qt.Key.Key_4)
    assert not refusals
    log = procedures.in_progress(demo).log
    assert log[-1].endswith("location 4 (holds 2; red)"), log[-1]
    # Step 6: a strike location's key is its own number too.
    while dialog.step.decider is not Decider.PLAYER or "strike location with dice" \
            not in dialog.step.prompt:
        if dialog.step.decider is Decider.PLAYER:
            dialog.step_widget.option_buttons[0].click()
        else:
            dialog.step_widget.app_button.click()
    last = dialog.step.options[-1]
    number = int(last.split("/")[0])
    press(qtbot, dialog, getattr(Qt.Key, f"Key_{number}"))
    assert not refusals
    line = procedures.in_progress(demo).log[-1] if procedures.in_progress(demo) else \
        dialog.finished_procedure.log[-1]
    assert f"location {number}, " in line, line
