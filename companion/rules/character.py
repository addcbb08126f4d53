"""A character: card plus mantle board (Rulebook: Characters).

:class:`Character` is a frozen value; every change is a function elsewhere in
``companion.rules`` that returns a new one (``dataclasses.replace``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from companion.content.schema.base import Ability, HealthToken, Slot
from companion.rules.ids import (
    CharacterName,
    HexId,
    ItemId,
    LegendId,
    MantleId,
    MantlePowerId,
    Mark,
    PlayerName,
    Trait,
)
from companion.rules.resources import BagToken

MAJOR = frozenset({HealthToken.MAJOR_INJURY, HealthToken.MAJOR_DISEASE})
"""The major side of the injury and disease tokens (Rulebook: Mantle > Health Track)."""


class Age(StrEnum):
    """Rulebook: Key Character Information > Age."""

    YOUNG = "young"
    OLD = "old"
    LEGEND = "legend"


@dataclass(frozen=True)
class TrackRules:
    """How the health track behaves; the defaults are the basic rules.

    Hardcore solo (Rulebook: Solo Play > Hardcore Solo, reading D19) turns both on, from
    ``RulesConstants.hardcore_solo``.
    """

    incapacitated_only_when_all_major: bool = False
    """Incapacitated only when the full track holds major tokens only."""
    overflow_flips_minor_to_major: bool = False
    """A token suffered on a full track flips an existing minor token to major instead."""
    hardcore: bool = False
    """Hardcore solo: the first action each Day is discounted (D19)."""


@dataclass(frozen=True)
class Character:
    """A character in play (Rulebook: Characters > Key Character Information, Mantle)."""

    name: CharacterName
    """Unique among the characters of a game (Rulebook: Key Character Information > Name)."""
    player: PlayerName
    """The player who controls the character."""
    age: Age
    """Young, old or (once perished or aged out) legend."""
    abilities: Mapping[Ability, int]
    """Might, Dexterity, Awareness, Conviction, each 1..6."""
    traits: tuple[Trait, ...]
    """One trait, or two when the abilities sum to 11 or less."""
    health_max: int
    """Slots on the health track (reading D8, or hardcore solo)."""
    energy_max: int
    """Slots on the energy track (reading D8, or hardcore solo)."""
    energy: int
    """Energy tokens on the track, 0..energy_max."""
    mantle: MantleId | None = None
    """The mantle board the character is slotted in (one character per mantle per game)."""
    mantle_power: MantlePowerId | None = None
    """The mantle power slotted in the mantle, if any."""
    marks: tuple[Mark, ...] = ()
    """Marks the character counts as having."""
    health: tuple[HealthToken, ...] = ()
    """Injury and disease tokens on the health track, in the order suffered."""
    boosts: Mapping[Ability, tuple[int, ...]] = field(default_factory=dict)
    """Boost tokens above each ability: 1 (minor) or 2 (major)."""
    items: tuple[tuple[ItemId, Slot], ...] = ()
    """Equipped item cards and the slot each takes."""
    bag: tuple[BagToken, ...] = ()
    """Materials, food and water in the mantle's bag."""
    hex: HexId | None = None
    """Where the character's miniature stands."""
    legends: tuple[LegendId, ...] = ()
    """Legend cards placed next to the mantle board, not yet used."""
    track_rules: TrackRules = TrackRules()
    """Basic or hardcore-solo health rules."""

    @property
    def incapacitated(self) -> bool:
        """The health track is full (hardcore solo: full of major tokens).

        Rulebook: Mantle > Health Track, Incapacitation; Solo Play > Hardcore Solo.
        """
        if len(self.health) < self.health_max:
            return False
        if self.track_rules.incapacitated_only_when_all_major:
            return all(token in MAJOR for token in self.health)
        return True

    def ability(self, ability: Ability) -> int:
        """The ability's value as written on the card."""
        return self.abilities[ability]

    def slots_used(self, slot: Slot) -> int:
        """How many equipped items take ``slot``."""
        return sum(1 for _, s in self.items if s is slot)
