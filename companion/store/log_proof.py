"""Whether a pending write-ahead log is this campaign file's own, judged from bytes alone.

SQLite replays any valid ``-wal`` it finds beside a database: nothing in the database ties a
log to it. A stranger's log (another campaign's, or this campaign's older session left by
name beside a file a sync tool replaced) would be read as the campaign and, at the next
checkpoint, written into it for good. So before SQLite opens a file with a log pending,
the store reads the log here, as bytes, and SQLite is never let near a stranger's.

The proof (docs/campaign-file.md, "A write-ahead log's proof"): every commit since schema 4
rewrites the one row of the store's own table ``log_mark`` (``cur`` a new random mark,
``prev`` the mark it replaces, :func:`companion.store.migrations.stamp_log_mark`). A log
begins on a file that holds every earlier commit (SQLite restarts a log only once all of it
is checkpointed into the file), so its first commit's ``prev`` is the mark the file holds;
until the next restart the file changes only by checkpoints of this log's own frames, so it
holds that mark or one of the log's own. Any other log is a stranger's: 128 random bits say so.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

from companion.store import migrations
from companion.store.integrity import log_of

_MARK = re.compile(r"(?:[0-9a-f]{32})?")
"""A mark as ``log_mark`` holds it: 32 hex digits, or nothing (before the first)."""
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_VERSION = 3007000
WAL_HEADER = 32
FRAME_HEADER = 24


@dataclass(frozen=True)
class Frame:
    """One frame of a log: a page's new image, and the database size if it ends a commit."""

    page: int
    commit_size: int
    data: bytes


@dataclass(frozen=True)
class Verdict:
    """What the log is: ``own`` (or nothing SQLite would replay), or why it is a stranger's."""

    own: bool
    why: str = ""


def _checksum(data: bytes, big_endian: bool, s1: int = 0, s2: int = 0) -> tuple[int, int]:
    """SQLite's log checksum over ``data`` (a multiple of 8 bytes)."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s1 = (s1 + words[i] + s2) & 0xFFFFFFFF
        s2 = (s2 + words[i + 1] + s1) & 0xFFFFFFFF
    return s1, s2


def committed_frames(wal: bytes) -> tuple[int, list[Frame]] | None:
    """The log's page size and the frames SQLite would replay (those of whole commits,
    with the log's own salts), or None when SQLite would ignore the log (no valid header).

    The frames' checksums are SQLite's to judge: a frame that fails them ends what SQLite
    replays, so this may list more than it replays, never less.
    """
    if len(wal) < WAL_HEADER:
        return None
    magic, version, page_size, _, salt1, salt2, c1, c2 = struct.unpack(">8I", wal[:32])
    if magic not in WAL_MAGIC or version != WAL_VERSION:
        return None
    if _checksum(wal[:24], big_endian=magic & 1 == 1) != (c1, c2):
        return None
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return None
    frames: list[Frame] = []
    committed = 0
    at = WAL_HEADER
    while at + FRAME_HEADER + page_size <= len(wal):
        page, size, fs1, fs2 = struct.unpack(">4I", wal[at:at + 16])
        if (fs1, fs2) != (salt1, salt2) or page == 0:
            break
        frames.append(Frame(page, size, wal[at + FRAME_HEADER:at + FRAME_HEADER + page_size]))
        if size:
            committed = len(frames)
        at += FRAME_HEADER + page_size
    return page_size, frames[:committed]


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at ``at``: (value, offset after it)."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def _record_texts(payload: bytes) -> list[str | None]:
    """The text values of an SQLite record (None for any other value)."""
    header_size, at = _varint(payload, 0)
    types: list[int] = []
    while at < header_size:
        serial, at = _varint(payload, at)
        types.append(serial)
    body = header_size
    fixed = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 7: 8, 8: 0, 9: 0}
    values: list[str | None] = []
    for serial in types:
        if serial >= 12:
            size = (serial - 12) // 2
            raw = payload[body:body + size]
            values.append(raw.decode("utf-8", "replace") if serial % 2 else None)
        else:
            size = fixed.get(serial, 0)
            values.append(None)
        body += size
    return values


def mark_in_page(page: bytes, page_number: int) -> tuple[str, str] | None:
    """(prev, cur) of ``log_mark``'s row 1 in an image of its page; None if not found there."""
    try:
        start = 100 if page_number == 1 else 0
        if page[start] != 0x0D:  # a table's leaf page: the one-row table lives in its root
            return None
        cells, = struct.unpack(">H", page[start + 3:start + 5])
        for i in range(cells):
            pointer, = struct.unpack(">H", page[start + 8 + 2 * i:start + 10 + 2 * i])
            size, at = _varint(page, pointer)
            rowid, at = _varint(page, at)
            if rowid != 1 or at + size > len(page):
                continue
            values = _record_texts(page[at:at + size])
            if len(values) == 3 and values[1] is not None and values[2] is not None \
                    and all(_MARK.fullmatch(v) for v in values[1:] if v is not None):
                return values[1], values[2]
    except (IndexError, struct.error):
        return None
    return None


def _file_page(path: Path, number: int, page_size: int) -> bytes:
    """Page ``number`` of the file itself, as bytes (b"" beyond its end).

    Read from the file, not through SQLite: after a kill during a checkpoint the file
    alone is no database SQLite can read (its first page may count pages still in the
    log), yet each of its pages is whole, an image the log continues.
    """
    with open(path, "rb") as f:
        f.seek((number - 1) * page_size)
        return f.read(page_size)


def _pages_fit(frames: list[Frame]) -> bool:
    """Whether every frame's page lies within the database size its commit gives."""
    pages: list[int] = []
    for frame in frames:
        pages.append(frame.page)
        if frame.commit_size:
            if max(pages) > frame.commit_size:
                return False
            pages = []
    return True


def judge_log(path: Path, page_size: int, user_version: int) -> Verdict:
    """Whether the log pending beside ``path`` is the file's own (see the module).

    ``page_size`` and ``user_version`` come from the file's header bytes. A file from
    before schema 4 carries no mark: its log is judged as before, by SQLite's full
    ``integrity_check`` (docs/campaign-file.md).
    """
    try:
        wal = log_of(path).read_bytes()
    except FileNotFoundError:
        return Verdict(True)
    read = committed_frames(wal)
    if read is None or not read[1]:
        return Verdict(True)  # nothing SQLite would replay
    log_page_size, frames = read
    if log_page_size != page_size:
        return Verdict(False, f"its pages are {log_page_size} bytes, the file's {page_size}")
    if not _pages_fit(frames):
        return Verdict(False, "it writes pages beyond the size its own commits give")
    if user_version < migrations.LOG_MARK_VERSION:
        return Verdict(True)
    marks = [(f.page, m) for f in frames for m in [mark_in_page(f.data, f.page)] if m]
    if not marks:
        return Verdict(False, "none of its changes carries this campaign's mark")
    root = marks[0][0]
    if any(page != root for page, _ in marks):
        return Verdict(False, "its marks are not where this campaign keeps its mark")
    held = mark_in_page(_file_page(path, root, page_size), root)
    first_prev = marks[0][1][0]
    if held is None:
        # The file has no mark there yet: only a log that made the mark (the migration
        # to schema 4, whose first mark follows none) continues such a file.
        if first_prev == "":
            return Verdict(True)
        return Verdict(False, "the campaign file holds no mark for a log to continue")
    if first_prev == held[1] or held[1] in {cur for _, (_, cur) in marks}:
        return Verdict(True)
    return Verdict(False, "its changes continue another file, not this one")
