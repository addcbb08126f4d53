"""A full disk or a read-only file: the change is reported and refused, nothing is lost.

Tests run as root, where chmod does not stop writes; so the full disk is simulated with
``PRAGMA max_page_count`` and the read-only medium with ``PRAGMA query_only`` (SQLite
reports both exactly as it reports the real thing).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

from companion.store import CampaignFile, DiskFull, ReadOnly
from companion.store.models import CaveWallIllustration, Character
from tests.store.conftest import Clock


def test_disk_full_loses_nothing_committed(cf: CampaignFile, path: Path, clock: Clock) -> None:
    with cf.transaction("add", "Ash joins") as session:
        session.add(Character(name="Ash"))
    raw = cf._conn()
    pages = raw.execute("PRAGMA page_count").fetchone()[0]
    raw.execute(f"PRAGMA max_page_count = {pages + 2}")
    with (
        pytest.raises(DiskFull, match="full; the last change was not saved"),
        cf.transaction("draw", "A big drawing") as session,
    ):
        session.add(CaveWallIllustration(title="huge", image=b"\0" * 1_000_000))
    assert cf.event_count() == 1
    cf.close(backup=False)
    with CampaignFile.open(path, clock=clock) as again, again.read() as session:
        assert [c.name for c in session.exec(select(Character))] == ["Ash"]
        assert session.exec(select(CaveWallIllustration)).all() == []


def test_read_only_is_reported(cf: CampaignFile) -> None:
    cf.add_note("before")
    cf._conn().execute("PRAGMA query_only = ON")
    with pytest.raises(ReadOnly, match="cannot be written"):
        cf.add_note("after")
    with pytest.raises(ReadOnly):
        cf.undo()
    cf._conn().execute("PRAGMA query_only = OFF")
    assert [e.text for e in cf.journal()] == ["before"]
