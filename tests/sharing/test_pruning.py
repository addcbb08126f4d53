"""Issue 38, the folder's size: each machine keeps one snapshot there (replaced whole)
and removes its own segments once no machine can need them; a machine far behind, one
that joins later, or one whose file was rolled back takes those operations from the
snapshot, and a snapshot that arrives cut short is refused and read again once whole."""

from __future__ import annotations

import shutil

import pytest

from companion import operations
from companion.operations import sharing
from companion.store import mailbox, sync_log
from tests.sharing.conftest import Table
from tests.sharing.test_folder_content import campaign_hash, machine_folder


@pytest.fixture(autouse=True)
def snapshots_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot after every 3 operations of a machine, so a test of minutes prunes."""
    monkeypatch.setattr(sharing, "SNAPSHOT_EVERY", 3)


def _bryn_plays(table: Table, count: int, start: int = 0) -> None:
    for n in range(start, start + count):
        operations.add_journal_entry(table.machines["bryn"], text=f"Bryn's note {n}")


def _files(table: Table, who: str) -> tuple[list[str], list[str]]:
    folder = machine_folder(table, who)
    return (sorted(p.name for p in folder.glob("ops-*.json")),
            sorted(p.name for p in folder.glob("snapshot-*.json")))


def test_issue38_segments_every_machine_has_taken_in_are_pruned(table: Table) -> None:
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    _bryn_plays(table, 4)
    sharing.sync(bryn)  # its snapshot after operation 4; Ana has not taken them in yet
    segments, snapshots = _files(table, "bryn")
    assert snapshots == ["snapshot-00000004.json"]  # one, the older replaced
    assert len(segments) == 4  # kept: Ana has not taken them in
    assert sharing.sync(ana).applied == {"Bryn's laptop": 4}
    operations.add_journal_entry(ana, text="Ana read Bryn's notes")  # what Ana knew of
    sharing.sync(ana)
    sharing.sync(bryn)
    assert _files(table, "bryn") == ([], ["snapshot-00000004.json"])
    _bryn_plays(table, 2, start=4)
    sharing.sync(bryn)
    assert _files(table, "bryn")[0] == ["ops-00000005-00000005.json",
                                        "ops-00000006-00000006.json"]
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")


def test_issue38_a_machine_far_behind_catches_up_from_the_snapshot(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sync_log, "PRUNE_KEEP", 0)  # Ana counts as far behind at once
    _bryn_plays(table, 5)
    sharing.sync(bryn := table.machines["bryn"])
    segments, snapshots = _files(table, "bryn")
    assert snapshots == ["snapshot-00000005.json"] and segments == []
    report = sharing.sync(table.machines["ana"])  # weeks offline: the segments are gone
    assert report.applied == {"Bryn's laptop": 5} and not report.refused
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    assert sharing.sync(bryn).published == 0  # nothing pruned is written back


def test_issue38_a_snapshot_cut_short_is_refused_and_taken_once_whole(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sync_log, "PRUNE_KEEP", 0)
    _bryn_plays(table, 3)
    sharing.sync(table.machines["bryn"])
    snapshot = machine_folder(table, "bryn") / "snapshot-00000003.json"
    whole = snapshot.read_bytes()
    snapshot.write_bytes(whole[: len(whole) // 2])  # the sync engine is still copying it
    before = campaign_hash(table)
    report = sharing.sync(table.machines["ana"])
    assert report.applied == {} and campaign_hash(table) == before
    assert any("snapshot-00000003.json" in line and "cut short" in line
               for line in report.refused), report.refused
    snapshot.write_bytes(whole)
    assert sharing.sync(table.machines["ana"]).applied == {"Bryn's laptop": 3}


def test_issue38_a_machine_joining_later_catches_up_past_pruned_segments(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sync_log, "PRUNE_KEEP", 0)
    _bryn_plays(table, 4)
    sharing.sync(table.machines["bryn"])
    assert _files(table, "bryn")[0] == []
    # Ana's snapshot (from the share) is older; Bryn's holds the most: Cara joins from it.
    cara = sharing.join(table.folder, table.root / "cara" / "demo.stonesaga",
                        machine_name="Cara's desktop")
    table.machines["cara"] = cara
    table.settle_all_in_step()
    assert table.export("cara") == table.export("bryn") == table.export("ana")


def test_issue38_a_file_rolled_back_takes_its_pruned_operations_from_the_snapshot(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sync_log, "PRUNE_KEEP", 0)
    bryn = table.machines["bryn"]
    path = bryn.path
    bryn.close()
    older = table.root / "bryn-older.stonesaga"
    shutil.copyfile(path, older)  # an old copy of Bryn's file (a backup, a second disk)
    table.machines["bryn"] = bryn = operations.open_campaign(path)
    _bryn_plays(table, 4)
    sharing.sync(bryn)
    assert _files(table, "bryn")[0] == []
    bryn.close()
    shutil.copyfile(older, path)
    sync_log.note_numbered(_machine(table), 0)  # and this computer forgot, too
    table.machines["bryn"] = bryn = operations.open_campaign(path)
    report = sharing.sync(bryn)
    assert report.applied == {"Bryn's laptop": 4}  # its own, back from the snapshot
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")


def _machine(table: Table) -> str:
    status = sharing.sharing_status(table.machines["ana"])
    assert status is not None
    return next(m for m in mailbox.list_machines(status.campaign_folder)
                if m != status.machine)


def test_issue38_a_machine_prunes_the_sync_engines_copies_of_its_own_files_too(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sync_log, "PRUNE_KEEP", 0)
    _bryn_plays(table, 2)
    folder = machine_folder(table, "bryn")
    first = folder / "ops-00000001-00000001.json"
    copy = folder / "ops-00000001-00000001 (Ana's conflicted copy 2026-11-27).json"
    copy.write_bytes(first.read_bytes())
    (folder / "desktop.ini").write_text("[.ShellClassInfo]\n", encoding="utf-8")
    _bryn_plays(table, 1, start=2)
    sharing.sync(table.machines["bryn"])
    assert sorted(p.name for p in folder.iterdir()) == ["desktop.ini",
                                                        "snapshot-00000003.json"]
    assert sharing.sync(table.machines["ana"]).applied == {"Bryn's laptop": 3}
