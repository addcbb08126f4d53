"""Rest and Degrade Food (Rulebook: Game Structure > Night Phase > Rest; Degrade Food;
readings D9, D10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.content.schema.base import Ability
from companion.rules import inventory
from companion.rules.health import degrade, energize, gain_energy, suffer
from companion.rules.inventory import take_tokens
from companion.rules.night.effects import structures_off
from companion.rules.night.facts import NightStage, RestBreakdown
from companion.rules.night.run import NightRun, NightSteps, choose, distinct, index_of
from companion.rules.resources import BagToken, TokenKind
from companion.rules.society import unrest_effects


def rest(run: NightRun) -> NightSteps:
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
        if structures_off(run):
            run.say("Unrest 16+: no structure grants shelter tonight.")
        else:
            sheltered = sheltered | run.table.structure_shelter_hexes
    for name in [c.name for c in run.game.characters]:
        character = run.game.character(name)
        shelter = rules.rest.shelter_energy if character.hex in sheltered else 0
        rest = RestBreakdown(name, character.energy, character.energy_max, automatic, shelter)
        run.pending = rest
        # Rulebook: Rest > Food consumed
        foods = distinct(character.bag, lambda t: t.edible)
        if foods:
            options = {f"eat:{i}": f"eat the {character.bag[i]}" for i in foods}
            choice = yield from choose(
                run,
                NightStage.REST,
                f"{name} rests (automatic {automatic}, shelter/fire {shelter}): put a food "
                f"token in the appetite slot (+{rules.rest.food_energy}) or none",
                {**options, "none": "no food"},
            )
            if choice != "none":
                character, eaten = take_tokens(character, [index_of(choice)])
                rest = replace(rest, ate=str(eaten[0]), food=rules.rest.food_energy)
                run.pending = rest
        # Rulebook: Rest > Water consumed
        water = [i for i, t in enumerate(character.bag) if t.kind is TokenKind.WATER]
        if water:
            choice = yield from choose(
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
            choice = yield from choose(
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
                marks = distinct(character.health, lambda t: True)
                options = {
                    f"degrade:{i}": f"degrade a {_words(character.health[i])}" for i in marks
                }
                choice = yield from choose(
                    run,
                    NightStage.REST,
                    f"{name}'s needs are met: degrade one injury or disease token, or none",
                    {**options, "none": "degrade nothing"},
                )
                if choice == "none":
                    break
                token = character.health[index_of(choice)]
                character = degrade(character, index_of(choice))
                run.update(character)
                run.say(f"{name}'s needs are met: a {token.value.replace('_', ' ')} is degraded.")
        if rest.starving:
            token = rules.rest.starving_token
            character = suffer(character, token)
            run.update(character)
            run.say(f"{name} is starving and suffers a {token.value.replace('_', ' ')}.")


def degrade_food(run: NightRun) -> None:
    """Degrade Food, in bags and storage containers (Rulebook: Night Phase > Degrade Food)."""
    spoiled = 0
    for character in run.game.characters:
        bag = inventory.degrade_food(character.bag)
        spoiled += _perishables(character.bag)
        run.update(replace(character, bag=bag))
    containers = []
    for container in run.game.containers:
        spoiled += _perishables(container.tokens)
        containers.append(replace(container, tokens=inventory.degrade_food(container.tokens)))
    run.game = replace(run.game, containers=tuple(containers))
    if spoiled:
        run.say(f"Food degrades: {spoiled} perishable food token(s) ferment or are discarded.")


def _perishables(tokens: Sequence[BagToken]) -> int:
    return sum(1 for t in tokens if t.kind is TokenKind.PERISHABLE_FOOD)


def _words(token: Any) -> str:
    """A health token in words: "minor injury"."""
    return str(token.value).replace("_", " ")
