"""Issue 38, "only true clashes, or an operation the rules refuse on the merged state,
become conflicts": an operation whose rows apply cleanly but that leaves a game the rules
refuse waits as a conflict, said in game words, the same on every machine."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from sqlmodel import select

from companion import operations
from companion.operations import Campaign, Refused, procedures, sharing
from companion.store import models
from tests.sharing.conftest import Table


def explore_new_tray(campaign: Campaign, tile: str) -> None:
    """Exploring past the valley's edge: a tray is placed, and Ash moves onto its hex."""
    with campaign.write("day.explore", f"Ash explored {tile}") as session:
        tray = models.ValleyTray(tray_number=9, region="plains")
        session.add(tray)
        session.flush()
        assert tray.id is not None
        hex_row = models.ValleyHex(tray_id=tray.id, slot="0", tile_id=tile, explored=True)
        session.add(hex_row)
        session.flush()
        ash = session.exec(select(models.Character).where(models.Character.name == "Ash")).one()
        ash.hex_id = hex_row.id


def move_ash_home(campaign: Campaign) -> None:
    """Ash walks to the third hex of the first tray (changes Ash's hex, as the exploring
    does: a true clash)."""
    with campaign.write("day.move", "Ash moved to E05") as session:
        ash = session.exec(select(models.Character).where(models.Character.name == "Ash")).one()
        ash.hex_id = 3


def night_on_a_hex_the_other_machine_lacks(table: Table) -> None:
    """Seed 6010 of the long harness, in small: Ana explores a new tray and begins the
    Night there; Bryn, apart and earlier in the campaign's order, moved Ash, so Ana's
    exploring waits as a conflict, and her Night's table names a hex the merged valley
    lacks."""
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    move_ash_home(bryn)  # one operation: before Ana's exploring in the order
    operations.add_journal_entry(ana, text="The fog lifts")
    operations.add_journal_entry(ana, text="Tracks by the river")
    explore_new_tray(ana, "E12")
    operations.pass_turn(ana, name="Ash")
    operations.pass_turn(ana, name="Bryn")
    procedures.start_night(ana)
    table.settle_all_in_step()


def test_issue38_a_night_whose_table_names_a_hex_the_merged_valley_lacks_waits(
        table: Table) -> None:
    night_on_a_hex_the_other_machine_lacks(table)
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    assert table.export("ana") == table.export("bryn")
    found = sharing.conflicts(bryn)
    assert len(found) == 2
    night = found[1]
    assert night.refused is not None and "E12" in night.refused
    assert "Night falls" in night.words or "Night" in night.waiting.text
    assert "the rules refuse it" in night.words and "E12" in night.words
    # The Night is not in progress anywhere: play goes on with no traceback.
    assert procedures.in_progress(ana) is None and procedures.in_progress(bryn) is None
    for campaign in (ana, bryn):
        conn = sqlite3.connect(campaign.path)
        try:
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
            assert conn.execute(
                "SELECT count(*) FROM procedure_state WHERE kind = 'procedure'"
            ).fetchone() == (0,)
        finally:
            conn.close()


def test_issue38_a_side_the_rules_refuse_cannot_be_kept_and_the_other_settles_it(
        table: Table) -> None:
    night_on_a_hex_the_other_machine_lacks(table)
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    night = sharing.conflicts(ana)[1]
    assert night.waiting.machine == "Here"
    before = table.export("ana")
    with pytest.raises(Refused, match="cannot be kept.*E12"):
        sharing.settle(ana, night, "here")
    assert table.export("ana") == before
    sharing.settle(bryn, 2, "here")  # Bryn's side: the Night stays out, as history
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    assert sharing.op_state(ana, night.waiting.ref) == "dropped"
    assert len(sharing.conflicts(ana)) == 1


def test_issue38_settling_for_what_the_refused_side_needs_takes_it_in_by_itself(
        table: Table) -> None:
    night_on_a_hex_the_other_machine_lacks(table)
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    exploring, night = sharing.conflicts(ana)
    assert "E12" in exploring.waiting.text
    sharing.settle(ana, exploring, "here")  # Ana's exploring is kept: Bryn's move drops
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    assert sharing.conflicts(bryn) == []
    assert sharing.op_state(bryn, night.waiting.ref) == "applied"
    assert procedures.in_progress(bryn) is not None


def test_issue38_counts_the_rules_bound_stay_in_range_on_a_merged_operation(
        table: Table) -> None:
    from companion.operations.sync_rules import counts_in_range
    from companion.store.replay import RulesRefuse

    ana = table.machines["ana"]
    rule = counts_in_range(ana.content)
    with ana.file.read() as session:
        conn = session.connection()
        assert rule(conn, [{"table": "character", "id": 1, "before": {"energy": 5},
                            "after": {"energy": 0}}]) == []
        with pytest.raises(RulesRefuse, match="Ash's energy at -1, below 0"):
            rule(conn, [{"table": "character", "id": 1, "before": {"energy": 1},
                         "after": {"energy": -1}}])
        with pytest.raises(RulesRefuse, match="unrest at -2"):
            rule(conn, [{"table": "society", "id": 1, "before": {"unrest": 0},
                         "after": {"unrest": -2}}])


def test_issue38_a_failure_checking_a_merged_operation_is_a_conflict_not_a_traceback(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.store.replay import CANNOT_WRITE

    def unreadable(conn: object, changes: list[dict[str, object]]) -> list[tuple[str, int]]:
        if any(c["table"] == "society" for c in changes):
            raise KeyError("E05")
        return []

    monkeypatch.setattr(sharing, "merged_state_rules", lambda content: (unreadable,))
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    operations.change_unrest(bryn, amount=1, reason="a quarrel")
    operations.add_journal_entry(bryn, text="Bryn's evening")
    report = sharing.sync(ana)
    assert report.applied == {"Bryn's laptop": 1} and report.conflicts == 1
    found = sharing.conflicts(ana)[0]
    assert found.refused == CANNOT_WRITE.format(why="KeyError")
    assert "quarrel" in found.words and "cannot be written" in found.words


def test_issue38_the_conflict_dialog_says_the_rules_refuse_a_side_and_does_not_offer_it(
        table: Table, qtbot: Any) -> None:
    from companion.ui.conflict_dialog import ConflictDialog
    from companion.ui.main_window import MainWindow

    night_on_a_hex_the_other_machine_lacks(table)
    bryn = table.machines["bryn"]
    sharing.settle(bryn, 1, "here")  # Bryn's move kept: Ana's exploring stays out
    table.settle_all_in_step()
    window = MainWindow()
    qtbot.addWidget(window)
    window.set_campaign(bryn)
    dialog = ConflictDialog(window)
    qtbot.addWidget(dialog)
    assert "the rules refuse it" in dialog.heading.text()
    assert "E12" in dialog.here_text.text() and dialog.theirs_text.text() == "Night falls"
    assert not dialog.keep_theirs.isEnabled() and dialog.keep_here.isEnabled()
    dialog.keep("here")
    assert sharing.conflicts(bryn) == []
    window.campaign = None  # the table fixture closes it


def test_issue38_a_machine_joining_takes_a_snapshot_holding_a_side_the_rules_refuse(
        table: Table) -> None:
    """The snapshot carries each operation with what it did, the rules' refusal too; a
    machine joining from it takes it (it was refused as "an operation of its history is
    malformed", found by the long harness with pruning, seeds 6007, 6010, 6011)."""
    from companion.operations.sharing_files import write_snapshot

    night_on_a_hex_the_other_machine_lacks(table)
    for campaign in table.machines.values():  # every snapshot holds the refused Night
        write_snapshot(campaign)
    cai = sharing.join(table.folder, table.root / "cai" / "demo.stonesaga",
                       machine_name="Cai's laptop")
    table.machines["cai"] = cai
    table.settle_all_in_step()
    assert table.export("cai") == table.export("ana")
    refused = [c for c in sharing.conflicts(cai) if c.refused]
    assert refused and "E12" in (refused[0].refused or "")
