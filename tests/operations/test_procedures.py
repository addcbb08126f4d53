"""Procedures run step by step through the operations: persisted after every step,
resumable after closing the file, undoable one step at a time (DESIGN.md > Procedures)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import procedures as run
from companion.rules.procedure import Decider


def play_out(campaign: Campaign, limit: int = 200) -> list[str]:
    """Answer every step: the first option for players, the app for chance."""
    lines = []
    for _ in range(limit):
        view = run.in_progress(campaign)
        if view is None:
            return lines
        step = view.step
        assert step is not None
        choice = step.options[0] if step.decider is Decider.PLAYER else None
        lines.append(run.advance(campaign, choice=choice).summary)
    raise AssertionError("the procedure did not end")


def test_fishing_pays_its_cost_and_applies_its_result(demo: Campaign) -> None:
    run.start_fishing(demo, name="Ash", feature="river")
    ash = next(c for c in demo.characters() if c.name == "Ash")
    assert ash.energy == 3  # D3: fishing costs 2
    lines = play_out(demo)
    assert lines[-1].startswith("Ash finished fishing")
    assert run.in_progress(demo) is None


def test_an_activity_blocks_a_second_one(demo: Campaign) -> None:
    run.start_fishing(demo, name="Ash", feature="river")
    with pytest.raises(Refused, match="Another procedure is in progress"):
        run.start_fishing(demo, name="Bryn", feature="river")
    with pytest.raises(Refused, match="finish the fishing first"):
        operations.gather_water(demo, name="Bryn")


def test_fishing_is_refused_where_there_is_no_water(demo: Campaign) -> None:
    with pytest.raises(Refused, match="no usable lake"):
        run.start_fishing(demo, name="Ash", feature="lake")
    assert run.in_progress(demo) is None


def test_a_typed_die_out_of_range_is_refused_and_changes_nothing(demo: Campaign) -> None:
    run.start_fishing(demo, name="Ash", feature="river")
    run.advance(demo)  # stock card
    run.advance(demo)  # water card
    before = run.in_progress(demo)
    with pytest.raises(Refused, match="1 to 6"):
        run.advance(demo, choice=(7, 1, 1, 1))
    assert run.in_progress(demo) == before
    run.advance(demo, choice=(6, 5, 4, 3))  # the table's dice are accepted
    assert "6 5 4 3" in run.in_progress(demo).log[-1]


def test_night_phase_waits_until_everyone_has_passed(demo: Campaign) -> None:
    with pytest.raises(Refused, match="The Day goes on until Ash, Bryn pass"):
        run.start_night(demo)


def night(campaign: Campaign) -> None:
    operations.pass_turn(campaign, name="Ash")
    operations.pass_turn(campaign, name="Bryn")
    run.start_night(campaign)


def test_night_phase_day_actions_are_refused_during_the_night(demo: Campaign) -> None:
    night(demo)
    with pytest.raises(Refused):
        operations.gather_water(demo, name="Ash")


def test_night_phase_resumes_at_the_same_step_after_reopening(tmp_path: Path) -> None:
    """Quit mid-Night, reopen, finish: the same Night as without quitting."""
    results = []
    for quit_after in (None, 3):
        path = tmp_path / f"n{quit_after}.stonesaga"
        campaign = operations.create_demo_campaign(path, seed=4)
        night(campaign)
        if quit_after is not None:
            for _ in range(quit_after):
                step = run.in_progress(campaign).step
                run.advance(campaign, choice=step.options[0]
                            if step.decider is Decider.PLAYER else None)
            midway = run.in_progress(campaign)
            campaign.close()
            campaign = operations.open_campaign(path)
            assert run.in_progress(campaign) == midway
        play_out(campaign)
        results.append((campaign.characters(), campaign.status().activity,
                        campaign.status().omens))
        campaign.close()
    assert results[0] == results[1]


def test_night_phase_undo_goes_back_one_step(demo: Campaign) -> None:
    night(demo)
    first = run.in_progress(demo)
    step = first.step
    run.advance(demo, choice=step.options[0] if step.decider is Decider.PLAYER else None)
    operations.undo(demo)
    assert run.in_progress(demo) == first


def test_night_phase_ends_with_a_new_day_and_the_omen_of_the_discard(demo: Campaign) -> None:
    night(demo)
    play_out(demo)
    assert operations.whose_turn(demo)["may_act"] == ["Ash", "Bryn"]
    from companion.store import models

    with demo.file.read() as session:
        deck = session.get(models.DeckState, 1)
        top = deck.discard[-1]
    assert demo.status().omens == tuple(o.value for o in demo.content.night_cards[top].omens)
