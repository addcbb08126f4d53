"""Issue 35 item 1: a write-ahead log that is not the campaign's own is never read.

Every opening path (the read-only commands included) proves a pending ``-wal`` continues
this very file before SQLite sees it (``companion.store.log_proof``), refuses a stranger's
in words, changes nothing (hashed) and never replays it into the file. A log of the
campaign's own (a crash's, or the window's while a command reads) still opens.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.store import CampaignFile, StrangerLog, check_campaign
from companion.store.models import NotePage
from tests.cli.helpers import run
from tests.store.conftest import snapshot

READ_ONLY_COMMANDS = [("status",), ("journal", "list"), ("export", "{out}"),
                      ("characters",), ("map",), ("search", "Ash")]


def _note(cf: CampaignFile, text: str) -> None:
    with cf.transaction("test", text) as session:
        session.add(NotePage(title=text, body=text))


def pending_log_of(path: Path, text: str) -> bytes:
    """The bytes of ``path``'s log while a write of ``text`` is not yet checkpointed."""
    with CampaignFile.open(path, backups=False) as cf:
        _note(cf, text)
        return path.with_name(path.name + "-wal").read_bytes()


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path, seed=8).close()
    yield path


def _refused_by_every_read_only_command(path: Path, capsys: Any) -> None:
    out = path.with_name("out.json")
    before = snapshot(path.parent)
    for command in READ_ONLY_COMMANDS:
        argv = [a.format(out=out) for a in command]
        argv.insert(len(command) - 1 if command[0] in ("export", "search") else len(argv),
                    str(path))
        code, printed, err = run(capsys, *argv)
        assert code != 0, (argv, printed)
        assert "not this campaign's own" in err and "Traceback" not in err, (argv, err)
        assert snapshot(path.parent) == before, argv
    with pytest.raises(StrangerLog):
        CampaignFile.open(path)
    with pytest.raises(StrangerLog):
        CampaignFile.open(path, lock="first-write")
    with pytest.raises(StrangerLog):
        CampaignFile.open(path, verify="background")
    assert snapshot(path.parent) == before
    report = check_campaign(path)
    assert not report.ok and any("not this campaign's own" in p for p in report.problems)
    assert snapshot(path.parent) == before


def test_issue35_item1_another_campaigns_log_is_refused_by_every_command(
        demo: Path, tmp_path: Path, capsys: Any) -> None:
    other = tmp_path / "other" / "d.stonesaga"
    other.parent.mkdir()
    operations.create_demo_campaign(other, seed=9).close()
    demo.with_name(demo.name + "-wal").write_bytes(pending_log_of(other, "Bryn's note"))
    _refused_by_every_read_only_command(demo, capsys)


def test_issue35_item1_a_replaced_files_old_session_log_is_refused(
        demo: Path, tmp_path: Path, capsys: Any) -> None:
    """The synced folder: this computer's session left its log by name; a sync tool put
    the version written on another computer in the file's place."""
    remote = tmp_path / "remote.stonesaga"
    shutil.copyfile(demo, remote)
    with CampaignFile.open(remote, backups=False) as cf:
        _note(cf, "written on the other computer")
    log = pending_log_of(demo, "written here, never checkpointed")
    shutil.copyfile(remote, demo)  # the sync tool's replacement
    demo.with_name(demo.name + "-wal").write_bytes(log)
    _refused_by_every_read_only_command(demo, capsys)


def test_issue35_item1_the_campaigns_own_crash_log_still_opens(
        demo: Path, tmp_path: Path, capsys: Any) -> None:
    crashed = tmp_path / "crashed" / "c.stonesaga"
    crashed.parent.mkdir()
    with CampaignFile.open(demo, backups=False) as cf:
        _note(cf, "kept only in the log")
        shutil.copyfile(demo, crashed)  # a copy of the file and its log mid-session
        shutil.copyfile(demo.with_name(demo.name + "-wal"),
                        crashed.with_name(crashed.name + "-wal"))
    code, out, err = run(capsys, "journal", "list", str(crashed))
    assert code == 0, err
    assert "kept only in the log" in out


def test_issue35_item1_a_command_reads_beside_the_open_window(
        demo: Path, capsys: Any) -> None:
    """The log of a writer at work is the campaign's own: a read beside it works."""
    with CampaignFile.open(demo, backups=False) as cf:
        for i in range(3):
            _note(cf, f"note {i} while the window is open")
            code, out, err = run(capsys, "journal", "list", str(demo))
            assert code == 0, err
            assert f"note {i} while the window is open" in out


def test_issue35_item1_a_log_for_another_page_size_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.stonesaga"
    CampaignFile.create(path, backups=False).close()
    other = tmp_path / "big.db"
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA page_size = 8192")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    log = other.with_name("big.db-wal").read_bytes()
    conn.close()
    path.with_name(path.name + "-wal").write_bytes(log)
    before = snapshot(tmp_path)
    with pytest.raises(StrangerLog, match="8192 bytes"):
        CampaignFile.open(path, lock="first-write")
    assert snapshot(tmp_path) == before
