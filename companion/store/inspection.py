"""Judging a campaign file before it is opened, and naming what went wrong.

:func:`inspect_file` reads a file without changing it (header bytes, then SQLite
read-only) and refuses what the companion cannot open; :func:`translate_error` turns an
SQLite or OS failure into the store's plain-words error. Split out of ``campaign_file``.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
import time
from pathlib import Path

from sqlalchemy.exc import DBAPIError

from companion.store import backups as bk
from companion.store import migrations
from companion.store.declared_schema import foreign_schema
from companion.store.errors import (
    CampaignDamaged,
    CampaignFileError,
    CampaignTooNew,
    CampaignUnreadable,
    DiskFull,
    ForeignAdditions,
    NotACampaign,
    ReadOnly,
    StrangerLog,
)
from companion.store.integrity import (
    HeaderProblem,
    open_readonly,
    pragma_int,
    quick_check,
    read_header,
    wal_pending,
)
from companion.store.log_proof import judge_log

LOW_DISK_BYTES = 1 << 20
"""Below this much free space, an I/O error is reported as a full disk."""


def _disk_nearly_full(path: Path) -> bool:
    try:
        return shutil.disk_usage(path.parent).free < LOW_DISK_BYTES
    except OSError:
        return False


def translate_error(exc: BaseException, path: Path) -> CampaignFileError | None:
    """The store's error for an SQLite or OS failure that has one (disk full, read-only,
    unreadable), or None for anything else (a bug, a constraint)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if isinstance(orig, OSError):
        if orig.errno in (errno.ENOSPC, errno.EDQUOT):
            return DiskFull(path)
        if orig.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return ReadOnly(path)
        return CampaignUnreadable(path, orig.strerror or str(orig))
    if not isinstance(orig, sqlite3.Error):
        return None
    text = str(orig).lower()
    name = str(getattr(orig, "sqlite_errorname", ""))
    # SHMSIZE: the log's index could not grow, "typically because the disk is full".
    if "disk is full" in text or "disk full" in text or name in ("SQLITE_FULL",
                                                                 "SQLITE_IOERR_SHMSIZE"):
        return DiskFull(path)
    if "readonly" in text or "read-only" in text or name.startswith("SQLITE_READONLY"):
        return ReadOnly(path)
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")) or "disk i/o error" in text \
            or "unable to open database file" in text:
        # A failed write of the log or its index on a full disk comes out as an I/O
        # error: say so when the disk is indeed (nearly) full.
        return DiskFull(path) if _disk_nearly_full(path) else CampaignUnreadable(path, str(orig))
    return None


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error is about the file's contents (not the disk or permissions)."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return True
    return not name and "malformed" in str(exc).lower()


def inspect_file(path: Path, *, deep: bool = True, shared: bool = False) -> int:
    """Check ``path`` is a whole campaign this program can open; return its schema version.

    Reads only, and leaves every file as it was (not even an empty ``-wal``/``-shm``
    appears): raises NotACampaign (ForeignAdditions for anything the schema does not declare:
    triggers, views, virtual tables, extra tables, columns and indexes), StrangerLog,
    CampaignDamaged or CampaignTooNew (or DiskFull, ReadOnly, CampaignUnreadable when the
    disk, not the file, is at fault). ``deep=False`` skips the check whose cost grows with
    the file: ``PRAGMA quick_check``, or the full ``integrity_check`` when a write-ahead
    log is pending (a crash, or another file's log put beside it, whose replay can break
    indexes in ways only the full check sees). ``shared=True`` when another process may
    be writing it meanwhile. SQLite itself judges the file, with its log when one is
    pending.
    """
    try:
        header = read_header(path)
    except HeaderProblem as exc:
        if not exc.sqlite:
            raise NotACampaign(path, str(exc)) from None
        raise CampaignDamaged(path, str(exc), len(bk.list_backups(path))) from None
    except OSError as exc:
        raise translate_error(exc, path) or exc from exc
    # The header's identity and version first, from bytes: a file refused here was never
    # opened by SQLite. (Ours are written to the main file when created, and a pending
    # log can only raise the version, which SQLite's reading below sees.)
    _refuse_identity(path, header.application_id, header.user_version)
    if wal_pending(path):
        # Before SQLite reads the log (and any checkpoint writes it into the file): it
        # must prove it continues this very file (companion.store.log_proof).
        refuse_stranger_log(path, header.page_size, header.user_version, shared=shared)
    # Shared: the log may be the running writer's own, not a crash's or a stranger's.
    full = wal_pending(path) and not shared
    try:
        with open_readonly(path, shared=shared) as conn:
            version = pragma_int(conn, "user_version")
            _refuse_identity(path, pragma_int(conn, "application_id"), version)
            planted = foreign_schema(conn, version)
            if planted:
                raise ForeignAdditions(path, planted, len(bk.list_backups(path)))
            problems = quick_check(conn, full=full) if deep else []
    except sqlite3.Error as exc:
        if is_damage(exc):
            raise CampaignDamaged(path, str(exc), len(bk.list_backups(path))) from None
        raise translate_error(exc, path) or CampaignUnreadable(path, str(exc)) from exc
    if problems:
        raise CampaignDamaged(path, problems[0], len(bk.list_backups(path)))
    return version


def refuse_stranger_log(path: Path, page_size: int, user_version: int, *,
                        shared: bool = False) -> None:
    """Raise :class:`StrangerLog` when the log pending beside ``path`` is not its own.

    ``shared``: a writer may be at work, so a log read while it restarted or a checkpoint
    copied pages is read again (a few times) before it is called a stranger's.
    """
    tries = 5 if shared else 1
    for attempt in range(tries):
        try:
            verdict = judge_log(path, page_size, user_version)
        except OSError as exc:
            raise translate_error(exc, path) or exc from exc
        if verdict.own:
            return
        if attempt + 1 < tries:
            time.sleep(0.05 * (attempt + 1))
    raise StrangerLog(path, verdict.why)


def _refuse_identity(path: Path, application_id: int, version: int) -> None:
    if application_id != migrations.APPLICATION_ID:
        raise NotACampaign(path, "an SQLite database, but not one the companion made")
    if version > migrations.SCHEMA_VERSION:
        raise CampaignTooNew(path, version, migrations.SCHEMA_VERSION)
    if version < 1:
        # No version of the companion wrote it: never "migrate" it from nowhere.
        raise NotACampaign(path, f"schema version {version}, which no companion "
                                 "writes; it may have been edited by hand")
