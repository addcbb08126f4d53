"""Issue 38: one campaign on two laptops, through a shared folder."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Refused, sharing
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


def _clash(table: Table) -> None:
    """Both machines, apart, move the same dial differently."""
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    operations.change_unrest(ana, amount=2, reason="the river flooded")
    operations.gain_lore(ana, amount=1, reason="an old song")
    operations.change_unrest(bryn, amount=1, reason="a quarrel")
    table.settle_all_in_step()


def test_issue38_a_true_clash_waits_as_one_conflict_on_both_machines(table: Table) -> None:
    _clash(table)
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    assert table.export("ana") == table.export("bryn")
    found = sharing.conflicts(ana)
    assert len(found) == 1
    assert sharing.sync(bryn).words == "1 conflict to settle"
    words = found[0].words
    assert "Here:" in words and "On Bryn's laptop:" in words
    assert "quarrel" in words and "flooded" in words
    # The disjoint change (lore) applied silently on both.
    assert ana.file.society().lore == bryn.file.society().lore


def test_issue38_settling_either_side_converges_and_keeps_the_other_as_history(
        table: Table) -> None:
    _clash(table)
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    unrest_before = ana.file.society().unrest
    conflict = sharing.conflicts(bryn)[0]
    waiting_mine = conflict.waiting.machine == "Here"
    # Bryn keeps their own side.
    sharing.settle(bryn, conflict, "here")
    table.settle_all_in_step()
    assert sharing.conflicts(ana) == [] and sharing.conflicts(bryn) == []
    kept_waiting = sharing.op_state(ana, conflict.waiting.ref)
    assert kept_waiting == ("applied" if waiting_mine else "dropped")
    assert table.export("ana") == table.export("bryn")
    assert ana.file.society().unrest != unrest_before or not waiting_mine
    texts = {line.text: line.undone for line in ana.journal(10)}
    assert any("flooded" in t and undone for t, undone in texts.items())
    # Undoing the settle brings the conflict back, on both machines.
    operations.undo(ana)
    table.settle_all_in_step()
    assert len(sharing.conflicts(bryn)) == 1
    assert table.export("ana") == table.export("bryn")
    sharing.settle(ana, 1, "theirs")
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    assert sharing.conflicts(ana) == []


def test_issue38_never_merged_in_the_middle_of_a_procedure_without_saying_so(
        table: Table) -> None:
    from companion.operations import procedures

    ana, bryn = table.machines["ana"], table.machines["bryn"]
    operations.pass_turn(ana, name="Ash")
    operations.pass_turn(ana, name="Bryn")
    procedures.start_night(ana)
    operations.add_journal_entry(bryn, text="Bryn's note during Ana's Night")
    before = table.export("ana")
    report = sharing.sync(ana)
    assert report.deferred is not None and "Night" in report.deferred.title()
    assert report.applied == {} and report.waiting == 1
    assert report.words == "1 change from the others wait"
    assert table.export("ana") == before
    report = sharing.sync(ana, during_procedure="merge")
    assert report.applied == {"Bryn's laptop": 1}
    assert report.deferred is not None and "merged while" in report.deferred


def test_issue38_join_without_a_file_goes_to_the_data_folder(table: Table) -> None:
    from companion.paths import campaigns_dir

    cai = sharing.join(table.folder, machine_name="Cai's laptop")
    try:
        assert cai.path.parent == campaigns_dir()
        assert sharing.sync(cai).words == "Up to date"
    finally:
        cai.close()


def test_issue38_a_machine_can_be_renamed_and_is_named_so_in_the_others_reports(
        table: Table) -> None:
    sharing.set_machine_name(table.machines["bryn"], "Bryn's old desktop")
    operations.add_journal_entry(table.machines["bryn"], text="from the desktop")
    assert sharing.sync(table.machines["ana"]).applied == {"Bryn's old desktop": 1}
    with pytest.raises(Refused, match="short line"):
        sharing.set_machine_name(table.machines["bryn"], "x" * 200)


def test_issue38_a_restored_backup_goes_on_as_a_machine_of_its_own_and_loses_nothing(
        table: Table) -> None:
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    old = bryn.path.with_name("old copy.stonesaga")
    bryn.file.save_copy(old)  # the file as a backup would hold it
    operations.add_journal_entry(bryn, text="written after the copy")
    bryn.close()
    old.replace(bryn.path)  # Bryn's file rolled back
    table.machines["bryn"] = bryn = operations.open_campaign(bryn.path)
    operations.add_journal_entry(bryn, text="written on the rolled-back file")
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    texts = [line.text for line in ana.journal(3)]
    assert "written after the copy" in texts and "written on the rolled-back file" in texts


def test_issue38_the_campaign_file_itself_never_goes_in_the_shared_folder(
        table: Table) -> None:
    with pytest.raises(Refused, match="never lie in the shared folder"):
        sharing.join(table.folder, table.folder / "inside.stonesaga")
    assert not (table.folder / "inside.stonesaga").exists()
    (table.folder / ".stfolder").mkdir()
    warning = sharing.synced_folder_warning(table.folder / "sub" / "x.stonesaga")
    assert warning is not None and "sync tool" in warning
    assert sharing.synced_folder_warning(table.machines["ana"].path) is None


def test_issue38_a_second_file_of_a_shared_campaign_joins_rather_than_shares_again(
        table: Table) -> None:
    from companion.store import export_campaign

    out = table.root / "copy.json"
    export_campaign(table.machines["ana"].file, out)
    copy = operations.import_campaign(out, table.root / "copy.stonesaga")
    try:
        with pytest.raises(Refused, match="join it from there"):
            sharing.share(copy, table.folder)
    finally:
        copy.close()
    status = sharing.sharing_status(table.machines["ana"])
    assert status is not None and status.campaign_folder.is_dir()
    assert status.campaign_folder.parent == table.folder
