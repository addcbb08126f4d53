"""Legends: past characters the society remembers (Rulebook: Legends).

A legend card is gained by drawing one at random or choosing one from the society's
unassigned legends; it is used once (to substitute its ability value in a test, or to
count as having one of its traits or marks) and then returns to the unassigned pool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.content.schema.base import Ability
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.ids import LegendId, Mark, Trait


@dataclass(frozen=True)
class Legend:
    """The legend side of a past character's card."""

    id: LegendId
    """The legend card's id."""
    name: str
    """The name the character bore; a new character of that name can't take its traits."""
    abilities: Mapping[Ability, int]
    """The four ability values."""
    traits: tuple[Trait, ...]
    """The character's traits."""
    marks: tuple[Mark, ...] = ()
    """Marks written on the legend."""


@dataclass(frozen=True)
class LegendPool:
    """The society's unassigned legend cards."""

    unassigned: tuple[LegendId, ...] = ()
    """Legend cards no character holds."""

    def add(self, legend: LegendId) -> LegendPool:
        """A new legend joins the society (or a used one returns)."""
        return replace(self, unassigned=(*self.unassigned, legend))


def _give(pool: LegendPool, character: Character, legend: LegendId) -> tuple[LegendPool, Character]:
    rest = list(pool.unassigned)
    rest.remove(legend)
    return (
        replace(pool, unassigned=tuple(rest)),
        replace(character, legends=(*character.legends, legend)),
    )


def draw_legend(pool: LegendPool, character: Character, pick: int) -> tuple[LegendPool, Character]:
    """Draw a legend at random: ``pick`` indexes the shuffled unassigned cards (chance input).

    Refused when the society has no unassigned legend (Rulebook: Gaining Legend Cards).
    """
    if not pool.unassigned:
        raise IllegalAction("the society has no unassigned legend to draw")
    if not 0 <= pick < len(pool.unassigned):
        raise IllegalAction(f"there are {len(pool.unassigned)} unassigned legends; got {pick + 1}")
    return _give(pool, character, pool.unassigned[pick])


def choose_legend(
    pool: LegendPool, character: Character, legend: LegendId
) -> tuple[LegendPool, Character]:
    """Choose a legend from the unassigned ones (Rulebook: Gaining Legend Cards)."""
    if not pool.unassigned:
        raise IllegalAction("the society has no unassigned legend to choose")
    if legend not in pool.unassigned:
        raise IllegalAction(f"legend {legend} is not among the unassigned legends")
    return _give(pool, character, legend)


def return_legend(
    pool: LegendPool, character: Character, legend: LegendId
) -> tuple[LegendPool, Character]:
    """After a legend card is used it returns to the unassigned legends."""
    if legend not in character.legends:
        raise IllegalAction(f"{character.name} holds no legend {legend}")
    held = list(character.legends)
    held.remove(legend)
    return pool.add(legend), replace(character, legends=tuple(held))


def has_trait(character: Character, trait: Trait, legend: Legend | None = None) -> bool:
    """The character has ``trait``, or counts as having it by using ``legend`` (held)."""
    if trait in character.traits:
        return True
    return legend is not None and legend.id in character.legends and trait in legend.traits
