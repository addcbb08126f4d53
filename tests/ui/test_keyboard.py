"""Every procedure played at the table with the keyboard alone (issue 20): the players
type the cards and dice they drew and rolled, press a digit for their choice, and Enter
answers exactly one step: never the next step's focused button as well.

Keys go to whatever widget has the focus, as they would from a real keyboard.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from companion import operations
from companion import settings as preferences
from companion.operations import procedures
from companion.rules.procedure import Decider
from companion.ui.main_window import MainWindow
from companion.ui.procedure_dialog import start_activity, start_night
from tests.ui.helpers import ash_walks_to, make_window


@pytest.fixture
def advances(monkeypatch: Any) -> list[object]:
    """Every answer given to the procedure in progress, in order."""
    calls: list[object] = []
    real = procedures.advance

    def counted(campaign: Any, **kwargs: Any) -> Any:
        calls.append(kwargs.get("choice"))
        return real(campaign, **kwargs)

    monkeypatch.setattr(procedures, "advance", counted)
    return calls


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keyboard focus"
    return widget


def press(qtbot: Any, key: Qt.Key) -> None:
    qtbot.keyClick(focused(), key)
    QApplication.processEvents()


def type_text(qtbot: Any, text: str) -> None:
    qtbot.keyClicks(focused(), text)
    QApplication.processEvents()


def activate(qtbot: Any, dialog: QDialog) -> None:
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)


def at_the_table(qtbot: Any, dialog: Any, advances: list[object],
                 dice: Callable[[int], str] = lambda n: "6" * n,
                 limit: int = 80) -> list[str]:
    """Answer every step from the keyboard; each answer must be exactly one advance.
    Returns the deciders answered, in order."""
    answered: list[str] = []
    while dialog.step is not None:
        assert len(answered) < limit
        step = dialog.step
        widget = dialog.step_widget
        before = len(advances)
        if step.decider is Decider.PLAYER:
            if widget.option_buttons:
                assert focused() is widget.option_buttons[0]
                # the key printed on the first button (an option's own number, such
                # as a strike location's, when it has one: issue 27 item 5)
                number = widget.option_buttons[0].text()[1]
                press(qtbot, getattr(Qt.Key, f"Key_{number}"))
            else:
                assert focused() is widget.options_list
                press(qtbot, Qt.Key.Key_Return)
        elif step.decider is Decider.DICE:
            # At the table comes first: the focus is in the first die.
            assert focused() is widget.dice[0]
            values = dice(len(widget.dice))
            for number, value in enumerate(values):
                type_text(qtbot, value)
                if number < len(values) - 1:
                    press(qtbot, Qt.Key.Key_Tab)
            assert tuple(s.value() for s in widget.dice) == tuple(map(int, values))
            press(qtbot, Qt.Key.Key_Return)
        else:
            assert widget.card_combo is not None
            assert focused() in (widget.card_combo, widget.card_combo.lineEdit())
            type_text(qtbot, step.options[0])
            press(qtbot, Qt.Key.Key_Return)
        assert len(advances) == before + 1, f"Enter answered {len(advances) - before} steps"
        answered.append(step.decider.name)
    return answered


def test_fishing_with_keys_only(qtbot: Any, demo: Any, refusals: list[str],
                                advances: list[object]) -> None:
    # Rulebook: Fishing: stock card, water card, dice, placing, outcome card, choices.
    dialog = open_activity(qtbot, make_window(qtbot, demo), "fishing", "river")
    answered = at_the_table(qtbot, dialog, advances, dice=lambda n: "6651"[:n])
    assert refusals == []
    assert answered[:3] == ["CARD", "CARD", "DICE"]
    assert advances[:2] == ["FI09", "FI05"] or all(isinstance(a, str) for a in advances[:2])
    assert advances[2] == (6, 6, 5, 1)
    assert None not in advances  # nothing was drawn or rolled by the app
    assert dialog.summary.text().startswith("Ash finished fishing")
    assert procedures.in_progress(demo) is None


def open_activity(qtbot: Any, window: Any, activity: str, where: str) -> Any:
    """Ash's ``activity`` at ``where`` started from the window: its dialog open and active."""
    dialog = start_activity(window, activity, "Ash", where)
    qtbot.addWidget(dialog)
    activate(qtbot, dialog)
    return dialog


def mining_dialog(qtbot: Any, demo: Any) -> Any:
    """Ash mines at E09 (Bryn passed): the dialog open and active."""
    window = make_window(qtbot, demo)
    ash_walks_to(window, "E09")
    mine = next(a for a in operations.available_actions(demo, "Ash") if a.action == "mine")
    return open_activity(qtbot, window, "mining", str(mine.target))


def test_mining_with_keys_only(qtbot: Any, demo: Any, refusals: list[str],
                               advances: list[object]) -> None:
    # Rulebook: Mining: chips pulled from the bag one at a time, typed at the table.
    dialog = mining_dialog(qtbot, demo)
    answered = at_the_table(qtbot, dialog, advances)
    assert "CHIP" in answered and None not in advances
    assert refusals == []
    assert dialog.summary.text().startswith("Ash finished mining")


def test_a_refused_chip_keeps_the_mining_dialog_open(qtbot: Any, demo: Any,
                                                     refusals: list[str],
                                                     advances: list[object]) -> None:
    dialog = mining_dialog(qtbot, demo)
    type_text(qtbot, "no such chip")
    press(qtbot, Qt.Key.Key_Return)
    assert len(refusals) == 1 and len(advances) == 1
    assert dialog.isVisible() and dialog.step is not None
    assert procedures.in_progress(demo).log == ()


def test_foraging_with_keys_only(qtbot: Any, demo: Any, refusals: list[str],
                                 advances: list[object]) -> None:
    # Rulebook: Foraging.
    dialog = open_activity(qtbot, make_window(qtbot, demo), "foraging", "plains")
    at_the_table(qtbot, dialog, advances)
    assert None not in advances and refusals == []
    assert dialog.summary.text().startswith("Ash finished foraging")


def test_delving_with_keys_only(qtbot: Any, demo: Any, refusals: list[str],
                                advances: list[object]) -> None:
    # Rulebook: Delving.
    window = make_window(qtbot, demo)
    ash_walks_to(window, "E05")
    dialog = open_activity(qtbot, window, "delving", "cave")
    at_the_table(qtbot, dialog, advances)
    assert None not in advances and refusals == []
    assert dialog.summary.text().startswith("Ash finished delving")


def nightfall(window: MainWindow) -> Any:
    assert window.run_operation(operations.gather_water, name="Ash")
    assert window.run_operation(operations.pass_turn, name="Bryn")
    assert window.run_operation(operations.pass_turn, name="Ash")
    return start_night(window)


def test_the_night_with_keys_only(qtbot: Any, demo: Any, refusals: list[str],
                                  advances: list[object]) -> None:
    # Rulebook: Game Structure > Night Phase: every stage answered from the keyboard.
    window = make_window(qtbot, demo)
    wizard = nightfall(window)
    qtbot.addWidget(wizard)
    activate(qtbot, wizard)
    at_the_table(qtbot, wizard, advances)
    assert None not in advances and refusals == []
    assert wizard.finished_


def test_enter_on_the_apps_button_draws_once(qtbot: Any, demo: Any, refusals: list[str],
                                             advances: list[object]) -> None:
    # Settings > Procedures start "In the app": the app's button has the focus; Enter
    # presses it for this step only.
    preferences.save(preferences.Settings(procedure_entry="app"))
    dialog = open_activity(qtbot, make_window(qtbot, demo), "fishing", "river")
    assert focused() is dialog.step_widget.app_button
    widgets = dialog.step_widget
    assert widgets.body.indexOf(widgets.app_button) == -1  # in its own row, first
    press(qtbot, Qt.Key.Key_Return)
    assert advances == [None]
    assert focused() is dialog.step_widget.app_button
    press(qtbot, Qt.Key.Key_Return)
    assert advances == [None, None]
    assert dialog.step.decider is Decider.DICE


def test_at_the_table_comes_first_by_default(qtbot: Any, demo: Any,
                                             refusals: list[str]) -> None:
    # Settings > Procedures start "At the table" (the default): the card field first,
    # with the focus; the app's button below it.
    dialog = open_activity(qtbot, make_window(qtbot, demo), "fishing", "river")
    widget = dialog.step_widget
    assert focused() in (widget.card_combo, widget.card_combo.lineEdit())
    assert widget.card_combo.mapTo(widget, widget.card_combo.rect().topLeft()).y() < \
        widget.app_button.mapTo(widget, widget.app_button.rect().topLeft()).y()


def test_enter_in_the_card_field_answers_only_that_step(qtbot: Any, demo: Any,
                                                        refusals: list[str],
                                                        advances: list[object]) -> None:
    # The reported defect: with "In the app" first, a card typed and Enter also pressed
    # the next step's focused "Draw in the app" button.
    preferences.save(preferences.Settings(procedure_entry="app"))
    dialog = open_activity(qtbot, make_window(qtbot, demo), "fishing", "river")
    dialog.step_widget.card_combo.setFocus()
    type_text(qtbot, "FI09")
    press(qtbot, Qt.Key.Key_Return)
    assert advances == ["FI09"]
    assert focused() is dialog.step_widget.app_button  # the next step waits for its answer
    assert procedures.in_progress(demo).log == ("Step 1: draw the stock card: FI09",)


def test_the_behemoths_activation_and_encounter_with_keys_only(
        qtbot: Any, demo: Any, refusals: list[str], advances: list[object]) -> None:
    # Rulebook: Behemoth Activation > Movement, Encounters; Reaction Deck: the movement
    # die, the reaction card and the characters' dice typed from the table.
    from companion.operations import behemoth as behemoth_ops
    from companion.ui.procedure_dialog import open_procedure

    operations.move(demo, name="Ash", to_hex="E05")
    window = make_window(qtbot, demo)
    assert window.run_operation(behemoth_ops.set_up_behemoth, behemoth="rimeback",
                                instinct="RBI1", secret="RBS2", lair_hex="E01",
                                lair_section="b")
    assert window.run_operation(behemoth_ops.set_target, target="Ash")
    assert window.run_operation(behemoth_ops.start_activation)
    dialog = open_procedure(window)
    assert dialog is not None
    qtbot.addWidget(dialog)
    activate(qtbot, dialog)
    answered = at_the_table(qtbot, dialog, advances, dice=lambda n: "3" * n)
    assert answered and answered[0] == "DICE"
    assert None not in advances and refusals == []
    while procedures.in_progress(demo) is not None:  # the encounter it began
        dialog = open_procedure(window)
        activate(qtbot, dialog)
        at_the_table(qtbot, dialog, advances)
    assert None not in advances and refusals == []


def test_the_night_honours_the_in_the_app_setting(qtbot: Any, demo: Any, refusals: list[str],
                                                  advances: list[object]) -> None:
    # Settings > Procedures start "In the app": at the Night's card step the app's draw
    # comes first and has the focus; Enter draws exactly one card.
    preferences.save(preferences.Settings(procedure_entry="app"))
    window = make_window(qtbot, demo)
    wizard = nightfall(window)
    qtbot.addWidget(wizard)
    activate(qtbot, wizard)
    while wizard.step is not None and wizard.step.decider is not Decider.CARD:
        press(qtbot, Qt.Key.Key_1)
    assert wizard.step is not None
    assert focused() is wizard.step_widget.app_button
    before = len(advances)
    press(qtbot, Qt.Key.Key_Return)
    assert advances[before:] == [None]
