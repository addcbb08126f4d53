"""Completing goals through the operations (Rulebook: Set Up > Set Up Challenge; Set Up
Vital and Epoch Goals): the card goes beneath the challenge and its reward is applied."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import challenge as lifecycle


@pytest.mark.parametrize(("typed", "goal", "unrest", "lore", "said"), [
    # First Hearth rewards unrest -1: 2 - 1 = 1.
    ("G-first-hearth", "G-first-hearth", 1, 0, "Goal completed: First Hearth. Reward: "
                                               "decrease unrest by 1"),
    ("first hearth", "G-first-hearth", 1, 0, "Goal completed: First Hearth. Reward: "
                                             "decrease unrest by 1"),
    # Songs for the Young rewards 1 lore: 0 + 1 = 1.
    ("SONGS FOR THE YOUNG", "G-songs", 2, 1, "Goal completed: Songs for the Young. Reward: "
                                             "gain 1 lore"),
    # Winter Stores has no reward: nothing moves.
    ("g-winter-stores", "G-winter-stores", 2, 0, "Goal completed: Winter Stores"),
])
def test_set_up_vital_and_epoch_goals_completing_a_goal_applies_its_reward(
        demo: Campaign, typed: str, goal: str, unrest: int, lore: int, said: str) -> None:
    operations.change_unrest(demo, amount=2)
    changes = lifecycle.complete_goal(demo, goal=typed)
    assert changes.summary == said
    assert (goal, "completed") in demo.goals_in_play()
    status = demo.status()
    assert (status.unrest, status.lore) == (unrest, lore)
    assert demo.journal(limit=1)[0].text == said


def test_set_up_challenge_first_hearth_reward_keeps_unrest_at_zero(demo: Campaign) -> None:
    lifecycle.complete_goal(demo, goal="First Hearth")
    assert demo.status().unrest == 0


@pytest.mark.parametrize(("typed", "message"), [
    ("Moonlit Feast", "is not in play: goals in play are First Hearth, Winter Stores, "
                      "Songs for the Young"),
    ("The Hidden Spring", "is not in play"),  # sealed: its name stays unread
])
def test_set_up_challenge_a_goal_not_in_play_is_refused(demo: Campaign, typed: str,
                                                        message: str) -> None:
    before = demo.goals_in_play()
    with pytest.raises(Refused, match=message):
        lifecycle.complete_goal(demo, goal=typed)
    assert demo.goals_in_play() == before


def test_set_up_challenge_a_goal_is_completed_once(demo: Campaign) -> None:
    lifecycle.complete_goal(demo, goal="Songs for the Young")
    with pytest.raises(Refused, match="not in play"):
        lifecycle.complete_goal(demo, goal="Songs for the Young")
    assert demo.status().lore == 1
