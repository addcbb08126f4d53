"""Issue 37, "A click refreshes only what it changed": what an operation wrote, told from
its own journal event (``Campaign.written_since``) and by undo and redo themselves: the
rows, the status bar's figures only when it wrote them, the Undo/Redo labels after it."""

from __future__ import annotations

from sqlmodel import select

from companion import operations
from companion.operations import Campaign
from companion.store import models


def test_issue_37_written_names_the_rows_and_carries_the_status_only_when_written(
        demo: Campaign) -> None:
    mark = demo.file.last_event
    operations.gain_lore(demo, amount=1)
    lore = demo.written_since(mark)
    assert lore is not None and ("society", "lore") in lore.columns
    assert lore.ids("society") == {1}
    # The lore is not among the status bar's figures: nothing is read for it.
    assert not lore.writes_status and lore.status is None
    mark = demo.file.last_event
    operations.change_unrest(demo, amount=2)
    unrest = demo.written_since(mark)
    assert unrest is not None and unrest.writes_status
    assert unrest.status == demo.status_line() and unrest.status.unrest == 2
    mark = demo.file.last_event
    operations.move(demo, name="Ash", to_hex="E09")
    move = demo.written_since(mark)
    assert move is not None
    with demo.file.read() as session:
        ash = session.exec(select(models.Character).where(models.Character.name == "Ash")).one()
    assert move.ids("character") == {ash.id}
    assert move.columns_of("valley_hex") == {"explored"}
    assert move.labels == (demo.undo_label(), None)


def test_issue_37_undo_and_redo_carry_the_labels_after_them(demo: Campaign) -> None:
    operations.gain_lore(demo, amount=1, reason="a song")
    operations.add_journal_entry(demo, text="Kim fished")
    for step in (operations.undo, operations.undo, operations.redo, operations.redo):
        written = step(demo).written
        assert written is not None
        assert written.labels == (demo.undo_label(), demo.redo_label())
