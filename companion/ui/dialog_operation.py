"""An operation a dialog runs itself (the record dialog, a Codex outcome, the card form):
run here, so that a refusal is said in the dialog, which stays open; once done, its
changes go through :meth:`Host.run_operation` for the window's bookkeeping (status, Undo,
views), as if the window had run it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QDialog, QLabel

    from companion.operations import Campaign, Changes
    from companion.ui.host import Host


def run_in_dialog(window: Host, operation: Callable[[Campaign], Changes]) -> Changes | str:
    """Run ``operation`` on the open campaign: its Changes, handed to the window; or the
    words of its refusal, for the dialog to show."""
    from companion.operations import Refused

    assert window.campaign is not None
    try:
        changes = operation(window.campaign)
    except Refused as refusal:
        return str(refusal)
    window.run_operation(lambda _campaign: changes)
    return changes


def apply_and_close(dialog: QDialog, window: Host, operation: Callable[[Campaign], Changes],
                    *, say: QLabel, refused: str, done: SignalInstance) -> bool:
    """Run ``operation`` for ``dialog``: refused, ``say`` shows "<refused>: why" and the
    dialog stays open; done, ``done`` is emitted with its Changes and the dialog closes."""
    changes = run_in_dialog(window, operation)
    if isinstance(changes, str):
        say.setText(f"{refused}: {changes}")
        return False
    done.emit(changes)
    dialog.accept()
    return True
