"""Looking at a campaign file without changing it: header, identity, quick check.

Used before a file is opened for writing, by ``check_campaign`` and by restore. Nothing
here writes the database file: the header is read as bytes, and SQLite is opened
read-only (``immutable=1`` when no write-ahead log is pending, so that not even the
``-wal``/``-shm`` side files are created).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Header:
    """The fields of a SQLite file's 100-byte header we care about."""

    page_size: int
    page_count: int
    """Pages the header says the file has (valid when the file was last written cleanly)."""
    user_version: int
    application_id: int


class HeaderProblem(Exception):
    """The first bytes already show the file is not a (whole) SQLite database."""

    def __init__(self, why: str, *, sqlite: bool) -> None:
        super().__init__(why)
        self.sqlite = sqlite
        """True when it is SQLite but damaged; False when it is not SQLite at all."""


def read_header(path: Path) -> Header:
    """Read and sanity-check the header; raise :class:`HeaderProblem` when it is wrong."""
    with open(path, "rb") as f:
        raw = f.read(100)
    if len(raw) < 100 or not raw.startswith(SQLITE_MAGIC):
        raise HeaderProblem("not an SQLite database", sqlite=False)
    page_size = struct.unpack(">H", raw[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    page_count, = struct.unpack(">I", raw[28:32])
    user_version, = struct.unpack(">i", raw[60:64])
    application_id, = struct.unpack(">i", raw[68:72])
    size = path.stat().st_size
    # The in-header size is only trusted when the change counters agree (as SQLite does),
    # and only when no write-ahead log is pending: a kill during a checkpoint leaves a
    # first page that already counts pages still in the log, and SQLite, replaying the
    # log, reads them all. Then SQLite judges the file (quick_check), not its size.
    if (raw[24:28] == raw[92:96] and page_count and size < page_count * page_size
            and not wal_pending(path)):
        raise HeaderProblem(
            f"truncated: {size} bytes where {page_count * page_size} were written",
            sqlite=True,
        )
    return Header(page_size, page_count, user_version, application_id)


def log_of(path: Path) -> Path:
    """The write-ahead log's name: beside the file itself, when ``path`` is a symbolic link
    (SQLite follows the link)."""
    real = Path(os.path.realpath(path))
    return real.with_name(real.name + "-wal")


def wal_pending(path: Path) -> bool:
    """Whether a non-empty write-ahead log sits beside the file (a crash left commits)."""
    wal = log_of(path)
    return wal.exists() and wal.stat().st_size > 0


def wal_exists(path: Path) -> bool:
    """Whether a write-ahead log file, even an empty one, sits beside the file."""
    return log_of(path).exists()


@contextlib.contextmanager
def open_readonly(path: Path, *, shared: bool = False,
                  with_log: bool = True) -> Iterator[sqlite3.Connection]:
    """A read-only SQLite connection that leaves no side files behind when it can.

    ``shared=True`` when another connection may be writing meanwhile: then it must take
    part in SQLite's locking (``immutable`` would read pages as they change).
    ``with_log=False`` reads the file alone, its log left aside (a stranger's log).
    """
    # No log file at all: nobody has the file open in WAL mode (SQLite removes the log
    # when the last connection closes), and a writer that starts meanwhile writes its
    # log, not the main file (until a checkpoint): reading it as immutable is safe, and
    # it makes no empty -wal/-shm beside a file that may yet be refused.
    immutable = not with_log or not wal_exists(path) or (
        not shared and not wal_pending(path))
    mode = "mode=ro&immutable=1" if immutable else "mode=ro"
    conn = sqlite3.connect(f"file:{quote(str(path))}?{mode}", uri=True)
    try:
        yield conn
    finally:
        conn.close()


def quick_check(conn: sqlite3.Connection, *, full: bool = False) -> list[str]:
    """Problems found by ``PRAGMA quick_check`` (or ``integrity_check``); [] when fine."""
    pragma = "integrity_check" if full else "quick_check"
    rows = [str(r[0]) for r in conn.execute(f"PRAGMA {pragma}").fetchall()]
    return [] if rows == ["ok"] else rows


def pragma_int(conn: sqlite3.Connection, name: str) -> int:
    """An integer PRAGMA's value."""
    return int(conn.execute(f"PRAGMA {name}").fetchone()[0])
