"""Helpers shared by the UI tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion import operations
from companion.ui.main_window import MainWindow

if TYPE_CHECKING:
    from companion.ui.procedure_dialog import ProcedureDialog


def make_window(qtbot: Any, campaign: operations.Campaign) -> MainWindow:
    """A shown main window on ``campaign`` (closed with the test by qtbot)."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.set_campaign(campaign)
    return window


def activity_dialog(qtbot: Any, campaign: operations.Campaign, activity: str,
                    where: str) -> ProcedureDialog:
    """Ash's ``activity`` at ``where`` started from a new main window on ``campaign``: its
    dialog, open (closed with the test by qtbot)."""
    from companion.ui.procedure_dialog import ProcedureDialog, start_activity

    dialog = start_activity(make_window(qtbot, campaign), activity, "Ash", where)
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    return dialog


def energy(campaign: operations.Campaign, name: str) -> int:
    """``name``'s energy now."""
    return next(c.energy for c in campaign.characters() if c.name == name)


def ash_walks_to(window: MainWindow, hex_id: str) -> None:
    """On the demo campaign: Ash moves to ``hex_id`` and Bryn passes, so Ash acts there
    next."""
    assert window.run_operation(operations.move, name="Ash", to_hex=hex_id)
    assert window.run_operation(operations.pass_turn, name="Bryn")
