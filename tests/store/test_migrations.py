"""Schema versions: the frozen v1 fixture opens, and upgrade steps run safely."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlmodel import select

from companion.store import CampaignFile, check_campaign, list_backups, migrations
from companion.store.models import Character, Society
from tests.store.conftest import FIXTURES


@pytest.fixture
def v1(tmp_path: Path) -> Path:
    path = tmp_path / "old.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v1.stonesaga", path)
    return path


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_every_fixture_opens_and_reaches_the_current_version(tmp_path: Path) -> None:
    fixtures = sorted(FIXTURES.glob("campaign-v*.stonesaga"))
    assert fixtures, "run tests/store/make_fixtures.py"
    for fixture in fixtures:
        path = tmp_path / fixture.name
        shutil.copyfile(fixture, path)
        with CampaignFile.open(path) as cf:
            with cf.read() as session:
                assert session.exec(select(Character)).one().name == "Ash"
            assert cf.redo_label() == "Kim thinks the behemoth lairs in the marsh."
        assert user_version(path) == migrations.SCHEMA_VERSION


def _pretend_v2(monkeypatch: pytest.MonkeyPatch, step: migrations.Step) -> None:
    from companion.store import declared_schema

    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 2)
    monkeypatch.setitem(migrations.STEPS, 1, step)
    # The pretend version 2 is version 1 with the weather column its step adds.
    monkeypatch.setattr(declared_schema, "ADDED_IN", {
        2: declared_schema.Added(columns=frozenset({("society", "weather")})),
        **{v + 100: a for v, a in declared_schema.ADDED_IN.items()}})
    monkeypatch.setitem(declared_schema.TABLES, "society",
                        (*declared_schema.TABLES["society"], "weather"))


def test_upgrade_runs_after_a_backup(v1: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def add_weather(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE society ADD COLUMN weather TEXT NOT NULL DEFAULT 'clear'")

    _pretend_v2(monkeypatch, add_weather)
    with CampaignFile.open(v1) as cf, cf.read() as session:
        assert session.get(Society, 1) is not None
    assert user_version(v1) == 2
    backup = list_backups(v1)[-1]
    assert backup.reason == "migration" and user_version(backup.path) == 1
    assert check_campaign(v1).ok


def test_a_failing_step_changes_nothing(v1: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE society ADD COLUMN weather TEXT")
        raise RuntimeError("step bug")

    _pretend_v2(monkeypatch, broken)
    with pytest.raises(RuntimeError, match="step bug"):
        CampaignFile.open(v1)
    assert user_version(v1) == 1
    conn = sqlite3.connect(v1)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(society)")]
    conn.close()
    assert "weather" not in columns
    monkeypatch.undo()
    with CampaignFile.open(v1) as cf:  # the lock was released; the old program still opens it
        assert cf.event_count() > 0


def test_version_2_adds_the_web_journal_columns(v1: Path) -> None:
    """Schema 2 (issue 18): behemoths keep lair hex, demeanor and secrets; the challenge
    log name and notes; looming challenges name, prepare-by epoch and order."""
    from companion.store.models import BehemothState, ChallengeLogEntry, LoomingChallenge

    with CampaignFile.open(v1) as cf:
        with cf.read() as session:
            entry = session.exec(select(ChallengeLogEntry)).one()
            assert (entry.challenge_id, entry.name, entry.notes) == ("C1", "", "")
        with cf.transaction("test", "Mossback seen") as session:
            session.add(BehemothState(behemoth_id="BH03", lair_hex="VV02", demeanor=6,
                                      secrets=[{"card_id": "BT01", "name": "Soft Belly",
                                                "description": ""}]))
            session.add(LoomingChallenge(challenge_id="C2", name="Frost", prepare_by=3,
                                         position=1))
        with cf.read() as session:
            beast = session.exec(select(BehemothState)).one()
            assert (beast.lair_hex, beast.demeanor, beast.secrets[0]["name"]) == (
                "VV02", 6, "Soft Belly")
            looming = session.exec(select(LoomingChallenge)).one()
            assert (looming.name, looming.prepare_by, looming.position) == ("Frost", 3, 1)
    assert user_version(v1) == migrations.SCHEMA_VERSION and check_campaign(v1).ok


def test_a_version_1_export_imports_with_the_new_columns(tmp_path: Path) -> None:
    tables = {"looming_challenge": {"columns": ["id", "challenge_id", "epoch", "note"],
                                    "rows": [[4, "C2", 1, ""]]}}
    upgraded = migrations.EXPORT_UPGRADES[1](tables)["looming_challenge"]
    assert upgraded["columns"][-3:] == ["name", "prepare_by", "position"]
    assert upgraded["rows"] == [[4, "C2", 1, "", "", None, 4]]


@pytest.mark.parametrize("fixture", ["campaign-v1.stonesaga", "campaign-v2.stonesaga"])
def test_version_3_adds_the_own_card_table_as_a_new_file_has_it(
        tmp_path: Path, fixture: str) -> None:
    """Schema 3 (issue 24): the owner's cards travel in the file. An upgraded file's
    ``own_card`` is exactly the table a new file gets, and takes journalled rows."""
    from companion.store.models import OwnCard

    path = tmp_path / fixture
    shutil.copyfile(FIXTURES / fixture, path)
    fresh = tmp_path / "fresh.stonesaga"
    CampaignFile.create(fresh, backups=False).close()

    def schema(file: Path) -> list[tuple[str, str]]:
        conn = sqlite3.connect(file)
        try:
            return sorted(conn.execute("SELECT name, sql FROM sqlite_master "
                                       "WHERE tbl_name = 'own_card'").fetchall())
        finally:
            conn.close()

    with CampaignFile.open(path) as cf:
        with cf.transaction("content.card", "entered the Discovery card DX01") as session:
            session.add(OwnCard(pack_id="sample-mine", kind="discovery_cards",
                                card_id="DX01", data={"id": "DX01"}, digest="d1"))
        cf.undo()
        with cf.read() as session:
            assert session.exec(select(OwnCard)).all() == []
    assert schema(path) == schema(fresh) and schema(path)
    assert user_version(path) == migrations.SCHEMA_VERSION and check_campaign(path).ok


def test_the_version_3_fixture_carries_an_own_card(tmp_path: Path) -> None:
    from companion.store.models import OwnCard

    path = tmp_path / "v3.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v3.stonesaga", path)
    with CampaignFile.open(path) as cf, cf.read() as session:
        card = session.exec(select(OwnCard)).one()
        assert (card.pack_id, card.kind, card.card_id, card.data["name"]) == (
            "sample-mine", "discovery_cards", "DX01", "Bones")


def test_a_version_2_export_imports_with_an_empty_own_card_table() -> None:
    upgraded = migrations.EXPORT_UPGRADES[2]({"note_page": {"columns": ["id"], "rows": []}})
    assert upgraded["own_card"] == {"columns": ["id", "pack_id", "kind", "card_id", "data",
                                                "digest", "pack_version"], "rows": []}


def test_version_3_gives_the_web_journals_sections_a_home(tmp_path: Path) -> None:
    """Schema 3's web journal part (issue 28): an outpost's notes, a challenge's goals
    completed, the lair's overlay and zone, drawings as strokes, the Codex entries read
    and the link of each Journal entry to its row; a version 2 file gains them empty."""
    from companion.store.models import (
        BehemothState,
        CaveWallIllustration,
        CodexEntryRead,
        WebJournalLink,
    )

    path = tmp_path / "v2.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v2.stonesaga", path)
    with CampaignFile.open(path) as cf:
        with cf.read() as session:
            assert session.exec(select(WebJournalLink)).all() == []
            assert all(c.strokes == [] for c in session.exec(select(CaveWallIllustration)))
        with cf.transaction("test", "Mossback's lair") as session:
            session.add(BehemothState(behemoth_id="BH03", lair_overlay="OG03", lair_zone="B"))
            session.add(CodexEntryRead(entry="117", source_category="Behemoth card"))
            session.add(WebJournalLink(section="behemoths", web_id="mc0abc", updated_at=5))
        with cf.read() as session:
            assert session.exec(select(BehemothState)).one().lair_zone == "B"
            assert session.exec(select(CodexEntryRead)).one().entry == "117"
        cf.undo()
        with cf.read() as session:
            assert session.exec(select(WebJournalLink)).all() == []
    assert user_version(path) == migrations.SCHEMA_VERSION and check_campaign(path).ok
