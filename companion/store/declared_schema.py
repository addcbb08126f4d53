"""What a campaign file may hold: the tables, columns and indexes the schema declares, and
the refusal of anything else (issue 35 item 4).

The companion makes no triggers, views, virtual tables (FTS4, FTS5, R*Tree ...) or their
shadow tables, extra tables or columns, generated columns, expression or partial indexes
of its own invention. Any of them could make SQLite run code, or change rows, that no
journal sees, so a file holding one is refused (``ForeignAdditions``), each named.

:data:`TABLES` and :data:`INDEXES` are the newest schema (the models of
``companion.store.later_tables`` and ``sync_tables`` plus the store's own ``log_mark``),
written out so that an open need not import every model
(``tests/store/test_foreign_schema.py`` holds them equal to the models and to a new
file); :data:`ADDED_IN` says which schema version brought what, so an older file is held
to the schema of its own version.

``sqlite_master`` is read as text first; SQLite's table and index pragmas are asked only
about plain tables, so a planted virtual table's code never runs on its data here.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field

TABLES: dict[str, tuple[str, ...]] = {
    "behemoth_state": ("id", "behemoth_id", "name", "hex_id", "lair_hex_id", "target",
                       "instinct_card", "secret_card", "secret_learned", "habits_learned",
                       "boosts", "reaction_deck", "lair_hex", "demeanor", "secrets", "note",
                       "lair_overlay", "lair_zone"),
    "campaign": ("id", "uid", "society_name", "epoch", "created", "content_packs", "players",
                 "character_count", "solo_variant", "delving_unlocked", "odds_advisor",
                 "settings"),
    "cave_wall_illustration": ("id", "title", "marks", "image", "note", "epoch", "strokes"),
    "challenge_log_entry": ("id", "epoch", "challenge_id", "characters", "outcome_entry",
                            "finished", "name", "notes", "goals_completed"),
    "character": ("id", "name", "player", "age", "might", "dexterity", "awareness",
                  "conviction", "traits", "mantle", "mantle_power", "marks", "health",
                  "energy", "boosts", "items", "bag", "hex_id", "status"),
    "code_record": ("id", "code", "status", "name", "data"),
    "codex_entry_read": ("id", "entry", "title", "source_category", "source_id", "notes",
                         "epoch"),
    "culture_ability": ("id", "ability_id", "name", "text", "epoch"),
    "deck_change": ("id", "deck", "card_id", "change", "note", "epoch"),
    "deck_state": ("id", "deck", "draw_pile", "discard"),
    "goal_state": ("id", "goal_id", "state", "epoch"),
    "hex_token": ("id", "hex_id", "kind", "count"),
    "journal_event": ("id", "time", "kind", "text", "author", "payload", "changes", "undone",
                      "redoable", "undoes_id", "redoes_id"),
    "legend": ("id", "character_id", "name", "abilities", "traits", "marks", "epoch",
               "succeeded_by_id", "assigned_to_id"),
    "log_mark": ("id", "prev", "cur"),
    "looming_challenge": ("id", "challenge_id", "epoch", "note", "name", "prepare_by",
                          "position"),
    "mantle_power": ("id", "power_id", "mantle", "epoch"),
    "note_page": ("id", "title", "text", "position"),
    "omen_investigation": ("id", "omen_id", "component_id", "epoch", "note"),
    "outpost": ("id", "name", "category", "status", "epoch_built", "overlay_id", "hex_id",
                "section", "materials", "notes"),
    "outpost_structure": ("id", "outpost_id", "structure_id", "materials"),
    "overlay": ("id", "hex_id", "section", "overlay_id", "kind"),
    "own_card": ("id", "pack_id", "kind", "card_id", "data", "digest", "pack_version"),
    "procedure_state": ("id", "kind", "state", "started_event_id"),
    "retained_supply": ("id", "character_id", "items", "materials", "bequeathed_to_id"),
    "rng_state": ("id", "name", "seed", "state"),
    "save_point": ("id", "name", "event_id", "created"),
    "society": ("id", "unrest", "activity", "lore", "current_challenge_id",
                "games_this_epoch", "triggered_events"),
    "sync_op": ("id", "machine", "seq", "lamport", "event_id", "state", "clash", "rewind",
                "op"),
    "sync_row": ("id", "tbl", "row_id", "key"),
    "sync_state": ("id", "machine", "machine_name", "folder", "base_event",
                   "registered_event", "published_seq", "snapshot_seq", "offline_since",
                   "machines", "refused", "decisions"),
    "valley_hex": ("id", "tray_id", "slot", "tile_id", "explored", "explored_at_event_id"),
    "valley_tray": ("id", "tray_number", "region", "placement"),
    "web_journal_link": ("id", "section", "web_id", "row_table", "row_id", "updated_at",
                         "data", "stamp"),
}
"""Every table of the newest schema and its columns, in order."""

INDEXES: dict[str, tuple[str, tuple[str, ...], bool]] = {
    "ix_character_status": ("character", ("status",), False),
    "ix_code_record_code": ("code_record", ("code",), False),
    "ix_deck_change_deck": ("deck_change", ("deck",), False),
    "ix_hex_token_hex_id": ("hex_token", ("hex_id",), False),
    "ix_journal_event_kind_id": ("journal_event", ("kind", "id"), False),
    "ix_journal_event_redoable": ("journal_event", ("id",), True),
    "ix_journal_event_time": ("journal_event", ("time",), False),
    "ix_mantle_power_power_id": ("mantle_power", ("power_id",), False),
    "ix_outpost_structure_outpost_id": ("outpost_structure", ("outpost_id",), False),
    "ix_overlay_hex_id": ("overlay", ("hex_id",), False),
    "ix_own_card_key": ("own_card", ("pack_id", "kind", "card_id"), False),
    "ix_retained_supply_character_id": ("retained_supply", ("character_id",), False),
    "ix_valley_hex_tray_id": ("valley_hex", ("tray_id",), False),
    "ix_web_journal_link_section_web_id": ("web_journal_link", ("section", "web_id"), False),
    "sqlite_autoindex_deck_state_1": ("deck_state", ("deck",), False),
    "sqlite_autoindex_rng_state_1": ("rng_state", ("name",), False),
    "ix_sync_op_machine_seq": ("sync_op", ("machine", "seq"), False),
    "ix_sync_row_table_row": ("sync_row", ("tbl", "row_id"), False),
    "sqlite_autoindex_sync_row_1": ("sync_row", ("key",), False),
}
"""Every index of the newest schema: (table, key columns, partial)."""


@dataclass(frozen=True)
class Added:
    """What one schema version brought: tables, (table, column) pairs, indexes."""

    tables: frozenset[str] = frozenset()
    columns: frozenset[tuple[str, str]] = frozenset()
    indexes: frozenset[str] = field(default_factory=frozenset)


ADDED_IN: dict[int, Added] = {
    2: Added(columns=frozenset({
        ("behemoth_state", "lair_hex"), ("behemoth_state", "demeanor"),
        ("behemoth_state", "secrets"), ("challenge_log_entry", "name"),
        ("challenge_log_entry", "notes"), ("looming_challenge", "name"),
        ("looming_challenge", "prepare_by"), ("looming_challenge", "position")})),
    3: Added(
        tables=frozenset({"own_card", "codex_entry_read", "web_journal_link"}),
        columns=frozenset({
            ("outpost", "notes"), ("challenge_log_entry", "goals_completed"),
            ("behemoth_state", "lair_overlay"), ("behemoth_state", "lair_zone"),
            ("cave_wall_illustration", "strokes")}),
        indexes=frozenset({"ix_own_card_key", "ix_web_journal_link_section_web_id"})),
    4: Added(tables=frozenset({"log_mark"}), columns=frozenset({("campaign", "uid")})),
    5: Added(tables=frozenset({"sync_state", "sync_op", "sync_row"}),
             indexes=frozenset({"ix_sync_op_machine_seq", "ix_sync_row_table_row",
                                "sqlite_autoindex_sync_row_1"})),
}
"""``ADDED_IN[v]``: what ``migrations.STEPS[v - 1]`` adds (the migration history)."""


def _later(version: int) -> list[Added]:
    return [added for v, added in ADDED_IN.items() if v > version]


def declared_tables(version: int) -> dict[str, tuple[str, ...]]:
    """The tables (and their columns) a file of schema ``version`` holds."""
    later = _later(version)
    gone_tables = {t for added in later for t in added.tables}
    gone_columns = {c for added in later for c in added.columns}
    return {table: tuple(c for c in columns if (table, c) not in gone_columns)
            for table, columns in TABLES.items() if table not in gone_tables}


def declared_indexes(version: int) -> dict[str, tuple[str, tuple[str, ...], bool]]:
    """The indexes a file of schema ``version`` holds."""
    gone = {i for added in _later(version) for i in added.indexes}
    return {name: shape for name, shape in INDEXES.items() if name not in gone}


_MODULE = re.compile(r"\bUSING\s+[\"'`\[]?(\w+)", re.IGNORECASE)


def _virtual_module(sql: str | None) -> str | None:
    """The module of a ``CREATE VIRTUAL TABLE`` statement (FTS5, RTREE ...), else None."""
    if not sql or not re.match(r"\s*CREATE\s+VIRTUAL\s+TABLE", sql, re.IGNORECASE):
        return None
    found = _MODULE.search(sql)
    return found.group(1).upper() if found else "of an unknown kind"


def index_shape(conn: sqlite3.Connection, name: str) -> tuple[tuple[str, ...], bool, bool]:
    """(key columns, has an expression, partial) of an index of a plain table."""
    rows = conn.execute(f'PRAGMA index_xinfo("{_quoted(name)}")').fetchall()
    keys = [(int(cid), col) for _, cid, col, _, _, key in rows if key]
    expression = any(cid == -2 for cid, _ in keys)
    columns = tuple(str(col) if col is not None else "id" for _, col in keys)
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
                       (name,)).fetchone()
    partial = bool(sql and sql[0] and re.search(r"\bWHERE\b", str(sql[0]), re.IGNORECASE))
    return columns, expression, partial


def _quoted(name: str) -> str:
    return name.replace('"', '""')


def _table_additions(conn: sqlite3.Connection, table: str,
                     declared: tuple[str, ...]) -> list[str]:
    found = []
    for _, column, _, _, _, _, hidden in conn.execute(
            f'PRAGMA table_xinfo("{_quoted(table)}")').fetchall():
        if hidden in (2, 3):
            found.append(f"a generated column '{column}' in the table {table}")
        elif column not in declared:
            found.append(f"a column '{column}' in the table {table}")
    return found


def _index_addition(conn: sqlite3.Connection, name: str, table: str, plain: set[str],
                    indexes: dict[str, tuple[str, tuple[str, ...], bool]]) -> str | None:
    if table not in plain:
        return f"an index '{name}' on the table {table}"
    columns, expression, partial = index_shape(conn, name)
    if expression:
        return f"an expression index '{name}' on the table {table}"
    if indexes.get(name) == (table, columns, partial):
        return None
    kind = "a partial index" if partial else "an index"
    return f"{kind} '{name}' on the table {table}"


def foreign_schema(conn: sqlite3.Connection, version: int) -> list[str]:
    """Everything in the file that a file of schema ``version`` does not declare, named in
    plain words ([] for a file as the companion made it)."""
    rows = [(str(t), str(n), str(tb), s) for t, n, tb, s in conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")]
    tables, indexes = declared_tables(version), declared_indexes(version)
    virtual = {n: _virtual_module(s) for t, n, _, s in rows if t == "table"
               and _virtual_module(s)}
    plain = {n for t, n, _, _ in rows if t == "table" and n in tables and n not in virtual}
    found: list[str] = []
    for kind, name, table, _ in rows:
        if kind == "trigger":
            found.append(f"a trigger '{name}' on the table {table}")
        elif kind == "view":
            found.append(f"a view '{name}'")
        elif kind == "table" and name in virtual:
            found.append(f"a virtual table '{name}' ({virtual[name]})")
        elif kind == "table" and name not in plain:
            owner = next((v for v in virtual if name.startswith(v + "_")), None)
            found.append(f"a table '{name}'" + (f" (the virtual table {owner}'s own)"
                                                  if owner else ""))
        elif kind == "table":
            found.extend(_table_additions(conn, name, tables[name]))
        elif kind == "index":
            addition = _index_addition(conn, name, table, plain, indexes)
            if addition:
                found.append(addition)
    return found
