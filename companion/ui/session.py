"""The GUI's session glue: which campaign to open, recent files, periodic backups.

Imported after the window is shown (it pulls in the database layer). The one module
that opens campaigns into the main window and wires it; nothing in companion.ui imports
it back (the dialogs reach the window through its Host).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QTimer

from companion import operations, paths
from companion.operations import Campaign
from companion.ui.file_menu import recent_files, remember, settings, show_refusal
from companion.ui.first_view import remember_opened
from companion.ui.main_window import MainWindow

__all__ = ["create_demo", "is_first_start", "open_last_or_demo", "open_path", "periodic_backup",
           "recent_files", "remember", "settings", "wire_window"]

BACKUP_CHECK_MS = 60_000


def _with_preferences(campaign: Campaign) -> Campaign:
    """The user's backup policy applies to every campaign the GUI opens."""
    from companion import settings as preferences

    campaign.file.policy = preferences.load().backup_policy()
    return campaign


def _packs(extra_content: Sequence[Path]) -> list[Path]:
    from companion import settings as preferences

    return [*preferences.load().extra_content(), *extra_content]


def open_path(path: Path, *, extra_content: Sequence[Path] = ()) -> Campaign:
    """Open a campaign file and remember it."""
    campaign = operations.open_campaign(path, extra_content=_packs(extra_content),
                                        verify="background")
    remember(path)
    remember_opened(campaign)  # the next start's first view (issue 37)
    return _with_preferences(campaign)


def create_demo(path: Path, *, extra_content: Sequence[Path] = ()) -> Campaign:
    """Create the demo campaign from the sample pack at ``path`` and open it."""
    campaign = operations.create_demo_campaign(path, extra_content=_packs(extra_content))
    remember(path)
    remember_opened(campaign)
    return _with_preferences(campaign)


def is_first_start(demo_name: str) -> bool:
    """No campaign has been opened before and the demo has not been made yet."""
    last = settings().value("last", "")
    return not (isinstance(last, str) and last) and \
        not (paths.campaigns_dir() / demo_name).exists()


def open_last_or_demo(demo_name: str, *, extra_content: Sequence[Path] = ()) -> Campaign:
    """Reopen the last campaign; on the very first start, create the demo campaign."""
    last = settings().value("last", "")
    if isinstance(last, str) and last and Path(last).exists():
        return open_path(Path(last), extra_content=extra_content)
    demo = paths.campaigns_dir() / demo_name
    if demo.exists():
        return open_path(demo, extra_content=extra_content)
    return create_demo(demo, extra_content=extra_content)


def wire_window(window: MainWindow, *, extra_content: Sequence[Path] = ()) -> None:
    """Connect the window's File menu helpers and the periodic backup timer."""
    window.recent_files_provider = recent_files

    def open_file(path: str) -> None:
        window.show_opening()
        try:
            window.set_campaign(open_path(Path(path), extra_content=extra_content))
        except operations.Damaged as damaged:
            from companion.ui.dialogs import offer_restore

            restored = offer_restore(window, damaged)
            if restored is not None:
                window.set_campaign(restored)
            elif window.campaign is not None:
                window.set_campaign(window.campaign)
        except operations.Refused as refusal:
            show_refusal(window, "Could not open the campaign", refusal)
            if window.campaign is not None:
                window.set_campaign(window.campaign)

    window.open_file_handler = open_file
    from companion.ui import store_warnings

    store_warnings.watch(window, window.campaign)  # a backup not taken is said, not hidden
    timer = QTimer(window)
    timer.setObjectName("backupTimer")
    timer.timeout.connect(lambda: periodic_backup(window))
    timer.start(BACKUP_CHECK_MS)


def periodic_backup(window: MainWindow) -> bool:
    """The backup timer's work: back up if due. The value ``maybe_backup`` returns used
    to be dropped, and an error in a timer's slot only printed a traceback nobody saw:
    now a backup taken is said in the status bar, and one that fails says why there
    (the campaign itself is unharmed). Returns whether a backup was taken."""
    from companion.store import CampaignFileError

    if window.campaign is None:
        return False
    try:
        taken = window.campaign.maybe_backup()
    except (CampaignFileError, OSError) as exc:
        window.statusBar().showMessage(f"The automatic backup failed: {exc}")
        return False
    if taken is not None:
        window.statusBar().showMessage("Backed up the campaign.", 4000)
    return taken is not None
