"""Automatic backups, rotation (with a hand-moved clock), restore and the check."""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.store import (
    SCHEMA_VERSION,
    BackupPolicy,
    CampaignDamaged,
    CampaignFile,
    CampaignFileError,
    CampaignLocked,
    check_campaign,
    list_backups,
    restore_backup,
)
from companion.store.backup_identity import RECORD
from companion.store.backups import BackupInfo, backups_to_keep
from tests.store.conftest import Clock, populate, snapshot


def test_open_takes_a_backup_only_when_something_changed(path: Path, clock: Clock) -> None:
    CampaignFile.create(path, clock=clock).close()
    assert [b.reason for b in list_backups(path)] == ["open"]
    clock.advance(minutes=1)
    CampaignFile.open(path, clock=clock).close()  # nothing new: no second copy
    assert len(list_backups(path)) == 1
    with CampaignFile.open(path, clock=clock) as cf:
        cf.add_note("new")
    assert [b.reason for b in list_backups(path)] == ["close", "open"]


def test_maybe_backup_follows_the_interval(path: Path, clock: Clock) -> None:
    policy = BackupPolicy(interval=timedelta(minutes=5))
    with CampaignFile.create(path, clock=clock, policy=policy) as cf:
        cf.add_note("one")
        assert cf.maybe_backup(clock.advance(minutes=4)) is None  # too soon
        taken = cf.maybe_backup(clock.advance(minutes=2))
        assert taken is not None and taken.reason == "interval"
        assert cf.maybe_backup(clock.advance(minutes=10)) is None  # nothing changed
        cf.add_note("two")
        assert cf.maybe_backup(clock.advance(minutes=10)) is not None
        latest = list_backups(path)[0]
        assert latest.event_id == cf.last_event_id() and latest.size > 0


def test_a_backup_is_a_whole_campaign(cf: CampaignFile, path: Path) -> None:
    populate(cf)
    info = cf.backup()
    assert check_campaign(info.path).ok
    with CampaignFile.open(info.path, backups=False) as copy:
        assert copy.event_count() == 1


def _fake(time: datetime, reason: str = "interval") -> BackupInfo:
    return BackupInfo(time, reason, 0, Path(time.isoformat()), 0)


def test_rotation_keeps_recent_daily_and_weekly() -> None:
    now = datetime(2026, 6, 30, 12, tzinfo=UTC)
    # one backup every 6 hours for 90 days, newest first
    backups = [_fake(now - timedelta(hours=6 * i)) for i in range(360)]
    backups.append(_fake(now - timedelta(days=300), "migration"))
    kept = backups_to_keep(backups, BackupPolicy(recent=10, daily=7, weekly=8), now)
    kept_times = sorted((b.time for b in backups if b.path in kept), reverse=True)
    assert kept_times[:10] == [b.time for b in backups[:10]]
    days = {t.date() for t in kept_times if t.date() > now.date() - timedelta(days=7)}
    assert len(days) == 7
    weeks = {t.isocalendar()[:2] for t in kept_times[:-1]}
    assert len(weeks) == 8
    assert all(now - t < timedelta(weeks=8) for t in kept_times[:-1])
    assert kept_times[-1] == now - timedelta(days=300)  # pre-migration copies stay
    assert len(kept) <= 10 + 7 + 8 + 1


def test_rotation_deletes_files(path: Path, clock: Clock) -> None:
    policy = BackupPolicy(interval=timedelta(minutes=1), recent=3, daily=2, weekly=1)
    with CampaignFile.create(path, clock=clock, policy=policy) as cf:
        for i in range(12):
            cf.add_note(f"note {i}")
            cf.maybe_backup(clock.advance(hours=5))
    backups = list_backups(path)
    assert len(backups) <= 3 + 2 + 1
    # Every file left is a listed backup (beside the record of the campaign's identity).
    left = [p for p in backups[0].path.parent.iterdir() if p.name != RECORD]
    assert len(left) == len(backups)


def test_restore_replaces_the_file_after_a_safety_copy(path: Path, clock: Clock) -> None:
    with CampaignFile.create(path, clock=clock) as cf:
        cf.add_note("kept")
        good = cf.backup()
        cf.add_note("lost by the restore, but in the safety copy")
    safety = restore_backup(path, good)
    assert safety is not None and safety.reason == "restore"
    with CampaignFile.open(path, clock=clock) as cf:
        assert [e.text for e in cf.journal()] == ["kept"]
    with CampaignFile.open(safety.path, backups=False) as copy:
        assert copy.event_count() == 2


def test_a_damaged_file_is_restorable_from_its_backups(path: Path, clock: Clock) -> None:
    with CampaignFile.create(path, clock=clock) as cf:
        populate(cf)
    data = bytearray(path.read_bytes())
    third = len(data) // 3
    data[third : 2 * third] = os.urandom(third)
    path.write_bytes(bytes(data))
    with pytest.raises(CampaignDamaged, match="backup") as refused:
        CampaignFile.open(path)
    assert refused.value.backups == 2  # taken on open and on close
    report = check_campaign(path)
    assert not report.ok and report.problems and report.backups == 2
    damaged = path.read_bytes()
    safety = restore_backup(path, list_backups(path)[0])
    assert safety is not None and safety.path.read_bytes() == damaged  # evidence kept
    with CampaignFile.open(path, clock=clock) as cf:
        assert cf.event_count() == 1


def test_restore_is_refused_while_the_campaign_is_open(cf: CampaignFile, path: Path) -> None:
    backup = cf.backup()
    before = snapshot(path.parent)
    with pytest.raises(CampaignLocked):
        restore_backup(path, backup)
    assert snapshot(path.parent) == before


def test_restore_refuses_a_bad_backup(cf: CampaignFile, path: Path, tmp_path: Path) -> None:
    cf.close()
    junk = tmp_path / "junk.stonesaga"
    junk.write_text("not a campaign")
    before = snapshot(tmp_path)
    with pytest.raises(CampaignFileError, match="not an SQLite"):
        restore_backup(path, junk)
    assert snapshot(tmp_path) == before


def test_check_campaign_reports(cf: CampaignFile, path: Path) -> None:
    populate(cf)
    report = check_campaign(path)
    assert report.locked_by is not None and report.locked_by.pid == os.getpid()
    cf.close()
    report = check_campaign(path)
    assert report.ok and report.locked_by is None and report.schema_version == SCHEMA_VERSION
    assert report.events == 1 and report.backups >= 1


def test_check_finds_dangling_references(cf: CampaignFile, path: Path) -> None:
    cf.close()
    conn = sqlite3.connect(path)  # foreign keys are off by default here
    conn.execute("INSERT INTO character (id, name, player, age, might, dexterity, awareness, "
                 "conviction, traits, marks, health, energy, boosts, items, bag, hex_id, "
                 "status) VALUES (1, 'Lost', '', 'young', 0, 0, 0, 0, '[]', '[]', '[]', 0, "
                 "'{}', '[]', '[]', 42, 'active')")
    conn.commit()
    conn.close()
    report = check_campaign(path)
    assert not report.ok and "character row 1" in report.foreign_key_problems[0]


def test_check_of_foreign_and_missing_files(tmp_path: Path) -> None:
    text = tmp_path / "a.stonesaga"
    text.write_text("hello")
    assert not check_campaign(text).ok
    assert not check_campaign(tmp_path / "missing.stonesaga").ok
    shutil.rmtree(tmp_path)


def test_save_copy_writes_a_new_campaign(cf: CampaignFile, path: Path, tmp_path: Path) -> None:
    populate(cf)
    copy = cf.save_copy(tmp_path / "copy.stonesaga")
    assert check_campaign(copy).ok
    with pytest.raises(CampaignFileError, match="already exists"):
        cf.save_copy(copy)
    with CampaignFile.open(copy, backups=False) as again:
        assert again.event_count() == 1


def test_check_report_is_json_ready(cf: CampaignFile, path: Path) -> None:
    import json

    data = check_campaign(path).to_dict()
    assert json.loads(json.dumps(data))["locked_by"]["pid"] == os.getpid()
