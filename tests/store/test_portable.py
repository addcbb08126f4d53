"""Export/import round trips and refused import files.

The web journal's import: tests/operations/test_webjournal.py.
"""

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
    migrations,
)
from companion.store.models import ALL_TABLES
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


def test_issue24_an_update_image_holds_only_its_changed_columns_and_imports(
        cf: CampaignFile, tmp_path: Path) -> None:
    """Issue 24 (b): an update's journal images hold ``id`` and the changed columns
    only; the import checks each present column's type, not a whole row ("name: Field
    required" refused every export taken after a character's first change)."""
    from companion.store.models import Character

    with cf.transaction("character.create", "Ash joins") as session:
        session.add(Character(name="Ash", energy=5))
    with cf.transaction("day.act", "Ash spends 2 energy") as session:
        ash = session.exec(select(Character)).one()
        ash.energy = 3
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    export_campaign(cf, first)
    changes = json.loads(first.read_text())["tables"]["journal_event"]
    update = [c for row in changes["rows"]
              for c in row[changes["columns"].index("changes")] if c["before"] and c["after"]]
    assert update == [{"table": "character", "id": 1, "before": {"id": 1, "energy": 5},
                       "after": {"id": 1, "energy": 3}}]
    with import_campaign(first, tmp_path / "copy.stonesaga") as copy:
        export_campaign(copy, second)
        assert copy.undo_label() == "Ash spends 2 energy"
        copy.undo()
        with copy.read() as session:
            assert session.exec(select(Character)).one().energy == 5
    assert first.read_bytes() == second.read_bytes()


def test_issue24_a_partial_image_of_the_wrong_type_is_still_refused(
        cf: CampaignFile, tmp_path: Path) -> None:
    from companion.store.models import Character

    with cf.transaction("character.create", "Ash joins") as session:
        session.add(Character(name="Ash", energy=5))
    with cf.transaction("day.act", "Ash spends 2 energy") as session:
        session.exec(select(Character)).one().energy = 3
    out = tmp_path / "one.json"
    export_campaign(cf, out)
    text = out.read_text().replace('"energy": 3', '"energy": "lots"')
    out.write_text(text)
    with pytest.raises(BadExportFile, match="energy"):
        import_campaign(out, tmp_path / "copy.stonesaga")
    assert not (tmp_path / "copy.stonesaga").exists()
