"""Which campaign a backup belongs to, proven from inside it (issue 35 item 3).

A backup's name says only which file name it was taken beside; another campaign's backup
can carry the same name (a copied folder, a backups folder that is a link to another).
So a backup counts as this campaign's only when its inside says so:

- from schema 4, by the campaign's own id, ``campaign.uid``, equal to this campaign's;
- a backup from before schema 4 (no uid) by its first journal event (time, kind and text,
  the time to the microsecond) equal to this campaign's first event: the first thing a
  campaign ever did is its birth certificate, kept in every later copy of it.

Candidates are read with SQLite read-only and ``immutable`` (nothing is written, not even a
side file). When the campaign itself cannot be read (it is damaged), its identity is the
one its backups last recorded (:data:`RECORD` in its backups folder); when nothing tells
it, the backups of its name are its own, as before schema 4 (a damaged campaign must stay
restorable).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from companion.store.durable import fsync_file, temp_beside
from companion.store.integrity import read_header, wal_pending
from companion.store.log_proof import judge_log
from companion.store.migrations import first_event_fingerprint

RECORD = ".campaign-identity.json"
"""The file in a backups folder naming the campaign its backups were taken from."""


@dataclass(frozen=True)
class Identity:
    """What ties a file to its campaign: its uid (schema 4 on) and its first event."""

    uid: str | None
    first_event: str | None

    def claims(self, backup: Identity) -> bool:
        """Whether ``backup`` proves it is a copy of this campaign (see the module)."""
        if backup.uid is not None and self.uid is not None:
            return backup.uid == self.uid
        # Either is from before schema 4 (a restored old copy not yet migrated, too).
        return backup.first_event is not None and backup.first_event == self.first_event


def read_identity_of(conn: sqlite3.Connection) -> Identity:
    """The identity of the campaign open on ``conn``."""
    columns = {str(r[1]) for r in conn.execute("PRAGMA table_info(campaign)")}
    uid = None
    if "uid" in columns:
        row = conn.execute("SELECT uid FROM campaign WHERE id = 1").fetchone()
        uid = str(row[0]) if row and row[0] else None
    return Identity(uid, first_event_fingerprint(conn))


def read_identity(path: Path, *, with_log: bool = False) -> Identity | None:
    """The identity inside the campaign or backup file ``path``; None if it cannot be read.

    Read-only and ``immutable`` (the file alone); ``with_log`` reads it with its own
    write-ahead log instead (a backup that is a byte copy with its log beside it).
    """
    mode = "mode=ro" if with_log else "mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?{mode}", uri=True)
    except sqlite3.Error:
        return None
    try:
        return read_identity_of(conn)
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def backup_identity(path: Path) -> Identity | None:
    """The identity of the backup at ``path`` (its log too, when it is a byte copy that
    has one beside it and cannot be read alone)."""
    found = read_identity(path)
    wal = path.with_name(path.name + "-wal")
    if found is None and wal.is_file() and not wal.is_symlink():
        found = read_identity(path, with_log=True)
    return found


def campaign_identity(path: Path, folder: Path) -> Identity | None:
    """The identity of campaign ``path``: from the file, else the one its backups folder
    ``folder`` recorded; None when neither tells."""
    if path.is_file():
        found = read_identity(path)
        if found is not None and found.uid is None and wal_pending(path):
            found = None  # the migration that gave it its uid may be in the log
        if found is None and wal_pending(path):
            with contextlib.suppress(OSError, ValueError):
                header = read_header(path)
                if judge_log(path, header.page_size, header.user_version).own:
                    found = read_identity(path, with_log=True)
        if found is not None:
            return found
    return recorded_identity(folder)


def recorded_identity(folder: Path) -> Identity | None:
    """The identity the backups folder recorded (None: none, or not a plain file)."""
    record = folder / RECORD
    try:
        if record.is_symlink() or not record.is_file():
            return None
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    uid, first = data.get("uid"), data.get("first_event")
    return Identity(uid if isinstance(uid, str) else None,
                    first if isinstance(first, str) else None)


def record_identity(folder: Path, identity: Identity) -> None:
    """Write ``identity`` into the backups folder (whole, by rename), if it changed."""
    if recorded_identity(folder) == identity:
        return
    target = folder / RECORD
    tmp = temp_beside(target, "identity")
    try:
        tmp.write_text(json.dumps({"uid": identity.uid, "first_event": identity.first_event},
                                  sort_keys=True), encoding="utf-8")
        fsync_file(tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
