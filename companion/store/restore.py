"""Restoring a backup, and checking a file, without opening it as a campaign.

Both work on a damaged file: they never need to read the campaign itself.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from companion.store import backups as bk
from companion.store import migrations
from companion.store.backup_identity import backup_identity, campaign_identity
from companion.store.declared_schema import declared_tables, foreign_schema
from companion.store.durable import (
    SIDE_SUFFIXES,
    clean_stale_temps,
    fsync_dir,
    fsync_file,
    remove_with_sides,
    temp_beside,
)
from companion.store.errors import (
    BackupBeforeShare,
    CampaignDamaged,
    CampaignFileError,
    ForeignBackup,
    NotACampaign,
    StrangerLog,
)
from companion.store.inspection import inspect_file, translate_error
from companion.store.integrity import (
    HeaderProblem,
    open_readonly,
    pragma_int,
    read_header,
    wal_pending,
)
from companion.store.lock import LockOwner, WriterLock, lock_holder
from companion.store.log_proof import judge_log
from companion.store.table_base import utcnow


def _safety_copy(path: Path, real: Path, now: datetime) -> bk.BackupInfo | None:
    """Back up the current file before it is replaced.

    SQLite reads it (with its write-ahead log, so commits still only in the log are in
    the copy) through the backup API; a file SQLite cannot read is copied byte for byte
    together with its log, which its copy then replays when opened. ``real`` is the file
    itself (``path`` may be a symbolic link to it: the copy is named after ``path``).
    """
    if not real.exists():
        return None
    try:
        inspect_file(real)
        with open_readonly(real) as conn:
            event = conn.execute("SELECT coalesce(max(id), 0) FROM journal_event").fetchone()[0]
            return bk.take_backup(conn, path, "restore", now, int(event))
    except (CampaignDamaged, NotACampaign, StrangerLog, sqlite3.DatabaseError):
        # A stranger's log too is kept, byte for byte beside the copy: its commits may
        # be all that is left of the campaign they belong to.
        return bk.copy_file_backup(path, "restore", now, source=real)


def restore_backup(
    path: Path, backup: bk.BackupInfo | Path, *, now: datetime | None = None
) -> bk.BackupInfo | None:
    """Replace campaign ``path`` by ``backup``; returns the safety copy taken first.

    Refuses (:class:`CampaignLocked`) while the campaign is open anywhere, and refuses a
    backup that is not a whole campaign this program can open. The current file, even a
    damaged one, is copied into the backups folder (reason 'restore') before it is replaced.
    A campaign that is a symbolic link is restored through it: the file it points at is
    replaced, and the link stays a link.
    """
    path = Path(path).absolute()
    source = backup.path if isinstance(backup, bk.BackupInfo) else Path(backup)
    lock = WriterLock(path)
    lock.acquire()
    try:
        clean_stale_temps(path.parent, bk.backups_dir(path))
        inspect_file(source)  # refuses a damaged, foreign or too-new backup
        _refuse_another_campaigns(path, source)
        refuse_backup_before_share(path, source)
        try:
            return _replace_with(path, source, now or utcnow())
        except (OSError, sqlite3.Error) as exc:
            raise translate_error(exc, path) or exc from exc
    finally:
        lock.release()


def _refuse_another_campaigns(path: Path, source: Path) -> None:
    """Refuse (:class:`ForeignBackup`) a backup whose inside does not prove it is a copy
    of campaign ``path`` (``backup_identity``). With nothing to tell the campaign by (it
    cannot be read, and its backups recorded nothing), any campaign may be restored."""
    owner = campaign_identity(path, bk.backups_dir(path))
    if owner is None:
        return
    found = backup_identity(source)
    if found is None or not owner.claims(found):
        raise ForeignBackup(path, source)


class _Unreadable(Exception):
    """The file could not be read to tell whether it is shared."""


def _shared_as(file: Path) -> tuple[str, str] | None:
    """(folder, machine name) of a campaign shared through a folder (its ``sync_state``
    row); None when it is not shared (or older than sharing)."""
    try:
        inspect_file(file)
        with open_readonly(file) as conn:
            if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                            "name = 'sync_state'").fetchone() is None:
                return None
            row = conn.execute(
                "SELECT folder, machine_name FROM sync_state WHERE id = 1").fetchone()
    except (CampaignFileError, sqlite3.Error, OSError) as exc:
        raise _Unreadable from exc
    return (str(row[0]), str(row[1])) if row else None


def refuse_backup_before_share(path: Path, backup: bk.BackupInfo | Path) -> None:
    """Refuse (:class:`BackupBeforeShare`) a backup taken before campaign ``path`` was
    shared, now that it is: restored, it would be the campaign unshared, apart from the
    other machines for good, without a word (issue 38). Whether the campaign is shared is
    read from the file, or, when it cannot be read (damaged), from its newest backup that
    can. Asked before anything is closed or changed (the GUI's restore asks it first)."""
    source = backup.path if isinstance(backup, bk.BackupInfo) else Path(backup)
    try:
        if _shared_as(source) is not None:
            return
    except _Unreadable:
        return  # inspect_file refuses it in words
    candidates = [Path(path)] + [b.path for b in bk.list_backups(Path(path))
                                 if b.path != source]
    for candidate in candidates:
        try:
            shared = _shared_as(candidate)
        except _Unreadable:
            continue
        if shared is not None:
            raise BackupBeforeShare(Path(path), source, *shared)
        return  # the newest readable file is not shared: nothing to keep


def _replace_with(path: Path, source: Path, now: datetime) -> bk.BackupInfo | None:
    # Through a symbolic link to the file it names (SQLite keeps the log beside that
    # file too): replacing the link itself would cut the campaign off from where it lives.
    link, path = path, Path(os.path.realpath(path))
    # The safety copy comes first, and holds every commit of the old file's log: only
    # then may that log go (replaying it onto the restored file would corrupt it).
    safety = _safety_copy(link, path, now)
    tmp = temp_beside(path, "restoring")
    try:
        shutil.copyfile(source, tmp)
        source_wal = source.with_name(source.name + "-wal")
        if source_wal.is_file():  # a byte-copied safety copy restored: its log too
            shutil.copyfile(source_wal, tmp.with_name(tmp.name + "-wal"))
            fsync_file(tmp.with_name(tmp.name + "-wal"))
        fsync_file(tmp)
        for side in SIDE_SUFFIXES:
            path.with_name(path.name + side).unlink(missing_ok=True)
        if source_wal.is_file():
            os.replace(tmp.with_name(tmp.name + "-wal"), path.with_name(path.name + "-wal"))
        os.replace(tmp, path)
        fsync_dir(path.parent)
    finally:
        remove_with_sides(tmp)
    return safety


@dataclass
class CheckReport:
    """What ``check_campaign`` found. ``ok`` is the one-word answer."""

    path: Path
    is_campaign: bool = False
    """An SQLite file stamped as a campaign."""
    problems: list[str] = field(default_factory=list)
    """``integrity_check`` findings and refusals, in plain words; [] when sound."""
    foreign_key_problems: list[str] = field(default_factory=list)
    schema_version: int | None = None
    known_schema_version: int = field(default_factory=lambda: migrations.SCHEMA_VERSION)
    locked_by: LockOwner | None = None
    """Who has it open for writing now, if anybody."""
    backups: int = 0
    events: int | None = None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready (for ``companion check --json``)."""
        owner = self.locked_by
        return {
            "path": str(self.path), "ok": self.ok, "is_campaign": self.is_campaign,
            "problems": list(self.problems),
            "foreign_key_problems": list(self.foreign_key_problems),
            "schema_version": self.schema_version,
            "known_schema_version": self.known_schema_version,
            "locked_by": None if owner is None else {"pid": owner.pid, "host": owner.host},
            "backups": self.backups, "events": self.events,
        }

    @property
    def ok(self) -> bool:
        """Sound, ours, and not from a newer program."""
        return (
            self.is_campaign
            and not self.problems
            and not self.foreign_key_problems
            and (self.schema_version or 0) <= self.known_schema_version
        )


def _integrity_problems(conn: sqlite3.Connection, foreign: list[str]) -> list[str]:
    """``integrity_check``'s problems; with a virtual table planted, table by table of the
    schema's own (a newer SQLite checks a virtual table by running its code)."""
    if not any("virtual table" in found for found in foreign):
        rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
        return [r for r in rows if r != "ok"]
    problems: list[str] = []
    for table in declared_tables(pragma_int(conn, "user_version")):
        rows = conn.execute(f'PRAGMA integrity_check("{table}")').fetchall()
        problems.extend(str(r[0]) for r in rows if str(r[0]) != "ok")
    return problems


def check_campaign(path: Path) -> CheckReport:
    """Check a whole campaign file (read-only, lock not needed); never raises for bad files.

    Runs the full ``integrity_check`` and ``foreign_key_check``, and reports the schema
    version, who holds the lock and how many backups exist.
    """
    path = Path(path).absolute()
    report = CheckReport(path=path, locked_by=lock_holder(path), backups=len(bk.list_backups(path)))
    if not path.is_file():
        report.problems.append("the file does not exist")
        return report
    try:
        header = read_header(path)
        own_log = True
        if wal_pending(path):  # judged from bytes before SQLite reads it (log_proof)
            verdict = judge_log(path, header.page_size, header.user_version)
            own_log = verdict.own
            if not own_log:
                report.problems.append(
                    f"the unsaved changes beside it ({path.name}-wal) are not this "
                    f"campaign's own ({verdict.why}); the file was checked without them")
        with open_readonly(path, with_log=own_log) as conn:
            report.is_campaign = pragma_int(conn, "application_id") == migrations.APPLICATION_ID
            report.schema_version = pragma_int(conn, "user_version")
            # Read as text first: a virtual table's own code never runs on its data here.
            # A newer program's schema is not this one's to judge (CampaignTooNew).
            foreign = foreign_schema(conn, report.schema_version) \
                if report.schema_version <= migrations.SCHEMA_VERSION else []
            report.problems.extend(f"holds {found}, which no companion makes"
                                   for found in foreign)
            report.problems.extend(_integrity_problems(conn, foreign))
            report.foreign_key_problems = [
                f"{table} row {rowid} points at a missing {parent} row"
                for table, rowid, parent, _ in conn.execute("PRAGMA foreign_key_check")
            ]
            if report.is_campaign:
                count = conn.execute("SELECT count(*) FROM journal_event").fetchone()[0]
                report.events = int(count)
    except HeaderProblem as exc:
        report.problems.append(str(exc))
    except sqlite3.DatabaseError as exc:
        report.problems.append(str(exc))
    if not report.is_campaign and not report.problems:
        report.problems.append("not a Stonesaga campaign (foreign SQLite file)")
    return report
