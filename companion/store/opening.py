"""Reaching a campaign file: its connection, its writer lock, and a new file built whole.

:class:`companion.store.campaign_file.CampaignFile` opens through these; a new campaign
(and an imported one) is built under a temporary name and linked into place
(:func:`build_new`), so a failure leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.pool import StaticPool

from companion.store import backups as bk
from companion.store import durable, migrations
from companion.store.errors import CampaignFileExists
from companion.store.inspection import translate_error
from companion.store.integrity import wal_pending
from companion.store.lock import WriterLock
from companion.store.models import Campaign, Society, table_of


def connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A read-write connection with the campaign's settings (WAL, FKs, full sync).

    ``read_only`` for a file nobody may write (no write permission): SQLite then opens
    it without making ``-wal``/``-shm`` side files, which would inherit its read-only
    mode and keep refusing writes after the player fixed the file's permission.
    """
    # isolation_level=None: the store issues BEGIN itself, so reads and writes have
    # real transaction boundaries (Python's implicit BEGIN skips SELECTs).
    if read_only:
        mode = "mode=ro" if wal_pending(path) else "mode=ro&immutable=1"
        return sqlite3.connect(f"file:{quote(str(path))}?{mode}", uri=True,
                               isolation_level=None, check_same_thread=False)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = FULL")
    except BaseException:
        conn.close()
        raise
    return conn


def writable(path: Path) -> bool:
    """Whether the campaign file may be written (its mode, not only the user's rights:
    root may write anything, but a file made read-only on purpose stays so)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) and os.access(path, os.W_OK)


def file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path`` now; None when nothing is there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def repair_side_files(path: Path) -> None:
    """Give ``-wal``/``-shm`` left read-only (by opening a read-only campaign) the write
    permission of the campaign file again, now that the campaign is writable."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return
    if not mode & stat.S_IWUSR:
        return
    for suffix in durable.SIDE_SUFFIXES:
        side = path.with_name(path.name + suffix)
        with contextlib.suppress(OSError):
            side_mode = stat.S_IMODE(side.stat().st_mode)
            if not side_mode & stat.S_IWUSR:
                os.chmod(side, side_mode | (mode & 0o222))


def take_writer_lock(lock: WriterLock) -> None:
    """Take the lock, then tidy what only the writer may touch: read-only side files
    and the temporary files of killed backups, copies, imports and exports."""
    lock.acquire()
    repair_side_files(lock.path)
    durable.clean_stale_temps(lock.path.parent, bk.backups_dir(lock.path))


def link_new(tmp: Path, dest: Path) -> None:
    """Move a freshly built file to ``dest`` without ever replacing an existing file.

    ``tmp`` is fsynced first and the folder after, so the new name survives a power cut.
    """
    durable.fsync_file(tmp)
    try:
        os.link(tmp, dest)  # atomic: fails if dest exists
    except FileExistsError:
        raise CampaignFileExists(dest) from None
    except OSError:
        # Filesystems without hard links (FAT on a USB stick): check, then rename.
        if dest.exists():
            raise CampaignFileExists(dest) from None
        os.replace(tmp, dest)
    else:
        tmp.unlink()
    durable.fsync_dir(dest.parent)


def write_engine(conn: sqlite3.Connection) -> Engine:
    """An SQLAlchemy engine over ``conn`` whose transactions are real ``BEGIN IMMEDIATE`` ones.

    Never ``dispose()`` it: with a static pool that would close ``conn``.
    """
    engine = create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)
    event.listen(engine, "begin", lambda c: c.exec_driver_sql("BEGIN IMMEDIATE"))
    return engine


def _fill_new_campaign(conn: sqlite3.Connection) -> None:
    """The rows every campaign has: the campaign and society singletons."""
    with write_engine(conn).begin() as connection:
        for row in (Campaign(id=1), Society(id=1)):
            connection.execute(table_of(type(row)).insert().values(row.model_dump()))


def build_then_link(dest: Path, purpose: str, build: Callable[[Path], None]) -> None:
    """Make a new file at ``dest``, all or nothing: ``build`` writes it under a temporary
    name beside ``dest`` (``purpose`` names it), and it is linked into place at the end,
    so a failure leaves nothing behind and an existing file is never replaced."""
    if dest.exists():
        raise CampaignFileExists(dest)
    tmp = durable.temp_beside(dest, purpose)
    try:
        build(tmp)
        link_new(tmp, dest)
    except (sqlite3.Error, OSError) as exc:
        raise translate_error(exc, dest) or exc from exc
    finally:
        durable.remove_with_sides(tmp)


def build_new(dest: Path, fill: Callable[[sqlite3.Connection], None] | None = None) -> None:
    """Create a campaign at ``dest`` (schema, then ``fill`` writes rows), all or nothing
    (:func:`build_then_link`)."""

    def build(tmp: Path) -> None:
        conn = connect(tmp)
        try:
            migrations.create_schema(conn)
            (fill or _fill_new_campaign)(conn)
            # Fold the log into the file so its header (version, id) is current on disk.
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()

    build_then_link(dest, "new", build)
