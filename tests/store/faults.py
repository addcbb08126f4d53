"""Building the states that crashes and full disks leave, for the fault tests and the soak.

``half_checkpointed`` makes, by hand, exactly what a kill during a checkpoint leaves
(issue 19, fault 1): the main file's first page already copied from the write-ahead log
(so its header counts every page), the later pages not yet, and the log still whole.
``strace_run`` runs a command with a system call failing or killing it (Debian's
``strace``), which is how the tests simulate a full disk or a kill at a chosen moment
without root and without a real full disk.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store import CampaignFile
from tests.store.conftest import REPO, populate

STRACE = shutil.which("strace")


def strace_works() -> bool:
    """Whether strace is installed and may trace children here (a container may forbid
    ptrace)."""
    if STRACE is None:
        return False
    done = subprocess.run([STRACE, "-f", "-o", os.devnull, "true"], capture_output=True)
    return done.returncode == 0


needs_strace = pytest.mark.skipif(
    not strace_works(),
    reason="needs Debian's strace package (apt-get install strace), allowed to trace, to "
    "inject system-call failures and kills",
)


def wal_frames(wal: Path, page_size: int) -> list[tuple[int, bytes]]:
    """(page number, page bytes) of every frame in a write-ahead log, in order."""
    data = wal.read_bytes()
    frames = []
    offset = 32
    while offset + 24 + page_size <= len(data):
        page_no = struct.unpack(">I", data[offset:offset + 4])[0]
        frames.append((page_no, data[offset + 24:offset + 24 + page_size]))
        offset += 24 + page_size
    return frames


def half_checkpointed(path: Path, extra_pages: int = 60) -> int:
    """A campaign left as a kill during its checkpoint leaves it; returns its event count.

    The commits are all in ``-wal``; the main file's header already says how many pages
    they make, while the file is still the shorter one from before.
    """
    cf = CampaignFile.create(path, backups=False)
    populate(cf)
    cf.close(backup=False)
    cf = CampaignFile.open(path, backups=False)
    raw = cf._conn()
    raw.execute("PRAGMA wal_autocheckpoint = 0")
    populate(cf, extra_pages)  # grows the file, in the log only
    cf.add_note("the last commit before the kill")
    events = cf.event_count()
    keep = path.with_name("kept")
    keep.mkdir()
    for name in (path.name, path.name + "-wal"):
        shutil.copyfile(path.with_name(name), keep / name)
    page_size = int(raw.execute("PRAGMA page_size").fetchone()[0])
    cf.close(backup=False)
    for name in (path.name, path.name + "-wal"):
        shutil.copyfile(keep / name, path.with_name(name))
        (keep / name).unlink()
    keep.rmdir()
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    page_one = [page for number, page in wal_frames(path.with_name(path.name + "-wal"),
                                                    page_size) if number == 1][-1]
    with open(path, "r+b") as f:  # the checkpoint wrote page 1, then died
        f.write(page_one)
    header_pages = struct.unpack(">I", page_one[28:32])[0]
    assert header_pages * page_size > path.stat().st_size, "not a half checkpoint"
    return events


def event_count_of(path: Path) -> int:
    """Events in a campaign file, read by SQLite itself (with its log), read-only."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM journal_event").fetchone()[0])
    finally:
        conn.close()


def cli(*args: str, strace: list[str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -m companion ARGS`` (under ``strace`` options when given)."""
    command = [sys.executable, "-m", "companion", *args]
    if strace is not None:
        assert STRACE is not None
        command = [STRACE, "-f", "-qq", "-o", os.devnull, *strace, *command]
    return subprocess.run(
        command, cwd=REPO, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen"},
    )
