"""Issue 19, fault 4: an import accepts only what the campaign can hold.

Each broken export is refused with BadExportFile before anything is written: no
campaign file, no backups folder, no temporary file left behind.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.store import BadExportFile, CampaignFile, export_campaign, import_campaign
from companion.store.models import Campaign, Character
from tests.store.conftest import snapshot
from tests.store.faults import cli

Mutation = Callable[[dict[str, Any]], None]


def _column(doc: dict[str, Any], table: str, column: str, value: Any, row: int = 0) -> None:
    section = doc["tables"][table]
    section["rows"][row][section["columns"].index(column)] = value


def _journal_change(doc: dict[str, Any]) -> None:
    section = doc["tables"]["journal_event"]
    changes = section["columns"].index("changes")
    row = next(r for r in section["rows"] if r[changes])
    row[changes] = [{"table": "no_such_table", "id": 1, "before": None, "after": {}}]


def _duplicate_columns(doc: dict[str, Any]) -> None:
    section = doc["tables"]["character"]
    section["columns"].append("name")
    for row in section["rows"]:
        row.append("Ash again")


def _list_as_column(doc: dict[str, Any]) -> None:
    doc["tables"]["character"]["columns"][1] = ["name"]


def _nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


BROKEN: list[tuple[str, Mutation, str]] = [
    ("energy lots", lambda d: _column(d, "character", "energy", "lots"),
     "character.*energy"),
    ("journal change naming a missing table", _journal_change, "no known table"),
    ("non-string pack id", lambda d: _column(
        d, "campaign", "content_packs", [{"id": 7, "version": "1"}]), "content_packs"),
    ("duplicate column names", _duplicate_columns, "column twice"),
    ("schema_version true", lambda d: d.update(schema_version=True), "schema version True"),
    ("format_version true", lambda d: d.update(format_version=True), "format version True"),
    ("integer beyond 64 bits", lambda d: _column(d, "character", "energy", 1 << 70),
     "64 bits"),
    ("lone surrogate", lambda d: _column(d, "character", "name", "Ash\udc80"),
     "not valid Unicode"),
    ("list where a column is expected", _list_as_column, "unknown or missing columns"),
    ("nesting deeper than any campaign", lambda d: _column(
        d, "character", "traits", _nested(200)), "nested"),
]


@pytest.fixture
def export(tmp_path: Path) -> dict[str, Any]:
    source = tmp_path / "source" / "saga.stonesaga"
    source.parent.mkdir()
    with CampaignFile.create(source) as cf:
        with cf.transaction("setup", "Ash joins") as session:
            session.add(Character(name="Ash", traits=["Brave"]))
            row = session.get(Campaign, 1)
            assert row is not None
            row.content_packs = [{"id": "sample", "version": "1"}]
        export_campaign(cf, tmp_path / "source" / "good.json")
    document: dict[str, Any] = json.loads((tmp_path / "source" / "good.json").read_text())
    return document


def _refused(src: Path, dest: Path, match: str) -> None:
    before = snapshot(dest.parent)
    with pytest.raises(BadExportFile, match=match):
        import_campaign(src, dest)
    assert snapshot(dest.parent) == before  # no campaign, no backups, no temporary file
    assert not dest.with_name(dest.name + ".backups").exists()


@pytest.mark.parametrize(("case", "mutate", "match"), BROKEN, ids=[b[0] for b in BROKEN])
def test_fault4_broken_import_is_refused_before_anything_is_written(
    export: dict[str, Any], tmp_path: Path, case: str, mutate: Mutation, match: str
) -> None:
    mutate(export)
    src = tmp_path / "source" / "broken.json"
    src.write_text(json.dumps(export), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    _refused(src, out / "imported.stonesaga", match)


@pytest.mark.parametrize(("case", "text", "match"), [
    ("deeply nested JSON", '{"format": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
    ("integer of 5,000 digits", '{"format": ' + "9" * 5000 + "}", "value no campaign has"),
])
def test_fault4_unreadable_json_is_refused(tmp_path: Path, case: str, text: str,
                                          match: str) -> None:
    src = tmp_path / "broken.json"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    _refused(src, out / "imported.stonesaga", match)


def test_fault4_a_sound_export_still_imports(export: dict[str, Any], tmp_path: Path) -> None:
    src = tmp_path / "source" / "again.json"
    src.write_text(json.dumps(export), encoding="utf-8")
    with import_campaign(src, tmp_path / "copy.stonesaga") as cf, cf.read() as session:
        hero = session.get(Character, 1)
        assert hero is not None and hero.name == "Ash" and hero.traits == ["Brave"]


def test_fault4_import_of_an_unknown_pack_leaves_nothing(
    export: dict[str, Any], tmp_path: Path
) -> None:
    _column(export, "campaign", "content_packs", [{"id": "not-here", "version": "1"}])
    src = tmp_path / "source" / "elsewhere.json"
    src.write_text(json.dumps(export), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    done = cli("import", str(src), str(out / "imported.stonesaga"))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "not-here" in done.stderr
    assert list(out.iterdir()) == []
