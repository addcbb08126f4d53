"""Issue 38, "Rows made on two machines must not collide" and "Order by causality": rows
made apart keep their own identity (foreign keys follow them), and the merge is the same
whatever order the machines take the files in."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest
from sqlmodel import select

from companion import operations
from companion.operations import Campaign, sharing
from companion.store import models
from tests.sharing.conftest import Table


def build_outpost(campaign: Campaign, name: str, structure: str) -> None:
    """An outpost and a structure in it, made in one operation (rows pointing at rows)."""
    with campaign.write("outpost.build", f"Built {name}") as session:
        hex_row = session.exec(select(models.ValleyHex)).first()
        assert hex_row is not None
        outpost = models.Outpost(name=name, category="camp", hex_id=hex_row.id)
        session.add(outpost)
        session.flush()
        assert outpost.id is not None
        session.add(models.OutpostStructure(outpost_id=outpost.id, structure_id=structure))


def rename_outpost(campaign: Campaign, old: str, new: str) -> None:
    with campaign.write("outpost.rename", f"{old} is now {new}") as session:
        row = session.exec(select(models.Outpost).where(models.Outpost.name == old)).one()
        row.name = new


def outposts(path: Path) -> list[tuple[int, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute(
            "SELECT o.id, o.name, s.structure_id FROM outpost o "
            "JOIN outpost_structure s ON s.outpost_id = o.id").fetchall())
    finally:
        conn.close()


def test_issue38_rows_made_on_two_machines_keep_their_own_identity(table: Table) -> None:
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    build_outpost(ana, "Riverwatch", "S1")
    build_outpost(bryn, "Stonegate", "S2")  # the same row numbers, made apart
    operations.add_journal_entry(ana, text="entry on Ana's")
    operations.add_journal_entry(bryn, text="entry on Bryn's")
    table.settle_all_in_step()
    rename_outpost(bryn, "Stonegate", "Stonehold")  # Bryn's row, as numbered here now
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    found = outposts(ana.path)
    assert sorted((name, s) for _, name, s in found) == [("Riverwatch", "S1"),
                                                         ("Stonehold", "S2")]
    assert len({row_id for row_id, _, _ in found}) == 2
    # Undo works across machines: back to before either outpost, and forward again.
    end = outposts(ana.path)
    for _ in range(5):
        operations.undo(ana)
    assert outposts(ana.path) == []
    for _ in range(5):
        operations.redo(ana)
    assert outposts(ana.path) == end
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    # The Journal export reads both machines' entries.
    from companion.operations.export import journal_markdown

    text = journal_markdown(bryn)
    assert "entry on Ana's" in text and "entry on Bryn's" in text


@pytest.mark.parametrize("order", list(itertools.permutations(["ana", "bryn", "cai"])))
def test_issue38_machines_that_saw_the_same_operations_hold_the_same_campaign(
        table: Table, order: tuple[str, ...]) -> None:
    cai = sharing.join(table.folder, table.root / "cai" / "demo.stonesaga",
                       machine_name="Cai's laptop")
    table.machines["cai"] = cai
    for amount, (who, said) in enumerate((("ana", "Ana"), ("bryn", "Bryn"), ("cai", "Cai")),
                                         start=1):
        operations.add_journal_entry(table.machines[who], text=f"{said} one")
        build_outpost(table.machines[who], f"{said}'s camp", f"S{said}")
        # The same dial moved differently on each: two of the three wait as conflicts.
        operations.change_unrest(table.machines[who], amount=amount, reason=said)
    for who in order:  # each takes the others' files in a different order
        sharing.sync(table.machines[who])
    table.settle_all_in_step()
    exports = {table.export(who) for who in table.machines}
    assert len(exports) == 1
    assert sharing.sync(table.machines["ana"]).words == "2 conflicts to settle"


def test_issue38_a_row_made_for_a_row_deleted_elsewhere_waits_as_a_conflict(
        table: Table) -> None:
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    build_outpost(ana, "Riverwatch", "S1")
    table.settle_all_in_step()
    with ana.write("outpost.remove", "Riverwatch is abandoned") as session:
        outpost = session.exec(select(models.Outpost)).one()
        for structure in session.exec(select(models.OutpostStructure)).all():
            session.delete(structure)
        session.flush()
        session.delete(outpost)
    with bryn.write("outpost.structure", "A drying rack at Riverwatch") as session:
        outpost = session.exec(select(models.Outpost)).one()
        session.add(models.OutpostStructure(outpost_id=outpost.id, structure_id="S9"))
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    for campaign in (ana, bryn):
        conn = sqlite3.connect(campaign.path)
        try:
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            conn.close()
    found = sharing.conflicts(ana)
    assert len(found) == 1 and ("drying rack" in found[0].words
                                or "abandoned" in found[0].words)


def test_issue38_two_nights_begun_apart_are_one_night_and_a_conflict(table: Table) -> None:
    from companion.operations import procedures

    operations.pass_turn(table.machines["ana"], name="Ash")
    operations.pass_turn(table.machines["ana"], name="Bryn")
    table.settle_all_in_step()
    for campaign in table.machines.values():
        procedures.start_night(campaign)
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    conn = sqlite3.connect(table.machines["ana"].path)
    try:
        kinds = [k for (k,) in conn.execute("SELECT kind FROM procedure_state")]
    finally:
        conn.close()
    assert kinds.count("procedure") == 1
    found = sharing.conflicts(table.machines["bryn"])
    assert len(found) == 1 and found[0].words.count("Night falls") == 2


def test_issue38_an_undo_never_takes_away_a_row_made_again_under_its_number(
        table: Table) -> None:
    """Seed 6012 of the long harness, in small: Ana undoes the outpost she built, while
    Bryn, apart, had abandoned it and built one just like it, which took its number.
    Ana's undo must not take away Bryn's outpost (it holds the same values, not the same
    row): it waits as a conflict."""
    ana, bryn = table.machines["ana"], table.machines["bryn"]

    def outpost(campaign: Campaign, words: str, *, remove: bool = False) -> None:
        with campaign.write("outpost.change", words) as session:
            if remove:
                session.delete(session.exec(select(models.Outpost)).one())
            else:
                hex_row = session.exec(select(models.ValleyHex)).first()
                assert hex_row is not None
                session.add(models.Outpost(name="Riverwatch", category="camp",
                                           hex_id=hex_row.id))

    outpost(ana, "Built Riverwatch")
    table.settle_all_in_step()
    outpost(bryn, "Riverwatch is abandoned", remove=True)
    outpost(bryn, "Built Riverwatch again")
    for words in ("The fog lifts", "Tracks by the river"):  # Ana's undo comes after
        operations.add_journal_entry(ana, text=words)
    for _ in range(3):
        operations.undo(ana)
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    assert [r[1] for r in outposts_alone(ana.path)] == ["Riverwatch"]
    assert any("Undid: Built Riverwatch" in c.words for c in sharing.conflicts(ana))
    for campaign in (ana, bryn):  # the history still steps back to the start
        while campaign.undo_label() is not None:
            operations.undo(campaign)


def outposts_alone(path: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute("SELECT id, name FROM outpost").fetchall())
    finally:
        conn.close()


def test_issue38_an_undo_never_puts_a_row_back_under_rows_made_and_gone_since(
        table: Table) -> None:
    """Seed 6004 of the long harness, in small: Ana undoes abandoning her outpost, while
    Bryn, apart, had built and abandoned another under its number. Put back there, her
    outpost would sit under Bryn's history, which undo could no longer step back
    through: her undo waits as a conflict, and undo to the start still holds."""
    ana, bryn = table.machines["ana"], table.machines["bryn"]

    def outpost(campaign: Campaign, name: str, *, remove: bool = False) -> None:
        with campaign.write("outpost.change", f"{name}: {'gone' if remove else 'built'}"
                            ) as session:
            if remove:
                session.delete(session.exec(select(models.Outpost)).one())
            else:
                hex_row = session.exec(select(models.ValleyHex)).first()
                assert hex_row is not None
                session.add(models.Outpost(name=name, category="camp", hex_id=hex_row.id))

    outpost(ana, "Riverwatch")
    outpost(ana, "Riverwatch", remove=True)
    table.settle_all_in_step()
    outpost(bryn, "Stonegate")
    outpost(bryn, "Stonegate", remove=True)
    for words in ("The fog lifts", "Tracks by the river"):  # Ana's undo comes after
        operations.add_journal_entry(ana, text=words)
    for _ in range(3):
        operations.undo(ana)
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    assert outposts_alone(ana.path) == []
    assert any("Riverwatch: gone" in c.words for c in sharing.conflicts(bryn))
    for campaign in (ana, bryn):
        while campaign.undo_label() is not None:
            operations.undo(campaign)
