"""The kill soak's strangers (issue 35 items 1, 3 and 4): files the campaign never wrote.

- a write-ahead log left by a killed writer of the campaign's *twin* (a copy of it that
  went its own way, as on another computer of a synced folder) is put beside a copy of
  the campaign: every read-only command refuses it and changes nothing;
- another campaign's backup, named as the campaign's and dated long ago (the first a
  rotation would delete if it took it for the campaign's), sits in the backups folder
  for the whole soak: never listed, never restored, never deleted;
- a virtual table (FTS5, with garbage in its shadow data) planted in a copy of the
  campaign is refused by name, and ``check`` names it, running nothing.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import sqlite3
from pathlib import Path

from companion.cli import main
from companion.store import (
    CampaignFile,
    ForeignAdditions,
    backups_dir,
    check_campaign,
    list_backups,
)
from companion.store.log_proof import committed_frames
from tests.store.conftest import snapshot

READ_ONLY_COMMANDS = (("status", "{path}"), ("journal", "list", "{path}"),
                      ("export", "{path}", "{out}"), ("characters", "{path}"),
                      ("map", "{path}"), ("search", "{path}", "crash"))
"""Every command that only reads a campaign, as the soak runs them."""


def plant_foreign_backup(campaign: Path, workshop: Path) -> tuple[Path, bytes]:
    """Another campaign's backup, named as ``campaign``'s; returns it and its bytes."""
    workshop.mkdir(parents=True, exist_ok=True)
    other = workshop / "another tribe.stonesaga"
    with CampaignFile.create(other, backups=False) as cf:
        cf.add_note("another tribe's first note")
        target = backups_dir(campaign) / (
            f"{campaign.stem}-20200101T000000000000Z-interval-e1.stonesaga")
        target.parent.mkdir(exist_ok=True)
        cf.save_copy(target)
    return target, target.read_bytes()


def foreign_backup_kept(campaign: Path, planted: Path, data: bytes) -> None:
    """The planted backup is still there, unchanged, and not offered as the campaign's."""
    assert planted.read_bytes() == data, "another campaign's backup was changed or deleted"
    assert planted not in {b.path for b in list_backups(campaign)}, "listed as ours"


def _copy(campaign: Path, folder: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    copy = folder / "copy.stonesaga"
    with CampaignFile.open(campaign, backups=False, lock="first-write") as cf:
        cf.save_copy(copy)
    return copy


def refused_by_every_read_only_command(campaign: Path, log: bytes, folder: Path) -> bool:
    """Put ``log`` beside a copy of ``campaign``; every read-only command must refuse it
    and leave the folder as it was. False when the log holds no commit (nothing that
    SQLite would replay: no stranger to refuse)."""
    read = committed_frames(log)
    if read is None or not read[1]:
        return False
    copy = _copy(campaign, folder)
    copy.with_name(copy.name + "-wal").write_bytes(log)
    before = snapshot(folder)
    for command in READ_ONLY_COMMANDS:
        argv = [a.format(path=copy, out=folder / "out.json") for a in command]
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(argv)
        assert code != 0 and "not this campaign's own" in err.getvalue(), (argv, err.getvalue())
        assert snapshot(folder) == before, argv
    shutil.rmtree(folder)
    return True


def planted_virtual_table_refused(campaign: Path, folder: Path) -> None:
    """An FTS5 table with garbage shadow data, planted in a copy: refused by name on
    opening, named by ``check``, and the copy left as it was."""
    copy = _copy(campaign, folder)
    conn = sqlite3.connect(copy)
    conn.executescript("CREATE VIRTUAL TABLE finder USING fts5(text);"
                       "INSERT INTO finder VALUES ('crash');"
                       "UPDATE finder_data SET block = x'00ff00ff';")
    conn.close()
    before = snapshot(folder)
    try:
        CampaignFile.open(copy).close()
    except ForeignAdditions as refused:
        assert "a virtual table 'finder' (FTS5)" in refused.found
    else:
        raise AssertionError("a planted virtual table was opened")
    report = check_campaign(copy)
    assert "holds a virtual table 'finder' (FTS5), which no companion makes" in report.problems
    assert snapshot(folder) == before
    shutil.rmtree(folder)
