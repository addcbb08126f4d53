"""The procedure dialog on a real demo campaign: fishing at the table and in the app,
refusals that leave the dialog on its step, and the per-kind panels."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from companion import operations
from companion.operations import procedures
from companion.operations.state import load_game
from companion.rules.procedure import Decider
from companion.ui.main_window import MainWindow
from companion.ui.procedure_dialog import (
    ProcedureDialog,
    open_procedure,
    start_activity,
)
from companion.ui.procedure_panels import FishingPanel, MiningPanel, cell_texts
from tests.ui.helpers import make_window


def bag(campaign: operations.Campaign, name: str) -> list[str]:
    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
    return [str(t) for t in game.character(name).bag]


def start_fishing(qtbot: Any, window: MainWindow) -> ProcedureDialog:
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    assert dialog.isVisible() and not dialog.isModal()
    return dialog


def test_fishing_at_the_table(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    before = bag(demo, "Ash")
    dialog = start_fishing(qtbot, window)
    assert dialog.title.text() == "Fishing — Ash"
    assert demo.characters()[0].energy == 3  # the Fish action cost 2 (D3)
    assert isinstance(dialog.panel, FishingPanel)

    # Steps 1 and 2: the cards drawn at the table, typed (case does not matter).
    step = dialog.step
    assert step is not None and step.decider is Decider.CARD
    assert dialog.step_widget.app_button is not None  # in the app: offered first
    dialog.step_widget.card_combo.setEditText("fi09")
    qtbot.mouseClick(dialog.step_widget.use_button, Qt.MouseButton.LeftButton)
    assert dialog.step.prompt.startswith("Step 2")
    assert dialog.panel.stock_title.text() == "Stock: FI09"
    assert [row[0] for row in cell_texts(dialog.panel.stock)] == ["red", "white", "black"]
    dialog.step_widget.card_combo.setEditText("FI05")
    qtbot.keyClick(dialog.step_widget.card_combo.lineEdit(), Qt.Key.Key_Return)
    assert dialog.panel.water_title.text() == "Water: FI05"
    assert len(cell_texts(dialog.panel.water)) == 5

    # Step 3: four dice typed at the table.
    assert dialog.step.decider is Decider.DICE and len(dialog.step_widget.dice) == 4
    for spin, value in zip(dialog.step_widget.dice, (6, 6, 5, 1), strict=True):
        spin.setValue(value)
    qtbot.mouseClick(dialog.step_widget.use_button, Qt.MouseButton.LeftButton)
    assert "Dice rolled: 6  6  5  1" in dialog.panel.dice.text()

    # Step 4: each die placed by clicking a location's button.
    while dialog.step is not None and dialog.step.prompt.startswith("Step 4"):
        buttons = dialog.step_widget.option_buttons
        # each location's key is its own number (issue 27 item 5)
        first = dialog.step.options[0]
        assert buttons and buttons[0].text().startswith(f"&{first}   location {first} ")
        qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    placed = [row[3] for row in cell_texts(dialog.panel.water)]
    assert any(placed)

    # Step 5: the outcome card, picked from the list.
    combo = dialog.step_widget.card_combo
    combo.setCurrentIndex(combo.findData("FI12"))
    qtbot.mouseClick(dialog.step_widget.use_button, Qt.MouseButton.LeftButton)
    assert all(row[3] != "not drawn" for row in cell_texts(dialog.panel.stock))

    # Step 6 (and any bonus): the players choose by clicking.
    while dialog.step is not None:
        assert dialog.step.decider is Decider.PLAYER
        qtbot.mouseClick(dialog.step_widget.option_buttons[0], Qt.MouseButton.LeftButton)

    assert refusals == []
    assert dialog.finished_ and not dialog.step_widget.isVisible()
    journal = demo.journal(limit=1)[0].text
    assert journal.startswith("Ash finished fishing")
    assert dialog.summary.text() == journal
    assert dialog.close_button.isDefault()
    assert procedures.in_progress(demo) is None
    log = [dialog.log.item(i).text() for i in range(dialog.log.count())]
    assert log[0] == "1. Step 1: draw the stock card: FI09"
    assert bag(demo, "Ash") != before or "failure" in journal


def test_fishing_in_the_app(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = start_fishing(qtbot, window)
    steps = 0
    while dialog.step is not None:
        steps += 1
        widget = dialog.step_widget
        if dialog.step.decider is Decider.PLAYER:
            qtbot.mouseClick(widget.option_buttons[-1], Qt.MouseButton.LeftButton)
        else:
            assert widget.app_button.text().replace("&", "") in ("Roll in the app",
                                                                "Draw in the app")
            qtbot.mouseClick(widget.app_button, Qt.MouseButton.LeftButton)
        assert steps < 30
    assert refusals == []
    line = demo.journal(limit=1)[0].text
    assert line.startswith("Ash finished fishing") and dialog.summary.text() == line
    ash = demo.characters()[0]
    assert ash.energy <= 3  # 5, less the Fish action's 2, less any mishap
    gained = "success" in line
    assert bool(bag(demo, "Ash")) == gained or ash.energy < 3


def test_a_die_of_7_cannot_be_typed(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = start_fishing(qtbot, window)
    dialog.step_widget.app_button.click()
    dialog.step_widget.app_button.click()
    spin = dialog.step_widget.dice[0]
    assert (spin.minimum(), spin.maximum()) == (1, 6)
    spin.setValue(3)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "7")
    assert spin.value() == 3
    spin.setValue(9)
    assert spin.value() == 6


def test_a_card_not_in_the_options_is_refused(qtbot: Any, demo: Any,
                                              refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = start_fishing(qtbot, window)
    dialog.step_widget.card_combo.setEditText("ZZ99")
    qtbot.mouseClick(dialog.step_widget.use_button, Qt.MouseButton.LeftButton)
    # Said in the card field, with the ways on under it (issue 27 item 10), not a box.
    field = dialog.step_widget.card_field
    assert refusals == [] and field.unknown.isVisibleTo(dialog)
    assert "ZZ99 is not a fishing card of this campaign" in field.unknown.text()
    assert dialog.step.prompt == "Step 1: draw the stock card"
    assert dialog.isVisible() and not dialog.finished_
    assert procedures.in_progress(demo).log == ()
    # A player step refuses nothing it offers; an undo from the main window moves back.
    dialog.step_widget.app_button.click()
    assert dialog.step.prompt.startswith("Step 2")
    window.undo_action.trigger()
    assert dialog.step.prompt == "Step 1: draw the stock card"


def test_many_options_show_a_list(qtbot: Any) -> None:
    from companion.rules.procedure import Step
    from companion.ui.procedure_dialog import StepWidget

    widget = StepWidget()
    qtbot.addWidget(widget)
    options = tuple(f"o{i}" for i in range(9))
    widget.set_step(Step("Choose", Decider.PLAYER, options, labels={"o4": "the fifth"}))
    assert widget.options_list is not None and widget.options_list.count() == 9
    assert widget.options_list.item(4).text() == "the fifth"
    with qtbot.waitSignal(widget.answered) as blocker:
        widget.options_list.setCurrentRow(4)
        widget.choose_button.click()
    assert blocker.args == ["o4"]


def go_mining(qtbot: Any, window: MainWindow, demo: Any) -> Any:
    assert window.run_operation(operations.move, name="Ash", to_hex="E09")
    assert window.run_operation(operations.pass_turn, name="Bryn")
    mine = next(a for a in operations.available_actions(demo, "Ash") if a.action == "mine")
    return start_activity(window, "mining", "Ash", mine.target)


def test_mining_starts_under_a_current_omen(qtbot: Any, demo: Any,
                                             refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    assert demo.status().omens  # the demo's challenge has a starting omen
    assert go_mining(qtbot, window, demo) is not None


def test_mining_panel_shows_the_bag_and_the_omen(qtbot: Any, demo: Any,
                                                 refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = go_mining(qtbot, window, demo)
    qtbot.addWidget(dialog)
    assert isinstance(dialog.panel, MiningPanel)
    rows = cell_texts(dialog.panel.bag)
    assert sum(int(r[1]) for r in rows) == 5
    omen = demo.status().omens[0]
    assert f"Current omen: {omen}." in dialog.panel.header.text()
    assert dialog.step.decider is Decider.CHIP
    assert dialog.step_widget.use_button.text() == "&Use this chip"
    dialog.step_widget.app_button.click()
    assert "Chips pulled: 1" in dialog.panel.header.text()
    assert sum(int(r[1]) for r in cell_texts(dialog.panel.bag)) == 4
    assert dialog.panel.drawn.text().startswith("Pulled ")


def test_open_procedure_with_nothing_in_progress(qtbot: Any, demo: Any,
                                                 monkeypatch: Any) -> None:
    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "information",
                        lambda parent, title, text: told.append(text))
    window = make_window(qtbot, demo)
    assert open_procedure(window) is None
    assert told == ["No activity or Night is in progress."]


def test_reopening_reuses_the_dialog(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = start_fishing(qtbot, window)
    dialog.close()
    again = open_procedure(window)
    assert again is dialog and again.isVisible()


def test_other_kinds_show_their_description(qtbot: Any, demo: Any,
                                            refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = start_activity(window, "foraging", "Ash", "plains")
    qtbot.addWidget(dialog)
    assert dialog.title.text() == "Foraging — Ash"
    # Foraging has its own panel now (test_activity_panels.py); its description is in
    # the "In words" tab, as every kind's is.
    assert type(dialog.panel).__name__ == "ForagingPanel"
    assert dialog.words.text.toPlainText() == procedures.in_progress(demo).description
    steps = 0
    while dialog.step is not None:
        steps += 1
        assert steps < 60
        widget = dialog.step_widget
        if dialog.step.decider is Decider.PLAYER:
            (widget.option_buttons[0] if widget.option_buttons else widget.choose_button).click()
        else:
            widget.app_button.click()
    assert refusals == []
    assert dialog.summary.text().startswith("Ash finished foraging")


def test_a_player_step_answers_to_its_number_key(qtbot: Any, demo: Any,
                                                 refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = start_fishing(qtbot, window)
    for _ in range(3):  # stock, water, dice: in the app
        dialog.step_widget.app_button.click()
    assert dialog.step.prompt.startswith("Step 4: place the")
    label = dialog.step.labels[dialog.step.options[1]]
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    assert dialog.step_widget.option_buttons[0].hasFocus()  # the first option has the focus
    qtbot.keyClick(dialog.step_widget.option_buttons[0], Qt.Key.Key_2)
    assert procedures.in_progress(demo).log[-1].endswith(f": {label}")


def test_the_last_step_stays_in_view(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    # Rulebook: Fishing: the whole outcome (not its last lines), the last step in the
    # list, and the board as the last step left it (Collected and Struck filled in).
    window = make_window(qtbot, demo)
    dialog = start_fishing(qtbot, window)
    while dialog.step is not None:
        widget = dialog.step_widget
        if dialog.step.decider is Decider.PLAYER:
            widget.option_buttons[-1].click()
        else:
            widget.app_button.click()
    journal = demo.journal(limit=1)[0].text
    assert dialog.summary.text() == journal
    assert "Stock: FI" in journal and "Outcome: FI" in journal  # from the first line on
    log = [dialog.log.item(i).text() for i in range(dialog.log.count())]
    assert log[-1].split(". ", 1)[1].startswith("Step 6")
    struck = [row[4] for row in cell_texts(dialog.panel.water)]
    assert "yes" in struck
    assert dialog.panel.results.text()  # What happened: each strike's result
    assert dialog.panel.results_title.isVisible()
