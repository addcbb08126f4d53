"""The rows the start-up's first view shows, read with plain ``sqlite3`` (issue 37).

The window shows the campaign before sqlmodel, the table classes and the content schema
are imported: this module reads exactly the rows the Valley tab and the status bar show,
read-only, and nothing else. It reads only a file that nothing about opening would
stop or change, and answers None for any other, which then opens the usual way (that
way says what is wrong, in words):

- a ``-wal`` beside the file (a crash's log, or a stranger's: the full open proves it
  the file's own before SQLite reads it, :class:`~companion.store.errors.StrangerLog`),
  or a ``.lock`` (another copy of the app, or a command, has the campaign open);
- a file that cannot be written, a header that is not a campaign of this schema version
  (older: migrated by the full open; newer, not ours, damaged: refused by it);
- a campaign shared through a folder (its keeper and status come with the full open),
  or one with a Discovery card due (the Valley tab's Discovery box, read by the full
  view); a procedure saved mid-way changes nothing the first view draws, and the full
  open offers it again once the real view is on screen, as before;
- any SQLite error while reading.

The full open (lock, checks, migration, backup, background integrity check) follows at
once; its view takes the first view's place (``companion.ui.first_view``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.store.integrity import HeaderProblem, read_header, wal_exists

SCHEMA_VERSION = 5
"""The schema version these reads are written for: ``migrations.SCHEMA_VERSION`` (a test
checks the two agree; this module does not import sqlmodel to read it)."""
APPLICATION_ID = 0x53534743
"""``migrations.APPLICATION_ID`` ("SSGC"), likewise."""
NIGHT_DECK = "night"
"""The Night deck's row in ``deck_state`` (``operations.core.NIGHT_DECK``)."""
DISCOVERY_DUE = "discovery_due"
"""The ``procedure_state`` row of a Discovery card due after a move
(``operations.procedure_row.DISCOVERY_DUE``)."""

Row = dict[str, Any]


@dataclass(frozen=True)
class FirstRows:
    """The rows of the first view, as plain dicts (JSON columns decoded)."""

    campaign: Row
    society: Row
    trays: tuple[Row, ...]
    """``valley_tray`` by ``tray_number``."""
    hexes: tuple[Row, ...]
    """``valley_hex`` by id."""
    overlays: tuple[Row, ...]
    tokens: tuple[Row, ...]
    characters: tuple[Row, ...]
    """Active and incapacitated characters, by id (as ``load_game`` reads them)."""
    outposts: tuple[Row, ...]
    structures: tuple[Row, ...]
    behemoths: tuple[Row, ...]
    night_discard: tuple[str, ...]
    own_cards: str
    """:func:`own_cards_digest` of the cards the file carries (which of the owner's
    cards the campaign plays with depends on them)."""


JSON_COLUMNS = {
    "campaign": ("content_packs", "players", "settings"),
    "valley_tray": ("placement",),
    "character": ("traits", "marks", "health", "boosts", "items", "bag"),
    "behemoth_state": ("target",),
}
"""Columns that hold JSON, among those read here."""


def lock_file(path: Path) -> Path:
    """The campaign's lock file (``companion.store.lock.lock_path``; lock.py imports
    filelock, which the first view does not need)."""
    return path.with_name(path.name + ".lock")


def _writable(path: Path) -> bool:
    """As ``opening.writable``: its mode allows writing and so does the system."""
    mode = path.stat().st_mode
    return bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) and \
        os.access(path, os.W_OK)


def plainly_openable(path: Path) -> bool:
    """Whether opening ``path`` would neither refuse, nor migrate, nor check a log first:
    no side file, nobody holding it, writable, a campaign of this schema version."""
    try:
        if not path.is_file() or wal_exists(path) or lock_file(path).exists() or \
                not _writable(path):
            return False
        header = read_header(path)
    except (OSError, HeaderProblem):
        return False
    return header.application_id == APPLICATION_ID and header.user_version == SCHEMA_VERSION


def read_first_rows(path: Path) -> FirstRows | None:
    """The first view's rows of the campaign at ``path``, or None when it must open the
    usual way first (see the module's docstring)."""
    path = Path(path).absolute()
    if not plainly_openable(path):
        return None
    try:
        # immutable: no side file is made and no lock taken (nobody has it open: no
        # -wal, no .lock), exactly as the store's own inspection reads a file.
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        conn.row_factory = sqlite3.Row
        return _read(conn)
    except (sqlite3.Error, ValueError, TypeError, KeyError):
        return None
    finally:
        conn.close()


def _rows(conn: sqlite3.Connection, table: str, sql: str, *args: Any) -> tuple[Row, ...]:
    found = []
    for row in conn.execute(sql, args):
        item = dict(row)
        for column in JSON_COLUMNS.get(table, ()):
            if column in item and isinstance(item[column], str):
                item[column] = json.loads(item[column])
        found.append(item)
    return tuple(found)


def own_cards_digest(rows: Iterable[Sequence[Any]]) -> str:
    """A digest of the ``own_card`` rows (every column, by id), as read raw from SQLite."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(list(row), default=str).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


OWN_CARDS_SQL = "SELECT * FROM own_card ORDER BY id"
"""The read :func:`own_cards_digest` is taken of, here and by the full open."""


def _read(conn: sqlite3.Connection) -> FirstRows | None:
    # What shows more than the first view draws: a Discovery due (the Valley tab's
    # box), sharing (its status and keeper).
    if conn.execute("SELECT 1 FROM sync_state LIMIT 1").fetchone() is not None or \
            conn.execute("SELECT 1 FROM procedure_state WHERE kind = ? LIMIT 1",
                         (DISCOVERY_DUE,)).fetchone() is not None:
        return None
    campaign = _rows(conn, "campaign", "SELECT * FROM campaign WHERE id = 1")
    society = _rows(conn, "society", "SELECT * FROM society WHERE id = 1")
    if not campaign or not society or campaign[0]["solo_variant"] == "hardcore":
        return None  # hardcore solo's health track: read by the rules, not here
    deck = conn.execute("SELECT discard FROM deck_state WHERE deck = ?",
                        (NIGHT_DECK,)).fetchone()
    return FirstRows(
        campaign=campaign[0],
        society=society[0],
        trays=_rows(conn, "valley_tray", "SELECT * FROM valley_tray ORDER BY tray_number"),
        hexes=_rows(conn, "valley_hex", "SELECT * FROM valley_hex ORDER BY id"),
        overlays=_rows(conn, "overlay", "SELECT * FROM overlay ORDER BY id"),
        tokens=_rows(conn, "hex_token", "SELECT * FROM hex_token ORDER BY id"),
        characters=_rows(conn, "character", "SELECT * FROM character WHERE status IN "
                         "('active', 'incapacitated') ORDER BY id"),
        outposts=_rows(conn, "outpost", "SELECT * FROM outpost ORDER BY id"),
        structures=_rows(conn, "outpost_structure",
                         "SELECT * FROM outpost_structure ORDER BY id"),
        behemoths=_rows(conn, "behemoth_state", "SELECT * FROM behemoth_state ORDER BY id"),
        night_discard=tuple(json.loads(deck[0])) if deck is not None else (),
        own_cards=own_cards_digest(tuple(row) for row in conn.execute(OWN_CARDS_SQL)),
    )
