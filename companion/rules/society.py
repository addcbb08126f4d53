"""The society's tracks: unrest, activity, lore; culture abilities and mantle powers.

Rulebook: Tracks > Activity, Lore, Unrest; Continuing Play > Mantle Power; readings D7,
D10.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.content.schema.rules import RulesConstants
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.ids import CultureAbilityId, EventId, GoalId, MantleId, MantlePowerId


@dataclass(frozen=True)
class Society:
    """What the society carries: persistent unrest and lore, per-challenge activity."""

    unrest: int = 0
    """Persists between games (Rulebook: Tracks > Unrest)."""
    activity: int = 0
    """Reset at the end of each challenge (Rulebook: Tracks > Activity)."""
    lore: int = 0
    """Boxes marked on the Culture page; never below ``rules.lore.minimum``."""
    triggered_events: frozenset[EventId] = frozenset()
    """Single activity events that have fired this challenge (D7: once per challenge)."""
    mantle_powers: frozenset[MantlePowerId] = frozenset()
    """Mantle powers the society has unlocked."""
    culture_abilities: tuple[CultureAbilityId, ...] = ()
    """Culture abilities added by game events (Journal > Culture)."""
    delving_unlocked: bool = False
    """Delving is locked until a game effect grants access (Rulebook: Delving; D4)."""


# --- unrest ---------------------------------------------------------------------------


@dataclass(frozen=True)
class UnrestEffects:
    """The sum of every unrest threshold reached (they are cumulative, D10)."""

    activity_per_night: int = 0
    """Added to activity each Night phase."""
    starting_energy_delta: int = 0
    """Added to each character's energy at the start of a challenge (<= 0)."""
    rest_automatic_energy_delta: int = 0
    """Added to the automatic energy gained at Rest (<= 0)."""
    structures_disabled: bool = False
    """Characters cannot use or benefit from structures."""
    epoch_goals: tuple[GoalId, ...] = ()
    """Epoch goals put into play (6+: Quelling the Embers)."""


def unrest_effects(rules: RulesConstants, unrest: int) -> UnrestEffects:
    """The effects of ``unrest``, every threshold reached counting (Rulebook: Unrest, D10)."""
    effects = UnrestEffects()
    for threshold in sorted(rules.unrest_thresholds, key=lambda t: t.at):
        if unrest < threshold.at:
            break
        effects = UnrestEffects(
            activity_per_night=effects.activity_per_night + threshold.activity_per_night,
            starting_energy_delta=effects.starting_energy_delta + threshold.starting_energy_delta,
            rest_automatic_energy_delta=effects.rest_automatic_energy_delta
            + threshold.rest_automatic_energy_delta,
            structures_disabled=effects.structures_disabled or threshold.structures_disabled,
            epoch_goals=effects.epoch_goals
            + ((GoalId(threshold.epoch_goal),) if threshold.epoch_goal else ()),
        )
    return effects


def increase_unrest(society: Society, amount: int) -> Society:
    """Turn the unrest dial up (or down for a negative effect, never below 0)."""
    return replace(society, unrest=max(0, society.unrest + amount))


# --- activity -------------------------------------------------------------------------


def increase_activity(society: Society, amount: int) -> Society:
    """Turn the activity dial up by ``amount`` (Rulebook: Tracks > Activity)."""
    if amount < 0:
        raise IllegalAction(f"activity only increases; got {amount}")
    return replace(society, activity=society.activity + amount)


def activity_from_unrest(rules: RulesConstants, unrest: int) -> int:
    """What the unrest adds to the activity each Night, after the Night cards' amounts
    (the Night itself adds the two apart, an event reached by the cards firing between).

    Rulebook: Night Phase > Increase Activity; Unrest (D10).
    """
    return unrest_effects(rules, unrest).activity_per_night


class EventKind(StrEnum):
    """Kinds of activity events on a challenge card (Rulebook: Tracks > Activity Events)."""

    GENERAL = "general"
    OUTPOST = "outpost"
    SOCIETAL = "societal"
    IMMEDIATE = "immediate"
    ONGOING = "ongoing"


AS_SOON_AS_REACHED = frozenset({EventKind.IMMEDIATE, EventKind.SOCIETAL})
"""Single events that fire as soon as reached, not only at the end of a Night (D7)."""


@dataclass(frozen=True)
class ActivityEvent:
    """An event on the back of a challenge card; filled from Content by the operations layer."""

    id: EventId
    """The event's id."""
    kind: EventKind
    """Single (general, outpost, societal, immediate) or ongoing."""
    threshold: int
    """The blue number: the event triggers at this activity or more (D7)."""
    until: int | None = None
    """Ongoing events: last activity value of the range (None: until the next ongoing event)."""


def due_events(
    society: Society, events: Sequence[ActivityEvent], *, end_of_night: bool
) -> tuple[ActivityEvent, ...]:
    """Single events that trigger now: activity >= threshold, not yet fired (D7).

    At the end of each Night every such event is due; at other moments only immediate and
    societal events are.
    """
    return tuple(
        e
        for e in sorted(events, key=lambda e: e.threshold)
        if e.kind is not EventKind.ONGOING
        and e.id not in society.triggered_events
        and society.activity >= e.threshold
        and (end_of_night or e.kind in AS_SOON_AS_REACHED)
    )


def fire_events(society: Society, events: Sequence[ActivityEvent]) -> Society:
    """Record single events as fired (each fires once per challenge)."""
    return replace(society, triggered_events=society.triggered_events | {e.id for e in events})


def ongoing_event(society: Society, events: Sequence[ActivityEvent]) -> ActivityEvent | None:
    """The ongoing event whose range holds the activity; it lasts until the next one."""
    ongoing = sorted((e for e in events if e.kind is EventKind.ONGOING), key=lambda e: e.threshold)
    current: ActivityEvent | None = None
    for index, event in enumerate(ongoing):
        upper = event.until
        if upper is None and index + 1 < len(ongoing):
            upper = ongoing[index + 1].threshold - 1
        if event.threshold <= society.activity and (upper is None or society.activity <= upper):
            current = event
    return current


# --- lore -----------------------------------------------------------------------------


def gain_lore(society: Society, amount: int) -> Society:
    """Mark ``amount`` lore boxes (Rulebook: Tracks > Lore > Gaining Lore)."""
    if amount < 0:
        raise IllegalAction(f"gaining lore takes a positive amount; got {amount}")
    return replace(society, lore=society.lore + amount)


def spend_lore(rules: RulesConstants, society: Society, amount: int) -> Society:
    """Erase ``amount`` lore; an effect costing more than the society has can't be activated.

    Rulebook: Tracks > Lore > Spending Lore.
    """
    if amount < 0:
        raise IllegalAction(f"spending lore takes a positive amount; got {amount}")
    if society.lore - amount < rules.lore.minimum:
        raise IllegalAction(f"the society has {society.lore} lore; this costs {amount}")
    return replace(society, lore=society.lore - amount)


# --- culture and mantle powers --------------------------------------------------------


def held_culture_ability(society: Society, ability: str) -> CultureAbilityId | None:
    """The culture ability of the Culture page named ``ability`` (in any case or
    spacing), or None."""
    wanted = " ".join(ability.split()).casefold()
    return next((a for a in society.culture_abilities
                 if " ".join(a.split()).casefold() == wanted), None)


def add_culture_ability(society: Society, ability: CultureAbilityId) -> Society:
    """A game event adds a culture ability (Journal > Culture)."""
    if (held := held_culture_ability(society, ability)) is not None:
        raise IllegalAction(f"the society already has the culture ability {held}")
    return replace(society, culture_abilities=(*society.culture_abilities, ability))


def gain_culture_ability(society: Society, ability: str) -> tuple[Society, str]:
    """A card's or an outcome's "gain a culture ability": the society with it, and the
    words for the journal (one it already has is not written twice)."""
    name = " ".join(ability.split())
    if (held := held_culture_ability(society, name)) is not None:
        return society, f"the society already has the culture ability {held}"
    return add_culture_ability(society, CultureAbilityId(name)), f"culture ability: {name}"


def unlock_mantle_power(society: Society, power: MantlePowerId) -> Society:
    """The society gains access to a mantle power."""
    return replace(society, mantle_powers=society.mantle_powers | {power})


def unlock_delving(society: Society) -> Society:
    """A game effect grants access to Delving (D4)."""
    return replace(society, delving_unlocked=True)


@dataclass(frozen=True)
class MantlePowerFacts:
    """A mantle power card; filled from Content by the operations layer."""

    id: MantlePowerId
    """The power's id."""
    mantle: MantleId
    """The mantle it slots into."""


def choose_mantle_power(
    society: Society, character: Character, power: MantlePowerFacts
) -> Character:
    """Slot an unlocked power matching the character's mantle (Rulebook: Mantle Power).

    One power per character: choosing again replaces the previous choice.
    """
    if power.id not in society.mantle_powers:
        raise IllegalAction(f"the society has not unlocked the mantle power {power.id}")
    if character.mantle != power.mantle:
        raise IllegalAction(
            f"{power.id} is a power of the mantle {power.mantle}; "
            f"{character.name} wears {character.mantle or 'no mantle'}"
        )
    return replace(character, mantle_power=power.id)
