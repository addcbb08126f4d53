"""The odds panel beside a step's input (issue 12): percentages in the fishing dialog,
the "Show odds" switch (persisted, and nothing computed while off), and "Place as
suggested"."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from companion import operations, settings
from companion.operations import odds, procedures
from companion.rules.procedure import Decider
from companion.ui.night_wizard import NightWizard
from companion.ui.procedure_dialog import ProcedureDialog, start_activity, start_night
from tests.ui.helpers import make_window


def fishing_dialog(qtbot: Any, demo: operations.Campaign) -> ProcedureDialog:
    window = make_window(qtbot, demo)
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    dialog.step_widget.app_button.click()  # the stock
    dialog.step_widget.app_button.click()  # the water
    assert dialog.step.decider is Decider.DICE
    return dialog


def shown_texts(panel: Any) -> list[str]:
    return [label.text() for label in panel.body.findChildren(QLabel) if label.isVisible()]


def test_the_fishing_dialog_shows_the_odds_in_percent(qtbot: Any, demo: Any,
                                                      refusals: list[str]) -> None:
    dialog = fishing_dialog(qtbot, demo)
    panel = dialog.odds_panel
    assert panel.isVisible() and panel.show_odds.isChecked()
    assert panel.title.text() == "Fishing: before the roll"
    report = odds.advice(demo)
    texts = shown_texts(panel)
    for line in ("red", "white", "black"):
        assert odds.percent(report.chances[line]) in texts
    assert "any mishap" in texts
    cell = next(label for label in panel.body.findChildren(QLabel)
                if label.text() == odds.percent(report.chances["white"]))
    assert cell.toolTip() == odds.exact(report.chances["white"])
    assert not panel.suggest_button.isVisible()  # nothing to place before the roll
    assert refusals == []


def test_show_odds_off_hides_them_persists_and_computes_nothing(
        qtbot: Any, demo: Any, refusals: list[str], monkeypatch: Any) -> None:
    dialog = fishing_dialog(qtbot, demo)
    panel = dialog.odds_panel
    panel.show_odds.setChecked(False)
    assert not settings.load().odds_advisor
    assert shown_texts(panel) == [] and not panel.tables_area.isVisible()
    assert not panel.advising and not panel.title.isVisible()
    asked: list[object] = []
    monkeypatch.setattr(odds, "advice", lambda *a, **k: asked.append(a))
    dialog.step_widget.app_button.click()  # roll: the dialog redraws, no odds asked
    assert asked == [] and not panel.advising
    # A dialog opened later starts switched off.
    again = ProcedureDialog(dialog.window_)
    qtbot.addWidget(again)
    assert not again.odds_panel.show_odds.isChecked()
    monkeypatch.undo()
    panel.show_odds.setChecked(True)
    assert settings.load().odds_advisor
    assert panel.advising and panel.title.text() == "Fishing: placing the dice"


def test_place_as_suggested_places_a_die(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    dialog = fishing_dialog(qtbot, demo)
    dialog.step_widget.dice[0].setValue(3)
    dialog.step_widget.dice[1].setValue(4)
    dialog.step_widget.dice[2].setValue(2)
    dialog.step_widget.dice[3].setValue(6)
    dialog.step_widget.use_button.click()
    panel = dialog.odds_panel
    assert panel.title.text() == "Fishing: placing the dice"
    assert panel.suggest_button.isVisible()
    suggestion = panel.report.suggestion
    assert panel.suggest_button.text() == f"&Place as suggested: {suggestion.label}"
    qtbot.mouseClick(panel.suggest_button, Qt.MouseButton.LeftButton)
    placed = procedures.current(demo).placed
    assert placed[int(suggestion.choice) - 1] == (3,)
    assert dialog.step.prompt.startswith("Step 4: place the 4")
    assert refusals == []


def test_the_night_wizard_shows_the_coming_activity(qtbot: Any, demo: Any,
                                                     refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    assert window.run_operation(operations.pass_turn, name="Bryn")
    assert window.run_operation(operations.pass_turn, name="Ash")
    wizard = start_night(window)
    assert isinstance(wizard, NightWizard)
    qtbot.addWidget(wizard)
    assert wizard.odds_panel.title.text() == "The Night: activity"
    assert any(t.endswith("%") for t in shown_texts(wizard.odds_panel))
