"""What the store does differently for Windows, simulated here (issue 29; what only a
Windows machine can confirm is listed in packaging/README.md, "Windows and macOS")."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from companion.store import durable, lock
from companion.store.lock import WriterLock, lock_holder, lock_path


def test_the_lock_owner_is_read_past_the_byte_windows_keeps_locked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """LockFileEx bars byte 0 of the lock file to other processes: the owner is written
    from byte 1 on, and read from there when reading the whole file is refused."""
    campaign = tmp_path / "c.stonesaga"
    holder = WriterLock(campaign)
    holder.acquire()
    try:
        assert lock_path(campaign).read_bytes()[:1] == b"\n"

        def refused(self: Path) -> bytes:
            raise PermissionError(13, "The process cannot access the file because another "
                                  "process has locked a portion of the file")

        monkeypatch.setattr(Path, "read_bytes", refused)
        owner = lock.read_owner(lock_path(campaign))
        assert owner.pid == os.getpid() and owner.host
    finally:
        holder.release()
    assert lock_holder(campaign) is None


def test_fsync_opens_for_writing_on_windows(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """os.fsync is FlushFileBuffers on Windows, which refuses a read-only handle."""
    target = tmp_path / "f"
    target.write_bytes(b"x")
    flags: list[int] = []
    real_open = os.open

    def spy(path: Any, flag: int, *args: Any) -> int:
        flags.append(flag)
        return real_open(path, flag, *args)

    monkeypatch.setattr(durable.os, "open", spy)
    monkeypatch.setattr(durable.sys, "platform", "win32")
    durable.fsync_file(target)
    monkeypatch.setattr(durable.sys, "platform", "linux")
    durable.fsync_file(target)
    assert flags == [os.O_RDWR, os.O_RDONLY]


def test_without_hard_links_a_new_file_still_never_overwrites(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """FAT/exFAT sticks and some shares refuse os.link: link_new falls back to a check
    and a rename, and still refuses an existing campaign."""
    from companion.store import opening
    from companion.store.errors import CampaignFileExists

    def no_links(src: Any, dst: Any) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(opening.os, "link", no_links)
    tmp, dest = tmp_path / ".new.tmp", tmp_path / "new.stonesaga"
    tmp.write_bytes(b"one")
    opening.link_new(tmp, dest)
    assert dest.read_bytes() == b"one" and not tmp.exists()
    tmp.write_bytes(b"two")
    with pytest.raises(CampaignFileExists):
        opening.link_new(tmp, dest)
    assert dest.read_bytes() == b"one"


def test_preferences_wait_out_a_reader_on_windows(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows refuses os.replace onto a file another companion has open for a moment;
    saving the preferences tries again instead of failing."""
    from companion import settings

    real_replace = os.replace
    refusals = [PermissionError(13, "being used by another process")] * 2

    def busy(src: Any, dst: Any) -> None:
        if refusals:
            raise refusals.pop()
        real_replace(src, dst)

    monkeypatch.setattr(settings.os, "replace", busy)
    monkeypatch.setattr(settings.os, "name", "nt")
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    target = settings.save(settings.Settings(theme="dark"), tmp_path / "preferences.json")
    assert refusals == [] and settings.load(target).theme == "dark"
