"""Export/import round trips, refused import files, and the web journal import."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlmodel import select

from companion.store import (
    FORMAT_NAME,
    BadExportFile,
    CampaignFile,
    CampaignFileExists,
    export_campaign,
    import_campaign,
    import_web_journal,
)
from companion.store import migrations
from companion.store.models import (
    ALL_TABLES,
    BehemothState,
    ChallengeLogEntry,
    CodeRecord,
    CultureAbility,
    JournalEvent,
    LoomingChallenge,
    NotePage,
    OmenInvestigation,
)
from tests.store.conftest import FIXTURES, snapshot


def all_rows(cf: CampaignFile) -> dict[str, list[dict[str, object]]]:
    with cf.read() as session:
        return {
            model.__name__: [r.model_dump() for r in session.exec(select(model))]
            for model in ALL_TABLES
        }


@pytest.fixture
def rich(tmp_path: Path) -> Path:
    """A copy of the newest fixture: rows in most tables, bytes, datetimes, an undone event."""
    path = tmp_path / "rich.stonesaga"
    shutil.copyfile(FIXTURES / f"campaign-v{migrations.SCHEMA_VERSION}.stonesaga", path)
    return path


def test_round_trip_is_exact(rich: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    with CampaignFile.open(rich) as cf:
        export_campaign(cf, first)
        rows = all_rows(cf)
    with import_campaign(first, tmp_path / "copy.stonesaga") as copy:
        export_campaign(copy, second)
        assert all_rows(copy) == rows
        assert copy.redo_label() is not None  # history came along: redo still works
    assert first.read_bytes() == second.read_bytes()
    document = json.loads(first.read_text())
    assert document["format"] == FORMAT_NAME
    assert document["tables"]["cave_wall_illustration"]["rows"]


def test_export_from_a_closed_file_path(rich: Path, tmp_path: Path) -> None:
    before = snapshot(rich.parent)
    export_campaign(rich, tmp_path / "out.json")
    after = snapshot(rich.parent)
    del after["out.json"]
    assert after == before


def test_import_refuses_existing_destination(rich: Path, tmp_path: Path) -> None:
    export_campaign(rich, tmp_path / "out.json")
    with pytest.raises(CampaignFileExists):
        import_campaign(tmp_path / "out.json", rich)


BAD_DOCUMENTS = {
    "not json": "{{{",
    "wrong format": json.dumps({"format": "something-else"}),
    "future format": json.dumps({"format": FORMAT_NAME, "format_version": 99}),
    "future schema": json.dumps(
        {"format": FORMAT_NAME, "format_version": 1, "schema_version": 99, "tables": {}}),
    "no tables": json.dumps({"format": FORMAT_NAME, "format_version": 1, "schema_version": 1}),
    "unknown table": json.dumps({"format": FORMAT_NAME, "format_version": 1,
                                 "schema_version": 1, "tables": {"dragons": {}}}),
    "bad columns": json.dumps({"format": FORMAT_NAME, "format_version": 1, "schema_version": 1,
                               "tables": {"character": {"columns": ["id", "wings"],
                                                        "rows": []}}}),
    "short row": json.dumps({"format": FORMAT_NAME, "format_version": 1, "schema_version": 1,
                             "tables": {"character": {"columns": ["id", "name"],
                                                      "rows": [[1]]}}}),
    "bad value": json.dumps({"format": FORMAT_NAME, "format_version": 1, "schema_version": 1,
                             "tables": {"journal_event": {"columns": ["id", "time", "kind"],
                                                          "rows": [[1, "yesterday", "x"]]}}}),
    "dangling key": json.dumps({"format": FORMAT_NAME, "format_version": 1, "schema_version": 1,
                                "tables": {"character": {"columns": ["id", "name", "hex_id"],
                                                         "rows": [[1, "Ash", 77]]}}}),
    "duplicate id": json.dumps({"format": FORMAT_NAME, "format_version": 1, "schema_version": 1,
                                "tables": {"character": {"columns": ["id", "name"],
                                                         "rows": [[1, "Ash"], [1, "Birch"]]}}}),
}


@pytest.mark.parametrize("case", sorted(BAD_DOCUMENTS))
def test_malformed_exports_create_nothing(case: str, tmp_path: Path) -> None:
    src = tmp_path / "export.json"
    src.write_text(BAD_DOCUMENTS[case])
    with pytest.raises(BadExportFile, match="Nothing was created"):
        import_campaign(src, tmp_path / "new.stonesaga")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.json"]


def test_web_journal_import(tmp_path: Path) -> None:
    dest = tmp_path / "imported.stonesaga"
    with import_web_journal(FIXTURES / "web-journal-v3.json", dest) as cf:
        with cf.read() as s:
            codes = {(c.code, c.status) for c in s.exec(select(CodeRecord))}
            assert ("R1410", "recipe") in codes and ("R3001", "recipe") in codes
            assert ("1234", "null") in codes and ("P0007", "provisional") in codes
            culture = [c.name for c in s.exec(select(CultureAbility))]
            assert culture == ["Fire keepers", "River songs"]
            strider = s.exec(select(BehemothState).where(BehemothState.behemoth_id == "B2")).one()
            assert strider.secret_learned and strider.habits_learned == ["wades at dusk",
                                                                         "fears fire"]
            log = s.exec(select(ChallengeLogEntry)).all()
            assert [(e.epoch, e.challenge_id, e.finished) for e in log] == [
                (1, "C01", True), (1, "C04", False), (2, "C09", False)]
            assert log[0].characters == ["Ash", "Birch"] and log[0].outcome_entry == "112"
            assert len(s.exec(select(LoomingChallenge)).all()) == 2
            omens = s.exec(select(OmenInvestigation)).all()
            assert [(o.omen_id, o.component_id) for o in omens] == [("O3", "T221"), ("O5", "")]
            pages = {p.title: p.text for p in s.exec(select(NotePage))}
            # Shapes with no table of their own are kept as pages, not lost.
            assert "Glowing moss" in pages["Web journal: customMaterials"]
            assert "42" in pages["Web journal: investigations"]
            assert '"dark": true' in pages["Web journal: theme"]
            assert pages["Session 1"].startswith("We crossed")
            event = s.exec(select(JournalEvent)).one()
            assert event.kind == "import" and event.payload["original"]["version"] == 3
        assert cf.undo_label() is not None and cf.undo_label().startswith("Imported")


@pytest.mark.parametrize(
    "text", ["not json", json.dumps({"version": 2, "recipes": []}), json.dumps({"a": 1}),
             json.dumps([1, 2])])
def test_web_journal_refusals_create_nothing(text: str, tmp_path: Path) -> None:
    src = tmp_path / "web.json"
    src.write_text(text)
    with pytest.raises(BadExportFile):
        import_web_journal(src, tmp_path / "new.stonesaga")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["web.json"]
