"""The health and energy tracks, boosts, perishing and ageing.

Rulebook: Mantle > Health Track, Incapacitation, Injury Tokens, Disease Tokens, Energy
Track, Boost Slots; Character Death; Legends; Solo Play > Hardcore Solo (reading D19).
"""

from __future__ import annotations

from dataclasses import replace

from companion.content.schema.base import Ability, HealthToken
from companion.rules.character import Age, Character
from companion.rules.errors import IllegalAction

DEGRADED: dict[HealthToken, HealthToken | None] = {
    HealthToken.MAJOR_INJURY: HealthToken.MINOR_INJURY,
    HealthToken.MAJOR_DISEASE: HealthToken.MINOR_DISEASE,
    HealthToken.MINOR_INJURY: None,
    HealthToken.MINOR_DISEASE: None,
}
"""A degraded token: major flips to minor, minor is removed."""

FLIPPED: dict[HealthToken, HealthToken] = {
    HealthToken.MINOR_INJURY: HealthToken.MAJOR_INJURY,
    HealthToken.MINOR_DISEASE: HealthToken.MAJOR_DISEASE,
}
"""A minor token flipped to its major side (hardcore solo overflow)."""

MINOR_BOOST = 1
"""The face of a minor boost token (Rulebook: Status Tokens > Boost Tokens)."""
MAJOR_BOOST = 2
"""The face of a major boost token."""


def suffer(character: Character, token: HealthToken) -> Character:
    """Place an injury or disease token on the health track.

    On a full track the token has nowhere to go; under hardcore solo (D19) it flips an
    existing minor token to major instead, the same kind first (least favourable, D20),
    and nothing happens if there is no minor token left.

    >>> from companion.rules.character import Character
    >>> ash = Character("Ash", "p", Age.YOUNG, {}, (), health_max=2, energy_max=4, energy=4)
    >>> ash = suffer(suffer(ash, HealthToken.MINOR_INJURY), HealthToken.MAJOR_DISEASE)
    >>> ash.incapacitated
    True
    """
    if len(character.health) < character.health_max:
        return replace(character, health=(*character.health, token))
    if not character.track_rules.overflow_flips_minor_to_major:
        return character
    minors = [i for i, t in enumerate(character.health) if t in FLIPPED]
    if not minors:
        return character
    same_kind = [i for i in minors if FLIPPED[character.health[i]] is _major_of(token)]
    index = (same_kind or minors)[0]
    health = list(character.health)
    health[index] = FLIPPED[health[index]]
    return replace(character, health=tuple(health))


def _major_of(token: HealthToken) -> HealthToken:
    return FLIPPED.get(token, token)


def degrade(character: Character, index: int) -> Character:
    """Degrade the health token at ``index``: major becomes minor, minor is removed.

    Rulebook: Mantle > Injury Tokens, Disease Tokens.
    """
    if not 0 <= index < len(character.health):
        raise IllegalAction(f"{character.name} has no health token number {index + 1}")
    health = list(character.health)
    degraded = DEGRADED[health[index]]
    if degraded is None:
        del health[index]
    else:
        health[index] = degraded
    return replace(character, health=tuple(health))


def spend_energy(character: Character, amount: int, what: str) -> Character:
    """Remove ``amount`` energy, refused if the character has less.

    >>> from companion.rules.character import Character
    >>> ash = Character("Ash", "p", Age.YOUNG, {}, (), health_max=3, energy_max=4, energy=1)
    >>> spend_energy(ash, 2, "Explore")
    Traceback (most recent call last):
    ...
    companion.rules.errors.IllegalAction: Ash has 1 energy; Explore costs 2
    """
    if amount < 0:
        raise ValueError("cannot spend negative energy")
    if character.energy < amount:
        raise IllegalAction(
            f"{character.name} has {character.energy} energy; {what} costs {amount}"
        )
    return replace(character, energy=character.energy - amount)


def gain_energy(character: Character, amount: int) -> Character:
    """Add energy, capped at the track's maximum (Rulebook: Mantle > Energy Track)."""
    if amount < 0:
        raise ValueError("cannot gain negative energy")
    return replace(character, energy=min(character.energy_max, character.energy + amount))


def add_boost(character: Character, ability: Ability, face: int) -> Character:
    """Place a boost token (1 minor, 2 major) above ``ability`` (Rulebook: Boost Slots)."""
    if face not in (MINOR_BOOST, MAJOR_BOOST):
        raise IllegalAction(f"a boost token shows {MINOR_BOOST} or {MAJOR_BOOST}; got {face}")
    boosts = dict(character.boosts)
    boosts[ability] = (*boosts.get(ability, ()), face)
    return replace(character, boosts=boosts)


def energize(character: Character, ability: Ability, boost: int) -> Character:
    """Energized at Rest: a boost of ``boost`` (``RulesConstants.rest.energized_boost``).

    Rulebook: Night Phase > Rest > Energized.
    """
    return add_boost(character, ability, boost)


def degrade_boosts(boosts: tuple[int, ...]) -> tuple[int, ...]:
    """Used boosts: a major flips to minor, a minor is removed (Rulebook: Boost Slots).

    >>> degrade_boosts((2, 1, 2))
    (1, 1)
    """
    return tuple(MINOR_BOOST for face in boosts if face == MAJOR_BOOST)


def use_boosts(character: Character, ability: Ability) -> tuple[int, Character]:
    """The total of the boosts on ``ability`` and the character with them degraded."""
    faces = character.boosts.get(ability, ())
    if not faces:
        return 0, character
    boosts = dict(character.boosts)
    remaining = degrade_boosts(faces)
    if remaining:
        boosts[ability] = remaining
    else:
        del boosts[ability]
    return sum(faces), replace(character, boosts=boosts)


def perish(character: Character) -> Character:
    """The character perishes and becomes a legend (Rulebook: Character Death; Legends).

    Refused unless the character is incapacitated; the Night (start of the Night phase)
    or hardcore solo perishing call it.
    """
    if not character.incapacitated:
        raise IllegalAction(f"{character.name} is not incapacitated and cannot perish")
    return replace(character, age=Age.LEGEND)


def age(character: Character) -> Character:
    """Age the character one step: young to old, old to legend (aged out).

    Rulebook: Key Character Information > Age; Legends.
    """
    if character.age is Age.YOUNG:
        return replace(character, age=Age.OLD)
    if character.age is Age.OLD:
        return replace(character, age=Age.LEGEND)
    raise IllegalAction(f"{character.name} is already a legend")
