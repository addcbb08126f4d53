"""Rotating backups of a campaign file, in the sibling folder ``<file>.backups/``.

Why beside the file rather than in the user data folder: a damaged campaign must be
restorable without reading anything out of it, so its backups have to be found from its
path alone; and they travel with the campaign when the folder is moved, copied or synced.
(The cost: a lost disk loses both. Export to another place for that.)

Each backup is a complete SQLite file made with SQLite's online backup API, named
``<stem>-<UTC time>-<reason>-e<last event id>.stonesaga`` so that listing needs no
opening. Rotation keeps the newest ``recent``, the newest of each of the last ``daily``
calendar days (UTC, today included) and of each of the last ``weekly`` ISO weeks (this
week included), and every pre-migration copy, within ``max_total`` bytes.
When an automatic backup is due is :func:`backup_due`'s decision: a large campaign is
copied less often than a small one (docs/campaign-file.md, Backups).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.paths import CAMPAIGN_SUFFIX
from companion.store.backup_identity import (
    Identity,
    backup_identity,
    campaign_identity,
    read_identity_of,
    record_identity,
)
from companion.store.durable import fsync_dir, fsync_file, remove_with_sides, temp_beside
from companion.store.errors import SideFileInTheWay

_NAME = re.compile(
    r"^(?P<stem>.*)-(?P<time>\d{8}T\d{6}\d{6})Z-(?P<reason>[a-z0-9-]+?)-e(?P<event>\d+)"
    + re.escape(CAMPAIGN_SUFFIX)
    + r"\Z",
    re.DOTALL,  # a campaign's name may hold any character, a newline too
)
_TIME_FORMAT = "%Y%m%dT%H%M%S%f"
KEEP_ALWAYS = frozenset({"migration"})
"""Reasons that rotation never deletes: the only copies in an older schema."""


MB = 1 << 20


@dataclass(frozen=True)
class BackupPolicy:
    """How often backups are taken while playing and how many are kept.

    A backup copies the whole file, so the cost of one grows with the campaign. A small
    campaign (up to ``small_file``) is backed up whenever it is opened or closed changed,
    and every ``interval`` while something changes. A larger one is backed up at most
    once per ``interval`` for each ``small_file`` of its size (a 500 MB campaign: every
    2 h 36 min), unless it grew by over ``grown`` since its newest backup or over
    ``max_events`` journal events were written since. Rotation keeps the folder under
    ``max_total`` bytes. :func:`backup_due` decides; it reads no clock of its own.
    """

    interval: timedelta = timedelta(minutes=10)
    """``maybe_backup`` takes one when this long has passed and something changed."""
    recent: int = 10
    daily: int = 7
    weekly: int = 8
    small_file: int = 32 * MB
    """Up to this size, opening and closing a changed campaign always back it up."""
    grown: float = 0.25
    """A large campaign that grew by more than this share since its newest backup gets one."""
    max_events: int = 500
    """A large campaign with more journal events than this since its newest backup gets one."""
    max_total: int = 2048 * MB
    """Rotation deletes the oldest backups until the folder holds at most this many bytes
    (never the newest one, never a pre-migration copy)."""

    def spacing(self, size: int) -> timedelta:
        """The least time between two automatic backups of a file of ``size`` bytes."""
        return self.interval * max(1.0, size / self.small_file)


FORCED = frozenset({"manual", "migration", "restore"})
"""Reasons whose backup is always taken: the player asked, or the file is about to change."""


def backup_due(
    policy: BackupPolicy, reason: str, now: datetime, size: int, event_id: int,
    newest: BackupInfo | None,
) -> bool:
    """Whether the automatic backup ``reason`` ('open', 'close', 'interval') is due now.

    ``size``: the campaign's bytes; ``event_id``: its newest journal event; ``newest``:
    its newest backup (None when it has none). Nothing changed since the newest backup:
    never. Otherwise see :class:`BackupPolicy`.
    """
    if reason in FORCED or newest is None:
        return True
    if event_id == newest.event_id:
        return False
    age = now - newest.time
    if size <= policy.small_file:
        return reason != "interval" or age >= policy.interval
    if age >= policy.spacing(size):
        return True
    if newest.size and size > newest.size * (1 + policy.grown):
        return True
    return event_id - newest.event_id > policy.max_events


@dataclass(frozen=True)
class BackupInfo:
    """One backup file."""

    time: datetime
    """When it was taken (aware UTC)."""
    reason: str
    """'open', 'interval', 'close', 'migration', 'restore' or 'manual'."""
    size: int
    """Bytes."""
    path: Path
    event_id: int
    """The newest journal event it contains (0 when unknown or none)."""


def backups_dir(path: Path) -> Path:
    """The folder holding the backups of campaign ``path``."""
    return path.with_name(path.name + ".backups")


def list_backups(path: Path, owner: Identity | None = None) -> list[BackupInfo]:
    """The backups of campaign ``path``, newest first: those of its name whose inside
    proves they are copies of this campaign (:mod:`companion.store.backup_identity`;
    each read read-only). When the campaign cannot be read and its backups folder
    recorded no identity, every backup of its name (a damaged campaign stays restorable).
    ``owner``: the campaign's identity when the caller has it open.
    """
    named = named_backups(path)
    owner = owner or campaign_identity(path, backups_dir(path))
    if owner is None:
        return named
    return [b for b in named if (found := backup_identity(b.path)) and owner.claims(found)]


def named_backups(path: Path) -> list[BackupInfo]:
    """The files in the backups folder named as backups of ``path``, newest first (not
    opened: any of them may be another campaign's, see :func:`list_backups`)."""
    folder = backups_dir(path)
    if not folder.is_dir():
        return []
    found = []
    try:
        entries = list(folder.iterdir())
    except OSError:  # an unreadable folder holds no backups we can offer
        return []
    for entry in entries:
        match = _NAME.match(entry.name)
        if not match or not entry.is_file():
            continue
        try:
            when = datetime.strptime(match["time"], _TIME_FORMAT).replace(tzinfo=UTC)
            size = entry.stat().st_size
        except (ValueError, OSError):  # an impossible date in a name, or gone meanwhile
            continue
        found.append(BackupInfo(time=when, reason=match["reason"], size=size, path=entry,
                                event_id=int(match["event"])))
    found.sort(key=lambda b: (b.time, b.event_id, b.path.name), reverse=True)
    return found


def _target(path: Path, reason: str, now: datetime, event_id: int) -> Path:
    folder = backups_dir(path)
    if folder.exists() and not folder.is_dir():
        raise SideFileInTheWay(folder, "a file", "the campaign's backups folder")
    folder.mkdir(exist_ok=True)
    now = now.astimezone(UTC)
    stamp = now.strftime(_TIME_FORMAT)
    target = folder / f"{path.stem}-{stamp}Z-{reason}-e{event_id}{CAMPAIGN_SUFFIX}"
    # Two backups in one microsecond (tests, fast clocks): nudge the time, keep order.
    while target.exists():
        now += timedelta(microseconds=1)
        stamp = now.strftime(_TIME_FORMAT)
        target = folder / f"{path.stem}-{stamp}Z-{reason}-e{event_id}{CAMPAIGN_SUFFIX}"
    return target


def _publish(tmp: Path, target: Path) -> None:
    # Written under a temporary name and renamed, so a crash never leaves half a backup
    # that looks whole.
    fsync_file(tmp)
    os.replace(tmp, target)
    with contextlib.suppress(OSError):
        fsync_dir(target.parent)


def open_backup_target(tmp: Path) -> sqlite3.Connection:
    """The connection a backup is copied into (where an unwritable folder shows up)."""
    return sqlite3.connect(tmp)


def take_backup(
    source: sqlite3.Connection, path: Path, reason: str, now: datetime, event_id: int
) -> BackupInfo:
    """Copy the database behind ``source`` (a connection to ``path``) into the folder."""
    target = _target(path, reason, now, event_id)
    tmp = target.parent / temp_beside(path, "backup").name
    try:
        dest = open_backup_target(tmp)
        try:
            source.backup(dest)
        finally:
            dest.close()
        _publish(tmp, target)
    finally:
        remove_with_sides(tmp)
    with contextlib.suppress(OSError, sqlite3.Error):
        # The campaign the folder's backups are of, for when it cannot be read itself.
        record_identity(target.parent, read_identity_of(source))
    return BackupInfo(now, reason, target.stat().st_size, target, event_id)


def copy_file_backup(
    path: Path, reason: str, now: datetime, *, source: Path | None = None
) -> BackupInfo:
    """Copy the file's bytes as they are (for a file SQLite cannot read: keep the evidence).

    A write-ahead log beside it is copied too, as the copy's own ``-wal``: it may hold
    commits the main file does not have yet, and SQLite replays it when the copy is
    opened. Nothing is lost by replacing the file afterwards. ``source``: the file to
    copy when ``path`` (which names the copy) is a symbolic link to it.
    """
    target = _target(path, reason, now, 0)
    real = source or path  # the file itself, when ``path`` is a link to it
    wal = real.with_name(real.name + "-wal")
    parts = [(real, target)]
    if wal.is_file() and wal.stat().st_size:
        parts.insert(0, (wal, target.with_name(target.name + "-wal")))
    for part, final in parts:  # the log first: a main file never appears without it
        tmp = target.parent / temp_beside(part, "backup").name
        try:
            shutil.copyfile(part, tmp)
            _publish(tmp, final)
        finally:
            remove_with_sides(tmp)
    return BackupInfo(now, reason, target.stat().st_size, target, 0)


def backups_to_keep(
    backups: list[BackupInfo], policy: BackupPolicy, now: datetime
) -> set[Path]:
    """Which of ``backups`` (newest first) the rotation keeps."""
    keep = {b.path for b in backups[: policy.recent]}
    keep |= {b.path for b in backups if b.reason in KEEP_ALWAYS}
    first_day = now.date() - timedelta(days=policy.daily - 1)
    first_week = now.date() - timedelta(weeks=policy.weekly - 1, days=now.weekday())
    days: set[object] = set()
    weeks: set[object] = set()
    for backup in backups:  # newest first, so the first seen in a bucket is its newest
        day = backup.time.date()
        if day >= first_day and day not in days:
            days.add(day)
            keep.add(backup.path)
        week = backup.time.isocalendar()[:2]
        if day >= first_week and week not in weeks:
            weeks.add(week)
            keep.add(backup.path)
    return _within_size(backups, keep, policy.max_total)


def _within_size(backups: list[BackupInfo], keep: set[Path], limit: int) -> set[Path]:
    """``keep`` without its oldest ordinary backups, until their bytes fit in ``limit``.

    The newest backup and every pre-migration copy stay whatever their size.
    """
    total = sum(b.size for b in backups if b.path in keep)
    newest = backups[0].path if backups else None
    for backup in reversed(backups):  # oldest first
        if total <= limit:
            break
        if backup.path in keep and backup.path != newest and backup.reason not in KEEP_ALWAYS:
            keep.discard(backup.path)
            total -= backup.size
    return keep


def rotate(path: Path, policy: BackupPolicy, now: datetime,
           owner: Identity | None = None) -> list[BackupInfo]:
    """Delete the backups the policy no longer keeps; returns those deleted.

    Only backups proven to be this campaign's (:func:`list_backups`) are ever deleted:
    another campaign's file in the folder, or in a folder the backups folder links to,
    is never touched. With no identity to prove anything by, nothing is deleted.
    """
    owner = owner or campaign_identity(path, backups_dir(path))
    if owner is None:
        return []
    backups = list_backups(path, owner)
    keep = backups_to_keep(backups, policy, now)
    removed = [b for b in backups if b.path not in keep]
    for backup in removed:
        remove_with_sides(backup.path)
    return removed
