"""Creating and opening campaign files, and every refusal leaving the file untouched."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    CampaignDamaged,
    CampaignFile,
    CampaignFileExists,
    CampaignLocked,
    CampaignNotFound,
    CampaignTooNew,
    NotACampaign,
    lock_holder,
)
from companion.store.models import Character, ProcedureState
from tests.store.conftest import REPO, Clock, populate, snapshot


def test_create_sets_identity_and_connection_settings(cf: CampaignFile, path: Path) -> None:
    raw = cf._conn()
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert raw.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert raw.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert cf.campaign().id == 1 and cf.society().unrest == 0
    assert cf.event_count() == 0


def test_create_refuses_to_overwrite(cf: CampaignFile, path: Path) -> None:
    cf.close()
    before = snapshot(path.parent)
    with pytest.raises(CampaignFileExists, match="never overwrites"):
        CampaignFile.create(path)
    assert snapshot(path.parent) == before


def test_open_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CampaignNotFound):
        CampaignFile.open(tmp_path / "nothing.stonesaga")
    assert list(tmp_path.iterdir()) == []


def test_reopen_keeps_rows(cf: CampaignFile, path: Path, clock: Clock) -> None:
    populate(cf)
    cf.close()
    with CampaignFile.open(path, clock=clock) as again, again.read() as session:
        assert session.get(Character, 1) is not None


def test_foreign_keys_are_enforced(cf: CampaignFile) -> None:
    with pytest.raises(Exception, match="FOREIGN KEY"), cf.transaction("bad", "bad") as s:
        s.add(Character(name="Nowhere", hex_id=999))
    assert cf.event_count() == 0


# --- refusals: each leaves every file in the folder exactly as it was ---------------------


def _closed_campaign(path: Path) -> None:
    cf = CampaignFile.create(path)
    populate(cf)
    cf.close()


def _refused(path: Path, error: type[Exception], match: str) -> None:
    before = snapshot(path.parent)
    with pytest.raises(error, match=match):
        CampaignFile.open(path)
    assert snapshot(path.parent) == before
    assert lock_holder(path) is None


def test_text_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.stonesaga"
    path.write_text("Ash went fishing.\n" * 20)
    _refused(path, NotACampaign, "not an SQLite database")


def test_empty_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.stonesaga"
    path.write_bytes(b"")
    _refused(path, NotACampaign, "not an SQLite")


def test_foreign_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.stonesaga"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    _refused(path, NotACampaign, "not one the companion made")


def test_file_from_the_future_is_refused(path: Path) -> None:
    _closed_campaign(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.commit()
    conn.close()
    _refused(path, CampaignTooNew, f"schema version {SCHEMA_VERSION + 5}.*up to")


def test_damaged_file_is_refused_and_offers_backups(path: Path) -> None:
    _closed_campaign(path)
    data = bytearray(path.read_bytes())
    third = len(data) // 3
    data[third : 2 * third] = os.urandom(third)  # wreck the middle pages
    path.write_bytes(bytes(data))
    _refused(path, CampaignDamaged, r"damaged .* backup\(s\) are available")


def test_truncated_file_is_refused(path: Path) -> None:
    _closed_campaign(path)
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2)
    _refused(path, CampaignDamaged, "damaged")


# --- the writer lock ---------------------------------------------------------------------


def test_second_process_is_refused(path: Path, holder: subprocess.Popen[str]) -> None:
    before = snapshot(path.parent)
    with pytest.raises(CampaignLocked, match=f"pid {holder.pid} on host"):
        CampaignFile.open(path)
    assert snapshot(path.parent) == before
    owner = lock_holder(path)
    assert owner is not None and owner.pid == holder.pid


def test_lock_of_a_killed_process_is_taken_over(
    path: Path, holder: subprocess.Popen[str]
) -> None:
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert lock_holder(path) is None
    with CampaignFile.open(path) as cf:
        assert cf.event_count() == 1


def test_same_process_second_open_is_refused(cf: CampaignFile, path: Path) -> None:
    with pytest.raises(CampaignLocked, match=f"pid {os.getpid()}"):
        CampaignFile.open(path)
    cf.close()
    assert not path.with_name(path.name + ".lock").exists()
    CampaignFile.open(path).close()


# --- verifying in the background (the GUI's fast open) --------------------------------------


def test_background_verify_opens_a_sound_file(path: Path, clock: Clock) -> None:
    _closed_campaign(path)
    with CampaignFile.open(path, clock=clock, verify="background") as cf:
        assert cf.event_count() == 1  # reads do not wait
        cf.add_note("writes wait for the check, then go ahead")
        cf.wait_verified()
    with CampaignFile.open(path) as again:
        assert again.event_count() == 2


def test_background_verify_refuses_writes_to_a_damaged_file(path: Path) -> None:
    _closed_campaign(path)
    data = bytearray(path.read_bytes())
    third = len(data) // 3
    data[third : 2 * third] = os.urandom(third)
    path.write_bytes(bytes(data))
    backups_before = snapshot(path.parent)
    try:
        cf = CampaignFile.open(path, verify="background")
    except CampaignDamaged:
        return  # the damage reached the pages read while opening: refused at once
    with pytest.raises(CampaignDamaged, match="damaged"):
        cf.add_note("must not be written")
    with pytest.raises(CampaignDamaged):
        cf.backup()
    cf.close()
    after = snapshot(path.parent)
    assert after == backups_before  # no write, no backup of the damaged file


def test_holds_saved_state_once_a_procedure_state_is_saved(cf: CampaignFile) -> None:
    """The window asks this before it loads the procedures (at start-up): a new campaign
    holds no saved state; a saved procedure state of any kind is some."""
    assert not cf.holds_saved_state()
    with cf.transaction("test", "a discovery is due") as session:
        session.add(ProcedureState(kind="discovery_due"))
    assert cf.holds_saved_state()


def test_the_later_tables_wait_but_a_new_file_gets_every_table(tmp_path: Path) -> None:
    """Opening the store declares only the tables the first view reads; creating a file
    declares the others first, so a new campaign has every table (in a fresh process:
    this one has declared them all long ago)."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from companion.store import CampaignFile\n"
        "assert 'companion.store.later_tables' not in sys.modules\n"
        "CampaignFile.create(Path(sys.argv[1]), backups=False).close()\n"
        "from companion.store.models import ALL_TABLES, table_of\n"
        "from companion.store.sync_tables import SYNC_TABLES\n"
        "print(' '.join(sorted(table_of(t).name for t in (*ALL_TABLES, *SYNC_TABLES))))\n"
    )
    made = tmp_path / "new.stonesaga"
    done = subprocess.run([sys.executable, "-c", script, str(made)], cwd=REPO,
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(made) as conn:
        tables = sorted(row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"))
    # 30 exported tables, a shared campaign's 3 (issue 38: never exported), and the
    # store's own log_mark (no model: never exported)
    assert tables == sorted([*done.stdout.split(), "log_mark"]) and len(tables) == 34
