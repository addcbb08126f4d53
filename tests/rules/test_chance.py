"""Chance: seeded, serialisable, reproducible (DESIGN: chance is an input)."""

from __future__ import annotations

import json

from companion.rules.chance import Chance


def test_same_seed_same_rolls() -> None:
    assert Chance(42).roll(10) == Chance(42).roll(10)


def test_rolls_are_six_sided() -> None:
    rolls = Chance(1).roll(600)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}


def test_state_survives_json_round_trip_and_continues_exactly() -> None:
    a = Chance("campaign")
    a.roll(5)
    state = json.loads(json.dumps(a.state()))
    b = Chance.from_state(state)
    assert a.roll(20) == b.roll(20)
    assert a.shuffle(list(range(10))) == b.shuffle(list(range(10)))
    assert a.choice("abcdef") == b.choice("abcdef")


def test_shuffle_returns_a_copy() -> None:
    items = [1, 2, 3, 4, 5]
    shuffled = Chance(3).shuffle(items)
    assert items == [1, 2, 3, 4, 5]
    assert sorted(shuffled) == items
