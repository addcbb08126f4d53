"""What the Night reads and what it computed (Rulebook: Game Structure > Night Phase).

The facts of the content (:class:`NightFacts`), the table at nightfall
(:class:`NightTable`), the steps in the rulebook's order (:class:`NightStage`) and
everything the Night did (:class:`NightResult`, :class:`RestBreakdown`): frozen values,
saved in (or rebuilt for) a Night's state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.content.schema import effects as fx
from companion.content.schema.base import Omen
from companion.content.schema.cards import NightCard
from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import NightAction
from companion.rules.character import Character
from companion.rules.game import Game
from companion.rules.ids import (
    CharacterName,
    EventId,
    FeatureId,
    HexId,
    ItemId,
    LegendId,
    NightCardId,
)
from companion.rules.legends import Legend
from companion.rules.resources import BagToken
from companion.rules.society import ActivityEvent

STATE_VERSION = 1
"""Version of the saved state's layout (``to_state``)."""

TABLE_CARD = "table:"
"""A Night card drawn at the table that the content lacks, resolved there (issue 25
part 3): the answer of a draw is ``table:`` + JSON ``{"card": id, "effects": [{"who",
"effect"}]}`` (:func:`table_card`); the Night goes on as if that card had been drawn and
resolved, its recorded effects applied in its place."""


def table_card(card_id: str, effects: Sequence[Mapping[str, Any]]) -> str:
    """The answer to a Night card draw for a card resolved at the table: ``effects``
    are ``{"who": name or None, "effect": {...}}`` (None: the drawer)."""
    return TABLE_CARD + json.dumps({"card": card_id, "effects": list(effects)},
                                   sort_keys=True)


def is_table_card(choice: object) -> bool:
    """Whether ``choice`` answers a draw with a card resolved at the table."""
    return isinstance(choice, str) and choice.startswith(TABLE_CARD)


class NightStage(StrEnum):
    """The steps of the Night phase, in order (Rulebook: Night Phase)."""

    START = "start"
    REST = "rest"
    DEGRADE_FOOD = "degrade_food"
    TEND_FIRE = "tend_fire"
    NIGHT_ACTIONS = "night_actions"
    RECONCILE = "reconcile_inventory"
    NIGHT_CARDS = "night_cards"
    ACTIVITY = "increase_activity"
    END = "end"
    DONE = "done"


# --- the facts the Night reads --------------------------------------------------------


@dataclass(frozen=True)
class NightItem:
    """What the Night needs of an item card; filled from Content by the operations layer."""

    id: ItemId
    """The item card's id."""
    night_actions: tuple[NightAction, ...] = ()
    """The Night actions (Zz:) the item grants (``Item.night_actions``)."""
    storage: int = 0
    """Extra bag cells the card holds (``Item.storage``; Rulebook: Reconcile Inventory)."""


@dataclass(frozen=True)
class TimedEffect:
    """An effect "at the start (or end) of the Night phase" of a card in play."""

    source: str
    """Where it comes from, in game words ("the Smokehouse", "Goal: Long Night")."""
    text: str
    """Its text, shown to the table."""
    effects: tuple[fx.Effect, ...] = ()
    """Its mechanical steps, applied to ``character`` (society-wide steps to the society)."""
    character: CharacterName | None = None
    """The character it applies to; None: the society (character steps are shown only)."""
    stage: str = ""
    """For ``NightFacts.during``: the step it belongs to (a :class:`NightStage` value)."""
    structure: bool = False
    """A structure's effect: no benefit while unrest is 16+ (Rulebook: Unrest; D10)."""
    omen: Omen | None = None
    """It happens only while this omen is current ("if stars is a current omen")."""


@dataclass(frozen=True)
class NightFacts:
    """Content the Night reads; not saved in the state (pass it again to ``from_state``)."""

    rules: RulesConstants
    """The pack's rules constants."""
    cards: Mapping[str, NightCard]
    """Every Night card of the deck, by id."""
    items: Mapping[ItemId, NightItem] = field(default_factory=dict)
    """Items with Night actions or storage, by id (others may be left out)."""
    resources: Mapping[str, BagToken] = field(default_factory=dict)
    """Each resource id (material, food, water) as a token is gained, for ``gain`` effects."""
    events: tuple[ActivityEvent, ...] = ()
    """The challenge's activity events (D7)."""
    wood: str = "wood"
    """The material spent to keep a fire burning (Rulebook: Tend Fire)."""
    at_start: tuple[TimedEffect, ...] = ()
    """Effects "at the start of the Night phase" of cards in play."""
    at_end: tuple[TimedEffect, ...] = ()
    """Effects "at the end of the Night phase" of cards in play."""
    during: tuple[TimedEffect, ...] = ()
    """Effects of cards and structures in play that belong to another step of the Night
    (``TimedEffect.stage``: rest, degrade_food, tend_fire ...), resolved as it begins."""
    legends: Mapping[LegendId, Legend] = field(default_factory=dict)
    """The legend cards characters hold: one may lend its trait to a Night card's
    requirement (Rulebook: Legends > Using Legend Cards)."""
    event_effects: Mapping[EventId, TimedEffect] = field(default_factory=dict)
    """What each activity event says and does, resolved when it fires or (ongoing) triggers;
    an event left out is only reported (``NightResult.events_fired``)."""
    event_steps: Mapping[EventId, tuple[fx.Effect, ...]] = field(default_factory=dict)
    """The steps of each Immediate and Societal event, applied as soon as the Night's
    activity reaches it (Rulebook: Set Up; reading D7), before the unrest step."""
    event_texts: Mapping[EventId, str] = field(default_factory=dict)
    """What each activity event says, for the log."""
    deck_whole: bool = True
    """The app holds the Night deck whole (a pack declares it so, the sample does): it
    draws and reshuffles it. Else (the owner's box: only the cards typed so far) every
    Night card is drawn at the table and typed, and the app's pile is never shuffled."""


@dataclass(frozen=True)
class BehemothAtNight:
    """The behemoth in play, as the Night sees it (the valley's geometry is the caller's)."""

    hex: HexId
    """Where its miniature stands."""
    adjacent: frozenset[HexId] = frozenset()
    """The hexes adjacent to it."""
    habits_known: bool = False
    """Its habits were learned already."""
    secret_known: bool = False
    """Its secret was learned already."""
    habits_outcome: str = ""
    """The outcome read when its habits are learned (``Behemoth.habits``)."""


@dataclass(frozen=True)
class NightTable:
    """The table at nightfall; saved in the state, so a resumed Night replays from it."""

    game: Game
    """The game when the Day ends (all passed, or already in the Night phase)."""
    draw_pile: tuple[NightCardId, ...]
    """The Night deck, top card first (the persisted shuffled order)."""
    discard: tuple[NightCardId, ...] = ()
    """The Night discard pile, bottom to top (its top card gives the current omens)."""
    hex_features: Mapping[HexId, frozenset[FeatureId]] = field(default_factory=dict)
    """The features of each hex where a character stands (Night card requirements)."""
    shelter_hexes: frozenset[HexId] = frozenset()
    """Hexes with anything else that grants shelter, e.g. a structure (Rulebook: Rest)."""
    structure_shelter_hexes: frozenset[HexId] = frozenset()
    """Hexes whose outpost has a structure granting shelter: none while unrest is 16+."""
    behemoth: BehemothAtNight | None = None
    """The behemoth, if one is in play."""
    hardcore: bool = False
    """Hardcore solo (Rulebook: Solo Play > Hardcore Solo; D19)."""
    starting_omens: tuple[Omen, ...] = ()
    """The challenge's starting omen (the current omen while the discard is empty)."""


# --- what the Night computed ----------------------------------------------------------


@dataclass(frozen=True)
class RestBreakdown:
    """How a character's energy at Rest adds up (Rulebook: Night Phase > Rest; D9)."""

    character: CharacterName
    """Who rests."""
    before: int
    """Energy before resting."""
    energy_max: int
    """The track's maximum (the cap)."""
    automatic: int
    """Automatic energy (D9; hardcore solo's own number; unrest 11+ reduces it, never < 0)."""
    shelter: int
    """Energy from shelter or fire in the hex."""
    food: int = 0
    """Energy from the food in the appetite slot."""
    water: int = 0
    """Energy from the water in the thirst slot."""
    ate: str | None = None
    """The food token eaten ("fermented fish"), None if none."""
    drank: bool = False
    """Whether water was drunk."""

    @property
    def total(self) -> int:
        """Energy gained before the cap."""
        return self.automatic + self.shelter + self.food + self.water

    @property
    def after(self) -> int:
        """Energy after resting: capped at the track's maximum."""
        return min(self.energy_max, self.before + self.total)

    @property
    def lost_to_cap(self) -> int:
        """Energy gained beyond the track's maximum (lost)."""
        return self.before + self.total - self.after

    @property
    def energized(self) -> bool:
        """The energy track is full after resting: a minor boost."""
        return self.after == self.energy_max

    @property
    def needs_met(self) -> bool:
        """Food and water consumed: the character may degrade a health token."""
        return self.ate is not None and self.drank

    @property
    def starving(self) -> bool:
        """Neither food nor water consumed: a minor injury."""
        return self.ate is None and not self.drank

    def __str__(self) -> str:
        parts = [f"automatic {self.automatic}"]
        if self.shelter:
            parts.append(f"shelter/fire {self.shelter}")
        if self.ate is not None:
            parts.append(f"{self.ate} {self.food}")
        if self.drank:
            parts.append(f"water {self.water}")
        capped = f" (capped at {self.energy_max})" if self.lost_to_cap else ""
        return (
            f"{self.character} rests: {' + '.join(parts)} = +{self.total}; "
            f"energy {self.before} -> {self.after}{capped}"
        )


@dataclass(frozen=True)
class NightResult:
    """Everything the Night did, for the operations layer to write in one transaction."""

    game: Game
    """The game after the Night (a fresh Day once finished)."""
    perished: tuple[Character, ...]
    """Characters who perished (now legends); their players make new characters."""
    draw_pile: tuple[NightCardId, ...]
    """The Night deck, top first."""
    reshuffled: bool
    """The discard was shuffled into a new deck whose order is not fixed yet: the
    operations layer shuffles ``draw_pile`` with its :class:`Chance` before saving it."""
    discard: tuple[NightCardId, ...]
    """The Night discard pile, bottom to top."""
    current_omens: frozenset[Omen]
    """The omens at the bottom of the top discard card (else the starting omen)."""
    resolved_cards: tuple[NightCardId, ...]
    """Night cards resolved, in order."""
    activity_from_cards: int
    """Activity added by the resolved cards' amounts."""
    activity_from_unrest: int
    """Activity added by unrest (D10)."""
    events_fired: tuple[EventId, ...]
    """Single activity events that fired at the end of the Night (D7)."""
    ongoing_event: EventId | None
    """The ongoing event whose range holds the activity, if any."""
    behemoth_activates: bool
    """The behemoth is in play and activates now (its movement is another module's)."""
    learned: tuple[str, ...]
    """"habits" and/or "secret", learned this Night (D18)."""
    rest: tuple[RestBreakdown, ...]
    """Each character's Rest."""
    read: tuple[str, ...]
    """Codex outcomes to read, in order."""
    items_gained: tuple[tuple[CharacterName, ItemId], ...]
    """Item cards gained by effects (the operations layer equips them, D11)."""
    unlocked: tuple[str, ...]
    """Campaign flags set by effects (other than delving, which the society records)."""
    log: tuple[str, ...]
    """What happened, in game words."""
    legends_used: tuple[LegendId, ...] = ()
    """Legend cards used during the Night; they return to the unassigned legends."""
    fired_at_once: tuple[EventId, ...] = ()
    """Immediate and Societal events fired (and resolved) during the Night as soon as the
    activity reached them (D7)."""


# --- the procedure ----------------------------------------------------------------------
