"""The single-writer lock: ``<campaign>.lock`` beside the file, held with ``filelock``.

``filelock.FileLock`` is the operating system's own lock (``flock`` on Linux and macOS,
``LockFileEx`` on Windows): the kernel releases it when the process dies, so a crashed
companion's lock is taken over automatically, without asking anybody to delete a stale
file. The lock file also names its owner (pid and host) so a refusal can say who holds
it. Readers need no lock (SQLite's write-ahead log lets them read beside the writer).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from companion.store.errors import CampaignLocked, DiskFull, ReadOnly, SideFileInTheWay


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


def _read_owner(target: Path) -> LockOwner:
    try:
        try:
            raw = target.read_bytes()[:4096]
        except PermissionError:
            # Windows: the holder's LockFileEx bars byte 0 to every other process, so
            # the owner is written from byte 1 on (see _write_owner) and read from there.
            with open(target, "rb") as stream:
                stream.seek(1)
                raw = stream.read(4096)
        data = json.loads(raw.decode("utf-8")) if raw.strip() else {}
        return LockOwner(pid=int(data["pid"]), host=str(data["host"]))
    except (OSError, ValueError, KeyError, TypeError):
        return LockOwner(pid=None, host=None)


def _file_lock(target: Path, on_acquired: object = None) -> FileLock:
    # thread_local=False: the GUI may open in one thread and close in another.
    # fallback_to_soft=False: a filesystem without flock must not get a lock that a
    # crash leaves behind for ever; it fails loudly instead.
    return FileLock(target, thread_local=False, blocking=False, fallback_to_soft=False,
                    on_acquired=on_acquired)  # type: ignore[arg-type]


class WriterLock:
    """An exclusive lock on one campaign file, held until :meth:`release`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: FileLock | None = None
        self._owner_error: OSError | None = None

    def _write_owner(self, fd: int) -> None:
        # A newline first: on Windows byte 0 is the locked byte nobody else may read.
        owner_text = "\n" + json.dumps({"pid": os.getpid(), "host": socket.gethostname()})
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, owner_text.encode("utf-8"))
        except OSError as exc:  # reported by acquire(), once the lock file is gone again
            self._owner_error = exc

    def acquire(self) -> None:
        """Take the lock or raise :class:`CampaignLocked` naming the holder.

        Also raises :class:`SideFileInTheWay` (a folder where the lock file goes),
        :class:`ReadOnly` (the folder cannot be written) and :class:`DiskFull`; in each
        case no lock file is left behind.
        """
        target = lock_path(self.path)
        if target.is_dir():
            raise SideFileInTheWay(target, "a folder", "the campaign's lock file")
        self._owner_error = None
        lock = _file_lock(target, self._write_owner)
        try:
            lock.acquire()
        except Timeout:
            owner = _read_owner(target)
            raise CampaignLocked(self.path, owner.pid, owner.host) from None
        except IsADirectoryError:
            raise SideFileInTheWay(target, "a folder", "the campaign's lock file") from None
        except PermissionError as exc:
            raise ReadOnly(self.path) from exc
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise DiskFull(self.path) from exc
            raise
        self._lock = lock
        if self._owner_error is not None:
            failure = self._owner_error
            self.release()
            if failure.errno == errno.ENOSPC:
                raise DiskFull(self.path) from failure
            raise ReadOnly(self.path) from failure

    def release(self) -> None:
        """Give the lock up and remove the lock file (no-op when not held)."""
        lock, self._lock = self._lock, None
        if lock is None:
            return
        if sys.platform != "win32":
            # Unlink while still holding the lock, so nobody can lock the old inode and
            # believe they own the campaign (filelock re-checks that the inode is linked).
            # Windows cannot unlink an open file; filelock removes it there on release.
            with contextlib.suppress(OSError):
                os.unlink(lock_path(self.path))
        lock.release(force=True)

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._lock is not None


def lock_holder(path: Path) -> LockOwner | None:
    """Who holds the lock of ``path`` now, or None if nobody.

    Probes by trying the lock once (and giving it straight back); never creates a lock
    file where there is none.
    """
    target = lock_path(path)
    if not target.is_file():
        return None
    probe = _file_lock(target)
    try:
        probe.acquire()
    except Timeout:
        return _read_owner(target)
    except OSError:
        return None
    probe.release(force=True)
    return None
