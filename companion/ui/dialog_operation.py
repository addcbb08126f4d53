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


def run_in_dialog(window: Host, operation: Callable[[Campaign], Changes], *,
                  again: Callable[[], object] | None = None) -> Changes | str:
    """Run ``operation`` on the open campaign: its Changes, handed to the window; or the
    words of its refusal, for the dialog to show. Refused for material tokens the pack
    does not know yet, each is offered for entry on the spot and then ``again()``
    carries on (issue 36 item 2)."""
    from companion.operations import Refused
    from companion.operations.changes import MissingFromPack

    assert window.campaign is not None
    try:
        changes = operation(window.campaign)
    except MissingFromPack as refusal:
        if again is None:
            return str(refusal)
        from companion.ui.material_token import enter_tokens_then

        enter_tokens_then(window, refusal.materials, again)
        return str(refusal)  # its words name the fields, which the form marks
    except Refused as refusal:
        return str(refusal)
    window.run_operation(lambda _campaign: changes)
    return changes


def apply_and_close(dialog: QDialog, window: Host, operation: Callable[[Campaign], Changes],
                    *, say: QLabel, refused: str, done: SignalInstance) -> bool:
    """Run ``operation`` for ``dialog``: refused, ``say`` shows "<refused>: why" and the
    dialog stays open (a material token the pack lacks is offered for entry, then the
    operation runs again); done, ``done`` is emitted with its Changes and the dialog
    closes."""
    changes = run_in_dialog(window, operation, again=lambda: apply_and_close(
        dialog, window, operation, say=say, refused=refused, done=done))
    if isinstance(changes, str):
        say.setText(f"{refused}: {changes}")
        return False
    done.emit(changes)
    dialog.accept()
    return True
