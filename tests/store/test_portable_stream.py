"""Issue 35 item 6: export and import stream a year of history.

The file is read a chunk at a time (``portable_json.JsonStream``), so these tests read
with tiny chunks: every value is cut by a chunk's end somewhere, and each import must
still hold exactly what the campaign held. Exports written before the streaming writer
(one value per line, ``indent=1``) and exports of any layout import alike; files beyond
the documented limit are refused before they are read.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import companion.store.portable as portable_module
import companion.store.portable_json as portable_json
from companion.store import (
    BadExportFile,
    CampaignFile,
    export_campaign,
    import_campaign,
    migrations,
)
from companion.store.portable_json import JsonProblem, JsonStream
from tests.store.conftest import FIXTURES
from tests.store.test_portable import all_rows


@pytest.fixture
def rich(tmp_path: Path) -> Path:
    path = tmp_path / "rich.stonesaga"
    shutil.copyfile(FIXTURES / f"campaign-v{migrations.SCHEMA_VERSION}.stonesaga", path)
    return path


@pytest.fixture
def exported(rich: Path, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    out = tmp_path / "rich.json"
    export_campaign(rich, out)
    with CampaignFile.open(rich) as cf:
        rows = all_rows(cf)
    return out, rows


def _imported_rows(src: Path, dest: Path) -> dict[str, Any]:
    with import_campaign(src, dest) as copy:
        return all_rows(copy)


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_issue35_6_values_cut_by_any_chunk_end_import_exactly(
        exported: tuple[Path, dict[str, Any]], tmp_path: Path, monkeypatch: Any,
        chunk: int) -> None:
    out, rows = exported
    monkeypatch.setattr(portable_json, "CHUNK_BYTES", chunk)
    assert _imported_rows(out, tmp_path / "copy.stonesaga") == rows


@pytest.mark.parametrize("layout", ["indent=1", "compact", "one line, keys unsorted"])
def test_issue35_6_exports_of_older_and_other_layouts_import_the_same(
        exported: tuple[Path, dict[str, Any]], tmp_path: Path, monkeypatch: Any,
        layout: str) -> None:
    """Exports written before streaming were json.dumps(indent=1, sort_keys=True)."""
    out, rows = exported
    document = json.loads(out.read_text(encoding="utf-8"))
    text = {"indent=1": json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False),
            "compact": json.dumps(document, separators=(",", ":")),
            "one line, keys unsorted": json.dumps(
                {k: document[k] for k in reversed(list(document)) if k != "tables"}
                | {"tables": document["tables"]})}[layout]
    src = tmp_path / "other.json"
    src.write_text("\ufeff" + text + "\n", encoding="utf-8")
    monkeypatch.setattr(portable_json, "CHUNK_BYTES", 13)
    assert _imported_rows(src, tmp_path / "copy.stonesaga") == rows


def test_issue35_6_the_export_is_one_row_per_line(
        exported: tuple[Path, dict[str, Any]]) -> None:
    out, _ = exported
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[:5] == ["{", ' "format": "stonesaga-companion-campaign",',
                         ' "format_version": 1,',
                         f' "schema_version": {migrations.SCHEMA_VERSION},', ' "tables": {']
    document = json.loads(out.read_text(encoding="utf-8"))
    rows = [json.loads(line.rstrip(",")) for line in lines if line.startswith("    [")]
    assert rows == [row for section in document["tables"].values()
                    for row in section["rows"]]


def test_issue35_6_a_file_beyond_the_limit_is_refused_before_it_is_read(
        tmp_path: Path, monkeypatch: Any) -> None:
    big = tmp_path / "big.json"
    big.write_text('{"format": "stonesaga-companion-campaign"}', encoding="utf-8")
    monkeypatch.setattr(portable_module, "MAX_IMPORT_BYTES", 16)
    opened: list[str] = []
    real_open = open

    def watching(path: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", watching)
    with pytest.raises(BadExportFile, match=r"imports files of up to 0 GiB"):
        import_campaign(big, tmp_path / "big.stonesaga")
    assert str(big) not in opened
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.json"]


def test_issue35_6_a_value_longer_than_the_limit_is_refused_in_words() -> None:
    stream = JsonStream(io.BytesIO(b'["' + b"x" * 5000 + b'"]'), max_value=1000)
    with pytest.raises(JsonProblem, match="longer than 0 MiB of text"):
        stream.value()


@pytest.mark.parametrize(("text", "said"), [
    (b"", "at character 0, found the end of the file"),
    (b'{"format": 1} trailing', "extra data at character 14"),
    (b'{"format" 1}', "expected ':'"),
    (b'{"a": 1,}', "expected a name in double quotes"),
    (b"[1, 2", "expected ',' or ']' at"),
    (b'{"a": "\xff"}', "it is not UTF-8 text"),
])
def test_issue35_6_the_reader_refuses_what_json_loads_refuses(text: bytes, said: str) -> None:
    stream = JsonStream(io.BytesIO(text), max_value=1 << 20)
    with pytest.raises(JsonProblem, match=said):
        if stream.at_map():
            for _ in stream.members():
                stream.value()
        else:
            for _ in stream.elements():
                stream.value()
        stream.end()


def test_issue35_6_progress_is_reported_in_bytes_and_rows(
        exported: tuple[Path, dict[str, Any]], rich: Path, tmp_path: Path,
        monkeypatch: Any) -> None:
    out, _ = exported
    monkeypatch.setattr(portable_json, "CHUNK_BYTES", 256)
    read: list[tuple[int, int, str]] = []
    import_campaign(out, tmp_path / "copy.stonesaga",
                    report=lambda *a: read.append(a)).close()
    assert read[-1][0] == read[-1][1] == out.stat().st_size
    assert [done for done, _, _ in read] == sorted(done for done, _, _ in read)
    assert any(text.startswith("Reading the history:") for _, _, text in read)
    written: list[tuple[int, int, str]] = []
    export_campaign(rich, tmp_path / "again.json", report=lambda *a: written.append(a))
    assert written[-1][0] == written[-1][1] > 0
    assert any(text.startswith("Writing the history:") for _, _, text in written)


V3_COLUMNS = {"outpost": ["notes"], "challenge_log_entry": ["goals_completed"],
              "behemoth_state": ["lair_overlay", "lair_zone"],
              "cave_wall_illustration": ["strokes"]}
"""The columns schema 3 added (migrations, issue 28), and its tables."""
V3_TABLES = ["own_card", "codex_entry_read", "web_journal_link"]


def test_issue35_6_an_older_schemas_export_is_upgraded_a_batch_at_a_time(
        exported: tuple[Path, dict[str, Any]], tmp_path: Path, monkeypatch: Any) -> None:
    """A schema 2 export: EXPORT_UPGRADES gives each batch of rows schema 3's columns
    (with their defaults) and the tables it lacks, as they did for the whole file."""
    out, rows = exported
    document = json.loads(out.read_text(encoding="utf-8"))
    document["schema_version"] = 2
    for name in V3_TABLES:
        del document["tables"][name]
    for name, dropped in V3_COLUMNS.items():
        section = document["tables"][name]
        keep = [at for at, column in enumerate(section["columns"]) if column not in dropped]
        section["columns"] = [section["columns"][at] for at in keep]
        section["rows"] = [[row[at] for at in keep] for row in section["rows"]]
    src = tmp_path / "v2.json"
    src.write_text(json.dumps(document, indent=1), encoding="utf-8")
    monkeypatch.setattr(portable_module, "BATCH_ROWS", 2)
    imported = _imported_rows(src, tmp_path / "v2.stonesaga")
    added = ("OwnCard", "CodexEntryRead", "WebJournalLink")
    assert all(imported[name] == [] for name in added)
    assert {k: len(v) for k, v in imported.items() if k not in added} == {
        k: len(v) for k, v in rows.items() if k not in added}
    for outpost in imported["Outpost"]:
        assert outpost["notes"] == ""
    assert imported["Character"] == rows["Character"]
    assert imported["JournalEvent"] == rows["JournalEvent"]


@pytest.mark.parametrize("chunk", [1, 5, 1 << 20])
@pytest.mark.parametrize(("value", "said"), [
    (1 << 70, "64 bits"), ("Ash\udc80", "not valid Unicode"),
    ([[[[["deep"] * 2] * 2] * 2] * 2] * 17, None)])
def test_issue35_6_what_only_a_closer_look_finds_is_refused_whatever_the_chunks(
        exported: tuple[Path, dict[str, Any]], tmp_path: Path, monkeypatch: Any,
        chunk: int, value: Any, said: str | None) -> None:
    """Rows are walked value by value only when their chunk shows a long number or an
    escaped surrogate (or they open many lists): one cut across two chunks is found."""
    out, _ = exported
    document = json.loads(out.read_text(encoding="utf-8"))
    section = document["tables"]["character"]
    section["rows"][0][section["columns"].index("name" if said else "traits")] = value
    src = tmp_path / "odd.json"
    src.write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.setattr(portable_json, "CHUNK_BYTES", chunk)
    dest = tmp_path / "odd.stonesaga"
    if said is None:  # wide but shallow: many lists, each level fine
        with pytest.raises(BadExportFile, match="traits"):
            import_campaign(src, dest)
    else:
        with pytest.raises(BadExportFile, match=said):
            import_campaign(src, dest)
    assert not dest.exists()
