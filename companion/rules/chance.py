"""The app's seeded, serialisable source of chance.

Rules functions never roll: they take dice values and card ids as inputs, so the table
can type what it rolled. In app mode the operations layer asks a :class:`Chance` for the
values and persists :meth:`Chance.state` in the campaign file, so a replay is exact.

The generator is :class:`random.Random` (Mersenne Twister); its state is converted to
plain lists and ints so it survives a JSON round trip.

>>> a = Chance(7)
>>> first = a.roll(3)
>>> b = Chance.from_state(Chance(7).state())
>>> b.roll(3) == first
True
>>> all(1 <= d <= 6 for d in first)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

DIE_SIDES = 6
"""Stonesaga uses six-sided dice (Rulebook: Basic Concepts > Dice)."""


class Chance:
    """A seeded generator of die rolls, shuffles and random choices."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` six-sided dice."""
        if n < 0:
            raise ValueError("cannot roll a negative number of dice")
        return tuple(self._random.randint(1, DIE_SIDES) for _ in range(n))

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items`` (the argument is left as it was)."""
        copy = list(items)
        self._random.shuffle(copy)
        return copy

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items`` at random (Rulebook: Basic Concepts > Multiple Possible Outcomes)."""
        if not items:
            raise ValueError("cannot choose from nothing")
        return items[self._random.randrange(len(items))]

    def state(self) -> dict[str, Any]:
        """The generator's state as JSON-safe data (ints, lists, None)."""
        version, internal, gauss_next = self._random.getstate()
        return {"version": version, "internal": list(internal), "gauss_next": gauss_next}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Chance:
        """A generator that continues exactly where the one that gave ``state`` was."""
        chance = cls(0)
        chance._random.setstate(
            (int(state["version"]), tuple(int(x) for x in state["internal"]), state["gauss_next"])
        )
        return chance
