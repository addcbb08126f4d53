"""The challenge lifecycle: choosing, setting up, placing characters, ending, epochs.

Rulebook: Set Up (Select Challenge, Set Up Challenge, Set Up Vital and Epoch Goals,
Determine Starting Hex and Place Characters); Continuing Play (Progression, Retaining
Supplies, Looming Challenges & Epoch Goals); Using the Journal; readings D10, D13.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from companion.content.schema.base import Omen
from companion.content.schema.rules import RulesConstants
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.game import Day, Game
from companion.rules.ids import (
    ChallengeId,
    CharacterName,
    GoalId,
    ItemId,
    MantleId,
    PlayerName,
)
from companion.rules.inventory import ItemFacts, equip, gain_tokens, take_tokens
from companion.rules.resources import BagToken, TokenKind
from companion.rules.society import ActivityEvent, unrest_effects
from companion.rules.valley import end_of_challenge

# --- choosing -------------------------------------------------------------------------


@dataclass(frozen=True)
class LoomingChallenge:
    """A looming challenge of the society and its priority value."""

    id: ChallengeId
    """The challenge card."""
    priority: int
    """Its priority value (lower comes sooner)."""


def eligible_challenges(
    looming: Sequence[LoomingChallenge], games_in_epoch: int
) -> tuple[ChallengeId, ...]:
    """The challenges the group may choose for the next game.

    ``games_in_epoch`` counts the games of this epoch so far, including the one being
    set up. If every looming challenge has a priority higher than that, any may be chosen;
    otherwise the one(s) with priority closest to 1 (ties: the group chooses).
    Rulebook: Set Up > Select Challenge.

    >>> L = [LoomingChallenge(ChallengeId("a"), 3), LoomingChallenge(ChallengeId("b"), 2)]
    >>> eligible_challenges(L, 1)
    ('a', 'b')
    >>> eligible_challenges(L, 2)
    ('b',)
    """
    if not looming:
        return ()
    if all(c.priority > games_in_epoch for c in looming):
        return tuple(c.id for c in looming)
    best = min(abs(c.priority - 1) for c in looming)
    return tuple(c.id for c in looming if abs(c.priority - 1) == best)


def choose_challenge(
    looming: Sequence[LoomingChallenge], games_in_epoch: int, chosen: ChallengeId
) -> ChallengeId:
    """Check the group's choice against the priority rule."""
    allowed = eligible_challenges(looming, games_in_epoch)
    if not allowed:
        raise IllegalAction("the society has no looming challenge")
    if chosen not in allowed:
        raise IllegalAction(
            f"{chosen} cannot be chosen now; choose {' or '.join(allowed)} (priority rule)"
        )
    return chosen


# --- setting up -----------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeFacts:
    """A challenge card; filled from Content by the operations layer."""

    id: ChallengeId
    """The challenge card."""
    vital_goals: tuple[GoalId, ...] = ()
    """Vital goals, placed left of the challenge."""
    set_aside_goals: tuple[GoalId, ...] = ()
    """Goals placed above it, unread."""
    starting_omens: tuple[Omen, ...] = ()
    """The starting omen(s), current until a Night card is discarded."""
    events: tuple[ActivityEvent, ...] = ()
    """Activity events on the back of the card."""


@dataclass(frozen=True)
class ChallengeTable:
    """The cards in play around a challenge."""

    challenge: ChallengeId
    """The challenge faced."""
    vital_goals: tuple[GoalId, ...]
    """Left of the challenge."""
    set_aside_goals: tuple[GoalId, ...]
    """Above it."""
    epoch_goals: tuple[GoalId, ...]
    """Right of it: set-aside epoch goals and those unrest puts in play (D10)."""
    completed: tuple[GoalId, ...] = ()
    """Beneath it."""


def set_up_challenge(
    rules: RulesConstants,
    challenge: ChallengeFacts,
    set_aside_epoch_goals: Sequence[GoalId],
    unrest: int,
) -> ChallengeTable:
    """Place the vital, set-aside and epoch goals (Rulebook: Set Up Challenge; Unrest 6+)."""
    epoch: list[GoalId] = []
    for goal in (*set_aside_epoch_goals, *unrest_effects(rules, unrest).epoch_goals):
        if goal not in epoch:
            epoch.append(goal)
    return ChallengeTable(
        challenge.id, challenge.vital_goals, challenge.set_aside_goals, tuple(epoch)
    )


def complete_goal(table: ChallengeTable, goal: GoalId) -> ChallengeTable:
    """A goal is completed: its card goes beneath the challenge."""
    in_play = (*table.vital_goals, *table.set_aside_goals, *table.epoch_goals)
    if goal not in in_play:
        raise IllegalAction(f"the goal {goal} is not in play")
    if goal in table.completed:
        raise IllegalAction(f"the goal {goal} is already completed")
    return replace(table, completed=(*table.completed, goal))


def _unfinished_epoch_goals(table: ChallengeTable) -> tuple[GoalId, ...]:
    """Epoch goals in play and not completed (set aside at the end of the challenge)."""
    return tuple(g for g in table.epoch_goals if g not in table.completed)


# --- retained supplies (D13) ----------------------------------------------------------


@dataclass(frozen=True)
class Retained:
    """Supplies a character set aside at the end of a challenge."""

    player: PlayerName
    """Whose character retained them."""
    character: CharacterName
    """Who retained them."""
    items: tuple[ItemId, ...]
    """Item cards (at most ``retained_supplies.items``)."""
    materials: tuple[BagToken, ...]
    """Material tokens (at most ``retained_supplies.materials``)."""


def retain_supplies(
    rules: RulesConstants, character: Character, items: Sequence[ItemId], materials: Sequence[int]
) -> Retained:
    """Designate up to 5 items and 5 material tokens to retain (Retaining Supplies, D13)."""
    limits = rules.retained_supplies
    if len(items) > limits.items:
        raise IllegalAction(f"a character retains at most {limits.items} items; got {len(items)}")
    if len(materials) > limits.materials:
        raise IllegalAction(
            f"a character retains at most {limits.materials} material tokens; got {len(materials)}"
        )
    held = [i for i, _ in character.items]
    for item in items:
        if item not in held:
            raise IllegalAction(f"{character.name} has no item {item}")
        held.remove(item)
    _, tokens = take_tokens(character, materials)
    for token in tokens:
        if token.kind is not TokenKind.MATERIAL:
            raise IllegalAction(f"only material tokens are retained; {token.name} is not one")
    return Retained(character.player, character.name, tuple(items), tokens)


def claim_retained(
    rules: RulesConstants,
    retained: Retained,
    character: Character,
    items: dict[ItemId, ItemFacts],
) -> Character:
    """At the start of a game the retained supplies go to the character who retained them,
    or are bequeathed to the player's next character (their successor)."""
    if character.player != retained.player:
        raise IllegalAction(
            f"supplies retained by {retained.character} go to {retained.player}'s characters"
        )
    for item in retained.items:
        if item not in items:
            raise IllegalAction(f"unknown item {item}")
        character = equip(rules, character, items[item])
    return gain_tokens(character, retained.materials)


# --- the campaign's progression -------------------------------------------------------


@dataclass(frozen=True)
class LogEntry:
    """A line of the Challenge Log in the Journal."""

    epoch: int
    """The epoch of the game."""
    challenge: ChallengeId
    """The challenge faced."""
    characters: tuple[CharacterName, ...]
    """The names of the characters used."""
    outcome: str | None = None
    """The Codex entry number of the outcome, recorded at the end of the game."""


@dataclass(frozen=True)
class Saga:
    """What persists between challenges, besides characters, valley and society."""

    epoch: int = 1
    """The current epoch."""
    games_in_epoch: int = 0
    """Games started in this epoch."""
    log: tuple[LogEntry, ...] = ()
    """The Challenge Log."""
    looming: tuple[LoomingChallenge, ...] = ()
    """Looming challenges set aside for the next game."""
    set_aside_epoch_goals: tuple[GoalId, ...] = ()
    """Unfinished epoch goals of this epoch, placed in play after the next set-up."""
    retained: tuple[Retained, ...] = ()
    """Supplies retained for the next game."""

    @property
    def in_challenge(self) -> bool:
        """A challenge has begun and its outcome is not yet recorded."""
        return bool(self.log) and self.log[-1].outcome is None


def end_challenge(
    saga: Saga,
    game: Game,
    *,
    outcome: str,
    looming: Sequence[LoomingChallenge],
    table: ChallengeTable,
    retained: Sequence[Retained] = (),
) -> tuple[Saga, Game]:
    """End a challenge (Rulebook: Continuing Play; Using the Journal).

    Records the outcome entry; sets aside the looming challenges and the unfinished epoch
    goals; keeps the retained supplies; resets activity and the fired events; removes fire,
    shelter and lore tokens from the valley.
    """
    if not saga.in_challenge:
        raise IllegalAction("no challenge is in progress")
    if not outcome.strip():
        raise IllegalAction("record the entry number of the challenge's outcome")
    for keep in retained:
        if sum(1 for r in retained if r.character == keep.character) > 1:
            raise IllegalAction(f"{keep.character} retains supplies once")
    last = replace(saga.log[-1], outcome=outcome.strip())
    goals = list(saga.set_aside_epoch_goals)
    for goal in _unfinished_epoch_goals(table):
        if goal not in goals:
            goals.append(goal)
    goals = [g for g in goals if g not in table.completed]
    saga = replace(
        saga,
        log=(*saga.log[:-1], last),
        looming=tuple(looming),
        set_aside_epoch_goals=tuple(goals),
        retained=tuple(retained),
    )
    society = replace(game.society, activity=0, triggered_events=frozenset())
    game = replace(game, society=society, tokens=end_of_challenge(game.tokens), day=Day(),
                   characters=tuple(_return_to_box(c) for c in game.characters))
    return saga, game


def _return_to_box(character: Character) -> Character:
    """At the end of a challenge a character's item cards and bag tokens go back to the
    box; what they retained (D13) is kept apart until the next game claims it, so nothing
    is duplicated (Rulebook: Retaining Supplies)."""
    return replace(character, items=(), bag=())


def ready_for_next_challenge(rules: RulesConstants, character: Character, unrest: int
                             ) -> Character:
    """A character carried into the next challenge: full energy (less 1 at unrest 6+,
    D10), no injuries or diseases (Rulebook: Determine Starting Hex and Place Characters);
    no boost tokens, which sit on the mantle and end with the challenge (Mantle > Boost
    Slots; The Valley: "all other components ... are returned to the game box"); no
    mantle power slotted, since all are set aside until chosen again after the mantles
    (Continuing Play > Mantle Power)."""
    energy = character.energy_max + unrest_effects(rules, unrest).starting_energy_delta
    return replace(character, health=(), energy=max(0, energy), boosts={},
                   mantle_power=None)


def choose_mantles(
    characters: Sequence[Character], chosen: Mapping[str, MantleId],
    mantles: Sequence[MantleId],
) -> tuple[Character, ...]:
    """Each player's mantle for the challenge about to begin.

    Rulebook: Mantle > Mantle Board ("At the start of each challenge, each player chooses
    a mantle"); Determine Starting Hex ("You may select a new mantle for your character
    or continue using the mantle you used previously"); Choose Mantle ("Each mantle can
    be chosen for only one character each game"). A character not named keeps its mantle.
    """
    names = {c.name for c in characters}
    unknown = sorted(n for n in chosen if n not in names)
    if unknown:
        raise IllegalAction(f"there is no character {', '.join(unknown)} to take a mantle")
    missing = sorted({str(m) for m in chosen.values()} - {str(m) for m in mantles})
    if missing:
        raise IllegalAction(f"there is no mantle {', '.join(missing)}")
    out = tuple(replace(c, mantle=chosen.get(c.name, c.mantle)) for c in characters)
    worn: dict[str, str] = {}
    for character in out:
        if character.mantle is None:
            continue
        if character.mantle in worn:
            raise IllegalAction(f"{worn[character.mantle]} and {character.name} both chose "
                                f"the mantle {character.mantle}: each mantle is for one "
                                "character each game")
        worn[character.mantle] = character.name
    return out


def new_epoch(saga: Saga) -> Saga:
    """A new epoch begins: its game count starts again; old epoch goals no longer apply."""
    if saga.in_challenge:
        raise IllegalAction("an epoch cannot change during a challenge")
    return replace(saga, epoch=saga.epoch + 1, games_in_epoch=0, set_aside_epoch_goals=())
