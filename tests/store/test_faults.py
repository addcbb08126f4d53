"""Issue 19: the faults the crash soak did not reach, each reproduced before it was fixed.

Each test builds the state a crash, a full disk or a misplaced file leaves, and checks
the promise of docs/campaign-file.md: nothing committed is lost, nobody is locked out,
every refusal says what happened in plain words and what to do.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store import (
    CampaignFile,
    CampaignLocked,
    DiskFull,
    NotACampaign,
    ReadOnly,
    backups_dir,
    campaign_file,
    check_campaign,
    export_campaign,
    list_backups,
    restore_backup,
)
from companion.store import backups as bk
from companion.store.durable import stale_temps
from companion.store.errors import CampaignMoved, SideFileInTheWay
from tests.store.conftest import REPO, Clock, populate, snapshot
from tests.store.faults import cli, event_count_of, half_checkpointed, needs_strace

# --- fault 1: a kill during the checkpoint is not damage ------------------------------------


def test_fault1_half_checkpointed_file_opens_with_every_commit(path: Path) -> None:
    events = half_checkpointed(path)
    report = check_campaign(path)
    assert report.ok, report.problems
    with CampaignFile.open(path) as cf:
        assert cf.event_count() == events
        assert cf.journal(limit=1)[0].text == "the last commit before the kill"


def test_fault1_half_checkpointed_file_opens_in_the_background_too(path: Path) -> None:
    events = half_checkpointed(path)
    with CampaignFile.open(path, verify="background") as cf:
        cf.add_note("after the crash")
        assert cf.event_count() == events + 1


def test_fault1_restore_keeps_the_unreplayed_log_in_its_safety_copy(
    path: Path, clock: Clock
) -> None:
    cf = CampaignFile.create(path, clock=clock)
    cf.add_note("the backup's only note")
    older = cf.backup("manual")
    cf.close(backup=False)
    path.unlink()
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    for info in list_backups(path):
        if info.path != older.path:
            info.path.unlink()
    events = half_checkpointed(path)
    # half_checkpointed made a new campaign at the path: the backup is made its own
    # (a backup proves its campaign by its uid, issue 35 item 3).
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        uid = conn.execute("SELECT uid FROM campaign").fetchone()[0]
    with contextlib.closing(sqlite3.connect(older.path)) as conn:
        conn.execute("UPDATE campaign SET uid = ?", (uid,))
        conn.commit()
    clock.advance(minutes=5)
    safety = restore_backup(path, older, now=clock())
    assert safety is not None
    assert check_campaign(safety.path).ok
    assert event_count_of(safety.path) == events  # every commit of the log is kept


# --- fault 2: side files in the way -----------------------------------------------------------


def _break_backups(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unwritable backups folder, as SQLite reports it (root ignores chmod)."""
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")
    monkeypatch.setattr(bk, "open_backup_target", refuse)


def test_fault2_unwritable_backups_folder_warns_and_keeps_working(
    path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    CampaignFile.create(path, clock=clock).close()
    _break_backups(monkeypatch)
    cf = CampaignFile.open(path, clock=clock)
    cf.add_note("written with no backup possible")
    cf.close()
    assert any("backup" in w and "could not" in w for w in cf.warnings), cf.warnings
    with CampaignFile.open(path, clock=clock) as again:  # not locked out
        assert again.event_count() == 1


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="as root chmod does not stop writes (the test above injects it)")
def test_fault2_unwritable_backups_folder_for_real(path: Path, clock: Clock) -> None:
    CampaignFile.create(path, clock=clock).close()
    backups_dir(path).mkdir(exist_ok=True)
    backups_dir(path).chmod(0o555)
    try:
        with CampaignFile.open(path, clock=clock) as cf:
            cf.add_note("still saved")
        assert cf.warnings
    finally:
        backups_dir(path).chmod(0o755)


def test_fault2_file_where_the_backups_folder_goes(path: Path, clock: Clock) -> None:
    CampaignFile.create(path, clock=clock, backups=False).close()
    backups_dir(path).write_text("not a folder")
    with CampaignFile.open(path, clock=clock) as cf:
        cf.add_note("saved all the same")
    assert any(str(backups_dir(path)) in w and "is a file" in w for w in cf.warnings)
    done = cli("journal", "add", str(path), "from the command line")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "warning:" in done.stderr and "is a file" in done.stderr
    assert cli("status", str(path)).returncode == 0


def test_fault2_folder_where_the_lock_file_goes(path: Path, clock: Clock) -> None:
    CampaignFile.create(path, clock=clock).close()
    path.with_name(path.name + ".lock").mkdir()
    with pytest.raises(SideFileInTheWay, match=r"\.lock is a folder.*Move or rename it"):
        CampaignFile.open(path, clock=clock)
    done = cli("journal", "add", str(path), "a note")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "is a folder" in done.stderr


def test_fault2_read_only_leftovers_are_made_writable_again(path: Path) -> None:
    cf = CampaignFile.create(path)
    cf.close()
    # What opening a read-only (444) campaign leaves: side files with its mode.
    conn = sqlite3.connect(path)
    conn.execute("SELECT count(*) FROM campaign").fetchall()  # a -wal, -shm while open
    for side in ("-wal", "-shm"):
        os.chmod(path.with_name(path.name + side), 0o444)
    os.chmod(path, 0o644)  # the user fixed the campaign's permission ...
    with CampaignFile.open(path) as again:  # ... and the companion fixes the rest
        for side in ("-wal", "-shm"):
            mode = stat.S_IMODE(path.with_name(path.name + side).stat().st_mode)
            assert mode & stat.S_IWUSR, f"{side} still {oct(mode)}"
        again.add_note("writable again")
    conn.close()


# --- fault 3: a full disk ---------------------------------------------------------------------


@needs_strace
def test_fault3_no_space_at_all(path: Path) -> None:
    CampaignFile.create(path).close()
    before = snapshot(path.parent)
    done = cli("journal", "add", str(path), "no room", strace=[
        "-e", "trace=write,pwrite64", "-e", "inject=pwrite64:error=ENOSPC",
    ])
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "disk" in done.stderr and "full" in done.stderr, done.stderr
    assert "damaged" not in done.stderr
    assert not path.with_name(path.name + ".lock").exists()
    after = snapshot(path.parent)
    # SQLite may leave its empty log and index (no commits in them); nothing else changes.
    assert path.with_name(path.name + "-wal").stat().st_size == 0
    assert {k: v for k, v in after.items() if not k.endswith(("-wal", "-shm"))} == before


@needs_strace
def test_fault3_no_space_for_the_lock_file(path: Path) -> None:
    """The first write to the disk is the lock file's owner line: it fails."""
    cf = CampaignFile.create(path)
    cf.add_note("kept")
    cf.close()
    before = snapshot(path.parent)
    lock = str(path.with_name(path.name + ".lock"))
    done = cli("journal", "add", str(path), "no room", strace=[
        "-e", "trace=write,pwrite64", "-P", lock,
        "-e", "inject=write,pwrite64:error=ENOSPC",
    ])
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "is full" in done.stderr
    assert not path.with_name(path.name + ".lock").exists()  # no empty lock file left
    assert snapshot(path.parent) == before


@needs_strace
@pytest.mark.parametrize("room", [3, 12, 40])
def test_fault3_a_few_writes_of_room(path: Path, room: int) -> None:
    cf = CampaignFile.create(path)
    cf.add_note("before the disk filled")
    cf.close()
    done = cli("journal", "add", str(path), "no room", strace=[
        "-e", "trace=pwrite64", "-e", f"inject=pwrite64:error=ENOSPC:when={room}+",
    ])
    assert "Traceback" not in done.stderr, done.stderr
    assert "damaged" not in done.stderr, done.stderr
    if done.returncode:
        assert "full" in done.stderr, done.stderr
    report = check_campaign(path)
    assert report.ok, report.problems
    assert 1 <= event_count_of(path) <= 2  # the old note kept; the new one all or nothing


def test_fault3_closing_backup_failure_is_a_warning(
    path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    cf = CampaignFile.create(path, clock=clock)
    cf.add_note("kept")

    def full(*_args: object, **_kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(bk, "open_backup_target", full)
    cf.close()
    assert any("full" in w and "backup" in w for w in cf.warnings), cf.warnings


# --- fault 5: schema version 0 or negative ---------------------------------------------------


@pytest.mark.parametrize("version", [0, -1, -7])
def test_fault5_version_zero_or_negative_is_not_ours(path: Path, version: int) -> None:
    CampaignFile.create(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    before = snapshot(path.parent)
    with pytest.raises(NotACampaign, match=f"schema version {version}"):
        CampaignFile.open(path)
    assert snapshot(path.parent) == before  # no migration backup written


# --- fault 7: deleted or moved while open ----------------------------------------------------


@pytest.mark.parametrize("how", ["deleted", "moved", "replaced"])
def test_fault7_campaign_gone_while_open(path: Path, tmp_path: Path, how: str) -> None:
    cf = CampaignFile.create(path)
    cf.add_note("saved while it was there")
    if how == "deleted":
        path.unlink()
    elif how == "moved":
        path.rename(tmp_path / "elsewhere.stonesaga")
    else:  # a sync tool puts its own copy in place
        path.rename(tmp_path / "old.stonesaga")
        shutil.copyfile(tmp_path / "old.stonesaga", path)
    with pytest.raises(CampaignMoved, match="deleted, moved or replaced"):
        cf.add_note("would be lost")
    rescue = cf.save_copy(tmp_path / "rescued.stonesaga")
    cf.close()
    assert event_count_of(rescue) == 1


# --- fault 8: durability and stale temporary files --------------------------------------------


on_linux = pytest.mark.skipif(sys.platform != "linux",
                              reason="names the fsynced files through /proc/self/fd")


def watch_fsync(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files fsynced from now on, named by their descriptors."""
    synced: list[str] = []
    real = os.fsync

    def watch(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)
    monkeypatch.setattr(os, "fsync", watch)
    return synced


@on_linux
def test_fault8_export_fsyncs_file_and_folder(
    cf: CampaignFile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced = watch_fsync(monkeypatch)
    out = tmp_path / "out" / "saga.json"
    out.parent.mkdir()
    export_campaign(cf, out)
    assert any(".tmp" in s and "saga.json" in s for s in synced), synced
    assert str(out.parent) in synced, synced


@on_linux
def test_fault8_create_and_restore_fsync_the_folder(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced = watch_fsync(monkeypatch)
    cf = CampaignFile.create(path)
    assert str(path.parent) in synced
    info = cf.backup()
    cf.close()
    synced.clear()
    restore_backup(path, info)
    assert str(path.parent) in synced


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_fault8_killed_writers_temporary_files_are_cleaned_on_open(
    path: Path, tmp_path: Path
) -> None:
    CampaignFile.create(path).close()
    dead = _dead_pid()
    leftovers = [
        path.with_name(f".{path.name}.{dead}-0123abcd.restoring.tmp"),
        tmp_path / f".saga.json.{dead}-89abcdef.export.tmp",
        tmp_path / f".imported.stonesaga.{dead}-deadbeef.new.tmp",
        tmp_path / f".imported.stonesaga.{dead}-deadbeef.new.tmp-wal",
        backups_dir(path) / f".saga.stonesaga.{dead}-00112233.backup.tmp",
    ]
    mine = tmp_path / f".other.json.{os.getpid()}-44556677.export.tmp"  # still writing
    for leftover in [*leftovers, mine]:
        leftover.parent.mkdir(exist_ok=True)
        leftover.write_bytes(b"\0" * 4096)
    CampaignFile.open(path).close()
    assert [p for p in leftovers if p.exists()] == []
    assert mine.exists()
    assert stale_temps(tmp_path) == []


def test_fault8_a_killed_export_leaves_nothing_after_the_next_open(
    cf: CampaignFile, path: Path, tmp_path: Path
) -> None:
    populate(cf)
    cf.close()
    script = (
        "import os, sys; from pathlib import Path; from companion.store import portable\n"
        "real = os.replace\n"
        "def die(*a): os.kill(os.getpid(), 9)\n"
        "portable.os.replace = die\n"
        f"portable.export_campaign(Path({str(path)!r}), Path({str(tmp_path / 'x.json')!r}))\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=REPO,
                   env={**os.environ, "PYTHONPATH": str(REPO)})
    assert stale_temps(tmp_path), "the kill left no temporary file: test is void"
    CampaignFile.open(path).close()
    assert stale_temps(tmp_path) == []


# --- fault 9: reading while another copy writes ------------------------------------------------


def test_fault9_reading_beside_the_writer(path: Path, holder: subprocess.Popen[str]) -> None:
    with CampaignFile.open(path, lock="on-write") as reader:
        assert reader.event_count() == 1
        with pytest.raises(CampaignLocked, match=f"pid {holder.pid}"):
            reader.add_note("the other copy has it")
    assert event_count_of(path) == 1


def test_fault9_cli_reads_while_the_app_holds_the_campaign(
    path: Path, holder: subprocess.Popen[str], tmp_path: Path
) -> None:
    for args in (["status", str(path)], ["export", str(path), str(tmp_path / "out.json")],
                 ["search", str(path), "page"]):
        done = cli(*args, "--json")
        assert done.returncode == 0, (args, done.stderr)
    assert json.loads((tmp_path / "out.json").read_text())["format"]
    done = cli("journal", "add", str(path), "refused")
    assert done.returncode == 1 and f"pid {holder.pid}" in done.stderr


# --- fault 10: the lock on every platform ----------------------------------------------------


def test_fault10_the_store_starts_without_fcntl(path: Path) -> None:
    CampaignFile.create(path).close()
    script = (
        "import sys; sys.modules['fcntl'] = None\n"  # as on Windows: no fcntl module
        "import filelock, companion.store.lock as lock\n"
        "print('imported')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0 and "imported" in done.stdout, done.stderr


def test_fault10_lock_released_when_the_holder_dies(
    path: Path, holder: subprocess.Popen[str]
) -> None:
    with pytest.raises(CampaignLocked):
        CampaignFile.open(path)
    holder.kill()
    holder.wait()
    with CampaignFile.open(path) as cf:
        cf.add_note("taken over")


def test_fault2_a_read_only_campaign_makes_no_read_only_side_files(path: Path) -> None:
    cf = CampaignFile.create(path)
    cf.add_note("written while writable")
    cf.close()
    os.chmod(path, 0o444)
    with CampaignFile.open(path) as reader:
        assert reader.event_count() == 1  # reading works
        with pytest.raises(ReadOnly, match="cannot be written"):
            reader.add_note("refused")
        assert not path.with_name(path.name + "-wal").exists()
        assert not path.with_name(path.name + "-shm").exists()
    os.chmod(path, 0o644)  # the player fixes the permission: writing works at once
    with CampaignFile.open(path) as writer:
        writer.add_note("writable again")
        assert writer.event_count() == 2


def test_fault3_background_check_stopped_by_the_disk_is_not_damage(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    CampaignFile.create(path).close()

    def full(_conn: object, **_kwargs: object) -> list[str]:
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorname = "SQLITE_IOERR_SHMSIZE"  # what a full disk gives here
        raise error
    monkeypatch.setattr(campaign_file, "quick_check", full)
    cf = CampaignFile.open(path, verify="background")
    with pytest.raises(DiskFull, match="is full"):
        cf.add_note("no room to check")
    cf.close()


def test_fault2_odd_names_in_the_backups_folder_are_not_backups(path: Path) -> None:
    CampaignFile.create(path).close()
    odd = backups_dir(path) / "saga-20261399T999999000000Z-open-e1.stonesaga"  # no such day
    odd.write_bytes(b"")
    assert odd not in [b.path for b in list_backups(path)]
    with CampaignFile.open(path) as cf:
        cf.add_note("fine")
