"""Hypothesis over files the campaign never wrote (issue 35 items 1, 3 and 4).

- a write-ahead log built from a stranger's frames (any of them, in any order, cut
  anywhere, its bytes flipped) and put beside the campaign: every open either refuses
  it with the store's own error and changes nothing, or replays nothing of it;
- schema objects planted in the campaign (virtual tables of every module SQLite has,
  extra tables, columns, indexes, expression indexes, generated columns): refused by
  name, the file unchanged, and ``check`` names them too;
- backups of the campaign and of other campaigns mixed under the campaign's names, with
  and without uids: only its own are listed, and rotation deletes none of the others.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import (
    BackupPolicy,
    CampaignFile,
    CampaignFileError,
    ForeignAdditions,
    backups_dir,
    check_campaign,
    list_backups,
)
from companion.store.backups import rotate
from companion.store.log_proof import WAL_HEADER
from companion.store.models import NotePage
from tests.store.conftest import snapshot

EXAMPLES = int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "40"))
"""Examples per test (more by hand: COMPANION_FUZZ_EXAMPLES=2000)."""
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


def _notes(cf: CampaignFile, *texts: str) -> None:
    for text in texts:
        with cf.transaction("test", text) as session:
            session.add(NotePage(title=text, text=text * 20))


@pytest.fixture(scope="module")
def sources() -> Iterator[tuple[bytes, bytes, int]]:
    """(the campaign's bytes, a stranger's pending log, the page size): the stranger is
    a copy of the campaign that went its own way."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.stonesaga"
        with CampaignFile.create(path, backups=False) as cf:
            _notes(cf, "ours 1", "ours 2")
        twin = Path(tmp) / "twin.stonesaga"
        shutil.copyfile(path, twin)
        with CampaignFile.open(path, backups=False) as cf:
            _notes(cf, "ours 3")
        with CampaignFile.open(twin, backups=False) as cf:
            _notes(cf, *(f"theirs {i}" for i in range(6)))
            log = twin.with_name(twin.name + "-wal").read_bytes()
        yield path.read_bytes(), log, 4096


@FUZZ
@given(data=st.data())
def test_a_log_made_of_a_strangers_frames_is_refused_or_replays_nothing(
        sources: tuple[bytes, bytes, int], data: st.DataObject) -> None:
    campaign, log, page_size = sources
    frame = 24 + page_size
    frames = [log[WAL_HEADER + i * frame:WAL_HEADER + (i + 1) * frame]
              for i in range((len(log) - WAL_HEADER) // frame)]
    picked = data.draw(st.lists(st.sampled_from(range(len(frames))), max_size=12), "frames")
    fuzzed = bytearray(log[:WAL_HEADER] + b"".join(frames[i] for i in picked))
    for _ in range(data.draw(st.integers(0, 3), "flips")):
        if fuzzed:
            at = data.draw(st.integers(0, len(fuzzed) - 1), "at")
            fuzzed[at] = data.draw(st.integers(0, 255), "byte")
    fuzzed = fuzzed[:data.draw(st.integers(0, len(fuzzed)), "cut")]
    lock = data.draw(st.sampled_from(["open", "first-write"]), "lock")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.stonesaga"
        path.write_bytes(campaign)
        path.with_name(path.name + "-wal").write_bytes(bytes(fuzzed))
        before = snapshot(Path(tmp))
        try:
            cf = CampaignFile.open(path, backups=False, lock=lock)  # type: ignore[arg-type]
        except CampaignFileError:
            assert snapshot(Path(tmp)) == before
            return
        with cf:
            texts = {e.text for e in cf.journal(limit=100)}
        assert {"ours 1", "ours 2", "ours 3"} <= texts
        assert not any(t.startswith("theirs") for t in texts)
        assert check_campaign(path).ok


PLANTS = st.one_of(
    st.sampled_from(["fts3", "fts4", "fts5"]).map(
        lambda m: (f"CREATE VIRTUAL TABLE planted USING {m}(text)",
                   f"a virtual table 'planted' ({m.upper()})")),
    st.sampled_from(["rtree", "rtree_i32"]).map(
        lambda m: (f"CREATE VIRTUAL TABLE planted USING {m}(id, a, b)",
                   f"a virtual table 'planted' ({m.upper()})")),
    st.sampled_from(["character", "journal_event", "note_page", "campaign"]).flatmap(
        lambda t: st.sampled_from([
            (f"CREATE INDEX planted ON {t} (id + 1)",
             f"an expression index 'planted' on the table {t}"),
            (f"CREATE INDEX planted ON {t} (id)", f"an index 'planted' on the table {t}"),
            (f"ALTER TABLE {t} ADD COLUMN planted TEXT",
             f"a column 'planted' in the table {t}"),
            (f"ALTER TABLE {t} ADD COLUMN planted INTEGER GENERATED ALWAYS AS (id * 2)",
             f"a generated column 'planted' in the table {t}"),
        ])),
    st.just(("CREATE TABLE planted (x)", "a table 'planted'")),
)


@pytest.fixture(scope="module")
def plain_campaign() -> Iterator[bytes]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.stonesaga"
        with CampaignFile.create(path, backups=False) as cf:
            _notes(cf, "ours")
        yield path.read_bytes()


@FUZZ
@given(plants=st.lists(PLANTS, min_size=1, max_size=3, unique_by=lambda p: p[1]),
       garbage=st.binary(max_size=16))
def test_planted_schema_objects_are_refused_by_name(
        plain_campaign: bytes, plants: list[tuple[str, str]], garbage: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.stonesaga"
        path.write_bytes(plain_campaign)
        conn = sqlite3.connect(path)
        planted: list[str] = []
        for i, (sql, named) in enumerate(plants):
            sql, named = (sql.replace("planted", f"planted{i}"),
                          named.replace("'planted'", f"'planted{i}'"))
            try:
                conn.execute(sql)
            except sqlite3.OperationalError:  # two columns of one table: the second clashes
                continue
            planted.append(named)
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE name LIKE "
                                    "'planted%\\_%' ESCAPE '\\' AND type = 'table'").fetchall():
            conn.execute(f'DELETE FROM "{name}"')  # shadow tables emptied, or garbage:
            if garbage and name.endswith("_data"):
                conn.execute(f'INSERT INTO "{name}" VALUES (1, ?)', (garbage,))
        conn.commit()
        conn.close()
        before = snapshot(Path(tmp))
        with pytest.raises(ForeignAdditions) as refused:
            CampaignFile.open(path)
        assert set(planted) <= set(refused.value.found)
        problems = check_campaign(path).problems
        assert all(f"holds {p}, which no companion makes" in problems for p in planted)
        assert snapshot(Path(tmp)) == before


@FUZZ
@given(kinds=st.lists(st.sampled_from(["ours", "another", "another-old", "ours-old"]),
                      min_size=1, max_size=8))
def test_only_the_campaigns_own_backups_are_listed_and_rotated(kinds: list[str]) -> None:
    """Backups under the campaign's names, of it or of another campaign, with a uid or
    without one (made before schema 4): only its own are listed; rotating to one backup
    deletes only its own."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.stonesaga"
        other = Path(tmp) / "other.stonesaga"
        with CampaignFile.create(path, backups=False) as cf:
            _notes(cf, "ours")
        with CampaignFile.create(other, backups=False) as cf:
            _notes(cf, "theirs")
        folder = backups_dir(path)
        folder.mkdir()
        when = datetime(2026, 1, 1, tzinfo=UTC)
        expected = set()
        for i, kind in enumerate(kinds):
            name = f"c-{(when + timedelta(hours=i)).strftime('%Y%m%dT%H%M%S%f')}Z-open-e1"
            backup = folder / f"{name}.stonesaga"
            shutil.copyfile(path if kind.startswith("ours") else other, backup)
            if kind.endswith("-old"):  # as made before schema 4: no uid
                conn = sqlite3.connect(backup)
                conn.execute("ALTER TABLE campaign DROP COLUMN uid")
                conn.commit()
                conn.close()
            if kind.startswith("ours"):
                expected.add(backup)
        assert {b.path for b in list_backups(path)} == expected
        theirs = {p: p.read_bytes() for p in folder.iterdir() if p not in expected}
        rotate(path, BackupPolicy(recent=1, daily=0, weekly=0), when + timedelta(days=30))
        assert all(p.read_bytes() == data for p, data in theirs.items())
        assert len(list_backups(path)) == min(1, len(expected))
