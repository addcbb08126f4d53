"""Effects during the Night: those of cards and structures in play at a step, the
effect vocabulary applied to a character or the society, and the Immediate and Societal
events the activity reaches at once (Rulebook: Night Phase; Unrest; Set Up; readings D7,
D10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.content.schema import effects as fx
from companion.content.schema.base import Ability
from companion.rules.activity_events import settle
from companion.rules.checks import ability_test, stakes_prompt
from companion.rules.effects import effects_text
from companion.rules.health import add_boost, gain_energy, suffer
from companion.rules.ids import ItemId, Mark
from companion.rules.inventory import gain_tokens, take_tokens
from companion.rules.night.facts import NightStage, TimedEffect
from companion.rules.night.run import Ask, NightRun, NightSteps, choose
from companion.rules.omens import current_omens
from companion.rules.procedure import Decider, Step
from companion.rules.society import (
    gain_culture_ability,
    gain_lore,
    increase_activity,
    increase_unrest,
    spend_lore,
    unlock_delving,
    unrest_effects,
)
from companion.rules.valley import place_fire, place_lore, place_shelter


def during(run: NightRun, stage: NightStage) -> NightSteps:
    """Cards and structures in play whose effect belongs to this step of the Night."""
    for timed in run.facts.during:
        if timed.stage == stage.value:
            yield from resolve_timed(run, timed, stage)


def structures_off(run: NightRun) -> bool:
    """Unrest 16+: characters cannot use or benefit from structures (D10)."""
    return unrest_effects(run.rules, run.game.society.unrest).structures_disabled


def resolve_timed(run: NightRun, timed: TimedEffect, stage: NightStage) -> NightSteps:
    """An effect of a card in play at ``stage``: none while its structure is off or its
    omen is not current; else its steps, applied to its character or the society."""
    if timed.structure and structures_off(run):
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
    yield from apply_effects(run, who, timed.effects, timed.source, stage)


def apply_effects(
    run: NightRun, who: str | None, effects: Sequence[fx.Effect], source: str, stage: NightStage
) -> NightSteps:
    """Apply the mechanical steps of an effect list; show the rest as text."""
    for effect in effects:
        if effect.text:
            run.say(f"{source}: {effect.text}")
        yield from apply_effect(run, who, effect, source, stage)


def apply_effect(  # noqa: C901 - one branch per step of the effect vocabulary
    run: NightRun, who: str | None, effect: fx.Effect, source: str, stage: NightStage
) -> NightSteps:
    """One step of the effect vocabulary; a character's step without a character in play
    is left to the table."""
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
        fire_at_once(run)
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
    if isinstance(effect, fx.Culture):
        society, said = gain_culture_ability(society, effect.ability)
        run.game = replace(run.game, society=society)
        run.say(f"{said[0].upper()}{said[1:]}.")
        return
    if who is None or not run.has(who):
        run.say(
            f"{source}: {effect.do} ({effect.model_dump_json(exclude={'text'})}) "
            "is for the table to resolve."
        )
        return
    character = run.game.character(who)
    if isinstance(effect, fx.Test):
        dice = yield Ask(
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
        yield from apply_effects(run, who, effect.success if won else effect.failure, source, stage)
        return
    if isinstance(effect, fx.Boost):
        ability = effect.ability
        if ability is None:
            choice = yield from choose(
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


def fire_at_once(run: NightRun) -> None:
    """Fire the Immediate and Societal events the activity now reaches, with their steps
    (reading D7: "as soon as the number is reached"), each once; a chain fires in order."""
    settled = settle(run.rules, run.game, run.game, run.facts.events, run.facts.event_steps,
                     run.facts.resources, run.facts.event_texts)
    run.game = settled.game
    run.fired_at_once.extend(settled.fired)
    for note in settled.notes:
        run.say(note + ".")
