"""The single-writer lock: ``<campaign>.lock`` beside the file, held with ``flock``.

The lock file names its owner (pid and host) so a refusal can say who holds it. The
``flock`` is what actually excludes: the kernel releases it when the process dies, so a
crashed companion's lock is taken over automatically, without asking anybody to delete a
stale file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from companion.store.errors import CampaignLocked, ReadOnly


def lock_path(path: Path) -> Path:
    """Where the lock file of campaign ``path`` lives."""
    return path.with_name(path.name + ".lock")


@dataclass(frozen=True)
class LockOwner:
    """Who holds a campaign's lock."""

    pid: int | None
    """Process id, if the lock file says."""
    host: str | None
    """Host name, if the lock file says."""


def _read_owner(fd: int) -> LockOwner:
    try:
        raw = os.pread(fd, 4096, 0)
        data = json.loads(raw.decode("utf-8")) if raw else {}
        return LockOwner(pid=int(data["pid"]), host=str(data["host"]))
    except (OSError, ValueError, KeyError, TypeError):
        return LockOwner(pid=None, host=None)


class WriterLock:
    """An exclusive lock on one campaign file, held until :meth:`release`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise :class:`CampaignLocked` naming the holder."""
        target = lock_path(self.path)
        while True:
            try:
                fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
            except PermissionError as exc:
                raise ReadOnly(self.path) from exc
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                owner = _read_owner(fd)
                os.close(fd)
                raise CampaignLocked(self.path, owner.pid, owner.host) from None
            # The previous holder may have unlinked the file between our open and flock;
            # then we locked an orphan inode and must try again on the new file.
            try:
                same = os.fstat(fd).st_ino == os.stat(target).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        owner_text = json.dumps({"pid": os.getpid(), "host": socket.gethostname()})
        os.ftruncate(fd, 0)
        os.pwrite(fd, owner_text.encode("utf-8"), 0)
        self._fd = fd

    def release(self) -> None:
        """Give the lock up and remove the lock file (no-op when not held)."""
        if self._fd is None:
            return
        # Unlink while still holding the flock, so nobody can lock the old inode and
        # believe they own the campaign (acquire() re-checks the inode).
        with contextlib.suppress(OSError):
            os.unlink(lock_path(self.path))
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None


def lock_holder(path: Path) -> LockOwner | None:
    """Who holds the lock of ``path`` now, or None if nobody (checked without taking it)."""
    target = lock_path(path)
    try:
        fd = os.open(target, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_owner(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
