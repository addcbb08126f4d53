"""The window as the dialogs, panels and views see it (issue 20: the UI's rooms).

Dialogs and views never import :mod:`companion.ui.main_window` (which imports them, so
the two used to import each other in a circle). They are given a :class:`Host`: the
open campaign, the one write path (:meth:`Host.run_operation`) and the change signal
(:attr:`Host.campaign_changed`), plus the few window services the File menu's dialogs
use (:meth:`Host.set_campaign`, :meth:`Host.show_created`, :meth:`Host.refresh_all`,
opening a file, the status bar) and the procedure dialogs (:meth:`Host.open_procedure`).
The main window is the one Host (it overrides every method below; this class only says
what a dialog may ask of it); a test holds the line (tests/ui/test_ui_rooms.py).

Imports only Qt (the window must paint before the database layer is imported).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QMainWindow, QWidget

if TYPE_CHECKING:
    from pathlib import Path

    from companion.operations import Campaign, Changes


class Host(QMainWindow):
    """What a dialog or view may use of the window it opens from."""

    campaign_changed = Signal(object)
    """Emitted with the ``Changes`` of every operation (or ``None`` for a full reload)."""

    campaign: Campaign | None
    """The open campaign (None while none is open)."""

    open_file_handler: Callable[[str], None] | None
    """Opens a campaign file in this window (set by the launcher; File ▸ Open uses it)."""

    def run_operation(self, operation: Callable[..., Changes], /,
                      **kwargs: Any) -> Changes | None:
        """Run one operation on the open campaign; a refusal is shown, and None returned."""
        raise NotImplementedError

    def set_campaign(self, campaign: Campaign) -> None:
        """Show ``campaign`` in every view (after opening, creating or restoring one)."""
        raise NotImplementedError

    def show_created(self, campaign: Campaign, path: Path) -> None:
        """Show ``campaign``, just made in the new file ``path`` (created, imported,
        imported from the Campaign Journal), remembered as the campaign to open next time
        (File ▸ Open Recent)."""
        raise NotImplementedError

    def open_procedure(self) -> QDialog | None:
        """Show the procedure in progress in its dialog (the Night wizard for the Night,
        else the procedure dialog); None, with the user told, when nothing is in progress."""
        raise NotImplementedError

    def view(self, key: str) -> QWidget:
        """The main window's view ``key`` ('valley', 'day' ...), built when first asked for."""
        raise NotImplementedError

    def show_view(self, key: str) -> QWidget:
        """Bring the view ``key`` to the front and return it."""
        raise NotImplementedError

    def defer(self, view: QWidget, changes: object) -> bool:
        """Whether ``view`` may leave ``changes`` until it is next shown or asked for
        (issue 37: a heavy view on a tab not shown does not slow a click); the window
        then refreshes it with them. False: refresh now."""
        return False

    def refresh_all(self) -> None:
        """Refresh every view (after a change no single operation reports)."""
        raise NotImplementedError
