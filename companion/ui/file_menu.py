"""What the File menu's dialogs share: the campaign files' filters and suffixes, the
campaigns folder, the recently opened files, and a refusal shown in game words.

Below the dialogs, the New Campaign wizard, the Campaign Journal dialog and the session
(which all use it); it imports none of them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QWidget

from companion import paths

CAMPAIGN_FILTER = "Stonesaga campaigns (*.stonesaga)"
EXPORT_FILTER = "Portable campaign export (*.stonesaga-export.json *.json)"
EXPORT_SUFFIX = ".stonesaga-export.json"
CAMPAIGN_SUFFIX = ".stonesaga"
MAX_RECENT = 8


def show_refusal(parent: QWidget, title: str, refusal: Exception) -> None:
    """Show why something was refused (the message is already in game words)."""
    QMessageBox.warning(parent, title, str(refusal))


def with_suffix(path: str, suffix: str, *, accepted: tuple[str, ...] = ()) -> Path:
    """``path`` as typed, with ``suffix`` added when it ends in none of ``accepted`` (or
    ``suffix``): a file saved with no extension was hidden by the Open and Import
    filters (issue 27 item 15)."""
    chosen = Path(path)
    if any(chosen.name.lower().endswith(s) for s in (suffix, *accepted)):
        return chosen
    return chosen.with_name(chosen.name + suffix)


def campaigns_folder() -> str:
    """The folder the file dialogs open in."""
    return str(paths.campaigns_dir())


def settings() -> QSettings:
    """The app's settings, an INI file in the user's data folder."""
    return QSettings(str(paths.user_data_dir() / "settings.ini"), QSettings.Format.IniFormat)


def recent_files() -> list[str]:
    """Recently opened campaign files that still exist, most recent first."""
    value = settings().value("recent", [])
    items = [value] if isinstance(value, str) else \
        list(value) if isinstance(value, list | tuple) else []
    return [p for p in items if Path(p).exists()]


def remember(path: Path) -> None:
    """Put ``path`` first in the recent list and make it the campaign opened next time."""
    store = settings()
    items = [str(path)] + [p for p in recent_files() if p != str(path)]
    store.setValue("recent", items[:MAX_RECENT])
    store.setValue("last", str(path))
    store.sync()
