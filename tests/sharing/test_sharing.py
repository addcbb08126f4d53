"""Issue 38: one campaign on two laptops, through a shared folder."""

from __future__ import annotations

from companion import operations
from companion.operations import sharing
from tests.sharing.conftest import Table


def test_issue38_join_holds_the_shared_campaign_with_its_history(table: Table) -> None:
    assert table.export("ana") == table.export("bryn")
    status = sharing.sharing_status(table.machines["bryn"])
    assert status is not None and status.machine_name == "Bryn's laptop"
    assert status.words == "Up to date"


def test_issue38_entries_made_on_both_machines_while_apart_both_stay(table: Table) -> None:
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    operations.add_journal_entry(ana, text="Ana's evening")
    operations.add_journal_entry(bryn, text="Bryn's evening")
    report = sharing.sync(ana)
    assert report.applied == {"Bryn's laptop": 1}
    assert report.words == "1 change from Bryn's laptop applied"
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    texts = [line.text for line in ana.journal(2)]
    assert sorted(texts) == ["Ana's evening", "Bryn's evening"]


def test_issue38_an_undo_travels_like_any_operation(table: Table) -> None:
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    operations.add_journal_entry(ana, text="A mistake")
    table.settle_all_in_step()
    operations.undo(bryn)
    table.settle_all_in_step()
    assert [line.undone for line in ana.journal(2)] == [False, True]
    assert table.export("ana") == table.export("bryn")
