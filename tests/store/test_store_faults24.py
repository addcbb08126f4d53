"""The store faults of issue 24 (Build item 4), each held by a test written before its fix.

Kills, a stranger's write-ahead log, planted triggers, refusals that left side files,
symlinked campaigns, newlines in names, and the backup policy of a large campaign.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from companion.store import (
    SCHEMA_VERSION,
    BackupPolicy,
    CampaignDamaged,
    CampaignFile,
    CampaignFileError,
    NotACampaign,
    StrangerLog,
    check_campaign,
    list_backups,
    restore_backup,
)
from companion.store import backups as bk
from companion.store.backup_identity import RECORD
from companion.store.backups import BackupInfo, backups_to_keep
from companion.store.durable import stale_temps
from companion.store.integrity import wal_pending
from companion.store.models import NotePage
from tests.store.conftest import REPO, Clock, populate, snapshot

WEB_JOURNAL = REPO / "tests" / "operations" / "fixtures" / "web-journal-v3.json"


# --- a web Campaign Journal imported into a new file: all or nothing -----------------------


@pytest.mark.parametrize(("at", "nth"), [("link", 1), ("link", 2), ("replace", 1)])
def test_a_new_file_import_killed_at_a_rename_leaves_nothing_and_the_retry_works(
    tmp_path: Path, at: str, nth: int
) -> None:
    """Killed at its first rename (``os.replace``: the first backup's), or at a link (the
    temporary file's own, or the one that puts the whole campaign in place), the import
    leaves either no campaign, and the retry works, or the whole import."""
    dest = tmp_path / "reed.stonesaga"
    script = (
        "import os; from pathlib import Path\n"
        f"real, calls = os.{at}, []\n"
        "def die(*a, **k):\n"
        "    calls.append(a)\n"
        f"    if len(calls) == {nth}: os.kill(os.getpid(), 9)\n"
        "    return real(*a, **k)\n"
        f"os.{at} = die\n"
        "from companion.operations import webjournal as wj\n"
        f"wj.import_new(Path({str(WEB_JOURNAL)!r}), Path({str(dest)!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == -9, "the import was not killed: the test is void"
    from companion.operations import webjournal as wj

    if dest.exists():  # killed after the campaign was whole: it holds the whole import
        with CampaignFile.open(dest, backups=False) as cf:
            assert [e.kind for e in cf.journal()][0] == "import.web_journal"
        return
    assert stale_temps(tmp_path), "the kill left no temporary file: the test is void"
    campaign, report = wj.import_new(WEB_JOURNAL, dest)  # the retry: not "already exists"
    with campaign:
        assert report.sections
        assert campaign.file.journal()[0].kind == "import.web_journal"
    assert stale_temps(tmp_path) == []  # the next open in the folder tidied the kill's file


def test_a_refused_new_file_import_leaves_no_temporary_file(tmp_path: Path) -> None:
    from companion.operations import Refused
    from companion.operations import webjournal as wj

    src = tmp_path / "journal.json"
    src.write_text(WEB_JOURNAL.read_text(encoding="utf-8"), encoding="utf-8")
    dest = tmp_path / "reed.stonesaga"
    campaign, _ = wj.import_new(src, dest)
    campaign.close()
    before = snapshot(tmp_path)
    with pytest.raises(Refused, match="already exists"):
        wj.import_new(src, dest)
    assert snapshot(tmp_path) == before


# --- another campaign's write-ahead log beside a campaign --------------------------------


def _with_strangers_log(path: Path) -> None:
    """Put beside ``path`` the pending log of a copy of it that went its own way.

    SQLite replays any log beside a file; the copy's pages disagree with this file's
    index, a damage ``quick_check`` does not look for (only ``integrity_check``)."""
    cf = CampaignFile.create(path, backups=False)
    populate(cf, 300)
    cf.close()
    other = path.with_name("copy on the other laptop.stonesaga")
    shutil.copyfile(path, other)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE character SET status = 'dead' WHERE id = 1")
    conn.commit()
    conn.close()
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("UPDATE character SET status = 'dead' WHERE id = 300")
    conn.commit()
    shutil.copyfile(other.with_name(other.name + "-wal"), path.with_name(path.name + "-wal"))
    conn.close()
    other.unlink()
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as check:
        assert check.execute("PRAGMA quick_check").fetchall() == [("ok",)], "test is void"
        assert check.execute("PRAGMA integrity_check").fetchall() != [("ok",)]


def _good_backups(path: Path, count: int) -> dict[str, str]:
    folder = bk.backups_dir(path)
    folder.mkdir(exist_ok=True)
    when = datetime(2026, 3, 1, 11, 0, tzinfo=UTC)
    good = path.with_name("good.stonesaga")
    CampaignFile.create(good, backups=False).close()
    for i in range(count):
        shutil.copyfile(good, folder / f"{path.stem}-"
                        f"{(when + timedelta(minutes=i)).strftime('%Y%m%dT%H%M%S%f')}Z-"
                        f"interval-e{i + 1}.stonesaga")
    good.unlink()
    return snapshot(folder)


def _write_refused_and_nothing_changed(path: Path, clock: Clock, lock: Any,
                                       kept: dict[str, str]) -> None:
    """Opening and writing is refused as damage; the backups and the file stay as kept."""
    policy = BackupPolicy(recent=3, daily=1, weekly=1)
    with pytest.raises(CampaignDamaged, match="missing from index"):
        cf = CampaignFile.open(path, clock=clock, policy=policy, lock=lock)
        try:
            cf.add_note("written into a damaged file")
        finally:
            cf.close()
    assert snapshot(bk.backups_dir(path)) == kept
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as check:
        assert check.execute("SELECT count(*) FROM journal_event").fetchone() == (1,)


@pytest.mark.parametrize("lock", ["open", "first-write"])
@pytest.mark.parametrize("verify", ["now", "background"])
def test_a_strangers_log_is_refused_before_anything_is_read_or_written(
    path: Path, clock: Clock, lock: str, verify: str
) -> None:
    """Issue 35 item 1: the log of a copy that went its own way carries no mark of this
    file, so every open refuses it before SQLite reads it (once the full check, run
    after the open, found the damage its replay did)."""
    _with_strangers_log(path)
    kept = _good_backups(path, 12)
    before = snapshot(path.parent)
    with pytest.raises(StrangerLog, match="not this campaign's own"):
        CampaignFile.open(path, clock=clock, lock=lock, verify=verify,  # type: ignore[arg-type]
                          policy=BackupPolicy(recent=3, daily=1, weekly=1))
    assert snapshot(path.parent) == before
    assert snapshot(bk.backups_dir(path)) == kept


@pytest.mark.parametrize("lock", ["open", "first-write"])
def test_damage_quick_check_misses_is_found_after_open_and_rotates_nothing(
    path: Path, clock: Clock, lock: str
) -> None:
    """No log pending (it was folded into the file): the open's quick check passes; the
    full check that follows in the background stops the opening backup (at the open, or
    at the command line's first write) before anything is copied or written."""
    _with_strangers_log(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    path.with_name(path.name + "-wal").unlink(missing_ok=True)
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    kept = _good_backups(path, 12)
    _write_refused_and_nothing_changed(path, clock, lock, kept)


def test_damage_found_in_the_background_refuses_a_manual_backup(path: Path, clock: Clock
                                                                ) -> None:
    _with_strangers_log(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    kept = _good_backups(path, 12)
    cf = CampaignFile.open(path, clock=clock, lock="first-write",
                           policy=BackupPolicy(recent=3, daily=1, weekly=1))
    try:
        with pytest.raises(CampaignDamaged, match="missing from index"):
            cf.backup()
    finally:
        cf.close()
    assert snapshot(bk.backups_dir(path)) == kept


# --- triggers and views planted in a campaign file ---------------------------------------


PLANTED = {
    "trigger": "CREATE TRIGGER sneaky AFTER INSERT ON journal_event "
               "BEGIN UPDATE society SET unrest = 99 WHERE id = 1; END",
    "recursive trigger": "CREATE TRIGGER forever AFTER UPDATE ON society "
                         "BEGIN UPDATE society SET unrest = unrest + 1 WHERE id = 1; END",
    "view": "CREATE VIEW heroes AS SELECT name FROM character",
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
@pytest.mark.parametrize("verify", ["now", "background"])
def test_planted_triggers_and_views_are_refused_naming_them(
    path: Path, kind: str, verify: str
) -> None:
    cf = CampaignFile.create(path)
    populate(cf, 3)
    cf.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA recursive_triggers = ON")
    conn.execute(PLANTED[kind])
    conn.commit()
    conn.close()
    before = snapshot(path.parent)
    name = PLANTED[kind].split()[2]
    with pytest.raises(NotACampaign, match=f"{kind.split()[-1]} '{name}'.*no companion makes"):
        CampaignFile.open(path, verify=verify)  # type: ignore[arg-type]
    assert snapshot(path.parent) == before


def test_a_backup_with_a_planted_trigger_is_not_restored(cf: CampaignFile, path: Path) -> None:
    info = cf.backup()
    cf.close()
    conn = sqlite3.connect(info.path)
    conn.execute(PLANTED["trigger"])
    conn.commit()
    conn.close()
    before = snapshot(path.parent)
    with pytest.raises(NotACampaign, match="trigger 'sneaky'"):
        restore_backup(path, info)
    assert snapshot(path.parent) == before


def test_check_names_planted_triggers_and_views(cf: CampaignFile, path: Path) -> None:
    cf.close()
    conn = sqlite3.connect(path)
    conn.execute(PLANTED["trigger"])
    conn.execute(PLANTED["view"])
    conn.commit()
    conn.close()
    report = check_campaign(path)
    assert not report.ok
    assert report.problems == [
        "holds a trigger 'sneaky' on the table journal_event, which no companion makes",
        "holds a view 'heroes', which no companion makes"]


# --- refusing a file changes nothing, whichever way it is opened ---------------------------


def _with_version(path: Path, version: int) -> None:
    CampaignFile.create(path, backups=False).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()


def _another_apps_wal_database(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('bread')")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("lock", ["open", "first-write"])
@pytest.mark.parametrize("version", [0, -1, SCHEMA_VERSION + 1, 999, None])
def test_a_refused_folder_is_byte_for_byte_unchanged(
    path: Path, lock: str, version: int | None
) -> None:
    if version is None:
        _another_apps_wal_database(path)
    else:
        _with_version(path, version)
    before = snapshot(path.parent)
    names = sorted(os.listdir(path.parent))
    with pytest.raises(CampaignFileError):
        CampaignFile.open(path, lock=lock)  # type: ignore[arg-type]
    assert sorted(os.listdir(path.parent)) == names  # no empty -wal/-shm either
    assert snapshot(path.parent) == before


def test_a_strangers_pending_log_beside_another_apps_file_is_left_alone(path: Path) -> None:
    _another_apps_wal_database(path)
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO recipes VALUES ('stew')")
    writer.commit()
    wal = path.with_name(path.name + "-wal").read_bytes()
    writer.close()
    path.with_name(path.name + "-wal").write_bytes(wal)  # its log, without its -shm
    before = snapshot(path.parent)
    names = sorted(os.listdir(path.parent))
    for lock in ("open", "first-write"):
        with pytest.raises(NotACampaign):
            CampaignFile.open(path, lock=lock)  # type: ignore[arg-type]
    assert sorted(os.listdir(path.parent)) == names
    assert snapshot(path.parent) == before


# --- a symlinked campaign stays a link through a restore --------------------------------


def test_restore_goes_through_a_symlinked_campaign(tmp_path: Path, clock: Clock) -> None:
    real_folder = tmp_path / "synced"
    real_folder.mkdir()
    real = real_folder / "saga.stonesaga"
    link = tmp_path / "saga.stonesaga"
    CampaignFile.create(real, backups=False).close()
    link.symlink_to(real)
    with CampaignFile.open(link, clock=clock) as cf:
        cf.add_note("kept")
        good = cf.backup()
        cf.add_note("replaced by the restore")
    safety = restore_backup(link, good)
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert safety is not None
    with CampaignFile.open(link, clock=clock) as cf:
        assert [e.text for e in cf.journal()] == ["kept"]
    with CampaignFile.open(safety.path, backups=False) as copy:
        assert copy.journal()[0].text == "replaced by the restore"


def test_the_log_of_a_symlinked_campaign_is_looked_for_beside_the_file(tmp_path: Path
                                                                       ) -> None:
    (tmp_path / "synced").mkdir()
    real = tmp_path / "synced" / "saga.stonesaga"
    link = tmp_path / "saga.stonesaga"
    CampaignFile.create(real, backups=False).close()
    link.symlink_to(real)
    writer = sqlite3.connect(link)  # SQLite follows the link: its log is beside ``real``
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE society SET unrest = 1")
    writer.commit()
    try:
        assert real.with_name(real.name + "-wal").stat().st_size > 0
        assert wal_pending(link)
    finally:
        writer.close()


# --- a newline in a campaign's name -----------------------------------------------------------


def test_backups_of_a_name_with_a_newline_are_listed_restored_and_rotated(
    tmp_path: Path, clock: Clock
) -> None:
    path = tmp_path / "Reed\nPeople.stonesaga"
    policy = BackupPolicy(interval=timedelta(minutes=1), recent=2, daily=1, weekly=1)
    with CampaignFile.create(path, clock=clock, policy=policy) as cf:
        cf.add_note("first")
        first = cf.backup()
        for i in range(5):
            cf.add_note(f"note {i}")
            cf.maybe_backup(clock.advance(hours=1))
    backups = list_backups(path)
    assert first.path not in [b.path for b in backups]  # rotated out
    assert 2 <= len(backups) <= 4
    assert sorted(p.name for p in bk.backups_dir(path).iterdir() if p.name != RECORD) == sorted(
        b.path.name for b in backups)  # nothing hidden from the list
    restore_backup(path, backups[-1])
    with CampaignFile.open(path, clock=clock) as cf:
        assert cf.last_event_id() == backups[-1].event_id


def test_temporary_files_of_a_name_with_a_newline_are_tidied(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    leftover = tmp_path / f".Reed\nPeople.stonesaga.{dead.pid}-0123abcd.new.tmp"
    leftover.write_bytes(b"\0" * 512)
    assert stale_temps(tmp_path) == [leftover]


# --- backups a large campaign can live with ---------------------------------------------------


MB = 1 << 20
NOW = datetime(2026, 6, 30, 12, tzinfo=UTC)


def _newest(age: timedelta, size: int, event_id: int = 100) -> BackupInfo:
    return BackupInfo(NOW - age, "open", size, Path("newest"), event_id)


@pytest.mark.parametrize(
    ("reason", "size", "newest", "event_id", "due"),
    [
        # No backup yet: always.
        ("open", 500 * MB, None, 1, True),
        # Nothing changed since the newest: never, however old it is.
        ("open", 1 * MB, _newest(timedelta(days=30), 1 * MB), 100, False),
        ("close", 500 * MB, _newest(timedelta(days=30), 500 * MB), 100, False),
        # A small campaign: opening and closing back up whatever changed (as ever).
        ("open", 1 * MB, _newest(timedelta(seconds=5), 1 * MB), 101, True),
        ("close", 1 * MB, _newest(timedelta(seconds=5), 1 * MB), 101, True),
        # ... and the periodic one once the interval (10 minutes) has passed.
        ("interval", 1 * MB, _newest(timedelta(minutes=9), 1 * MB), 101, False),
        ("interval", 1 * MB, _newest(timedelta(minutes=10), 1 * MB), 101, True),
        # A 500 MB campaign: a CLI write a minute after the last backup takes none ...
        ("open", 500 * MB, _newest(timedelta(minutes=1), 500 * MB), 101, False),
        ("close", 500 * MB, _newest(timedelta(minutes=1), 500 * MB), 102, False),
        ("interval", 500 * MB, _newest(timedelta(hours=1), 500 * MB), 150, False),
        # ... one once the newest is older than its spacing (10 min per 32 MB) ...
        ("open", 500 * MB, _newest(timedelta(hours=2, minutes=35), 500 * MB), 101, False),
        ("open", 500 * MB, _newest(timedelta(hours=2, minutes=37), 500 * MB), 101, True),
        ("interval", 500 * MB, _newest(timedelta(hours=3), 500 * MB), 101, True),
        # ... or the file grew by over a quarter since it ...
        ("close", 500 * MB, _newest(timedelta(minutes=1), 390 * MB), 101, True),
        # ... or many operations were played since it.
        ("close", 500 * MB, _newest(timedelta(minutes=1), 500 * MB), 100 + 500, False),
        ("close", 500 * MB, _newest(timedelta(minutes=1), 500 * MB), 100 + 501, True),
    ],
)
def test_backup_policy_decides_from_time_size_and_changes(
    reason: str, size: int, newest: BackupInfo | None, event_id: int, due: bool
) -> None:
    assert bk.backup_due(BackupPolicy(), reason, NOW, size, event_id, newest) is due


def test_rotation_bounds_the_folders_size_keeping_the_newest_and_migrations() -> None:
    backups = [BackupInfo(NOW - timedelta(hours=i), "interval", 500 * MB, Path(f"b{i}"), 0)
               for i in range(40)]
    backups.append(BackupInfo(NOW - timedelta(days=90), "migration", 400 * MB, Path("m"), 0))
    policy = BackupPolicy(max_total=2000 * MB)
    kept = backups_to_keep(backups, policy, NOW)
    assert Path("b0") in kept and Path("m") in kept
    total = sum(b.size for b in backups if b.path in kept)
    assert total <= 2000 * MB
    # the oldest go first: what is kept is the newest of the ordinary backups
    assert kept - {Path("m")} == {Path(f"b{i}") for i in range(3)}


def test_rotation_keeps_the_newest_even_when_it_alone_is_over_the_bound() -> None:
    backups = [BackupInfo(NOW - timedelta(hours=i), "interval", 3000 * MB, Path(f"b{i}"), 0)
               for i in range(3)]
    assert backups_to_keep(backups, BackupPolicy(max_total=2000 * MB), NOW) == {Path("b0")}


def test_a_large_campaigns_cli_writes_take_no_backup_each(path: Path, clock: Clock) -> None:
    """Each CLI command opens, writes and closes: on a large file (made 'large' here by the
    policy's threshold, not by writing 500 MB) that no longer copies the file twice."""
    policy = BackupPolicy(small_file=64 * 1024)
    with CampaignFile.create(path, clock=clock, policy=policy) as cf:
        populate(cf, 200)
    assert path.stat().st_size > policy.small_file
    taken = len(list_backups(path))
    for i in range(5):
        clock.advance(minutes=1)
        with CampaignFile.open(path, clock=clock, policy=policy, lock="first-write") as cf:
            cf.add_note(f"command {i}")
    assert len(list_backups(path)) == taken
    clock.advance(hours=24)
    with CampaignFile.open(path, clock=clock, policy=policy, lock="first-write") as cf:
        cf.add_note("a day later")
    newest = list_backups(path)[0]
    assert newest.reason == "open" and len(list_backups(path)) == taken + 1
    with CampaignFile.open(newest.path, backups=False) as copy, copy.read() as session:
        assert session.get(NotePage, 1) is not None
