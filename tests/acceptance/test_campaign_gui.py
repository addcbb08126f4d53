"""Acceptance: the first challenge of the CLI campaign (test_campaign_cli.py) played in the
GUI with pytest-qt, clicking the real controls: the Day panel's buttons, the procedure
dialog, the build dialogs, the Goals dialog, the Night wizard and the End Challenge
dialog. Same set-up, same typed draws, so the same hand-computed values (see the CLI
test's docstrings for the arithmetic)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QPushButton

from companion import operations
from companion.operations import procedures
from companion.operations.effects import apply_effects, parse_effect
from companion.rules.procedure import Decider
from companion.ui import day_dialogs
from companion.ui.crafting_dialog import CraftingDialog
from companion.ui.main_window import MainWindow
from companion.ui.procedure_dialog import ProcedureDialog, open_procedure
from companion.ui.views.day import DayView
from tests.acceptance.test_campaign_cli import SEED, Table
from tests.ui.helpers import make_window


@pytest.fixture
def campaign(tmp_path: Path) -> Iterator[operations.Campaign]:
    """The CLI test's set-up: The Long Thaw in Thornspire, Ash and Bryn in Windgate (T01)."""
    table = Table(tmp_path / "gui.stonesaga")
    p = table.path
    table.js("campaign", "new", "The Ember Folk", "--players", "2", "--file", p,
             "--seed", SEED)
    table.js("valley", "setup", p, "thornspire", "--tiles", "T02", "T05")
    table.js("challenge", "start", p, "C1")
    table.js("character", "create", p, "--name", "Ash", "--player", "P1",
             "--dice", "6", "5", "4", "3", "1",
             "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
             "--trait", "cunning", "--mantle", "hearthkeeper", "--hex", "T01")
    table.js("character", "create", p, "--name", "Bryn", "--player", "P2",
             "--dice", "2", "3", "3", "2", "1",
             "--assign", "might=2,dexterity=3,awareness=3,conviction=2",
             "--trait", "intrepid", "--trait", "wise", "--mantle", "pathfinder",
             "--hex", "T01")
    opened = operations.open_campaign(Path(p))
    yield opened
    if not opened.file.closed:
        opened.close()


@pytest.fixture
def refusals(monkeypatch: Any) -> list[str]:
    from PySide6.QtWidgets import QMessageBox

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *rest: shown.append(text))
    return shown


def click(qtbot: Any, button: QPushButton) -> None:
    qtbot.waitUntil(button.isVisible, timeout=2000)  # a refreshed panel shows its rows queued
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def energy(campaign: operations.Campaign) -> dict[str, int]:
    return {c.name: c.energy for c in campaign.characters()}


def answer(qtbot: Any, dialog: Any, *answers: str) -> None:
    """Answer the procedure's steps in order, as a player at the table: a card or chip
    typed (or picked by its label) then Use, dice set in the spin boxes then Use, an
    option clicked by its button."""
    for value in answers:
        step, widget = dialog.step, dialog.step_widget
        assert step is not None, f"no step left for {value!r}"
        if step.decider in (Decider.CARD, Decider.CHIP):
            widget.card_combo.setEditText(value)
            click(qtbot, widget.use_button)
        elif step.decider is Decider.DICE:
            for spin, die in zip(widget.dice, value.split(), strict=True):
                spin.setValue(int(die))
            click(qtbot, widget.use_button)
        elif widget.options_list is not None:  # many options: a list and Choose
            widget.options_list.setCurrentRow(step.options.index(value))
            click(qtbot, widget.choose_button)
        else:
            click(qtbot, widget.option_buttons[step.options.index(value)])


def day_view(window: MainWindow) -> DayView:
    view = window.tabs.widget(2)
    assert isinstance(view, DayView)
    window.tabs.setCurrentWidget(view)
    return view


def procedure(window: MainWindow) -> ProcedureDialog:
    dialog = open_procedure(window)
    assert isinstance(dialog, ProcedureDialog)
    return dialog


def test_challenge_1_played_in_the_gui(qtbot: Any, campaign: operations.Campaign,
                                       refusals: list[str]) -> None:
    window = make_window(qtbot, campaign)
    day = day_view(window)
    assert energy(campaign) == {"Ash": 5, "Bryn": 5}

    # Foraging (2 energy): Ash 5 -> 3; the tableau FP04 + FP12, then one root.
    click(qtbot, day.button("Ash", "Forage at the plains"))
    dialog = procedure(window)
    assert dialog.title.text() == "Foraging — Ash"
    answer(qtbot, dialog, "FP04", "FP12", "FP04", "FP12", "FP11", "FP12", "harvest",
           "FP04/front/3", "done")
    assert refusals == []
    assert dialog.summary.text() == "Ash finished foraging: Harvesting. Chose Root Plant " \
                                    "(FP04, front row). Gained root."
    dialog.close()
    assert energy(campaign) == {"Ash": 3, "Bryn": 5}

    # Mining (2 energy): Bryn 5 -> 3; a sunstone picked by its label, the sun omen doubles.
    click(qtbot, day.button("Bryn", "Mine at the mountain"))
    dialog = procedure(window)
    answer(qtbot, dialog, "sunstone (sun)", "stop")
    assert refusals == []
    assert [str(t) for t in campaign.character_detail("Bryn").bag] == [
        "unprocessed sunstone", "unprocessed sunstone"]
    dialog.close()
    assert energy(campaign) == {"Ash": 3, "Bryn": 3}
