"""The Night wizard with cards and structures in play, clicking the real controls
(Rulebook: Night Phase, in order; Rest: a structure that grants shelter; Legends > Using
Legend Cards: a legend lends the trait a Night card requires)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion import operations
from companion.rules.procedure import Decider
from companion.ui.night_wizard import NightWizard
from companion.ui.procedure_dialog import start_night
from tests.operations.test_night_cards import with_outpost
from tests.ui.helpers import make_window
from tests.ui.test_night_wizard import rest_table


def click(qtbot: Any, button: Any) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _happened(wizard: NightWizard) -> list[str]:
    return [wizard.happened.item(i).text() for i in range(wizard.happened.count())]


def test_night_phase_begins_structure_effect_and_rest_shelter_in_the_wizard(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    with_outpost(demo, "longhouse")
    window = make_window(qtbot, demo)
    assert window.run_operation(operations.pass_turn, name="Ash")
    assert window.run_operation(operations.pass_turn, name="Bryn")
    wizard = start_night(window)
    assert isinstance(wizard, NightWizard)
    qtbot.addWidget(wizard)
    assert any(line.endswith("Longhouse (Hearth): Grants shelter to characters in this hex. "
                             "At the start of each Night, each character here regains 1 "
                             "energy.") for line in _happened(wizard))
    while wizard.current_stage() == "rest":
        click(qtbot, wizard.step_widget.option_buttons[0])
    rows = rest_table(wizard)
    assert rows["Ash"]["Shelter/fire"] == "1" and rows["Bryn"]["Shelter/fire"] == "1"
    assert refusals == []


def test_using_legend_cards_at_night_in_the_wizard(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    # Bryn (wise) ages out; Ash, not wise, holds Bryn's legend card.
    operations.age_character(demo, name="Bryn")
    operations.age_character(demo, name="Bryn")
    operations.gain_legend(demo, name="Ash", legend=1)
    window = make_window(qtbot, demo)
    assert window.run_operation(operations.pass_turn, name="Ash")
    wizard = start_night(window)
    assert isinstance(wizard, NightWizard)
    qtbot.addWidget(wizard)
    while wizard.step.decider is not Decider.CARD:
        click(qtbot, wizard.step_widget.option_buttons[0])
    wizard.step_widget.card_combo.setEditText("N03")  # Restless Sleep needs the trait wise
    click(qtbot, wizard.step_widget.use_button)
    assert "may use a legend card" in wizard.step.prompt
    assert wizard.step_widget.option_buttons[0].text().endswith(
        "use the legend of Bryn to count as wise")
    click(qtbot, wizard.step_widget.option_buttons[0])
    while wizard.step is not None:
        widget = wizard.step_widget
        click(qtbot, widget.option_buttons[0] if wizard.step.decider is Decider.PLAYER
              else widget.app_button)
    assert refusals == []
    assert [c.held_by for c in operations.legend_cards(demo)] == [None]  # it went back
    assert any("uses the legend of Bryn to count as wise" in line
               for line in _happened(wizard))
