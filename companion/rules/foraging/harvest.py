"""Harvesting and animal encounters: the harvest cap, what the chosen objects yield, and
the encounter's test (Rulebook: Foraging, step 4; List of Objects, List of Bonus
Objects; Animal Encounters; readings D5, D6, D20).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from companion.content.schema.cards import ForageBonus, ForageCard, ForageObject
from companion.content.schema.rules import Encounter as EncounterTest
from companion.content.schema.rules import Foraging
from companion.content.schema.world import Item
from companion.rules.character import Character
from companion.rules.checks import ability_test, stakes_prompt
from companion.rules.effects import Tally, describe_effect, effects_text
from companion.rules.errors import IllegalAction
from companion.rules.foraging.tableau import SpotKey, spots
from companion.rules.ids import Trait
from companion.rules.procedure import Decider, Step
from companion.rules.resources import BagToken

__all__ = ["encounter_difficulty", "harvest_cap", "harvest_yield"]

TEST_NAMES = {
    "hunt_large_prey": "hunt the large prey",
    "hunt_small_prey": "hunt the small prey",
    "fight_predator": "fight the predator",
    "flee_predator": "flee the predator",
}


def harvest_cap(rules: Foraging, items: Iterable[Item] = ()) -> int:
    """The harvest cap: 3 in the rulebook, plus each equipped item's bonus (step 4)."""
    return rules.harvest_cap + sum(item.harvest_cap_bonus for item in items)


def harvest_yield(
    tableau: Sequence[ForageCard],
    chosen: Collection[SpotKey],
    objects: Mapping[str, ForageObject],
    bonuses: Mapping[str, ForageBonus],
    *,
    with_objects: bool = True,
) -> list[str]:
    """The resource ids gained for the ``chosen`` objects (step 4): 1 per object that
    yields, then 1 per bonus object drawn on them (List of Objects, List of Bonus Objects).
    ``with_objects`` False gives the bonus objects only (a successful hunt)."""
    by_key = {s.key: s for s in spots(tableau)}
    picked = [by_key[k] for k in chosen]
    out: list[str] = []
    if with_objects:
        for spot in picked:
            obj = objects[spot.object]
            if obj.yields is not None:
                out.append(str(obj.yields))
    for spot in picked:
        out.extend(str(bonuses[b].yields) for b in spot.bonus)
    return out


def encounter_difficulty(test: EncounterTest, animals: int) -> int:
    """The number to reach: the test's difficulty plus ``per_extra_animal`` per animal
    chosen (reading D5: small prey 5 + 1 per prey, so 6/7/8 for 1/2/3).

    >>> from companion.content.schema.rules import Encounter as E
    >>> small = E(ability="dexterity", difficulty=5, per_extra_animal=1, max_animals=3)
    >>> [encounter_difficulty(small, n) for n in (1, 2, 3)]
    [6, 7, 8]
    """
    if not 1 <= animals <= test.max_animals:
        raise IllegalAction(f"this encounter takes 1 to {test.max_animals} animals; got {animals}")
    return test.difficulty + test.per_extra_animal * animals


def encounter_step(
    character: Character, name: str, test: EncounterTest, animals: int
) -> Step:
    """The DICE step of an encounter's test ``name`` (a key of RulesConstants.foraging),
    its stakes in the prompt (Rulebook: Animal Encounters)."""
    need = encounter_difficulty(test, animals)
    traits = {Trait(t): v for t, v in test.traits.items()}
    modifier = sum(v for t, v in traits.items() if t in character.traits)
    won = effects_text((*test.success_per_animal * animals, *test.success),
                       none="")
    if name.startswith("hunt"):
        won = "; ".join(w for w in (won, "the prey's objects are harvested") if w)
    return Step(
        stakes_prompt(character, test.ability, need, modifier=modifier,
                    purpose=f"to {TEST_NAMES[name]}",
                    success=won or "nothing happens",
                    failure=effects_text(test.failure)),
        Decider.DICE,
        count=1,
    )


def resolve_encounter(
    character: Character,
    name: str,
    test: EncounterTest,
    animals: int,
    die: int,
    tally: Tally,
    tokens: Mapping[str, BagToken],
) -> tuple[Character, Tally, Mapping[str, Any]]:
    """Roll an encounter's test ``name`` with ``die`` and apply its success or failure
    (Rulebook: Animal Encounters; a hunt's bonus objects are the caller's): the character
    after the test (its boosts used and degraded), the tally with the test's line and its
    effects, and the test made (ability, die, total, difficulty, success)."""
    need = encounter_difficulty(test, animals)
    traits = {Trait(t): v for t, v in test.traits.items()}
    result, character = ability_test(character, test.ability, die, trait_modifiers=traits)
    success = result.total >= need
    line = (
        f"{TEST_NAMES[name].capitalize()}: {die} + {result.ability_value} "
        f"{test.ability.value}"
        + (f" + {result.boosts} boosts" if result.boosts else "")
        + (f" {result.modifier:+d} traits" if result.modifier else "")
        + f" = {result.total} vs {need}+: {'success' if success else 'failure'}."
    )
    tally = tally.note(line)
    if success:
        effects = (*test.success_per_animal * animals, *test.success)
        tally = tally.apply(effects, tokens)
        if effects:
            tally = tally.note(
                "; ".join(describe_effect(e) for e in effects).capitalize() + "."
            )
    else:
        tally = tally.apply(test.failure, tokens)
        if test.failure:
            texts = "; ".join(describe_effect(e) for e in test.failure)
            tally = tally.note(texts.capitalize() + ".")
    record = {
        "test": name,
        "ability": test.ability.value,
        "die": die,
        "total": result.total,
        "difficulty": need,
        "success": success,
    }
    return character, tally, record
