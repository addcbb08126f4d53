"""Issue 24 (found fuzzing the command line): a row assigned the value it already holds is
not a change. The recorder took it for an insert, so undoing the step deleted the row:
two ``companion epoch new`` in a row, then ``undo``, deleted the society and every
command after that failed on "every campaign file has its society row"."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import select

from companion import operations
from companion.operations.challenge import new_epoch
from companion.store import CampaignFile
from companion.store.models import Society


def test_a_row_set_to_its_own_value_is_not_recorded(cf: CampaignFile) -> None:
    with cf.transaction("noop", "the society keeps its games count") as session:
        society = session.get(Society, 1)
        assert society is not None
        society.games_this_epoch = society.games_this_epoch  # dirty, not modified
    assert cf.last_event is not None and cf.last_event.changes == []
    cf.undo()
    with cf.read() as session:
        assert len(session.exec(select(Society)).all()) == 1


def test_new_epoch_twice_then_undo_keeps_the_society(tmp_path: Path) -> None:
    """Rulebook: Continuing Play > a new epoch; each step undoes to the one before."""
    path = tmp_path / "epochs.stonesaga"
    with operations.create_demo_campaign(path, seed=2) as campaign:
        operations.end_challenge(campaign, outcome="victory")
        new_epoch(campaign)
        new_epoch(campaign)  # games this epoch is already 0
        operations.undo(campaign)
        status = campaign.status()
        assert status.epoch == 2
        operations.undo(campaign)
        assert campaign.status().epoch == 1
        operations.redo(campaign)
        operations.redo(campaign)
        assert campaign.status().epoch == 3
