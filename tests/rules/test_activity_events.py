"""Rulebook: Tracks > Activity > Activity Events; Unrest (readings D7, D10): events fire
with their effects whatever raised the dial, and unrest's epoch goals enter play."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.content.schema import effects as fx
from companion.content.schema.base import HealthToken
from companion.rules.activity_events import apply_event, goals_reached, settle
from companion.rules.game import Game
from companion.rules.ids import EventId, GoalId, HexId
from companion.rules.society import ActivityEvent, EventKind, Society
from tests.rules.factories import make

IMMEDIATE = ActivityEvent(EventId("C#1"), EventKind.IMMEDIATE, 5)
SOCIETAL = ActivityEvent(EventId("C#2"), EventKind.SOCIETAL, 8)
GENERAL = ActivityEvent(EventId("C#3"), EventKind.GENERAL, 6)
ONGOING = ActivityEvent(EventId("C#4"), EventKind.ONGOING, 10, until=12)
EVENTS = (IMMEDIATE, SOCIETAL, GENERAL, ONGOING)


def _game(activity: int = 0, unrest: int = 0) -> Game:
    ash = make("Ash", hex=HexId("E01"), energy=3)
    bryn = make("Bryn", hex=HexId("E02"), energy=1)
    return Game(characters=(ash, bryn), society=Society(activity=activity, unrest=unrest))


@pytest.mark.parametrize(
    ("before", "after", "fired"),
    [
        (0, 4, ()),                      # nothing reached
        (4, 5, ("C#1",)),                # immediate: as soon as reached
        (0, 9, ("C#1", "C#2")),          # passed two at once, in threshold order
        (0, 7, ("C#1",)),                # general waits for the end of the Night (D7)
        (0, 11, ("C#1", "C#2")),         # ongoing never fires as a single event
    ],
)
def test_activity_events_immediate_and_societal_fire_as_soon_as_reached(
        before: int, after: int, fired: tuple[str, ...]) -> None:
    settled = settle(None, _game(before), _game(after), EVENTS, {})
    assert settled.fired == fired
    assert settled.game.society.triggered_events == frozenset(fired)


def test_activity_events_fire_once_per_challenge() -> None:
    first = settle(None, _game(4), _game(6), EVENTS, {})
    raised = replace(first.game, society=replace(first.game.society, activity=7))
    assert settle(None, first.game, raised, EVENTS, {}).fired == ()


def test_activity_events_an_event_raising_activity_fires_the_next_in_a_chain() -> None:
    effects = {IMMEDIATE.id: (fx.Activity(do="activity", amount=3),),
               SOCIETAL.id: (fx.Unrest(do="unrest", amount=2),)}
    settled = settle(None, _game(4), _game(5), EVENTS, effects)
    # 5 fires the immediate event: +3 activity = 8 reaches the societal one: unrest +2.
    assert settled.fired == ("C#1", "C#2")
    assert (settled.game.society.activity, settled.game.society.unrest) == (8, 2)


@pytest.mark.parametrize(
    ("effect", "ash", "bryn", "society"),
    [
        (fx.Energy(do="energy", amount=-1), 2, 0, (0, 0)),   # every character, never < 0
        (fx.Energy(do="energy", amount=2), 4, 3, (0, 0)),  # capped at the track
        (fx.Lore(do="lore", amount=2), 3, 1, (2, 0)),
        (fx.Unrest(do="unrest", amount=1), 3, 1, (0, 1)),
    ],
)
def test_activity_events_effects_reach_the_society_and_every_character(
        effect: fx.Effect, ash: int, bryn: int, society: tuple[int, int]) -> None:
    game, notes = apply_event(_game(), (effect,), {})
    assert [c.energy for c in game.characters] == [ash, bryn]
    assert (game.society.lore, game.society.unrest) == society
    assert notes


def test_activity_events_suffer_and_place_apply_to_each_character_and_hex() -> None:
    game, _ = apply_event(_game(), (fx.Suffer(do="suffer", token=HealthToken.MINOR_INJURY),
                                    fx.Place(do="place", token="lore")), {})
    assert all(c.health == (HealthToken.MINOR_INJURY,) for c in game.characters)
    assert dict(game.tokens.lore) == {HexId("E01"): 1, HexId("E02"): 1}


def test_activity_events_a_test_is_left_to_the_table() -> None:
    test = fx.Test(do="test", ability="might", difficulty=7)
    game, notes = apply_event(_game(), (test,), {})
    assert game == _game() and notes == ["for the table: test"]


@pytest.mark.parametrize(
    ("before", "after", "goals"),
    [(0, 5, ()), (5, 6, ("quelling-the-embers",)), (0, 17, ("quelling-the-embers",)),
     (6, 9, ()), (7, 3, ())],
)
def test_unrest_6_puts_quelling_the_embers_in_play_by_any_route(
        rules: object, before: int, after: int, goals: tuple[str, ...]) -> None:
    assert goals_reached(rules, before, after) == tuple(GoalId(g) for g in goals)  # type: ignore[arg-type]


@given(st.integers(0, 30), st.integers(0, 30))
def test_activity_events_each_single_event_fires_at_most_once(a: int, b: int) -> None:
    low, high = sorted((a, b))
    first = settle(None, _game(0), _game(low), EVENTS, {})
    second_after = replace(first.game, society=replace(first.game.society, activity=high))
    second = settle(None, first.game, second_after, EVENTS, {})
    assert not set(first.fired) & set(second.fired)
    assert all(e.threshold <= high for e in EVENTS if e.id in {*first.fired, *second.fired})
