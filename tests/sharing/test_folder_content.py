"""Issue 38, "Take the sync engines as they really behave" and "The folder is untrusted
input": every kind of bad or odd folder content leaves the campaign unchanged (hashed
export) or is taken exactly once."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.operations import sharing
from companion.store import mailbox
from companion.store.migrations import SCHEMA_VERSION
from tests.sharing.conftest import Table


def machine_folder(table: Table, who: str) -> Path:
    status = sharing.sharing_status(table.machines[who])
    assert status is not None
    uid = table.machines[who].file.campaign().uid
    return table.folder / uid / status.machine


def bryn_plays(table: Table, *texts: str) -> list[Path]:
    """Bryn writes journal entries (published as Bryn goes); Bryn's new segments."""
    folder = machine_folder(table, "bryn")
    before = set(folder.glob("ops-*.json"))
    for said in texts or ("Bryn's entry",):
        operations.add_journal_entry(table.machines["bryn"], text=said)
    return sorted(set(folder.glob("ops-*.json")) - before)


def campaign_hash(table: Table, who: str = "ana") -> str:
    return hashlib.sha256(table.export(who)).hexdigest()


def rewrite(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Alter a segment and give it a matching checksum, as a hostile writer could."""
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    document["header"]["sha256"] = mailbox.digest(document["ops"])
    path.write_text(json.dumps(document), encoding="utf-8")


def refused_unchanged(table: Table, words: str) -> None:
    before = campaign_hash(table)
    report = sharing.sync(table.machines["ana"])
    assert report.applied == {}
    assert campaign_hash(table) == before
    assert report.refused, report
    assert any(words in line for line in report.refused), report.refused
    assert all("Nothing was taken from it" in line or "refused" in line
               for line in report.refused)


def test_issue38_a_file_cut_short_is_refused_naming_file_and_machine(table: Table) -> None:
    operations.add_journal_entry(table.machines["bryn"], text="first")
    sharing.sync(table.machines["ana"])  # Ana knows Bryn's name from Bryn's first file
    segment = bryn_plays(table)[0]
    segment.write_bytes(segment.read_bytes()[:40])
    refused_unchanged(table, "cut short")
    report = sharing.sync(table.machines["ana"])
    assert segment.name in report.refused[0] and "Bryn's laptop" in report.refused[0]


def test_issue38_an_altered_file_fails_its_checksum(table: Table) -> None:
    segment = bryn_plays(table)[0]
    document = json.loads(segment.read_text(encoding="utf-8"))
    document["ops"][0]["text"] = "Someone else's words"
    segment.write_text(json.dumps(document), encoding="utf-8")
    refused_unchanged(table, "checksum")


@pytest.mark.parametrize("hostile", [
    ("table", "sqlite_master"), ("table", "journal_event"),
    ("table", "character; DROP TABLE character"), ("column", "name\"; DROP TABLE x; --"),
    ("column", "id"), ("key", "../../etc/passwd"), ("value", {"energy": "lots"}),
])
def test_issue38_a_change_outside_the_schema_is_refused(table: Table, hostile: Any) -> None:
    operations.change_unrest(table.machines["bryn"], amount=1)
    segment = sorted(machine_folder(table, "bryn").glob("ops-*.json"))[-1]
    what, value = hostile

    def change(document: dict[str, Any]) -> None:
        first = document["ops"][0]["changes"][0]
        if what == "table":
            first["table"] = value
        elif what == "column":
            first["after"][value] = 1
        elif what == "key":
            first["key"] = value
        else:
            first["after"] = {**first["after"], "unrest": "lots"}

    rewrite(segment, change)
    refused_unchanged(table, segment.name)


def test_issue38_a_file_of_another_campaign_is_refused(table: Table) -> None:
    segment = bryn_plays(table)[0]
    rewrite(segment, lambda d: d["header"].update(campaign="0" * 32))
    refused_unchanged(table, "another campaign")


def test_issue38_a_file_over_the_size_limit_is_refused(table: Table,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    bryn_plays(table)
    monkeypatch.setattr(mailbox, "MAX_SEGMENT_BYTES", 100)
    refused_unchanged(table, "more than the 100 a file of the folder may be")


def test_issue38_foreign_files_are_left_alone(table: Table) -> None:
    bryn_plays(table)
    folder = machine_folder(table, "bryn")
    for name in ("desktop.ini", ".DS_Store", "Thumbs.db", "notes.txt"):
        (folder / name).write_text("not ours")
        (folder.parent / name).write_text("not ours")
    (folder.parent / "ops-00000001-00000001.json").write_text("{}")  # not in a machine's
    report = sharing.sync(table.machines["ana"])
    assert report.refused == () and report.applied == {"Bryn's laptop": 1}


@pytest.mark.parametrize("copy_name", [
    "ops-00000001-00000001 (Bryn's conflicted copy 2026-11-27).json",
    "ops-00000001-00000001.sync-conflict-20261127-140203-ABCDEFG.json",
    "ops-00000001-00000001 (conflicted copy 2026-11-27 140203).json",
    "ops-00000001-00000001-KITCHEN-PC.json",
    "ops-00000001-00000001 (1).json",
])
def test_issue38_an_engines_conflict_copy_is_taken_once(table: Table, copy_name: str) -> None:
    segment = bryn_plays(table)[0]
    assert mailbox.copy_of(copy_name) == (segment.name, mailbox.copy_of(copy_name)[1])
    shutil.copy(segment, segment.with_name(copy_name))
    report = sharing.sync(table.machines["ana"])
    assert report.applied == {"Bryn's laptop": 1} and report.refused == ()
    assert sharing.sync(table.machines["ana"]).applied == {}
    assert [line.text for line in table.machines["ana"].journal(1)] == ["Bryn's entry"]


def test_issue38_a_conflict_copy_alone_is_taken(table: Table) -> None:
    segment = bryn_plays(table)[0]
    segment.rename(segment.with_name("ops-00000001-00000001 (1).json"))
    report = sharing.sync(table.machines["ana"])
    assert report.applied == {"Bryn's laptop": 1}
    assert sharing.sync(table.machines["ana"]).applied == {}


def test_issue38_files_arriving_out_of_order_wait_for_the_earlier_ones(table: Table) -> None:
    first, second = bryn_plays(table, "one", "two")
    held = first.read_bytes()
    first.unlink()
    before = campaign_hash(table)
    report = sharing.sync(table.machines["ana"])
    assert report.applied == {} and report.waiting == 1
    assert campaign_hash(table) == before
    first.write_bytes(held)
    report = sharing.sync(table.machines["ana"])
    assert report.applied == {"Bryn's laptop": 2}
    assert [line.text for line in table.machines["ana"].journal(2)] == ["two", "one"]


def test_issue38_a_machines_deleted_files_are_written_again(table: Table) -> None:
    operations.add_journal_entry(table.machines["ana"], text="Ana's")
    folder = machine_folder(table, "ana")
    for segment in folder.glob("ops-*.json"):
        segment.unlink()
    sharing.sync(table.machines["ana"])
    assert sorted(p.name for p in folder.glob("ops-*.json")) == ["ops-00000001-00000001.json"]
    report = sharing.sync(table.machines["bryn"])
    assert report.applied == {"Ana's laptop": 1}


def test_issue38_an_unreachable_folder_is_offline_and_play_goes_on(table: Table) -> None:
    ana = table.machines["ana"]
    away = table.folder.with_name("unplugged")
    table.folder.rename(away)
    try:
        operations.add_journal_entry(ana, text="played while the stick was out")
        report = sharing.sync(ana)
        assert report.words.startswith("Offline since ") and report.offline_since is not None
        status = sharing.sharing_status(ana)
        assert status is not None and status.words.startswith("Offline since ")
    finally:
        away.rename(table.folder)
    report = sharing.sync(ana)
    assert report.offline_since is None and report.published == 1
    assert sharing.sync(table.machines["bryn"]).applied == {"Ana's laptop": 1}


def test_issue38_a_newer_version_says_update_and_loses_nothing(table: Table) -> None:
    segment = bryn_plays(table)[0]
    rewrite(segment, lambda d: d["header"].update(schema_version=SCHEMA_VERSION + 1))
    before = campaign_hash(table)
    report = sharing.sync(table.machines["ana"])
    assert report.newer == ("Bryn's laptop uses a newer version; update to keep in step",)
    assert campaign_hash(table) == before and segment.exists()


def test_issue38_clocks_hours_apart_do_not_reorder_play(table: Table) -> None:
    ana = table.machines["ana"]
    operations.add_journal_entry(ana, text="Ana asks")
    table.settle_all_in_step()
    segment = bryn_plays(table, "Bryn answers")[0]

    def five_hours_back(document: dict[str, Any]) -> None:
        op = document["ops"][0]
        made = datetime.fromisoformat(op["time"])
        op["time"] = (made - timedelta(hours=5)).isoformat()

    rewrite(segment, five_hours_back)
    sharing.sync(ana)
    assert [line.text for line in ana.journal(2)] == ["Bryn answers", "Ana asks"]
