"""Journalled transactions, undo/redo (also across restarts) and save points."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select, update

from companion.store import CampaignFile, CampaignFileError, UndoConflict
from companion.store.models import Character, JournalEvent, Outpost, OutpostStructure, Society
from tests.store.conftest import Clock


def names(cf: CampaignFile) -> list[str]:
    with cf.read() as session:
        return [c.name for c in session.exec(select(Character).order_by(Character.id))]


def add_ash(cf: CampaignFile) -> None:
    with cf.transaction("create_character", "Ash joins the society") as session:
        session.add(Character(name="Ash", might=2, traits=["Brave"]))


def test_transaction_writes_one_event_with_row_images(cf: CampaignFile) -> None:
    add_ash(cf)
    with cf.transaction("rest", "Ash rests", payload={"energy": 3}) as session:
        ash = session.exec(select(Character)).one()
        ash.energy = 3
        society = session.get(Society, 1)
        assert society is not None
        society.activity = 1
    event = cf.journal(limit=1)[0]
    assert event == cf.last_event
    assert (event.kind, event.text, event.payload) == ("rest", "Ash rests", {"energy": 3})
    changes = {c["table"]: c for c in event.changes}
    assert changes["character"]["before"]["energy"] == 0
    assert changes["character"]["after"]["energy"] == 3
    assert changes["society"]["after"]["activity"] == 1
    assert cf.event_count() == 2


def test_exception_rolls_everything_back(cf: CampaignFile) -> None:
    add_ash(cf)
    with pytest.raises(ValueError), cf.transaction("bad", "half done") as session:
        session.add(Character(name="Birch"))
        session.flush()
        raise ValueError("refused by the rules")
    assert names(cf) == ["Ash"]
    assert cf.event_count() == 1


def test_undo_redo_insert_update_delete(cf: CampaignFile) -> None:
    add_ash(cf)
    with cf.transaction("rename", "Ash is now Ember") as session:
        session.exec(select(Character)).one().name = "Ember"
    with cf.transaction("retire", "Ember retires") as session:
        session.delete(session.exec(select(Character)).one())
    assert names(cf) == []
    assert cf.undo_label() == "Ember retires"
    assert cf.undo() is not None and names(cf) == ["Ember"]
    assert cf.undo() is not None and names(cf) == ["Ash"]
    assert cf.undo_label() == "Ash joins the society"
    assert cf.undo() is not None and names(cf) == []
    assert cf.undo() is None and cf.undo_label() is None
    assert cf.redo_label() == "Ash joins the society"
    assert cf.redo() is not None and names(cf) == ["Ash"]
    assert cf.redo() is not None and names(cf) == ["Ember"]
    assert cf.redo() is not None and names(cf) == []
    assert cf.redo() is None
    texts = [e.text for e in cf.journal(limit=3)]
    assert texts == [
        "Redid: Ember retires", "Redid: Ash is now Ember", "Redid: Ash joins the society"
    ]


def test_issue_37_an_undo_or_redo_tells_the_labels_after_it(cf: CampaignFile) -> None:
    """The Undo/Redo labels an undo or redo step gives, read in its own transaction, are
    those the file gives when asked afterwards."""
    add_ash(cf)
    with cf.transaction("rename", "Ash is now Ember") as session:
        session.exec(select(Character)).one().name = "Ember"
    steps = (cf.undo_step, cf.undo_step, cf.redo_step, cf.undo_step, cf.redo_step,
             cf.redo_step)
    for step in steps:
        stepped = step()
        assert stepped is not None
        assert stepped.labels == (cf.undo_label(), cf.redo_label())
    assert cf.undo_step() is not None and cf.undo_step() is not None
    assert cf.undo_step() is None and cf.redo_label() == "Ash joins the society"
    assert names(cf) == []


def test_undo_restores_parent_and_children_of_one_event(cf: CampaignFile) -> None:
    with cf.transaction("build", "Build an outpost") as session:
        outpost = Outpost(name="Riverwatch")
        session.add(outpost)
        session.flush()
        assert outpost.id is not None
        session.add(OutpostStructure(outpost_id=outpost.id, structure_id="S1"))
    with cf.transaction("abandon", "Abandon it") as session:
        for structure in session.exec(select(OutpostStructure)):
            session.delete(structure)
        session.flush()
        session.delete(session.exec(select(Outpost)).one())
    cf.undo()
    with cf.read() as session:
        assert len(session.exec(select(OutpostStructure)).all()) == 1
    cf.undo()
    with cf.read() as session:
        assert session.exec(select(Outpost)).all() == []


def test_undo_works_across_restarts(cf: CampaignFile, path: Path, clock: Clock) -> None:
    add_ash(cf)
    cf.close()
    with CampaignFile.open(path, clock=clock) as again:
        assert again.undo_label() == "Ash joins the society"
        again.undo()
    with CampaignFile.open(path, clock=clock) as again:
        assert names(again) == []
        assert again.redo_label() == "Ash joins the society"
        again.redo()
        assert names(again) == ["Ash"]


def test_new_operation_clears_redo(cf: CampaignFile) -> None:
    add_ash(cf)
    cf.undo()
    assert cf.redo_label() is not None
    cf.add_note("We argued about the river.")
    assert cf.redo_label() is None
    assert cf.redo() is None


def test_journal_notes_are_undoable_events(cf: CampaignFile) -> None:
    note = cf.add_note("Birch saw smoke in the east.", author="Kim")
    assert (note.kind, note.author) == ("note", "Kim")
    assert cf.undo_label() == "Birch saw smoke in the east."
    undone = cf.undo()
    assert undone is not None and undone.id == note.id
    kinds = [(e.kind, e.undone) for e in cf.journal()]
    assert kinds == [("undo", False), ("note", True)]


def test_save_points(cf: CampaignFile) -> None:
    add_ash(cf)
    point = cf.save_point("before the Night")
    with cf.transaction("rename", "Ash is now Ember") as session:
        session.exec(select(Character)).one().name = "Ember"
    cf.add_note("a note")
    assert [p.name for p in cf.save_points()] == ["before the Night"]
    undone = cf.undo_to("before the Night")
    assert [e.text for e in undone] == ["a note", "Ash is now Ember"]
    assert names(cf) == ["Ash"]
    assert cf.undo_label() == "Ash joins the society"  # save point records are not undone
    assert cf.undo_to(point) == []
    with pytest.raises(CampaignFileError, match="no save point"):
        cf.undo_to("nonesuch")


def test_journal_pages_and_filters(cf: CampaignFile) -> None:
    for i in range(10):
        cf.add_note(f"note {i}")
    add_ash(cf)
    page = cf.journal(limit=4)
    assert [e.text for e in page][:2] == ["Ash joins the society", "note 9"]
    older = cf.journal(limit=4, before_id=page[-1].id)
    assert [e.text for e in older] == ["note 6", "note 5", "note 4", "note 3"]
    assert [e.kind for e in cf.journal(kinds=["create_character"])] == ["create_character"]


def test_bulk_statements_are_refused(cf: CampaignFile) -> None:
    add_ash(cf)
    with pytest.raises(CampaignFileError, match="bulk"), cf.transaction("x", "x") as session:
        session.exec(update(Character).values(energy=5))  # type: ignore[call-overload]
    assert cf.event_count() == 1


def test_read_sessions_refuse_writes(cf: CampaignFile) -> None:
    with pytest.raises(CampaignFileError, match="for reading"), cf.read() as session:
        session.add(Character(name="Sneaky"))
        session.flush()
    assert names(cf) == []


def test_transactions_do_not_nest(cf: CampaignFile) -> None:
    with (
        pytest.raises(CampaignFileError, match="nest"),
        cf.transaction("outer", "outer"),
        cf.transaction("inner", "inner"),
    ):
        pass


def test_reserved_kinds_are_refused(cf: CampaignFile) -> None:
    with pytest.raises(CampaignFileError, match="reserved"), cf.transaction("undo", "x"):
        pass


def test_undo_refuses_rows_changed_outside_the_journal(cf: CampaignFile) -> None:
    add_ash(cf)
    raw = cf._conn()
    raw.execute("UPDATE character SET energy = 9")
    with pytest.raises(UndoConflict, match="Undo stops at “Ash joins the society”") as err:
        cf.undo()
    assert "restore a backup taken before it" in str(err.value)
    assert err.value.detail.startswith("character row 1 was changed outside the journal")
    with cf.read() as session:
        assert session.exec(select(Character)).one().energy == 9
        assert not session.exec(select(JournalEvent)).one().undone


def test_issue24_an_undo_that_must_stop_says_which_step_and_what_to_do(
        cf: CampaignFile) -> None:
    """Issue 24 (c): undo, undo to a save point and redo that must stop name the step in
    the journal's words and what the players can do; nothing is changed."""
    cf.save_point("before the Night")
    add_ash(cf)
    with cf.transaction("rest", "Ash rests") as session:
        session.exec(select(Character)).one().energy = 3
    cf._conn().execute("UPDATE character SET might = 5")  # outside the journal
    with pytest.raises(UndoConflict) as err:
        cf.undo_to("before the Night")
    assert str(err.value).startswith(
        "Undo to the save point 'before the Night' stops at “Ash joins the society”")
    assert "cannot go back past this step" in str(err.value)
    assert cf.undo_label() == "Ash rests"  # nothing was undone
    cf.undo()
    cf._conn().execute("UPDATE character SET energy = 7")
    with pytest.raises(UndoConflict) as err:
        cf.redo()
    assert str(err.value).startswith("Redo stops at “Ash rests”")
    assert "restore a backup taken after that step" in str(err.value)


def test_commit_inside_a_transaction_is_refused(cf: CampaignFile) -> None:
    with pytest.raises(CampaignFileError, match="do not commit"), cf.transaction("x", "x") as s:
        s.add(Character(name="Early"))
        s.commit()
    assert names(cf) == [] and cf.event_count() == 0


def test_reassigned_json_columns_are_journalled(cf: CampaignFile) -> None:
    add_ash(cf)
    with cf.transaction("trait", "Ash becomes Wary") as session:
        ash = session.exec(select(Character)).one()
        ash.traits = [*ash.traits, "Wary"]
    assert cf.journal(limit=1)[0].changes[0]["after"] == {"id": 1, "traits": ["Brave", "Wary"]}
    cf.undo()
    with cf.read() as session:
        assert session.exec(select(Character)).one().traits == ["Brave"]


def test_issue24_a_row_set_to_the_value_it_held_is_no_change(cf: CampaignFile) -> None:
    """Issue 24 (a): ``save_chance`` after a Discovery card typed at the table (no die
    rolled) sets the generator's row to the state it held. The recorder took that
    unchanged row for an inserted one; undoing the step then deleted the row and Undo
    stopped half-way ("rng_state row 1 was changed outside the journal")."""
    from companion.store.models import RngState

    with cf.transaction("setup", "the campaign's dice") as session:
        session.add(RngState(name="main", seed=3, state={"n": 1}))
    add_ash(cf)
    with cf.transaction("discovery", "a card typed at the table") as session:
        rng = session.exec(select(RngState)).one()
        rng.state = {"n": 1}  # the value it held: assigned, not changed
        session.exec(select(Character)).one().energy = 4
    assert [c["table"] for c in cf.journal(limit=1)[0].changes] == ["character"]
    while cf.undo() is not None:
        pass
    with cf.read() as session:
        assert session.exec(select(Character)).all() == []
        assert session.exec(select(RngState)).all() == []
    while cf.redo() is not None:
        pass
    with cf.read() as session:
        assert session.exec(select(RngState)).one().state == {"n": 1}
        assert session.exec(select(Character)).one().energy == 4
