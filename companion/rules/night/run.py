"""The Night's working state: one replay of the Night, and how it asks the table.

Shared by every step of the Night (Rulebook: Game Structure > Night Phase): each step is
a generator over :class:`NightRun` that yields :class:`Ask` steps and receives choices.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.game import Day, Phase
from companion.rules.ids import CharacterName, EventId, ItemId, LegendId, NightCardId
from companion.rules.night.facts import (
    NightFacts,
    NightResult,
    NightStage,
    NightTable,
    RestBreakdown,
    is_table_card,
)
from companion.rules.omens import current_omens
from companion.rules.procedure import Choice, Decider, Step, check_dice, check_option


@dataclass(frozen=True)
class Ask:
    """A step as the generator yields it, with what ``apply`` accepts beyond its options."""

    step: Step
    stage: NightStage
    cards: frozenset[str] = frozenset()
    """CARD steps: every card id still in the deck (the table may have drawn any)."""
    refusals: Mapping[str, str] = field(default_factory=dict)
    """Inputs refused with a reason (learning the secret without enough lore)."""


NightSteps = Generator[Ask, Choice, None]


class NightRun:
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


def choose(
    run: NightRun, stage: NightStage, prompt: str, options: Mapping[str, str], **extra: Any
) -> Generator[Ask, Choice, str]:
    """A PLAYER step: one of ``options`` (key -> label); returns the key chosen."""
    del run
    step = Step(prompt, Decider.PLAYER, tuple(options), labels=dict(options))
    choice = yield Ask(step, stage, **extra)
    assert isinstance(choice, str)
    return choice


def distinct(tokens: Sequence[Any], keep: Any) -> list[int]:
    """Indices of the first of each distinct token that ``keep`` accepts."""
    seen: set[Any] = set()
    out: list[int] = []
    for index, token in enumerate(tokens):
        if keep(token) and token not in seen:
            seen.add(token)
            out.append(index)
    return out


def index_of(choice: Choice) -> int:
    """The index a choice like ``eat:3`` names."""
    assert isinstance(choice, str)
    return int(choice.rsplit(":", 1)[1])


def check_choice(ask: Ask, choice: Choice) -> None:
    """Refuse ``choice`` unless ``apply`` accepts it at the step ``ask``."""
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
