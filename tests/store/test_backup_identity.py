"""Issue 35 item 3: a backup proves which campaign it belongs to.

A backup-shaped file of another campaign in ``c.stonesaga.backups/`` is not listed as
c's, cannot be restored over c, and is never deleted by c's rotation, not even through a
backups folder that is a link to another one. A backup from before schema 4 (no uid) is
c's only when its first journal event is c's.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.store import (
    BackupPolicy,
    CampaignFile,
    ForeignBackup,
    backups_dir,
    list_backups,
    restore_backup,
)
from companion.store.backup_identity import RECORD
from tests.cli.helpers import run
from tests.store.conftest import FIXTURES, Clock, snapshot

POLICY = BackupPolicy(recent=2, daily=1, weekly=1)


def _campaign(path: Path, clock: Clock, note: str) -> Path:
    with CampaignFile.create(path, clock=clock, policy=POLICY) as cf:
        cf.add_note(note)
    return path


def _foreign_backup_beside(path: Path, tmp_path: Path, clock: Clock) -> Path:
    """Another campaign's backup, renamed as a backup of ``path`` in its folder."""
    other = _campaign(tmp_path / "elsewhere" / path.name, clock, "another tribe's note")
    theirs = list_backups(other)[0].path
    folder = backups_dir(path)
    folder.mkdir(exist_ok=True)
    clock.advance(minutes=1)
    stamp = clock().strftime("%Y%m%dT%H%M%S%f")
    planted = folder / f"{path.stem}-{stamp}Z-manual-e1.stonesaga"
    shutil.copyfile(theirs, planted)
    return planted


@pytest.fixture
def mine(tmp_path: Path, clock: Clock) -> Path:
    (tmp_path / "elsewhere").mkdir()
    return _campaign(tmp_path / "c.stonesaga", clock, "our own note")


def test_issue35_item3_another_campaigns_backup_is_not_listed(
        mine: Path, tmp_path: Path, clock: Clock, capsys: Any) -> None:
    planted = _foreign_backup_beside(mine, tmp_path, clock)
    listed = [b.path for b in list_backups(mine)]
    assert planted not in listed and listed
    code, out, err = run(capsys, "backup", "list", str(mine))
    assert code == 0, err
    assert planted.name not in out


def test_issue35_item3_another_campaigns_backup_is_not_restored(
        mine: Path, tmp_path: Path, clock: Clock, capsys: Any) -> None:
    planted = _foreign_backup_beside(mine, tmp_path, clock)
    before = snapshot(tmp_path)
    with pytest.raises(ForeignBackup, match="is not a backup of c.stonesaga"):
        restore_backup(mine, planted)
    assert snapshot(tmp_path) == before


def test_issue35_item3_rotation_never_deletes_another_campaigns_backup(
        mine: Path, tmp_path: Path, clock: Clock) -> None:
    planted = _foreign_backup_beside(mine, tmp_path, clock)
    planted_bytes = planted.read_bytes()
    with CampaignFile.open(mine, clock=clock, policy=POLICY) as cf:
        for i in range(6):
            clock.advance(days=2)
            cf.add_note(f"note {i}")
            cf.backup()
    assert planted.read_bytes() == planted_bytes
    assert len(list_backups(mine)) <= 4  # ours were rotated


def test_issue35_item3_rotation_through_a_linked_folder_deletes_only_ours(
        tmp_path: Path, clock: Clock) -> None:
    """The backups folder is a link to a folder holding another campaign's backups under
    our names: rotation deletes only what proves it is ours."""
    shared = tmp_path / "shared"
    shared.mkdir()
    path = tmp_path / "c.stonesaga"
    backups_dir(path).symlink_to(shared)
    _campaign(path, clock, "ours")
    kept = {}
    for i in range(5):
        (tmp_path / f"t{i}" / "elsewhere").mkdir(parents=True)
        planted = _foreign_backup_beside(path, tmp_path / f"t{i}", clock)
        kept[planted] = planted.read_bytes()
    with CampaignFile.open(path, clock=clock, policy=POLICY) as cf:
        for i in range(5):
            clock.advance(days=3)
            cf.add_note(f"note {i}")
            cf.backup()
    assert all(p.read_bytes() == data for p, data in kept.items())
    ours = list_backups(path)
    assert 0 < len(ours) <= 4 and not set(kept) & {b.path for b in ours}


def _uid(path: Path) -> str:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return str(conn.execute("SELECT uid FROM campaign").fetchone()[0])
    finally:
        conn.close()


def test_issue35_item3_a_backup_from_before_schema_4_is_tied_by_its_first_event(
        tmp_path: Path, clock: Clock) -> None:
    """The migration copy of a version 3 file has no uid: it is the campaign's because
    its first journal event is; another version 3 campaign's copy is not."""
    path = tmp_path / "old.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v3.stonesaga", path)
    with CampaignFile.open(path, clock=clock):
        pass
    migration = [b for b in list_backups(path) if b.reason == "migration"]
    assert len(migration) == 1
    # Another version 3 campaign (its first event differs) under this campaign's name.
    stranger = tmp_path / "stranger.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v3.stonesaga", stranger)
    conn = sqlite3.connect(stranger)
    conn.execute("UPDATE journal_event SET text = 'another tribe begins' WHERE id = 1")
    conn.commit()
    conn.close()
    planted = migration[0].path.with_name(migration[0].path.name.replace("migration", "open"))
    shutil.copyfile(stranger, planted)
    listed = {b.path for b in list_backups(path)}
    assert migration[0].path in listed and planted not in listed
    with pytest.raises(ForeignBackup):
        restore_backup(path, planted)
    restore_backup(path, migration[0].path)  # our own old copy still restores


def test_issue35_item3_a_damaged_campaigns_backups_are_known_by_the_record(
        mine: Path, clock: Clock) -> None:
    """A campaign too damaged to read is known by the identity its backups recorded: its
    own backups stay listed and restorable."""
    uid = _uid(mine)
    assert uid in (backups_dir(mine) / RECORD).read_text()
    ours = list_backups(mine)
    with open(mine, "r+b") as f:
        f.write(b"\0" * 4096 * 4)  # header and schema gone
    assert list_backups(mine) == ours
    restore_backup(mine, ours[0])
    assert _uid(mine) == uid


def test_issue35_item3_restored_copy_keeps_the_campaigns_identity(
        mine: Path, clock: Clock) -> None:
    uid = _uid(mine)
    clock.advance(minutes=5)
    restore_backup(mine, list_backups(mine)[-1])
    assert _uid(mine) == uid
    assert len(list_backups(mine)) >= 2  # the safety copy is ours too
    assert all(os.path.exists(b.path) for b in list_backups(mine))


def test_issue35_item3_a_restored_old_copy_migrates_to_the_same_identity(
        tmp_path: Path, clock: Clock) -> None:
    """Restoring the pre-schema-4 migration copy and opening it again gives it the uid it
    had (derived from its first event), so the backups taken since stay its own."""
    path = tmp_path / "old.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v3.stonesaga", path)
    with CampaignFile.open(path, clock=clock) as cf:
        clock.advance(minutes=1)
        later = cf.backup()
    uid = _uid(path)
    migration = next(b for b in list_backups(path) if b.reason == "migration")
    clock.advance(minutes=1)
    restore_backup(path, migration.path, now=clock())
    assert later.path in {b.path for b in list_backups(path)}  # tied by the first event
    clock.advance(minutes=1)
    with CampaignFile.open(path, clock=clock):
        pass
    assert _uid(path) == uid
    assert later.path in {b.path for b in list_backups(path)}


def test_issue35_item3_a_restore_keeps_a_strangers_log_in_its_safety_copy(
        mine: Path, tmp_path: Path, clock: Clock) -> None:
    """Restoring is the way out of a stranger's log beside the campaign; its commits may
    be all that is left of their campaign, so the safety copy keeps it, byte for byte."""
    other = tmp_path / "elsewhere" / "d.stonesaga"
    _campaign(other, clock, "theirs")
    with CampaignFile.open(other, backups=False) as cf:
        cf.add_note("only in their log")
        log = other.with_name(other.name + "-wal").read_bytes()
    mine.with_name(mine.name + "-wal").write_bytes(log)
    clock.advance(minutes=1)
    safety = restore_backup(mine, list_backups(mine)[0], now=clock())
    assert safety is not None
    assert safety.path.with_name(safety.path.name + "-wal").read_bytes() == log
    assert not mine.with_name(mine.name + "-wal").exists()
    with CampaignFile.open(mine, clock=clock) as cf:
        assert "our own note" in {e.text for e in cf.journal()}
