"""The single-writer lock: ``<campaign>.lock`` beside the file, held with ``filelock``.

``filelock.FileLock`` is the operating system's own lock (``flock`` on Linux and macOS,
``LockFileEx`` on Windows): the kernel releases it when the process dies, so a crashed
companion's lock is taken over automatically, without asking anybody to delete a stale
file. The lock file also names its owner (pid, host, and whether it is the app's window
or a command) so a refusal can say who holds it. Readers need no lock (SQLite's
write-ahead log lets them read beside the writer).

A library caller is refused at once when another copy holds the lock. The command line
waits a few seconds first (:func:`holding_as`, :data:`COMMAND_WAIT`; the environment
variable :data:`WAIT_ENV` changes how long): a command run while the window or another
command is in the middle of a write then simply goes next.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import socket
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from companion.store.errors import CampaignLocked, DiskFull, ReadOnly, SideFileInTheWay

WINDOW = "window"
"""The holder kind of the Stonesaga Companion window (the GUI)."""
COMMAND = "command"
"""The holder kind of a ``companion`` command."""

COMMAND_WAIT = 5.0
"""Seconds a command waits for another copy's write before it is refused."""
WAIT_ENV = "COMPANION_LOCK_WAIT"
"""Environment variable: seconds a command waits for the lock (0: refused at once)."""


@dataclass(frozen=True)
class _Holder:
    kind: str | None = None
    wait: float = 0.0
    on_wait: Callable[[LockOwner, float], None] | None = None


_holder = _Holder()
"""This process's kind and wait (see :func:`identify_as`)."""


def command_wait() -> float:
    """How long a command waits for the lock: :data:`WAIT_ENV` if it holds a number of
    seconds (0 or more), else :data:`COMMAND_WAIT`."""
    try:
        seconds = float(os.environ.get(WAIT_ENV, COMMAND_WAIT))
    except ValueError:
        return COMMAND_WAIT
    return seconds if math.isfinite(seconds) and seconds >= 0 else COMMAND_WAIT


def identify_as(kind: str | None, *, wait: float = 0.0,
                on_wait: Callable[[LockOwner, float], None] | None = None) -> None:
    """For the rest of this process: the lock file names this process as ``kind``
    (:data:`WINDOW` or :data:`COMMAND`), and taking a held lock waits ``wait`` seconds
    for it (calling ``on_wait(holder, wait)`` once, when the wait starts)."""
    global _holder
    _holder = _Holder(kind, max(0.0, wait), on_wait)


@contextlib.contextmanager
def holding_as(kind: str | None, *, wait: float = 0.0,
               on_wait: Callable[[LockOwner, float], None] | None = None) -> Iterator[None]:
    """:func:`identify_as` for the duration of a block (a command run in-process)."""
    global _holder
    before = _holder
    identify_as(kind, wait=wait, on_wait=on_wait)
    try:
        yield
    finally:
        _holder = before


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
    kind: str | None = None
    """:data:`WINDOW` or :data:`COMMAND`, if the lock file says."""


def read_owner(target: Path) -> LockOwner:
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
        kind = data.get("kind")
        return LockOwner(pid=int(data["pid"]), host=str(data["host"]),
                         kind=kind if kind in (WINDOW, COMMAND) else None)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
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
        owner: dict[str, object] = {"pid": os.getpid(), "host": socket.gethostname()}
        if _holder.kind is not None:
            owner["kind"] = _holder.kind
        # A newline first: on Windows byte 0 is the locked byte nobody else may read.
        owner_text = "\n" + json.dumps(owner)
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, owner_text.encode("utf-8"))
        except OSError as exc:  # reported by acquire(), once the lock file is gone again
            self._owner_error = exc

    def acquire(self) -> None:
        """Take the lock or raise :class:`CampaignLocked` naming the holder (after
        waiting for it as long as :func:`identify_as` says: a command waits a few
        seconds, a library caller not at all).

        Also raises :class:`SideFileInTheWay` (a folder where the lock file goes),
        :class:`ReadOnly` (the folder cannot be written) and :class:`DiskFull`; in each
        case no lock file is left behind.
        """
        target = lock_path(self.path)
        if target.is_dir():
            raise SideFileInTheWay(target, "a folder", "the campaign's lock file")
        self._owner_error = None
        lock = _file_lock(target, self._write_owner)
        holder = _holder
        try:
            try:
                lock.acquire()
            except Timeout:
                if holder.wait <= 0:
                    raise
                if holder.on_wait is not None:
                    holder.on_wait(read_owner(target), holder.wait)
                lock.acquire(timeout=holder.wait, blocking=True)
        except Timeout:
            owner = read_owner(target)
            raise CampaignLocked(self.path, owner.pid, owner.host, kind=owner.kind,
                                 waited=holder.wait) from None
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
        return read_owner(target)
    except OSError:
        return None
    probe.release(force=True)
    return None
