"""Issue 38: the shared folder's files (companion/store/mailbox.py) and schema 5."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.store import CampaignFile, mailbox
from companion.store.migrations import SCHEMA_VERSION

FIXTURES = Path(__file__).parent / "fixtures"
MACHINE = "ab" * 16
CAMPAIGN = "cd" * 16


@pytest.mark.parametrize(("name", "engine"), [
    ("ops-00000001-00000004 (Bryn's conflicted copy 2026-11-27).json", "Dropbox"),
    ("ops-00000001-00000004 (conflicted copy 2026-11-27 140203).json", "Dropbox"),
    ("ops-00000001-00000004_conflict-20261127-140203.json", "Nextcloud"),
    ("ops-00000001-00000004.sync-conflict-20261127-140203-ABCDEFG.json", "Syncthing"),
    ("ops-00000001-00000004 (1).json", "Google Drive"),
    ("ops-00000001-00000004-KITCHEN-PC.json", "OneDrive"),
])
def test_issue38_each_engines_conflict_copy_is_recognised(name: str, engine: str) -> None:
    assert mailbox.copy_of(name) == ("ops-00000001-00000004.json", engine)


@pytest.mark.parametrize("name", ["ops-00000001-00000004.json", "desktop.ini", ".DS_Store",
                                  "Thumbs.db", "ops-1-4.json", "notes (1).json"])
def test_issue38_originals_and_foreign_files_are_no_copies(name: str) -> None:
    assert mailbox.copy_of(name) is None


def test_issue38_foreign_and_temporary_files_are_ignored(tmp_path: Path) -> None:
    for name in ("desktop.ini", ".DS_Store", "Thumbs.db", ".ops-1.json.12-abcdef12.mailbox.tmp",
                 "ops-00000001-00000001.json"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "ops-00000002-00000002.json").mkdir()  # a folder where a file goes
    (tmp_path / "ops-00000003-00000003.json").symlink_to("/etc/passwd")
    files = mailbox.list_machine(tmp_path, MACHINE)
    assert [(f, t, p.name) for f, t, p in files.segments] == [
        (1, 1, "ops-00000001-00000001.json")]


def an_op(seq: int = 1) -> dict[str, object]:
    return {"machine": MACHINE, "seq": seq, "lamport": seq,
            "clock": {MACHINE: seq - 1} if seq > 1 else {}, "kind": "journal.entry",
            "text": "A note", "author": None, "time": "2026-11-27T11:00:00",
            "payload": {}, "target": None, "changes": []}


def test_issue38_a_segment_written_is_read_back_whole(tmp_path: Path) -> None:
    path = mailbox.write_segment(tmp_path, campaign=CAMPAIGN, machine=MACHINE,
                                 name="Bryn's laptop", schema=SCHEMA_VERSION,
                                 ops=[an_op(1), an_op(2)])
    assert path.name == "ops-00000001-00000002.json"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    segment = mailbox.read_segment(path, campaign=CAMPAIGN, machine=MACHINE,
                                   schema=SCHEMA_VERSION)
    assert segment.machine_name == "Bryn's laptop" and len(segment.ops) == 2
    with pytest.raises(mailbox.MailboxRefused, match="another machine's folder"):
        mailbox.read_segment(path, campaign=CAMPAIGN, machine="ef" * 16,
                             schema=SCHEMA_VERSION)
    with pytest.raises(mailbox.NewerVersion, match="uses a newer version"):
        mailbox.read_segment(path, campaign=CAMPAIGN, machine=MACHINE, schema=1)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("seq", 3, "does not belong"), ("clock", {MACHINE: 5}, "skips"),
    ("kind", 7, "words"), ("time", "yesterday", "time"), ("target", "'; DROP", "undoes"),
    ("changes", [{"table": "sqlite_master", "key": "b:1", "id": 1, "before": None,
                  "after": {}}], "no table"),
])
def test_issue38_a_malformed_operation_is_refused(field: str, value: object,
                                                  words: str) -> None:
    op = an_op(1)
    op[field] = value
    with pytest.raises(ValueError, match=words):
        mailbox.check_op(op, MACHINE, 1)


def test_issue38_version_5_adds_the_sharing_tables_as_a_new_file_has_them(
        tmp_path: Path) -> None:
    path = tmp_path / "v4.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v4.stonesaga", path)
    fresh = tmp_path / "fresh.stonesaga"
    CampaignFile.create(fresh, backups=False).close()

    def schema(file: Path) -> list[tuple[str, str]]:
        conn = sqlite3.connect(file)
        try:
            return sorted(conn.execute("SELECT name, sql FROM sqlite_master "
                                       "WHERE tbl_name LIKE 'sync_%'").fetchall())
        finally:
            conn.close()

    CampaignFile.open(path, backups=False).close()
    assert schema(path) == schema(fresh) and len(schema(path)) == 6  # 3 tables, 3 indexes
