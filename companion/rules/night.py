"""The Night phase as one resumable procedure (Rulebook: Game Structure > Night Phase).

:class:`NightProcedure` walks the Night in the rulebook's order and never lets a step be
skipped or reordered:

1. Night Phase Begins: effects "at the start of the Night phase"; each incapacitated
   character perishes (Rulebook: Mantle > Incapacitation; Character Death). Hardcore solo
   (reading D19): a Night card is burnt, activity +1 + its amount.
2. Rest: automatic energy (D9), the food in the appetite slot, the water in the thirst
   slot, shelter or fire in the hex, capped at the track's maximum; Energized, Needs Met,
   Starving.
3. Degrade Food, in bags and storage containers.
4. Tend Fire: each fire goes out unless a character in the hex spends one wood.
5. Night Actions granted by items, each once per character, in any order.
6. Reconcile Inventory: discard what does not fit in the bag (plus item storage).
7. Draw Night Cards: one per hex with characters; unmet requirements discard the card and
   another is drawn; an empty deck reshuffles the discard; Solo / Champion / Group.
8. Increase Activity: each resolved card's amount, then unrest (D10).
9. Night Phase Ends: effects "at the end of the Night phase", activity events (D7), the
   offers to learn the behemoth's habits and secret (D18), the behemoth's activation.

Every player decision is a PLAYER step; every die a DICE step; every card a CARD step
whose option is the top of the persisted Night deck (the table may type any card id
still in the deck). Steps the rules decide alone happen between those steps and are
written to the log.

**How it is built.** The Night is one generator (``_night``) that yields the steps and
receives the choices. A :class:`NightProcedure` is the facts, the table at nightfall and
the choices made so far; its state is recomputed by replaying the choices, so a saved
Night (``to_state``: the table and the choices, JSON-safe) resumes at the same step with
the same partial results, by construction.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from companion.content.schema import effects as fx
from companion.content.schema.base import Ability, Omen
from companion.content.schema.cards import NightCard, NightType
from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import NightAction
from companion.rules.activity_events import settle
from companion.rules.character import Character
from companion.rules.checks import ability_test, stakes_prompt
from companion.rules.effects import effects_text
from companion.rules.errors import IllegalAction
from companion.rules.game import Day, Game, Phase
from companion.rules.health import add_boost, degrade, energize, gain_energy, perish, suffer
from companion.rules.ids import (
    CharacterName,
    EventId,
    FeatureId,
    HexId,
    ItemId,
    LegendId,
    Mark,
    NightCardId,
    Trait,
)
from companion.rules.inventory import bag_cells, degrade_food, gain_tokens, take_tokens
from companion.rules.legends import Legend, has_trait
from companion.rules.night_codec import decode, encode
from companion.rules.omens import current_omens
from companion.rules.procedure import (
    Choice,
    Decider,
    Outcome,
    Procedure,
    Step,
    check_dice,
    check_option,
)
from companion.rules.resources import BagToken, Side, TokenKind
from companion.rules.society import (
    ActivityEvent,
    due_events,
    fire_events,
    gain_lore,
    increase_activity,
    increase_unrest,
    ongoing_event,
    spend_lore,
    unlock_delving,
    unrest_effects,
)
from companion.rules.valley import place_fire, place_lore, place_shelter

STATE_VERSION = 1

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
"""Version of the saved state's layout (``to_state``)."""


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


@dataclass(frozen=True)
class _Ask:
    """A step as the generator yields it, with what ``apply`` accepts beyond its options."""

    step: Step
    stage: NightStage
    cards: frozenset[str] = frozenset()
    """CARD steps: every card id still in the deck (the table may have drawn any)."""
    refusals: Mapping[str, str] = field(default_factory=dict)
    """Inputs refused with a reason (learning the secret without enough lore)."""


_Night = Generator[_Ask, Choice, None]


class NightProcedure:
    """The Night phase of one round, step by step (the :class:`Procedure` protocol).

    Start it with :meth:`start`; save it with :meth:`to_state` and reopen it with
    :meth:`from_state`. A procedure is immutable: :meth:`apply` returns a new one.
    """

    kind: str = "night"

    def __init__(
        self, facts: NightFacts, table: NightTable, choices: Sequence[Choice] = ()
    ) -> None:
        self.facts = facts
        self.table = table
        self.choices: tuple[Choice, ...] = tuple(choices)
        self._run, self._ask = _replay(facts, table, self.choices)
        self._table_state: Any = None  # encode(table), computed once and handed on

    @classmethod
    def start(cls, facts: NightFacts, table: NightTable) -> NightProcedure:
        """Begin the Night; refused while a character has not passed the Day."""
        return cls(facts, table)

    # --- the protocol ---------------------------------------------------------------

    def step(self) -> Step:
        """What is asked now."""
        if self._ask is None:
            raise IllegalAction("the Night is over")
        return self._ask.step

    def apply(self, choice: Choice) -> NightProcedure:
        """The Night after ``choice``; IllegalAction if it is not legal now."""
        if self._ask is None:
            raise IllegalAction("the Night is over")
        _check(self._ask, choice)
        night = NightProcedure(self.facts, self.table, (*self.choices, _normal(choice)))
        night._table_state = self._table_state
        return night

    def is_finished(self) -> bool:
        """Whether the Night phase has ended."""
        return self._ask is None

    def outcome(self) -> Outcome:
        """What the Night did (complete once finished); the facts are in ``extra``."""
        result = self.result()
        start_lore = self.table.game.society.lore
        return Outcome(
            lore=result.game.society.lore - start_lore,
            log=result.log,
            extra={f.name: getattr(result, f.name) for f in fields(result)},
        )

    def describe(self) -> str:
        """The Night so far, in game words."""
        lines = [f"Night - {self.stage.value.replace('_', ' ')}"]
        lines.extend(self._run.log)
        if self._ask is not None:
            lines.append(f"> {self._ask.step.prompt}")
        return "\n".join(lines)

    def to_state(self) -> dict[str, Any]:
        """JSON-safe: the table at nightfall, the choices so far, and where they lead."""
        return {
            "kind": self.kind,
            "version": STATE_VERSION,
            "table": self._encoded_table(),
            "choices": [c if isinstance(c, str) else list(c) for c in self.choices],
            "stage": self.stage.value,
            "steps": len(self.choices),
        }

    def _encoded_table(self) -> Any:
        # Encoded once per Night (as JSON text, so no caller can alias the cached value).
        if self._table_state is None:
            self._table_state = json.dumps(encode(self.table))
        return json.loads(self._table_state)

    @classmethod
    def from_state(cls, state: Mapping[str, Any], facts: NightFacts) -> NightProcedure:
        """Rebuild a saved Night; refused if it no longer replays with these facts."""
        if state.get("kind") != cls.kind or state.get("version") != STATE_VERSION:
            raise IllegalAction("this saved procedure is not a Night this version can resume")
        try:
            table = decode(NightTable, state["table"])
            choices = [
                c if isinstance(c, str) else tuple(int(v) for v in c) for c in state["choices"]
            ]
        except (KeyError, TypeError, ValueError) as exc:
            raise IllegalAction(f"the saved Night is damaged: {exc}") from exc
        night = cls(facts, table, choices)
        if night.stage.value != state.get("stage", night.stage.value):
            raise IllegalAction("the saved Night does not replay with this content pack")
        return night

    # --- what the GUI and the operations layer read ---------------------------------

    @property
    def stage(self) -> NightStage:
        """The step of the Night the procedure is at."""
        return NightStage.DONE if self._ask is None else self._ask.stage

    @property
    def game(self) -> Game:
        """The game as it stands now (phase Night until the end)."""
        return self._run.game

    def final_game(self) -> Game:
        """The game after the Night: a fresh Day begins. Refused before the end."""
        if self._ask is not None:
            raise IllegalAction("the Night is not over yet")
        return self._run.game

    @property
    def rest(self) -> tuple[RestBreakdown, ...]:
        """The Rest of each character so far (the last one maybe still choosing)."""
        run = self._run
        return (*run.rest, run.pending) if run.pending is not None else tuple(run.rest)

    @property
    def draw_pile(self) -> tuple[NightCardId, ...]:
        """The cards still in the Night deck (what the table may type at a CARD step)."""
        return tuple(self._run.pile) + tuple(sorted(self._run.unordered))

    def result(self) -> NightResult:
        """What the Night did so far."""
        return self._run.result()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NightProcedure):
            return NotImplemented
        return (self.facts, self.table, self.choices) == (other.facts, other.table, other.choices)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"NightProcedure(stage={self.stage.value}, steps={len(self.choices)})"


def _normal(choice: Choice) -> Choice:
    return choice if isinstance(choice, str) else tuple(choice)


def _check(ask: _Ask, choice: Choice) -> None:
    step = ask.step
    if step.decider is Decider.DICE:
        check_dice(step, choice)
    elif step.decider is Decider.CARD:
        if is_table_card(choice):
            return
        if not isinstance(choice, str) or choice not in ask.cards:
            left = ", ".join(sorted(ask.cards)) or "none"
            raise IllegalAction(f"{choice!r} is not in the Night deck (cards left: {left})")
    else:
        if isinstance(choice, str) and choice in ask.refusals:
            raise IllegalAction(ask.refusals[choice])
        check_option(step, choice)


def _replay(
    facts: NightFacts, table: NightTable, choices: Sequence[Choice]
) -> tuple[_Run, _Ask | None]:
    run = _Run(facts, table)
    night = _night(run)
    ask: _Ask | None = next(night, None)
    for number, choice in enumerate(choices, 1):
        if ask is None:
            raise IllegalAction(f"choice {number} comes after the end of the Night")
        _check(ask, choice)
        try:
            ask = night.send(choice)
        except StopIteration:
            ask = None
    return run, ask


# --- the Night's working state (one replay) -------------------------------------------


class _Run:
    """The mutable state of one replay of the Night (never shared)."""

    def __init__(self, facts: NightFacts, table: NightTable) -> None:
        self.facts = facts
        self.rules = facts.rules
        self.table = table
        _check_table(facts, table)
        self.game = replace(table.game, day=Day(phase=Phase.NIGHT))
        self.count = len(table.game.characters)
        self.pile: list[NightCardId] = list(table.draw_pile)
        self.unordered: list[NightCardId] = []
        self.discard: list[NightCardId] = list(table.discard)
        self.log: list[str] = []
        self.perished: list[Character] = []
        self.rest: list[RestBreakdown] = []
        self.pending: RestBreakdown | None = None
        self.resolved: list[NightCardId] = []
        self.card_activity = 0
        self.unrest_activity = 0
        self.events_fired: tuple[EventId, ...] = ()
        self.fired_at_once: list[EventId] = []
        self.ongoing: EventId | None = None
        self.behemoth_activates = False
        self.learned: list[str] = []
        self.read: list[str] = []
        self.items_gained: list[tuple[CharacterName, ItemId]] = []
        self.unlocked: list[str] = []
        self.legends_used: list[LegendId] = []

    def say(self, text: str) -> None:
        self.log.append(text)

    def has(self, name: str) -> bool:
        return any(c.name == name for c in self.game.characters)

    def update(self, character: Character) -> None:
        self.game = self.game.with_characters(character)

    def result(self) -> NightResult:
        omens = [self.facts.cards[c].omens for c in self.discard]
        return NightResult(
            game=self.game,
            perished=tuple(self.perished),
            draw_pile=tuple(self.pile) + tuple(sorted(self.unordered)),
            reshuffled=bool(self.unordered),
            discard=tuple(self.discard),
            current_omens=current_omens(omens, self.table.starting_omens),
            resolved_cards=tuple(self.resolved),
            activity_from_cards=self.card_activity,
            activity_from_unrest=self.unrest_activity,
            events_fired=self.events_fired,
            fired_at_once=tuple(self.fired_at_once),
            ongoing_event=self.ongoing,
            behemoth_activates=self.behemoth_activates,
            learned=tuple(self.learned),
            rest=tuple(self.rest),
            read=tuple(self.read),
            items_gained=tuple(self.items_gained),
            unlocked=tuple(self.unlocked),
            legends_used=tuple(self.legends_used),
            log=tuple(self.log),
        )


def _check_table(facts: NightFacts, table: NightTable) -> None:
    game = table.game
    if game.day.phase is Phase.DAY:
        waiting = [c.name for c in game.characters if c.name not in game.day.passed]
        if waiting:
            raise IllegalAction(f"the Night begins once {', '.join(waiting)} "
                                f"{'passes' if len(waiting) == 1 else 'pass'}")
    deck = (*table.draw_pile, *table.discard)
    unknown = sorted({c for c in deck if c not in facts.cards})
    if unknown:
        raise IllegalAction(f"the pack has no Night card {', '.join(unknown)}")
    if len(set(deck)) != len(deck):
        raise IllegalAction("a Night card is both in the deck and the discard, or twice")
    count = len(game.characters)
    if game.characters and not table.hardcore and count not in facts.rules.rest.automatic_energy:
        raise IllegalAction(f"the rules give no automatic rest energy for {count} characters")


def _choose(
    run: _Run, stage: NightStage, prompt: str, options: Mapping[str, str], **extra: Any
) -> Generator[_Ask, Choice, str]:
    """A PLAYER step: one of ``options`` (key -> label); returns the key chosen."""
    del run
    step = Step(prompt, Decider.PLAYER, tuple(options), labels=dict(options))
    choice = yield _Ask(step, stage, **extra)
    assert isinstance(choice, str)
    return choice


# --- the Night, in order ----------------------------------------------------------------


def _night(run: _Run) -> _Night:
    yield from _begin(run)
    yield from _during(run, NightStage.REST)
    yield from _rest(run)
    yield from _during(run, NightStage.DEGRADE_FOOD)
    _degrade_food(run)
    yield from _during(run, NightStage.TEND_FIRE)
    yield from _tend_fire(run)
    yield from _during(run, NightStage.NIGHT_ACTIONS)
    yield from _night_actions(run)
    yield from _during(run, NightStage.RECONCILE)
    yield from _reconcile(run)
    yield from _during(run, NightStage.NIGHT_CARDS)
    yield from _night_cards(run)
    yield from _during(run, NightStage.ACTIVITY)
    _increase_activity(run)
    yield from _end(run)
    run.game = replace(run.game, day=Day())
    run.say("A new Day begins.")


def _begin(run: _Run) -> _Night:
    """Night Phase Begins (Rulebook: Night Phase; Mantle > Incapacitation; D19)."""
    run.say("Night falls.")
    for timed in run.facts.at_start:
        yield from _timed(run, timed, NightStage.START)
    for character in [c for c in run.game.characters if c.incapacitated]:
        if run.table.hardcore:
            # Solo Play > Hardcore Solo > Character Health (D19): the card is burnt unresolved
            prompt = f"{character.name} perishes: burn the top card of the Night deck"
            card = yield from _draw(run, NightStage.START, prompt)
            legend = perish(character)
            amount = run.facts.cards[card].activity if card is not None else 0
            gained = run.rules.hardcore_solo.perish_activity_extra + amount
            run.game = replace(
                run.game,
                characters=tuple(c for c in run.game.characters if c.name != character.name),
                society=increase_activity(run.game.society, gained),
            )
            burnt = ""
            if card is not None:
                run.discard.append(card)
                burnt = f"; {run.facts.cards[card].name} is burnt unresolved"
            run.say(f"{character.name} perishes and becomes a legend{burnt}; activity +{gained}.")
            _fire_at_once(run)
        else:
            legend = perish(character)
            run.game = replace(
                run.game,
                characters=tuple(c for c in run.game.characters if c.name != character.name),
            )
            run.say(f"{character.name} is incapacitated, perishes and becomes a legend.")
        run.perished.append(legend)


def _rest(run: _Run) -> _Night:
    """Rest (Rulebook: Night Phase > Rest; readings D9, D10)."""
    rules = run.rules
    if run.table.hardcore:
        base = rules.hardcore_solo.rest_automatic_energy
    else:
        base = rules.rest.automatic_energy.get(run.count, 0)
    reduced = unrest_effects(rules, run.game.society.unrest).rest_automatic_energy_delta
    automatic = max(0, base + reduced)
    tokens = run.game.tokens
    sheltered = tokens.shelters | tokens.fires | run.table.shelter_hexes
    if run.table.structure_shelter_hexes:
        if _structures_off(run):
            run.say("Unrest 16+: no structure grants shelter tonight.")
        else:
            sheltered = sheltered | run.table.structure_shelter_hexes
    for name in [c.name for c in run.game.characters]:
        character = run.game.character(name)
        shelter = rules.rest.shelter_energy if character.hex in sheltered else 0
        rest = RestBreakdown(name, character.energy, character.energy_max, automatic, shelter)
        run.pending = rest
        # Rulebook: Rest > Food consumed
        foods = _distinct(character.bag, lambda t: t.edible)
        if foods:
            options = {f"eat:{i}": f"eat the {character.bag[i]}" for i in foods}
            choice = yield from _choose(
                run,
                NightStage.REST,
                f"{name} rests (automatic {automatic}, shelter/fire {shelter}): put a food "
                f"token in the appetite slot (+{rules.rest.food_energy}) or none",
                {**options, "none": "no food"},
            )
            if choice != "none":
                character, eaten = take_tokens(character, [_index(choice)])
                rest = replace(rest, ate=str(eaten[0]), food=rules.rest.food_energy)
                run.pending = rest
        # Rulebook: Rest > Water consumed
        water = [i for i, t in enumerate(character.bag) if t.kind is TokenKind.WATER]
        if water:
            choice = yield from _choose(
                run,
                NightStage.REST,
                f"{name}: put a water token in the thirst slot (+{rules.rest.water_energy}) "
                "or none",
                {"drink": "drink a water token", "none": "no water"},
            )
            if choice == "drink":
                character, _ = take_tokens(character, [water[0]])
                rest = replace(rest, drank=True, water=rules.rest.water_energy)
        run.pending = None
        run.rest.append(rest)
        character = gain_energy(character, rest.total)
        run.update(character)
        run.say(str(rest))
        if rest.energized and rules.rest.energized_boost > 0:
            choice = yield from _choose(
                run,
                NightStage.REST,
                f"{name} is energized: choose an ability for a minor boost",
                {a.value: a.value.capitalize() for a in Ability},
            )
            character = energize(character, Ability(choice), rules.rest.energized_boost)
            run.update(character)
            run.say(f"{name} is energized: a boost of {rules.rest.energized_boost} on {choice}.")
        if rest.needs_met:
            for _ in range(rules.rest.needs_met_degrades):
                if not character.health:
                    break
                marks = _distinct(character.health, lambda t: True)
                options = {
                    f"degrade:{i}": f"degrade a {_words(character.health[i])}" for i in marks
                }
                choice = yield from _choose(
                    run,
                    NightStage.REST,
                    f"{name}'s needs are met: degrade one injury or disease token, or none",
                    {**options, "none": "degrade nothing"},
                )
                if choice == "none":
                    break
                token = character.health[_index(choice)]
                character = degrade(character, _index(choice))
                run.update(character)
                run.say(f"{name}'s needs are met: a {token.value.replace('_', ' ')} is degraded.")
        if rest.starving:
            token = rules.rest.starving_token
            character = suffer(character, token)
            run.update(character)
            run.say(f"{name} is starving and suffers a {token.value.replace('_', ' ')}.")


def _degrade_food(run: _Run) -> None:
    """Degrade Food, in bags and storage containers (Rulebook: Night Phase > Degrade Food)."""
    spoiled = 0
    for character in run.game.characters:
        bag = degrade_food(character.bag)
        spoiled += _perishables(character.bag)
        run.update(replace(character, bag=bag))
    containers = []
    for container in run.game.containers:
        spoiled += _perishables(container.tokens)
        containers.append(replace(container, tokens=degrade_food(container.tokens)))
    run.game = replace(run.game, containers=tuple(containers))
    if spoiled:
        run.say(f"Food degrades: {spoiled} perishable food token(s) ferment or are discarded.")


def _perishables(tokens: Sequence[BagToken]) -> int:
    return sum(1 for t in tokens if t.kind is TokenKind.PERISHABLE_FOOD)


def _tend_fire(run: _Run) -> _Night:
    """Tend Fire (Rulebook: Night Phase > Tend Fire; Fire/Shelter Tokens)."""
    wood = run.facts.wood
    for hex in sorted(run.game.tokens.fires):
        holders = {
            f"wood:{c.name}": f"{c.name} spends one {wood}"
            for c in run.game.characters
            if c.hex == hex and any(_is(t, wood) for t in c.bag)
        }
        keep: str | None = None
        if holders:
            choice = yield from _choose(
                run,
                NightStage.TEND_FIRE,
                f"Tend Fire in hex {hex}: spend one {wood} to keep the fire, or let it go out",
                {**holders, "out": "let the fire go out"},
            )
            keep = None if choice == "out" else choice.removeprefix("wood:")
        if keep is not None:
            character = run.game.character(keep)
            woods = [i for i, t in enumerate(character.bag) if _is(t, wood)]
            unprocessed = [i for i in woods if character.bag[i].side is Side.UNPROCESSED]
            character, _ = take_tokens(character, [(unprocessed or woods)[0]])
            run.update(character)
            run.say(f"{keep} spends one {wood}: the fire in hex {hex} keeps burning.")
        else:
            fires = run.game.tokens.fires - {hex}
            run.game = replace(run.game, tokens=replace(run.game.tokens, fires=fires))
            run.say(f"The fire in hex {hex} goes out.")


def _is(token: BagToken, material: str) -> bool:
    return token.kind is TokenKind.MATERIAL and token.name == material


def _night_actions(run: _Run) -> _Night:
    """Night Actions: each once per character, in any order (Rulebook: Night Actions)."""
    taken: set[tuple[str, ItemId, int]] = set()
    while True:
        offers: dict[str, tuple[str, ItemId, int, NightAction]] = {}
        # Mantle > Incapacitation: an incapacitated character takes no actions
        for character in [c for c in run.game.characters if not c.incapacitated]:
            for item, _ in character.items:
                facts = run.facts.items.get(item)
                for number, action in enumerate(facts.night_actions if facts else ()):
                    if (character.name, item, number) not in taken and _affordable(run, action):
                        key = f"{character.name}: {item} {number + 1}"
                        offers[key] = (character.name, item, number, action)
        if not offers:
            return
        labels = {
            k: f"{name}: {action.text} ({item})" for k, (name, item, _, action) in offers.items()
        }
        choice = yield from _choose(
            run,
            NightStage.NIGHT_ACTIONS,
            "Night actions: choose one to take, or done",
            {**labels, "done": "no more Night actions"},
        )
        if choice == "done":
            return
        name, item, number, action = offers[choice]
        taken.add((name, item, number))
        run.say(f"{name} takes a Night action ({item}): {action.text}")
        yield from _effects(run, name, action.effects, item, NightStage.NIGHT_ACTIONS)


def _affordable(run: _Run, action: NightAction) -> bool:
    """An action whose lore cost the society cannot pay can't be activated (Spending Lore)."""
    cost = sum(-e.amount for e in action.effects if isinstance(e, fx.Lore) and e.amount < 0)
    return run.game.society.lore - cost >= run.rules.lore.minimum


def _reconcile(run: _Run) -> _Night:
    """Reconcile Inventory (Rulebook: Night Phase > Reconcile Inventory)."""
    rules = run.rules
    for name in [c.name for c in run.game.characters]:
        character = run.game.character(name)
        capacity = rules.bag.capacity + sum(
            run.facts.items[i].storage for i, _ in character.items if i in run.facts.items
        )
        while (cells := bag_cells(rules, character.bag)) > capacity:
            tokens = _distinct(character.bag, lambda t: True)
            choice = yield from _choose(
                run,
                NightStage.RECONCILE,
                f"{name}'s bag holds {capacity} cells; the tokens cover {cells}: discard one",
                {f"discard:{i}": f"discard the {character.bag[i]}" for i in tokens},
            )
            character, gone = take_tokens(character, [_index(choice)])
            run.update(character)
            run.say(f"{name} discards the {gone[0]} (the bag holds {capacity} cells).")


def _night_cards(run: _Run) -> _Night:
    """Draw Night Cards: one per hex with characters (Rulebook: Draw Night Cards).

    Hexes come in a stable order: that of their first character in seating order.
    """
    hexes = list(dict.fromkeys(c.hex for c in run.game.characters if c.hex is not None))
    for hex in hexes:
        here = [c.name for c in run.game.characters if c.hex == hex]
        drawer: str = here[0]
        if len(here) > 1:
            drawer = yield from _choose(
                run,
                NightStage.NIGHT_CARDS,
                f"Hex {hex}: choose the character who draws the Night card",
                {n: n for n in here},
            )
        misses = 0
        limit = len(run.pile) + len(run.unordered) + len(run.discard)
        while True:
            card_id = yield from _draw(
                run, NightStage.NIGHT_CARDS, f"{drawer} draws the top card of the Night deck"
            )
            if card_id is None:
                run.say(f"No Night card can be drawn for hex {hex}.")
                break
            if is_table_card(card_id):
                yield from _table_card(run, card_id, drawer)
                break
            card = run.facts.cards[card_id]
            unmet = _unmet(run, card, drawer, hex)
            if unmet is not None and card.requires.trait is not None:
                lent = yield from _lend_trait(run, card, drawer, hex)
                if lent:
                    unmet = None
            if unmet is None:
                yield from _resolve_card(run, card, drawer, here)
                run.discard.append(card_id)
                run.resolved.append(card_id)
                run.card_activity += card.activity
                break
            run.discard.append(card_id)
            run.say(f"{drawer} draws {card.name}: {unmet}; it is discarded and another drawn.")
            misses += 1
            if misses > limit:
                run.say(f"No Night card in the deck can be resolved in hex {hex}.")
                break


def _draw(run: _Run, stage: NightStage, prompt: str) -> Generator[_Ask, Choice, NightCardId | None]:
    """Draw a Night card: the top of the deck; an empty deck reshuffles the discard."""
    if not run.pile and not run.unordered:
        if not run.discard:
            # No card left to draw here (my own box, before any Night card was typed):
            # the table draws from the box and types the card in; the step waits for it
            # (the same step whatever the pack knows, so a saved Night replays after the
            # card is entered).
            choice = yield _Ask(Step(f"{prompt}: draw it from the box and type it",
                                     Decider.CARD, ()), stage, cards=frozenset())
            return NightCardId(str(choice))
        run.unordered, run.discard = list(run.discard), []
        run.say("The Night deck is empty: the discard pile is shuffled into a new Night deck.")
    if run.pile:
        # The app draws the top card; the prompt does not name it before it is drawn.
        options: tuple[str, ...] = (run.pile[0],)
    else:
        options = tuple(sorted(run.unordered))
        prompt = f"{prompt} (from the freshly shuffled deck)"
    labels = {c: f"{c} {run.facts.cards[c].name}" for c in options}
    choice = yield _Ask(
        Step(prompt, Decider.CARD, options, labels=labels),
        stage,
        cards=frozenset((*run.pile, *run.unordered)),
    )
    card = NightCardId(str(choice))
    if is_table_card(card):  # the table's own card: the app's deck is as it was
        return card
    if card in run.pile:
        run.pile.remove(card)
    else:
        run.unordered.remove(card)
    return card


def _table_card(run: _Run, choice: str, drawer: str) -> _Night:
    """A Night card resolved at the table: what the group recorded, applied where the
    card's effects would have been (issue 25 part 3). It joins no pile of the app's."""
    from pydantic import TypeAdapter, ValidationError

    try:
        data = json.loads(choice[len(TABLE_CARD):])
        card = str(data.get("card") or "a card")
        steps = [(e.get("who") or drawer, TypeAdapter(fx.Effect).validate_python(e["effect"]))
                 for e in data.get("effects", [])]
    except (ValueError, TypeError, KeyError, AttributeError, ValidationError) as exc:
        raise IllegalAction(f"the card resolved at the table does not read: {exc}") from exc
    run.say(f"{drawer} draws {card}: resolved at the table.")
    for who, effect in steps:
        yield from _effect(run, who, effect, card, NightStage.NIGHT_CARDS)


def _lend_trait(
    run: _Run, card: NightCard, drawer: str, hex: HexId
) -> Generator[_Ask, Choice, bool]:
    """The drawer may use a held legend card to count as having the card's trait; it then
    returns to the unassigned legends (Rulebook: Legends > Using Legend Cards)."""
    trait = Trait(str(card.requires.trait))
    character = run.game.character(drawer)
    stripped = card.model_copy(update={"requires": card.requires.model_copy(
        update={"trait": None})})
    if has_trait(character, trait) or _unmet(run, stripped, drawer, hex) is not None:
        return False  # the trait is not what is missing: no legend can help
    lenders = [run.facts.legends[i] for i in character.legends
               if i in run.facts.legends and trait in run.facts.legends[i].traits]
    if not lenders:
        return False
    options = {f"legend:{c.id}": f"use the legend of {c.name} to count as {trait}"
               for c in lenders}
    choice = yield from _choose(
        run, NightStage.NIGHT_CARDS,
        f"{card.name} needs the trait {trait}: {drawer} may use a legend card",
        {**options, "no": "do not use a legend card (the card is discarded)"})
    if choice == "no":
        return False
    legend = LegendId(str(choice).split(":", 1)[1])
    held = list(character.legends)
    held.remove(legend)
    run.update(replace(character, legends=tuple(held)))
    run.legends_used.append(legend)
    run.say(f"{drawer} uses the legend of {run.facts.legends[legend].name} to count as "
            f"{trait}; the card returns to the unassigned legends.")
    return True


def _unmet(run: _Run, card: NightCard, drawer: str, hex: HexId) -> str | None:
    """Why the card cannot be resolved by ``drawer`` in ``hex``, None if it can."""
    needs = card.requires
    features = run.table.hex_features.get(hex, frozenset())
    if needs.features and not any(FeatureId(f) in features for f in needs.features):
        return f"it needs {' or '.join(needs.features)} in the hex"
    if needs.trait is not None and not has_trait(run.game.character(drawer), Trait(needs.trait)):
        return f"{drawer} does not have the trait {needs.trait}"
    society = run.game.society
    if needs.min_unrest is not None and society.unrest < needs.min_unrest:
        return f"it needs unrest {needs.min_unrest}+ (unrest is {society.unrest})"
    if needs.min_activity is not None and society.activity < needs.min_activity:
        return f"it needs activity {needs.min_activity}+ (activity is {society.activity})"
    return None


def _resolve_card(run: _Run, card: NightCard, drawer: str, here: Sequence[str]) -> _Night:
    """Resolve a Night card: Solo, Champion or Group (Rulebook: Night Phase)."""
    run.say(f"{drawer} draws {card.name} ({card.type.value}): {card.text}")
    stage = NightStage.NIGHT_CARDS
    if card.type is NightType.SOLO:
        resolvers = [drawer]
    elif card.type is NightType.CHAMPION:
        champion = drawer
        if len(here) > 1:
            chosen = yield from _choose(
                run,
                stage,
                f"{card.name} (Champion): {drawer} chooses who resolves it",
                {n: n for n in here},
            )
            champion = str(chosen)
        resolvers = [champion]
    else:
        resolvers = list(here)
    for name in resolvers:
        if len(resolvers) > 1 or name != drawer:
            run.say(f"{name} resolves {card.name}.")
        yield from _effects(run, name, card.effects, card.name, stage)


def _increase_activity(run: _Run) -> None:
    """Increase Activity: the resolved cards' amounts; an Immediate or Societal event the
    dial reaches fires at once (Rulebook: Set Up, "it occurs as soon as the number is
    reached"; D7); "then, increase the activity based on the current level of unrest"
    (Rulebook: Night Phase > Increase Activity; D10), the unrest the event left."""
    run.game = replace(run.game, society=increase_activity(run.game.society,
                                                           run.card_activity))
    fired, lines, after_cards = len(run.fired_at_once), len(run.log), run.game.society.activity
    _fire_at_once(run)
    extra = unrest_effects(run.rules, run.game.society.unrest).activity_per_night
    run.game = replace(run.game, society=increase_activity(run.game.society, extra))
    run.unrest_activity = extra
    if len(run.fired_at_once) == fired:
        run.say(f"Activity +{run.card_activity} from Night cards, +{extra} from unrest: "
                f"now {run.game.society.activity}.")
    else:  # the event's line between the two increases, in the order they happened
        run.log.insert(lines, f"Activity +{run.card_activity} from Night cards: now "
                              f"{after_cards}.")
        run.say(f"Activity +{extra} from unrest {run.game.society.unrest}: "
                f"now {run.game.society.activity}.")
    _fire_at_once(run)


def _fire_at_once(run: _Run) -> None:
    """Fire the Immediate and Societal events the activity now reaches, with their steps
    (reading D7: "as soon as the number is reached"), each once; a chain fires in order."""
    settled = settle(run.rules, run.game, run.game, run.facts.events, run.facts.event_steps,
                     run.facts.resources, run.facts.event_texts)
    run.game = settled.game
    run.fired_at_once.extend(settled.fired)
    for note in settled.notes:
        run.say(note + ".")


def _end(run: _Run) -> _Night:
    """Night Phase Ends: effects, activity events (D7), the behemoth (D18)."""
    for timed in run.facts.at_end:
        yield from _timed(run, timed, NightStage.END)
    society = run.game.society
    due = due_events(society, run.facts.events, end_of_night=True)
    run.game = replace(run.game, society=fire_events(society, due))
    run.events_fired = tuple(e.id for e in due)
    for event in due:
        run.say(f"Activity {society.activity} reaches the {event.kind.value} event at "
                f"{event.threshold}.")
        if event.id in run.facts.event_effects:
            yield from _timed(run, run.facts.event_effects[event.id], NightStage.END)
    ongoing = ongoing_event(run.game.society, run.facts.events)
    run.ongoing = ongoing.id if ongoing is not None else None
    if ongoing is not None:
        run.say(f"The ongoing event from activity {ongoing.threshold} triggers.")
        if ongoing.id in run.facts.event_effects:
            yield from _timed(run, run.facts.event_effects[ongoing.id], NightStage.END)
    behemoth = run.table.behemoth
    if behemoth is None:
        return
    yield from _learn(run, behemoth)
    run.behemoth_activates = True
    run.say("The behemoth activates.")


def _learn(run: _Run, behemoth: BehemothAtNight) -> _Night:
    """Habits and Learning the Secret (Rulebook: Behemoths; D18)."""
    rules = run.rules.behemoths
    near = {behemoth.hex} | (behemoth.adjacent if rules.learn_range >= 1 else frozenset())
    if not any(c.hex in near for c in run.game.characters):
        return
    costs = {"habits": rules.habits_lore, "secret": rules.secret_lore}
    known = {"habits": behemoth.habits_known, "secret": behemoth.secret_known}
    names = {"habits": "its habits", "secret": "its secret"}
    while True:
        lore = run.game.society.lore
        left = [k for k in costs if not known[k] and k not in run.learned]
        affordable = {
            k: f"spend {costs[k]} lore to learn {names[k]}"
            for k in left
            if lore - costs[k] >= run.rules.lore.minimum
        }
        if not affordable:
            for k in left:
                run.say(f"The society has {lore} lore; learning {names[k]} costs {costs[k]}.")
            return
        refusals = {
            k: f"the society has {lore} lore; learning the behemoth's {k} costs {costs[k]}"
            for k in left
            if k not in affordable
        }
        choice = yield from _choose(
            run,
            NightStage.END,
            f"The behemoth is near (lore {lore}): learn its habits or secret, or done",
            {**affordable, "done": "learn nothing more"},
            refusals=refusals,
        )
        if choice == "done":
            return
        key = str(choice)
        run.game = replace(run.game, society=spend_lore(run.rules, run.game.society, costs[key]))
        run.learned.append(key)
        if key == "habits" and behemoth.habits_outcome:
            run.read.append(behemoth.habits_outcome)
            run.say(
                f"The society spends {costs[key]} lore to learn the behemoth's habits: "
                f"read outcome {behemoth.habits_outcome}."
            )
        else:
            run.say(f"The society spends {costs[key]} lore to learn the behemoth's {key}.")


# --- effects --------------------------------------------------------------------------


def _during(run: _Run, stage: NightStage) -> _Night:
    """Cards and structures in play whose effect belongs to this step of the Night."""
    for timed in run.facts.during:
        if timed.stage == stage.value:
            yield from _timed(run, timed, stage)


def _structures_off(run: _Run) -> bool:
    """Unrest 16+: characters cannot use or benefit from structures (D10)."""
    return unrest_effects(run.rules, run.game.society.unrest).structures_disabled


def _timed(run: _Run, timed: TimedEffect, stage: NightStage) -> _Night:
    if timed.structure and _structures_off(run):
        run.say(f"{timed.source} gives no benefit: unrest is {run.game.society.unrest}.")
        return
    if timed.omen is not None:
        omens = current_omens([run.facts.cards[c].omens for c in run.discard],
                              run.table.starting_omens)
        if timed.omen not in omens:
            run.say(f"{timed.source}: {timed.omen.value} is not a current omen; nothing happens.")
            return
    run.say(f"{timed.source}: {timed.text}")
    who = timed.character if timed.character is not None and run.has(timed.character) else None
    yield from _effects(run, who, timed.effects, timed.source, stage)


def _effects(
    run: _Run, who: str | None, effects: Sequence[fx.Effect], source: str, stage: NightStage
) -> _Night:
    """Apply the mechanical steps of an effect list; show the rest as text."""
    for effect in effects:
        if effect.text:
            run.say(f"{source}: {effect.text}")
        yield from _effect(run, who, effect, source, stage)


def _effect(  # noqa: C901 - one branch per step of the effect vocabulary
    run: _Run, who: str | None, effect: fx.Effect, source: str, stage: NightStage
) -> _Night:
    society = run.game.society
    if isinstance(effect, fx.Lore):
        if effect.amount >= 0:
            run.game = replace(run.game, society=gain_lore(society, effect.amount))
            run.say(f"The society gains {effect.amount} lore.")
        elif society.lore + effect.amount >= run.rules.lore.minimum:
            run.game = replace(run.game, society=spend_lore(run.rules, society, -effect.amount))
            run.say(f"The society spends {-effect.amount} lore.")
        else:
            run.say(f"The society has {society.lore} lore; {source} cannot spend {-effect.amount}.")
        return
    if isinstance(effect, fx.Activity):
        if effect.amount >= 0:
            society = increase_activity(society, effect.amount)
        else:
            society = replace(society, activity=max(0, society.activity + effect.amount))
        run.game = replace(run.game, society=society)
        run.say(f"Activity {effect.amount:+d}: now {society.activity}.")
        _fire_at_once(run)
        return
    if isinstance(effect, fx.Unrest):
        run.game = replace(run.game, society=increase_unrest(society, effect.amount))
        run.say(f"Unrest {effect.amount:+d}: now {run.game.society.unrest}.")
        return
    if isinstance(effect, fx.Read):
        run.read.append(str(effect.outcome))
        run.say(f"Read outcome {effect.outcome}.")
        return
    if isinstance(effect, fx.Unlock):
        if effect.flag == "delving":
            run.game = replace(run.game, society=unlock_delving(society))
        else:
            run.unlocked.append(effect.flag)
        run.say(f"Unlocked: {effect.flag}.")
        return
    if who is None or not run.has(who):
        run.say(
            f"{source}: {effect.do} ({effect.model_dump_json(exclude={'text'})}) "
            "is for the table to resolve."
        )
        return
    character = run.game.character(who)
    if isinstance(effect, fx.Test):
        dice = yield _Ask(
            Step(
                stakes_prompt(character, effect.ability, effect.difficulty,
                              purpose=f"for {source}",
                              success=effects_text(effect.success),
                              failure=effects_text(effect.failure)),
                Decider.DICE,
                count=1,
            ),
            stage,
        )
        assert not isinstance(dice, str)
        result, character = ability_test(character, effect.ability, dice[0])
        run.update(character)
        won = result.total >= effect.difficulty
        run.say(
            f"{who} rolls {result.die} + {effect.ability.value} {result.ability_value}"
            + (f" + boosts {result.boosts}" if result.boosts else "")
            + f" = {result.total} against {effect.difficulty}: "
            + ("success." if won else "failure.")
        )
        yield from _effects(run, who, effect.success if won else effect.failure, source, stage)
        return
    if isinstance(effect, fx.Boost):
        ability = effect.ability
        if ability is None:
            choice = yield from _choose(
                run,
                stage,
                f"{who}: choose an ability for the boost ({source})",
                {a.value: a.value.capitalize() for a in Ability},
            )
            ability = Ability(choice)
        face = 2 if effect.major else 1
        run.update(add_boost(character, ability, face))
        run.say(f"{who} gains a boost of {face} on {ability.value}.")
    elif isinstance(effect, fx.Energy):
        if effect.amount >= 0:
            character = gain_energy(character, effect.amount)
        else:
            character = replace(character, energy=max(0, character.energy + effect.amount))
        run.update(character)
        run.say(f"{who}: energy {effect.amount:+d} (now {character.energy}).")
    elif isinstance(effect, fx.Suffer):
        for _ in range(effect.amount):
            character = suffer(character, effect.token)
        run.update(character)
        run.say(f"{who} suffers {effect.amount} {effect.token.value.replace('_', ' ')}.")
    elif isinstance(effect, fx.Gain):
        token = run.facts.resources.get(str(effect.resource))
        if token is None:
            run.say(f"{who} gains {effect.amount} {effect.resource} (not a token the Night knows).")
        else:
            run.update(gain_tokens(character, [token] * effect.amount))
            run.say(f"{who} gains {effect.amount} {effect.resource}.")
    elif isinstance(effect, fx.Lose):
        held = [i for i, t in enumerate(character.bag) if t.name == effect.resource]
        lost = held[: effect.amount]
        if lost:
            character, _ = take_tokens(character, lost)
            run.update(character)
        run.say(f"{who} loses {len(lost)} {effect.resource}." if lost else
                f"{who} has no {effect.resource} to lose.")  # not "loses 0" (issue 27)
    elif isinstance(effect, fx.Mark):
        # Rulebook: Fillable Cards: the mark is written on the character card.
        if effect.mark not in character.marks:
            run.update(replace(character, marks=(*character.marks, Mark(effect.mark))))
        run.say(f"{who} writes the mark {effect.mark} on the character card.")
    elif isinstance(effect, fx.GainItem):
        run.items_gained.append((character.name, ItemId(str(effect.item))))
        run.say(f"{who} gains the item {effect.item}.")
    elif isinstance(effect, fx.Place):
        if character.hex is None:
            run.say(f"{who} is not in the valley; nothing is placed.")
            return
        tokens = run.game.tokens
        if effect.token == "lore":
            tokens = place_lore(tokens, character.hex, effect.amount)
        elif effect.token == "fire":
            tokens = place_fire(tokens, character.hex)
        else:
            tokens = place_shelter(tokens, character.hex)
        run.game = replace(run.game, tokens=tokens)
        run.say(f"{who} places {effect.token} in hex {character.hex}.")


# --- helpers --------------------------------------------------------------------------


def _distinct(tokens: Sequence[Any], keep: Any) -> list[int]:
    """Indices of the first of each distinct token that ``keep`` accepts."""
    seen: set[Any] = set()
    out: list[int] = []
    for index, token in enumerate(tokens):
        if keep(token) and token not in seen:
            seen.add(token)
            out.append(index)
    return out


def _index(choice: Choice) -> int:
    assert isinstance(choice, str)
    return int(choice.rsplit(":", 1)[1])


def _words(token: Any) -> str:
    """A health token in words: "minor injury"."""
    return str(token.value).replace("_", " ")


def _is_a_procedure(night: NightProcedure) -> Procedure:
    """Lets mypy check that :class:`NightProcedure` implements the protocol."""
    return night
