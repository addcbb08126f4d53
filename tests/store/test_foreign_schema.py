"""Issue 35 item 4: schema objects the companion never makes are refused, each named.

FTS4/FTS5/R*Tree virtual tables (with their shadow tables, even with garbage in them),
extra tables, columns and indexes, expression and partial indexes and generated columns
are refused on opening (``ForeignAdditions``, the file unchanged) and reported by
``check``; a view's refusal gives a view's reason, not a trigger's.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.store import CampaignFile, ForeignAdditions, check_campaign, migrations
from companion.store.declared_schema import (
    ADDED_IN,
    INDEXES,
    TABLES,
    declared_indexes,
    declared_tables,
    foreign_schema,
    index_shape,
)
from tests.store.conftest import FIXTURES, snapshot

PLANTED = {
    "fts5": ("CREATE VIRTUAL TABLE finder USING fts5(text)", "a virtual table 'finder' (FTS5)"),
    "fts4": ("CREATE VIRTUAL TABLE finder4 USING fts4(text)",
             "a virtual table 'finder4' (FTS4)"),
    "rtree": ("CREATE VIRTUAL TABLE places USING rtree(id, x0, x1)",
              "a virtual table 'places' (RTREE)"),
    "extra table": ("CREATE TABLE recipes (name TEXT)", "a table 'recipes'"),
    "extra column": ("ALTER TABLE character ADD COLUMN secret TEXT",
                     "a column 'secret' in the table character"),
    "generated column": ("ALTER TABLE character ADD COLUMN loud TEXT "
                         "GENERATED ALWAYS AS (upper(name)) VIRTUAL",
                         "a generated column 'loud' in the table character"),
    "expression index": ("CREATE INDEX ix_lower ON character (lower(name))",
                         "an expression index 'ix_lower' on the table character"),
    "extra index": ("CREATE INDEX ix_energy ON character (energy)",
                    "an index 'ix_energy' on the table character"),
    "partial index": ("CREATE INDEX ix_alive ON character (name) WHERE status = 'alive'",
                      "a partial index 'ix_alive' on the table character"),
    "index on a declared name": (
        "DROP INDEX ix_character_status; CREATE INDEX ix_character_status ON character "
        "(name)", "an index 'ix_character_status' on the table character"),
}


def plant(path: Path, sql: str) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(sql)
    conn.commit()
    conn.close()


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "c.stonesaga"
    shutil.copyfile(FIXTURES / f"campaign-v{migrations.SCHEMA_VERSION}.stonesaga", path)
    return path


@pytest.mark.parametrize("kind", sorted(PLANTED))
@pytest.mark.parametrize("lock", ["open", "first-write"])
def test_issue35_item4_planted_objects_are_refused_naming_them(
        campaign: Path, kind: str, lock: str) -> None:
    sql, named = PLANTED[kind]
    plant(campaign, sql)
    before = snapshot(campaign.parent)
    with pytest.raises(ForeignAdditions) as refused:
        CampaignFile.open(campaign, lock=lock)  # type: ignore[arg-type]
    assert named in refused.value.found
    assert named in str(refused.value)
    assert snapshot(campaign.parent) == before
    report = check_campaign(campaign)
    assert not report.ok and f"holds {named}, which no companion makes" in report.problems
    assert snapshot(campaign.parent) == before


def test_issue35_item4_fts5_shadow_tables_with_garbage_run_nothing(campaign: Path) -> None:
    """The shadow data is never handed to FTS5: opening and ``check`` read sqlite_master
    as text, and name the shadow tables as the virtual table's own."""
    plant(campaign, "CREATE VIRTUAL TABLE finder USING fts5(text);"
                    "INSERT INTO finder VALUES ('Ash went fishing');"
                    "UPDATE finder_data SET block = x'deadbeef';"
                    "UPDATE finder_config SET v = 'garbage'")
    before = snapshot(campaign.parent)
    with pytest.raises(ForeignAdditions) as refused:
        CampaignFile.open(campaign, verify="background")
    assert "a table 'finder_data' (the virtual table finder's own)" in refused.value.found
    report = check_campaign(campaign)
    assert "holds a virtual table 'finder' (FTS5), which no companion makes" in report.problems
    assert not any("malformed" in p or "fts5" in p.lower() and "virtual" not in p
                   for p in report.problems), report.problems
    assert snapshot(campaign.parent) == before


def test_issue35_item4_a_view_is_refused_with_a_views_reason(campaign: Path) -> None:
    plant(campaign, "CREATE VIEW heroes AS SELECT name FROM character")
    with pytest.raises(ForeignAdditions) as refused:
        CampaignFile.open(campaign)
    text = str(refused.value)
    assert "a view 'heroes'" in text
    assert "trigger" not in text and "on every write" not in text
    assert "neither makes nor reads" in text


def test_issue35_item4_a_trigger_keeps_its_reason(campaign: Path) -> None:
    plant(campaign, "CREATE TRIGGER sneaky AFTER INSERT ON journal_event "
                    "BEGIN UPDATE society SET unrest = 99 WHERE id = 1; END")
    with pytest.raises(ForeignAdditions, match="on every write without the journal knowing"):
        CampaignFile.open(campaign)


def test_the_declared_schema_is_the_models_and_a_new_files(tmp_path: Path) -> None:
    """TABLES and INDEXES (written out so an open imports no model) equal the models'
    metadata (the game's and a shared campaign's bookkeeping) plus the store's
    ``log_mark``, and exactly what a new file holds."""
    from companion.store.later_tables import ALL_TABLES as GAME_TABLES
    from companion.store.sync_tables import SYNC_TABLES
    from companion.store.table_base import table_of

    ALL_TABLES = (*GAME_TABLES, *SYNC_TABLES)  # noqa: N806 (issue 38)
    models = {table_of(m).name: tuple(c.name for c in table_of(m).columns)
              for m in ALL_TABLES}
    assert {**models, "log_mark": ("id", "prev", "cur")} == TABLES
    names = {i.name for m in ALL_TABLES for i in table_of(m).indexes}
    assert {n for n in INDEXES if not n.startswith("sqlite_autoindex")} == names
    path = tmp_path / "new.stonesaga"
    CampaignFile.create(path, backups=False).close()
    conn = sqlite3.connect(path)
    try:
        found = {n: (t, *index_shape(conn, n)) for n, t in conn.execute(
            "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'")}
        assert {n: (t, cols, partial) for n, (t, cols, _, partial) in found.items()} == INDEXES
        assert foreign_schema(conn, migrations.SCHEMA_VERSION) == []
    finally:
        conn.close()


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_each_fixture_holds_exactly_the_schema_of_its_version(version: int) -> None:
    conn = sqlite3.connect(f"file:{FIXTURES / f'campaign-v{version}.stonesaga'}?mode=ro",
                           uri=True)
    try:
        tables = {n: tuple(r[1] for r in conn.execute(f'PRAGMA table_info("{n}")'))
                  for (n,) in conn.execute("SELECT name FROM sqlite_master "
                                           "WHERE type = 'table'")}
        indexes = {n for (n,) in conn.execute("SELECT name FROM sqlite_master "
                                              "WHERE type = 'index'")}
        assert tables == declared_tables(version)
        assert indexes == set(declared_indexes(version))
        assert foreign_schema(conn, version) == []
    finally:
        conn.close()
    assert max(ADDED_IN) == migrations.SCHEMA_VERSION


def test_issue35_item4_a_later_versions_table_in_an_older_file_is_refused(
        tmp_path: Path) -> None:
    """An older file is held to its own version: a table its migration would make is
    planted, not the companion's."""
    path = tmp_path / "v2.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v2.stonesaga", path)
    plant(path, "CREATE TABLE own_card (id INTEGER PRIMARY KEY)")
    before = snapshot(tmp_path)
    with pytest.raises(ForeignAdditions, match="a table 'own_card'"):
        CampaignFile.open(path)
    assert snapshot(tmp_path) == before
