"""Schema versions of the campaign file and the ordered steps between them.

The version is ``PRAGMA user_version``. ``STEPS[n]`` upgrades a file from version ``n``
to ``n + 1``; each step runs in its own transaction (with the version bump), after the
caller has taken a backup copy. To add version n + 1 (version 2 is the example):

1. change the table's module (``shown_tables.py`` or ``later_tables.py``) and set
   ``SCHEMA_VERSION = n + 1``;
2. add ``STEPS[n] = _vn_to_vn1`` (plain SQL: ``ALTER TABLE``, ``CREATE TABLE``, data moves);
   never import the models in a step, they describe the *newest* schema;
3. add ``EXPORT_UPGRADES[n]`` if the export format's tables changed;
4. run ``tests/store/make_fixtures.py`` to add ``campaign-v<n+1>.stonesaga`` (keep the
   older ones).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable
from typing import Any

from sqlmodel import SQLModel

from companion.store.table_base import table_of

SCHEMA_VERSION = 5
"""The schema version this program writes."""

APPLICATION_ID = 0x53534743
"""``PRAGMA application_id`` of every campaign file ("SSGC"): tells ours from other SQLite."""

Step = Callable[[sqlite3.Connection], None]

#: Columns version 2 adds: (table, column, SQL type and default, default value).
#: The web Campaign Journal keeps these, and the journal shows them (issue 18).
_V2_COLUMNS: tuple[tuple[str, str, str, Any], ...] = (
    ("behemoth_state", "lair_hex", "VARCHAR NOT NULL DEFAULT ''", ""),
    ("behemoth_state", "demeanor", "INTEGER", None),
    ("behemoth_state", "secrets", "JSON NOT NULL DEFAULT '[]'", []),
    ("challenge_log_entry", "name", "VARCHAR NOT NULL DEFAULT ''", ""),
    ("challenge_log_entry", "notes", "VARCHAR NOT NULL DEFAULT ''", ""),
    ("looming_challenge", "name", "VARCHAR NOT NULL DEFAULT ''", ""),
    ("looming_challenge", "prepare_by", "INTEGER", None),
    ("looming_challenge", "position", "INTEGER NOT NULL DEFAULT 0", 0),
)


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """Behemoths gain the lair hex as written, demeanor and revealed secrets; the
    challenge log its name and notes; looming challenges their name, prepare-by epoch
    and the group's order (kept in the order they were set aside)."""
    for table, column, sql, _ in _V2_COLUMNS:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {sql}")
    conn.execute("UPDATE looming_challenge SET position = id")


def _export_v1_to_v2(tables: dict[str, Any]) -> dict[str, Any]:
    """Add version 2's columns, with their defaults, to a version 1 export's tables."""
    for table, column, _, default in _V2_COLUMNS:
        data = tables.get(table)
        if not isinstance(data, dict) or column in data.get("columns", []):
            continue
        columns = data.setdefault("columns", [])
        id_at = columns.index("id") if "id" in columns else None
        columns.append(column)
        for row in data.get("rows", []):
            value = row[id_at] if column == "position" and id_at is not None else default
            row.append(value)
    return tables


# --- version 3 ----------------------------------------------------------------------------
# Other changes of version 3 may join _v2_to_v3 as statements of their own: each block
# below is self-contained (its own CREATE/ALTER statements, its own export upgrade).

#: Version 3, the owner's cards travel with the campaign (issue 24): the table
#: ``own_card`` (``models.OwnCard``), exactly as ``create_schema`` makes it.
_V3_OWN_CARD_SQL: tuple[str, ...] = (
    "CREATE TABLE own_card (\n"
    "\tid INTEGER NOT NULL, \n"
    "\tpack_id VARCHAR NOT NULL, \n"
    "\tkind VARCHAR NOT NULL, \n"
    "\tcard_id VARCHAR NOT NULL, \n"
    "\tdata JSON NOT NULL, \n"
    "\tdigest VARCHAR NOT NULL, \n"
    "\tpack_version VARCHAR NOT NULL, \n"
    "\tPRIMARY KEY (id)\n"
    ")",
    "CREATE INDEX ix_own_card_key ON own_card (pack_id, kind, card_id)",
)
_V3_OWN_CARD_COLUMNS = ("id", "pack_id", "kind", "card_id", "data", "digest", "pack_version")


def _v3_own_card(conn: sqlite3.Connection) -> None:
    """The owner's cards a campaign uses are kept in the file (``own_card``); the cards
    an older campaign used are copied in from the data folder when it is next opened
    (``companion.operations.own_cards``), since a step reads nothing but the file."""
    for statement in _V3_OWN_CARD_SQL:
        conn.execute(statement)


def _export_v3_own_card(tables: dict[str, Any]) -> dict[str, Any]:
    """A version 2 export carries no cards of its own: an empty ``own_card``."""
    if "own_card" not in tables:
        tables["own_card"] = {"columns": list(_V3_OWN_CARD_COLUMNS), "rows": []}
    return tables


# --- version 3: the web Campaign Journal's sections (issue 28) -------------------------

_V3_WEB_COLUMNS: tuple[tuple[str, str, str, Any], ...] = (
    ("outpost", "notes", "VARCHAR NOT NULL DEFAULT ''", ""),
    ("challenge_log_entry", "goals_completed", "VARCHAR NOT NULL DEFAULT ''", ""),
    ("behemoth_state", "lair_overlay", "VARCHAR NOT NULL DEFAULT ''", ""),
    ("behemoth_state", "lair_zone", "VARCHAR NOT NULL DEFAULT ''", ""),
    ("cave_wall_illustration", "strokes", "JSON NOT NULL DEFAULT '[]'", []),
)
_V3_WEB_TABLES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("codex_entry_read",
     "CREATE TABLE codex_entry_read (id INTEGER NOT NULL PRIMARY KEY, "
     "entry VARCHAR NOT NULL DEFAULT '', title VARCHAR NOT NULL DEFAULT '', "
     "source_category VARCHAR NOT NULL DEFAULT '', source_id VARCHAR NOT NULL DEFAULT '', "
     "notes VARCHAR NOT NULL DEFAULT '', epoch INTEGER NOT NULL DEFAULT 1)",
     ("id", "entry", "title", "source_category", "source_id", "notes", "epoch")),
    ("web_journal_link",
     "CREATE TABLE web_journal_link (id INTEGER NOT NULL PRIMARY KEY, "
     "section VARCHAR NOT NULL DEFAULT '', web_id VARCHAR NOT NULL DEFAULT '', "
     "row_table VARCHAR NOT NULL DEFAULT '', row_id INTEGER, updated_at INTEGER, "
     "data JSON NOT NULL DEFAULT '{}', stamp VARCHAR NOT NULL DEFAULT '')",
     ("id", "section", "web_id", "row_table", "row_id", "updated_at", "data", "stamp")),
)
_V3_WEB_INDEXES = (
    "CREATE INDEX ix_web_journal_link_section_web_id ON web_journal_link (section, web_id)",
)


def _v2_to_v3_web_journal(conn: sqlite3.Connection) -> None:
    """Homes for the web journal's version 5 sections: outposts' notes, a challenge's
    goals completed, the lair's overlay tile and zone, cave wall drawings as strokes,
    the Codex entries read, and the link of each Journal entry to its row."""
    for table, column, sql, _ in _V3_WEB_COLUMNS:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {sql}")
    for _, create, _ in _V3_WEB_TABLES:
        conn.execute(create)
    for index in _V3_WEB_INDEXES:
        conn.execute(index)


def _export_v2_to_v3_web_journal(tables: dict[str, Any]) -> dict[str, Any]:
    """Version 3's web-journal columns (with their defaults) and empty tables."""
    for table, column, _, default in _V3_WEB_COLUMNS:
        data = tables.get(table)
        if not isinstance(data, dict) or column in data.get("columns", []):
            continue
        data.setdefault("columns", []).append(column)
        for row in data.get("rows", []):
            row.append(list(default) if isinstance(default, list) else default)
    for table, _, columns in _V3_WEB_TABLES:
        tables.setdefault(table, {"columns": list(columns), "rows": []})
    return tables

# --- end of the web journal's part of version 3 -----------------------------------------


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """Version 3: the owner's cards travel with the campaign (issue 24), and the web
    Campaign Journal's version 5 sections have homes (issue 28)."""
    _v3_own_card(conn)
    _v2_to_v3_web_journal(conn)


def _export_v2_to_v3(tables: dict[str, Any]) -> dict[str, Any]:
    """Version 3's tables and columns, added to a version 2 export's tables."""
    return _export_v2_to_v3_web_journal(_export_v3_own_card(tables))


# --- version 4: the campaign's identity (issue 35) ---------------------------------------


def _new_uid() -> str:
    """As ``shown_tables.new_campaign_uid`` (a step never imports the models)."""
    return uuid.uuid4().hex


_UID_NAMESPACE = uuid.UUID("6f1c2a43-5353-4743-8000-0000000000c4")
"""The namespace of the uids the migration to schema 4 derives (uuid5)."""


def first_event_fingerprint(conn: sqlite3.Connection) -> str | None:
    """The campaign's first journal event (time to the microsecond, kind, text) as one
    text: what ties copies of one campaign that have no uid (docs/campaign-file.md)."""
    first = conn.execute("SELECT time, kind, text FROM journal_event "
                         "ORDER BY id LIMIT 1").fetchone()
    return None if first is None else json.dumps([str(v) for v in first])


def _migrated_uid(conn: sqlite3.Connection) -> str:
    """The uid an older file gets: derived from its first journal event, so the file and
    every older copy of it (a restored pre-schema-4 backup) get the same one, and the
    backups taken since still prove they are its own; random when it has no event."""
    fingerprint = first_event_fingerprint(conn)
    if fingerprint is None:
        return _new_uid()
    return uuid.uuid5(_UID_NAMESPACE, fingerprint).hex


#: The store's own table (no model, never exported, never journalled): the mark every
#: commit leaves, by which a write-ahead log proves it continues this very file
#: (``companion.store.log_proof``; docs/campaign-file.md, "A write-ahead log's proof").
LOG_MARK_SQL = ("CREATE TABLE log_mark (id INTEGER NOT NULL PRIMARY KEY, "
                "prev VARCHAR NOT NULL DEFAULT '', cur VARCHAR NOT NULL DEFAULT '')")
LOG_MARK_VERSION = 4
"""The first schema version whose commits carry the log mark."""


def create_log_mark(conn: sqlite3.Connection) -> None:
    """Create the ``log_mark`` table with its one row: a first mark, following none (so a
    log that made it proves itself to a file from before it)."""
    conn.execute(LOG_MARK_SQL)
    conn.execute("INSERT INTO log_mark (id, prev, cur) VALUES (1, '', ?)", (_new_uid(),))


def stamp_log_mark(conn: sqlite3.Connection) -> None:
    """Inside a write transaction, just before its commit: a new mark, the old one kept as
    ``prev``. So the first commit of every write-ahead log names the mark of the state the
    log continues, which the file itself holds until the log is checkpointed into it."""
    conn.execute("UPDATE log_mark SET prev = cur, cur = ? WHERE id = 1", (_new_uid(),))


def _v3_to_v4(conn: sqlite3.Connection) -> None:
    """Every campaign gets its own ``uid`` (``campaign.uid``), so a backup can prove which
    campaign it belongs to; a file made before it gets one here, once (derived from its
    first journal event: :func:`_migrated_uid`). And
    every commit from now on leaves its mark (``log_mark``)."""
    conn.execute("ALTER TABLE campaign ADD COLUMN uid VARCHAR NOT NULL DEFAULT ''")
    conn.execute("UPDATE campaign SET uid = ? WHERE uid = ''", (_migrated_uid(conn),))
    create_log_mark(conn)


def _export_v3_to_v4(tables: dict[str, Any]) -> dict[str, Any]:
    """A version 3 export's campaign row gets a new ``uid``: the campaign it makes is a
    campaign of its own, whose backups prove they are its."""
    data = tables.get("campaign")
    if isinstance(data, dict) and "uid" not in data.get("columns", []):
        data.setdefault("columns", []).append("uid")
        for row in data.get("rows", []):
            if isinstance(row, list):
                row.append(_new_uid())
    return tables


# --- version 5: one campaign on several machines (issue 38) ------------------------------

#: Version 5's tables (``companion.store.sync_tables``), exactly as ``create_schema`` makes
#: them. They are this machine's bookkeeping of a shared campaign, never exported, so a
#: version 4 export needs no upgrade.
_V5_SYNC_SQL: tuple[str, ...] = (
    "CREATE TABLE sync_state (\n\tid INTEGER NOT NULL, \n\tmachine VARCHAR NOT NULL, \n"
    "\tmachine_name VARCHAR NOT NULL, \n\tfolder VARCHAR NOT NULL, \n"
    "\tbase_event INTEGER NOT NULL, \n\tregistered_event INTEGER NOT NULL, \n"
    "\tpublished_seq INTEGER NOT NULL, \n\tsnapshot_seq INTEGER NOT NULL, \n"
    "\toffline_since DATETIME, \n\tmachines JSON NOT NULL, \n\trefused JSON NOT NULL, \n"
    "\tdecisions JSON NOT NULL, \n\tPRIMARY KEY (id)\n)",
    "CREATE TABLE sync_op (\n\tid INTEGER NOT NULL, \n\tmachine VARCHAR NOT NULL, \n"
    "\tseq INTEGER NOT NULL, \n\tlamport INTEGER NOT NULL, \n\tevent_id INTEGER NOT NULL, \n"
    "\tstate VARCHAR NOT NULL, \n\tclash JSON NOT NULL, \n\trewind JSON NOT NULL, \n"
    "\top JSON NOT NULL, \n\tPRIMARY KEY (id)\n)",
    "CREATE UNIQUE INDEX ix_sync_op_machine_seq ON sync_op (machine, seq)",
    "CREATE TABLE sync_row (\n\tid INTEGER NOT NULL, \n\ttbl VARCHAR NOT NULL, \n"
    "\trow_id INTEGER NOT NULL, \n\t\"key\" VARCHAR NOT NULL, \n\tPRIMARY KEY (id), \n"
    "\tUNIQUE (\"key\")\n)",
    "CREATE INDEX ix_sync_row_table_row ON sync_row (tbl, row_id)",
)


def _v4_to_v5(conn: sqlite3.Connection) -> None:
    """A campaign can be shared: the tables of this machine's part in it (empty until
    it is shared or joined)."""
    for statement in _V5_SYNC_SQL:
        conn.execute(statement)


def _export_v4_to_v5(tables: dict[str, Any]) -> dict[str, Any]:
    """Version 5 adds no exported table: a version 4 export is already one of version 5."""
    return tables


STEPS: dict[int, Step] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5}
"""``STEPS[n]`` upgrades version n to n + 1."""

EXPORT_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _export_v1_to_v2, 2: _export_v2_to_v3, 3: _export_v3_to_v4, 4: _export_v4_to_v5}
"""``EXPORT_UPGRADES[n]`` turns an export's ``tables`` from schema n into n + 1."""


def create_schema(conn: sqlite3.Connection) -> None:
    """Create every table of the current schema and stamp the file as ours."""
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    from companion.store.later_tables import ALL_TABLES  # a new file gets every table
    from companion.store.sync_tables import SYNC_TABLES

    engine = create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)
    tables = [table_of(model) for model in (*ALL_TABLES, *SYNC_TABLES)]
    with engine.begin() as connection:
        SQLModel.metadata.create_all(connection, tables=tables)
    create_log_mark(conn)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.commit()


def pending_steps(version: int) -> list[tuple[int, Step]]:
    """The steps that take a file from ``version`` to ``SCHEMA_VERSION``, in order."""
    missing = [v for v in range(version, SCHEMA_VERSION) if v not in STEPS]
    if missing:
        raise RuntimeError(f"no migration step from schema version {missing[0]}")
    return [(v, STEPS[v]) for v in range(version, SCHEMA_VERSION)]


def upgrade(conn: sqlite3.Connection, version: int) -> int:
    """Run every pending step, each in one transaction; returns the new version.

    ``conn`` must be in autocommit mode (``isolation_level=None``) so that the explicit
    BEGIN/COMMIT here are the only transaction boundaries.
    """
    for start, step in pending_steps(version):
        conn.execute("BEGIN IMMEDIATE")
        try:
            step(conn)
            if start + 1 > LOG_MARK_VERSION:  # the step to 4 makes the first mark
                stamp_log_mark(conn)
            conn.execute(f"PRAGMA user_version = {start + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        version = start + 1
    return version
