"""Set Up (Rulebook: Set Up): the first tray, choosing and setting up a challenge."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations.setup import goals


def test_set_up_determine_starting_hex_first_tray_holds_start_and_two_face_down(
        fresh: Campaign) -> None:
    region = next(iter(fresh.content.regions))
    changes = operations.set_up_valley(fresh, region=region)
    start = fresh.content.starting_hex(region)
    (tray,) = fresh.valley()
    assert [h.tile_id for h in tray.hexes][0] == start.id
    assert [h.explored for h in tray.hexes] == [True, False, False]
    # Valley > Hexes: what the app drew stays face down, in the result too.
    assert changes.detail == (start.id,)
    drawn = [h.tile_id for h in tray.hexes][1:]
    assert len(set(drawn)) == 2 and start.id not in drawn
    assert all(fresh.content.hexes[t].region == region for t in drawn)


def test_set_up_typed_tiles_from_the_table_are_used(fresh: Campaign) -> None:
    region = next(iter(fresh.content.regions))
    pool = [t.id for t in fresh.content.hexes.values() if t.region == region and not t.starting]
    operations.set_up_valley(fresh, region=region, face_down=pool[-2:])
    assert [h.tile_id for h in fresh.valley()[0].hexes][1:] == pool[-2:]


@pytest.mark.parametrize("typed", [["E01", "E02"], ["E02", "E02"], ["E02"], ["T02", "E03"]])
def test_set_up_refuses_wrong_typed_tiles_and_changes_nothing(fresh: Campaign,
                                                              typed: list[str]) -> None:
    before = fresh.status().journal_events
    with pytest.raises(Refused):
        operations.set_up_valley(fresh, region="emberfen", face_down=typed)
    assert fresh.valley() == [] and fresh.status().journal_events == before


def test_set_up_the_valley_only_once(demo: Campaign) -> None:
    with pytest.raises(Refused, match="already has its first terrain tray"):
        operations.set_up_valley(demo, region=next(iter(demo.content.regions)))


def test_select_challenge_first_game_takes_the_priority_closest_to_1(fresh: Campaign) -> None:
    by_priority = sorted(fresh.content.challenges.values(), key=lambda c: c.priority)
    assert operations.eligible_challenges(fresh) == [by_priority[0].id]
    with pytest.raises(Refused, match="priority rule"):
        operations.start_challenge(fresh, challenge=by_priority[-1].id)


def test_set_up_challenge_places_vital_sealed_and_epoch_goals(fresh: Campaign) -> None:
    card = fresh.content.challenges["C1"]
    operations.start_challenge(fresh, challenge="C1")
    states = dict(goals(fresh))
    assert {g: states[g] for g in card.vital_goals} == {g: "vital" for g in card.vital_goals}
    assert all(states[g] == "sealed" for g in card.set_aside_goals)
    assert all(states[g] == "epoch" for g in card.epoch_goals)
    status = fresh.status()
    assert status.challenge_name == card.name and status.games_this_epoch == 1
    assert status.omens == (card.starting_omen.value,)


def test_set_up_challenge_back_side_unlocks_delving(fresh: Campaign) -> None:
    operations.start_challenge(fresh, challenge="C1")
    from companion.store import models

    with fresh.file.read() as session:
        assert session.get(models.Campaign, 1).delving_unlocked


def test_a_second_challenge_cannot_start_while_one_is_played(demo: Campaign) -> None:
    with pytest.raises(Refused, match="still being played"):
        operations.start_challenge(demo, challenge="C2")


def test_demo_campaign_is_made_with_the_ordinary_operations(demo: Campaign) -> None:
    names = [c.name for c in demo.characters()]
    assert names == ["Ash", "Bryn"]
    start = demo.valley()[0].hexes[0].tile_id
    assert {c.hex_id for c in demo.characters()} == {start}
    assert all(c.energy == c.energy_max == 5 for c in demo.characters())
    kinds = [line.kind for line in demo.journal()]
    assert kinds[-1] == "campaign.new" and "character.create" in kinds


def test_demo_campaign_replays_the_same_with_the_same_seed(tmp_path: Path) -> None:
    a = operations.create_demo_campaign(tmp_path / "a.stonesaga", seed=5)
    b = operations.create_demo_campaign(tmp_path / "b.stonesaga", seed=5)
    try:
        assert a.characters() == [c for c in b.characters()]
        assert a.valley() == b.valley()
    finally:
        a.close()
        b.close()
