"""The campaign file: tables, lock, integrity, migrations, backups, undo log, export/import.

See ``docs/ARCHITECTURE.md`` (Store) and ``docs/campaign-file.md``. Entry points::

    cf = CampaignFile.open(path)                 # or CampaignFile.create(path)
    with cf.transaction("explore", "Ash explored hex 12") as session:
        session.add(...)                         # one journal event, undoable
    cf.undo(); cf.redo(); cf.journal(limit=50)
    cf.close()

The names below are imported from their modules when first used: importing one module
of the store (``companion.store.lock``) does not import the others, so the window's
first steps pay only for what they use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.store.backups import BackupInfo, BackupPolicy, backups_dir, list_backups
    from companion.store.campaign_file import META_KINDS, CampaignFile
    from companion.store.errors import (
        BackupBeforeShare,
        BadExportFile,
        CampaignClosed,
        CampaignDamaged,
        CampaignFileError,
        CampaignFileExists,
        CampaignLocked,
        CampaignNotFound,
        CampaignTooNew,
        DiskFull,
        ForeignAdditions,
        ForeignBackup,
        NotACampaign,
        ReadOnly,
        StrangerLog,
        UndoConflict,
    )
    from companion.store.lock import LockOwner, lock_holder
    from companion.store.migrations import APPLICATION_ID, SCHEMA_VERSION
    from companion.store.portable import (
        FORMAT_NAME,
        FORMAT_VERSION,
        export_campaign,
        import_campaign,
    )
    from companion.store.restore import (
        CheckReport,
        check_campaign,
        refuse_backup_before_share,
        restore_backup,
    )
    from companion.store.webjournal import WebJournalRefused
    from companion.store.webjournal import read_document as read_web_journal

_HOMES: dict[str, tuple[str, str]] = {
    **{name: ("backups", name) for name in (
        "BackupInfo", "BackupPolicy", "backups_dir", "list_backups")},
    **{name: ("campaign_file", name) for name in ("META_KINDS", "CampaignFile")},
    **{name: ("errors", name) for name in (
        "BackupBeforeShare", "BadExportFile", "CampaignClosed", "CampaignDamaged",
        "CampaignFileError",
        "CampaignFileExists", "CampaignLocked", "CampaignNotFound", "CampaignTooNew",
        "DiskFull", "ForeignAdditions", "ForeignBackup", "NotACampaign", "ReadOnly",
        "StrangerLog",
        "UndoConflict")},
    **{name: ("lock", name) for name in ("LockOwner", "lock_holder")},
    **{name: ("migrations", name) for name in ("APPLICATION_ID", "SCHEMA_VERSION")},
    **{name: ("portable", name) for name in (
        "FORMAT_NAME", "FORMAT_VERSION", "export_campaign", "import_campaign")},
    **{name: ("restore", name) for name in (
        "CheckReport", "check_campaign", "refuse_backup_before_share", "restore_backup")},
    "WebJournalRefused": ("webjournal", "WebJournalRefused"),
    "read_web_journal": ("webjournal", "read_document"),
}
"""Each public name of the store: (its module, its name there)."""


def __getattr__(name: str) -> Any:
    """Import ``name`` from its module on first use, and keep it here."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'companion.store' has no attribute {name!r}")
    module, attribute = home
    value = getattr(importlib.import_module(f"companion.store.{module}"), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "APPLICATION_ID", "FORMAT_NAME", "FORMAT_VERSION", "META_KINDS", "SCHEMA_VERSION",
    "BackupBeforeShare", "BackupInfo", "BackupPolicy", "BadExportFile", "CampaignClosed",
    "CampaignDamaged",
    "CampaignFile", "CampaignFileError", "CampaignFileExists", "CampaignLocked",
    "CampaignNotFound", "CampaignTooNew", "CheckReport", "DiskFull", "ForeignAdditions",
    "ForeignBackup",
    "LockOwner",
    "NotACampaign", "ReadOnly", "StrangerLog", "UndoConflict", "WebJournalRefused", "backups_dir",
    "check_campaign",
    "export_campaign", "import_campaign", "list_backups", "read_web_journal",
    "lock_holder", "refuse_backup_before_share", "restore_backup",
]
