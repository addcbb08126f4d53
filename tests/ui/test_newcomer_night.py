"""Issue 27 (a newcomer at the table), item 2: what the Night just did is in view at
1366x768, above the fold (Rulebook: Night Phase > Draw Night Cards > Check Requirements)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect

from companion import operations
from companion.rules.procedure import Decider
from companion.ui import fit
from companion.ui.procedure_dialog import start_night
from tests.ui.helpers import make_window


def night_at_its_first_card(qtbot: Any, demo: Any) -> Any:
    window = make_window(qtbot, demo)
    assert window.run_operation(operations.gather_water, name="Ash")
    assert window.run_operation(operations.pass_turn, name="Bryn")
    assert window.run_operation(operations.pass_turn, name="Ash")
    wizard = start_night(window)
    assert wizard is not None
    qtbot.addWidget(wizard)
    wizard.resize(fit.LAPTOP_WINDOW)
    while wizard.step.decider is not Decider.CARD:
        wizard.step_widget.option_buttons[0].click()
    return wizard


def in_view(wizard: Any, widget: Any) -> bool:
    """``widget`` is shown whole inside the wizard's window (no scrolling needed)."""
    top_left = widget.mapTo(wizard, QPoint(0, 0))
    return widget.isVisible() and \
        wizard.rect().contains(QRect(top_left, widget.size())) and \
        widget.visibleRegion().boundingRect().size() == widget.size()


def test_night_card_that_fails_its_requirement_is_said_in_view(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    # N04 needs unrest 6 (Check Requirements): typed at the table it is discarded and
    # another drawn; the wizard says so where the players are looking.
    wizard = night_at_its_first_card(qtbot, demo)
    field = wizard.step_widget.card_field
    field.combo.setEditText("N04")
    field.use_button.click()
    assert not refusals
    assert wizard.step.decider is Decider.CARD  # another card is drawn
    text = wizard.latest.text()
    assert "is discarded and another drawn" in text and text.startswith("Just now:")
    assert in_view(wizard, wizard.latest)


def test_night_each_answer_says_what_it_did_in_view(qtbot: Any, demo: Any,
                                                    refusals: list[str]) -> None:
    wizard = night_at_its_first_card(qtbot, demo)
    before = wizard.happened.count()
    wizard.step_widget.app_button.click()  # the app draws a card and it is resolved
    new = [wizard.happened.item(i).text() for i in range(before, wizard.happened.count())]
    assert new
    assert new[-1] in wizard.latest.text()
    assert in_view(wizard, wizard.latest)
