"""The campaign file: tables, lock, integrity, migrations, backups, undo log, export/import.

See ``docs/ARCHITECTURE.md`` (Store) and ``docs/campaign-file.md``. Entry points::

    cf = CampaignFile.open(path)                 # or CampaignFile.create(path)
    with cf.transaction("explore", "Ash explored hex 12") as session:
        session.add(...)                         # one journal event, undoable
    cf.undo(); cf.redo(); cf.journal(limit=50)
    cf.close()
"""

from companion.store.backups import BackupInfo, BackupPolicy, backups_dir, list_backups
from companion.store.campaign_file import META_KINDS, CampaignFile
from companion.store.errors import (
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
    NotACampaign,
    ReadOnly,
    UndoConflict,
)
from companion.store.lock import LockOwner, lock_holder
from companion.store.migrations import APPLICATION_ID, SCHEMA_VERSION
from companion.store.portable import FORMAT_NAME, FORMAT_VERSION, export_campaign, import_campaign
from companion.store.restore import CheckReport, check_campaign, restore_backup
from companion.store.webjournal import WebJournalRefused
from companion.store.webjournal import read_document as read_web_journal

__all__ = [
    "APPLICATION_ID", "FORMAT_NAME", "FORMAT_VERSION", "META_KINDS", "SCHEMA_VERSION",
    "BackupInfo", "BackupPolicy", "BadExportFile", "CampaignClosed", "CampaignDamaged",
    "CampaignFile", "CampaignFileError", "CampaignFileExists", "CampaignLocked",
    "CampaignNotFound", "CampaignTooNew", "CheckReport", "DiskFull", "ForeignAdditions",
    "LockOwner",
    "NotACampaign", "ReadOnly", "UndoConflict", "WebJournalRefused", "backups_dir",
    "check_campaign",
    "export_campaign", "import_campaign", "list_backups", "read_web_journal",
    "lock_holder", "restore_backup",
]
