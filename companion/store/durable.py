"""Making files last: fsync of files and folders, and temporary files that clean up after
a crash.

Every file the store makes (a new campaign, a copy, a backup, an export, a restore) is
written under a temporary name beside its destination, fsynced, renamed (or linked) into
place, and then its folder is fsynced so that the new name survives a power cut too.

Temporary names carry the writer's process id: ``.<dest name>.<pid>-<random>.<purpose>.tmp``.
A process killed half-way leaves its temporary file behind; the next open of a campaign in
that folder removes every such file whose process is gone (:func:`clean_stale_temps`).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import uuid
from pathlib import Path

_TEMP = re.compile(
    r"^\..*\.(?P<pid>\d+)-[0-9a-f]{8}\.[a-z]+\.tmp(?:-wal|-shm|-journal|\.lock)?\Z",
    re.DOTALL,  # a campaign's name may hold a newline
)
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
"""The files SQLite may keep beside a database."""


def temp_beside(dest: Path, purpose: str) -> Path:
    """A fresh temporary name in ``dest``'s folder for building ``dest``."""
    return dest.with_name(f".{dest.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.{purpose}.tmp")


def fsync_file(path: Path) -> None:
    """Flush ``path``'s bytes to the disk.

    On Windows ``os.fsync`` is ``_commit``, i.e. ``FlushFileBuffers``, which needs a
    handle with write access: a read-only one fails (EBADF). The files flushed here are
    the store's own fresh temporary files, so opening them for writing is fine there.
    """
    fd = os.open(path, os.O_RDWR if sys.platform == "win32" else os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    """Flush ``folder``'s entries (a rename or a new name in it) to the disk.

    Windows has no directory handles to fsync (NTFS journals names itself): a no-op there.
    """
    if sys.platform == "win32":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_with_sides(path: Path) -> None:
    """Remove ``path`` and any SQLite side files beside it (missing ones are fine)."""
    for name in (path, *(path.with_name(path.name + s) for s in SIDE_SUFFIXES)):
        with contextlib.suppress(FileNotFoundError):
            name.unlink()


def _process_gone(pid: int) -> bool:
    if pid == os.getpid():
        return False
    if sys.platform == "win32":
        return False  # no cheap, safe liveness probe: keep the file rather than guess
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # alive, owned by somebody else
    return False


def stale_temps(folder: Path) -> list[Path]:
    """Temporary files in ``folder`` whose writing process no longer exists."""
    if not folder.is_dir():
        return []
    found = []
    with contextlib.suppress(OSError):
        for entry in folder.iterdir():
            match = _TEMP.match(entry.name)
            if match and _process_gone(int(match["pid"])) and entry.is_file():
                found.append(entry)
    return sorted(found)


def clean_stale_temps(*folders: Path) -> list[Path]:
    """Remove what :func:`stale_temps` finds in each folder; returns what was removed."""
    removed = []
    for folder in folders:
        for entry in stale_temps(folder):
            with contextlib.suppress(OSError):
                entry.unlink()
                removed.append(entry)
    return removed
