"""Activity events fire with their effects, and unrest puts its epoch goals in play, by any
route (Rulebook: Tracks > Activity > Activity Events; Unrest; readings D7, D10).

Activity rises through the dial, a card's effect, a Night card or the Night's increase;
whichever it is, :func:`settle` runs on the game before and after the change and

- fires every single Immediate or Societal event the activity now reaches (D7: they
  occur "as soon as the number is reached or passed"), applying its effects at once; an
  effect that raises activity further may fire the next one (a chain, each once);
- reports the epoch goals that the unrest thresholds newly reached put in play (D10:
  "Quelling the Embers" at 6+).

General, Outpost and Ongoing events wait for the end of the Night (the Night engine checks
them there, and :func:`apply_event` resolves what it fired).

An event's steps are resolved as the effect vocabulary says: society steps (lore,
activity, unrest, unlock, read) once; a character step (energy, suffer, gain, lose, a
boost of a named ability, place) affects every character in play, since an event on the
challenge card names no one (reading D20: the least favourable reading of an unnamed
target); what needs a die or a choice is left to the table and said so.

>>> from companion.rules.society import Society
>>> from companion.rules.game import Game
>>> ev = ActivityEvent(EventId("C#1"), EventKind.SOCIETAL, 3)
>>> from companion.content.schema.effects import Unrest
>>> before = Game(characters=(), society=Society(activity=2))
>>> after = Game(characters=(), society=Society(activity=4))
>>> settled = settle(None, before, after, [ev], {ev.id: (Unrest(do="unrest", amount=2),)})
>>> settled.game.society.unrest, settled.fired
(2, ('C#1',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from companion.content.schema import effects as fx
from companion.content.schema.rules import RulesConstants
from companion.rules import health, inventory
from companion.rules.game import Game
from companion.rules.ids import EventId, GoalId, HexId, Mark
from companion.rules.resources import BagToken
from companion.rules.society import (
    ActivityEvent,
    EventKind,
    due_events,
    fire_events,
    gain_culture_ability,
    gain_lore,
    increase_activity,
    increase_unrest,
    unlock_delving,
    unrest_effects,
)
from companion.rules.valley import place_fire, place_lore, place_shelter

__all__ = ["ActivityEvent", "EventKind", "Settled", "apply_event", "settle"]

@dataclass(frozen=True)
class Settled:
    """What settling the society's tracks did."""

    game: Game
    """The game with the fired events' effects applied."""
    fired: tuple[EventId, ...] = ()
    """The single events that fired, in order."""
    goals: tuple[GoalId, ...] = ()
    """Epoch goals the unrest thresholds newly reached put in play (D10)."""
    notes: tuple[str, ...] = ()
    """What happened, in game words, for the journal."""


def goals_reached(rules: RulesConstants | None, before: int, after: int) -> tuple[GoalId, ...]:
    """Epoch goals put in play by the unrest thresholds crossed from ``before`` to ``after``.

    Rulebook: Tracks > Unrest (D10: 6+ puts "Quelling the Embers" in play).
    """
    if rules is None or after <= before:
        return ()
    old = unrest_effects(rules, before).epoch_goals
    return tuple(g for g in unrest_effects(rules, after).epoch_goals if g not in old)


def settle(
    rules: RulesConstants | None,
    before: Game,
    after: Game,
    events: Sequence[ActivityEvent],
    effects: Mapping[EventId, Sequence[fx.Effect]],
    resources: Mapping[str, BagToken] | None = None,
    texts: Mapping[EventId, str] | None = None,
) -> Settled:
    """Fire the Immediate and Societal events ``after``'s activity reaches (D7) with their
    effects, and list the epoch goals unrest newly puts in play (D10)."""
    game = after
    fired: list[EventId] = []
    notes: list[str] = []
    # Each pass fires what is due; an event's own activity may make another due (a chain).
    while True:
        due = due_events(game.society, events, end_of_night=False)
        if not due:
            break
        game = replace(game, society=fire_events(game.society, due))
        for event in due:
            fired.append(event.id)
            text = (texts or {}).get(event.id, str(event.id)).rstrip(".")
            game, said = apply_event(game, effects.get(event.id, ()), resources or {})
            notes.append(f"Event: {text}" + (f" ({'; '.join(said)})" if said else ""))
    goals = goals_reached(rules, before.society.unrest, game.society.unrest)
    return Settled(game, tuple(fired), goals, tuple(notes))


def apply_event(
    game: Game, effects: Sequence[fx.Effect], resources: Mapping[str, BagToken]
) -> tuple[Game, list[str]]:
    """Resolve an activity event's steps (see the module's reading); returns the game and
    what the table reads."""
    notes: list[str] = []
    for effect in effects:
        game, note = _step(game, effect, resources)
        if note:
            notes.append(note)
    return game, notes


def _step(  # noqa: C901 - one branch per step of the effect vocabulary
    game: Game, effect: fx.Effect, resources: Mapping[str, BagToken]
) -> tuple[Game, str]:
    society = game.society
    if isinstance(effect, fx.Lore):
        if effect.amount >= 0:
            return replace(game, society=gain_lore(society, effect.amount)), \
                f"the society gains {effect.amount} lore"
        spent = min(-effect.amount, society.lore)
        return replace(game, society=replace(society, lore=society.lore - spent)), \
            f"the society loses {spent} lore"
    if isinstance(effect, fx.Activity):
        if effect.amount >= 0:
            society = increase_activity(society, effect.amount)
        else:
            society = replace(society, activity=max(0, society.activity + effect.amount))
        return replace(game, society=society), f"activity {effect.amount:+d}"
    if isinstance(effect, fx.Unrest):
        return replace(game, society=increase_unrest(society, effect.amount)), \
            f"unrest {effect.amount:+d}"
    if isinstance(effect, fx.Unlock):
        if effect.flag == "delving" and not society.delving_unlocked:
            return replace(game, society=unlock_delving(society)), "Delving is open"
        return game, f"unlocked: {effect.flag}"
    if isinstance(effect, fx.Culture):
        society, said = gain_culture_ability(society, effect.ability)
        return replace(game, society=society), said
    if isinstance(effect, fx.Read):
        return game, f"read Codex outcome {effect.outcome}"
    if isinstance(effect, fx.Place):
        return _place(game, effect), f"{effect.token} placed in each hex with characters"
    if isinstance(effect, fx.Test | fx.GainItem) or (
        isinstance(effect, fx.Boost) and effect.ability is None
    ):
        return game, f"for the table: {effect.text or effect.do}"
    characters = []
    for character in game.characters:
        if isinstance(effect, fx.Energy):
            if effect.amount >= 0:
                character = health.gain_energy(character, effect.amount)
            else:
                character = replace(character, energy=max(0, character.energy + effect.amount))
        elif isinstance(effect, fx.Suffer):
            for _ in range(effect.amount):
                character = health.suffer(character, effect.token)
        elif isinstance(effect, fx.Boost) and effect.ability is not None:
            character = health.add_boost(character, effect.ability, 2 if effect.major else 1)
        elif isinstance(effect, fx.Gain):
            token = resources.get(str(effect.resource))
            if token is not None:
                character = inventory.gain_tokens(character, [token] * effect.amount)
        elif isinstance(effect, fx.Mark):
            if effect.mark not in character.marks:
                character = replace(character, marks=(*character.marks, Mark(effect.mark)))
        elif isinstance(effect, fx.Lose):
            held = [i for i, t in enumerate(character.bag) if t.name == effect.resource]
            if held:
                character, _ = inventory.take_tokens(character, held[: effect.amount])
        characters.append(character)
    game = replace(game, characters=tuple(characters))
    return game, f"every character: {_words(effect)}"


def _place(game: Game, effect: fx.Place) -> Game:
    tokens = game.tokens
    for hex_ in sorted({HexId(c.hex) for c in game.characters if c.hex}):
        if effect.token == "lore":
            tokens = place_lore(tokens, hex_, effect.amount)
        elif effect.token == "fire":
            tokens = place_fire(tokens, hex_)
        else:
            tokens = place_shelter(tokens, hex_)
    return replace(game, tokens=tokens)


def _words(effect: fx.Effect) -> str:
    from companion.rules.effects import describe_effect

    return describe_effect(effect)
