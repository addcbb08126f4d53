"""Exact foraging odds (issue 12; Rulebook: Foraging, steps 1-4; Animal Encounters;
readings D5, D6).

- :func:`keep_odds`: which of the two drawn cards to keep (step 1 or 2): for each, what
  is within reach, the best harvest now with its expected yield, and the chance that a
  predator forces an encounter on the next expansion, over the cards that can still come.
- :func:`encounter_odds`: the chance that the character's hunt, fight or flee succeeds.

Reach, legality and yields come from :mod:`companion.rules.foraging`
(:func:`~companion.rules.foraging.within_reach`,
:func:`~companion.rules.foraging.legal_expansion_choices`,
:func:`~companion.rules.foraging.harvest_yield`,
:func:`~companion.rules.foraging.encounter_difficulty`); tests are
:func:`companion.rules.odds.ability_test_odds`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from types import MappingProxyType

from companion.content.schema.cards import Encounter, ForageBonus, ForageCard, ForageObject
from companion.content.schema.effects import Effect, Gain
from companion.content.schema.rules import Encounter as EncounterTest
from companion.content.schema.rules import Foraging
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.foraging import (
    Spot,
    SpotKey,
    encounter_difficulty,
    front_row_predator,
    harvest_yield,
    legal_expansion_choices,
    spots,
    within_reach,
)
from companion.rules.foraging.tableau import predator_rows
from companion.rules.ids import Trait
from companion.rules.legends import Legend
from companion.rules.odds import ONE, ZERO, AbilityTestAdvice, ability_test_odds


def _tokens(effects: Iterable[Effect]) -> Counter[str]:
    gained: Counter[str] = Counter()
    for effect in effects:
        if isinstance(effect, Gain):
            gained[str(effect.resource)] += effect.amount
    return gained


# --- encounters -----------------------------------------------------------------------


@dataclass(frozen=True)
class EncounterOdds:
    """The odds of an animal encounter's tests for one character (Rulebook: Animal
    Encounters; D5, D6)."""

    encounter: Encounter
    """Large prey, small prey or predator."""
    animals: int
    """Animals in the encounter (small prey: up to three, each +1 to the difficulty)."""
    hunt: AbilityTestAdvice | None
    """Prey: the hunt (None for a predator)."""
    fight: AbilityTestAdvice | None
    """Predator: fighting it (None for prey)."""
    flee: AbilityTestAdvice | None
    """Predator: fleeing it (None for prey)."""


def _encounter_test(
    test: EncounterTest,
    character: Character,
    animals: int,
    legends: Iterable[Legend],
) -> AbilityTestAdvice:
    traits = {Trait(t): v for t, v in test.traits.items()}
    return ability_test_odds(
        character,
        test.ability,
        encounter_difficulty(test, animals),
        trait_modifiers=traits,
        legends=legends,
    )


def encounter_odds(
    rules: Foraging,
    character: Character,
    encounter: Encounter,
    animals: int = 1,
    *,
    legends: Iterable[Legend] = (),
) -> EncounterOdds:
    """The chance that ``character`` succeeds at each test of an ``encounter`` with
    ``animals`` animals, before the die is rolled (with and without each held legend).

    Rulebook: Foraging > Animal Encounters (hunt; fight or flee); D5 (small prey 5 + 1
    per prey), D6 (hunt and flee test Dexterity, fight Might: ``rules`` says which).
    """
    held = tuple(legends)
    if encounter is Encounter.PREDATOR:
        fight = _encounter_test(rules.fight_predator, character, animals, held)
        flee = _encounter_test(rules.flee_predator, character, animals, held)
        return EncounterOdds(encounter, animals, None, fight, flee)
    test = rules.hunt_large_prey if encounter is Encounter.LARGE_PREY else rules.hunt_small_prey
    hunt = _encounter_test(test, character, animals, held)
    return EncounterOdds(encounter, animals, hunt, None, None)


# --- which card to keep ---------------------------------------------------------------


@dataclass(frozen=True)
class HarvestOption:
    """A harvest the character could make now (Rulebook: Foraging, step 4)."""

    object: str
    """The forage object harvested (its id)."""
    spots: tuple[SpotKey, ...]
    """The objects chosen, nearest row first."""
    success: Fraction
    """The chance the harvest pays: 1, or the hunt's chance for prey."""
    resources: Mapping[str, int]
    """What it yields when it pays: resource id -> tokens (objects, bonus objects and,
    for prey, the hunt's success effects)."""

    @property
    def expected_tokens(self) -> Fraction:
        """The mean number of tokens gained."""
        return self.success * sum(self.resources.values())


@dataclass(frozen=True)
class KeepOdds:
    """What keeping one of the drawn cards leads to (Rulebook: Foraging, steps 1-4)."""

    card: str
    """The drawn card."""
    legal: bool
    """Whether the rules allow keeping it (step 2's predator constraints)."""
    forces_encounter: bool
    """Keeping it puts a predator in the front row: the encounter happens now and
    foraging stops with no harvest."""
    within_reach: frozenset[SpotKey]
    """The objects within reach with it in the tableau, before anything is chosen."""
    best_harvest: HarvestOption | None
    """The harvest with the most expected tokens now (None: nothing to harvest, or the
    encounter is forced); predators are never counted as a harvest."""
    predator_next: Fraction
    """The chance that the next expansion (step 2 again) forces a predator encounter:
    over the pairs of cards that can still be drawn, the player keeps a card without a
    front-row predator whenever the rules allow one (1 if forced now, 0 if the deck is
    empty)."""

    @property
    def expected_tokens(self) -> Fraction:
        """The best harvest's expected tokens now (0 without one)."""
        return self.best_harvest.expected_tokens if self.best_harvest else ZERO


def _valid(chosen: Sequence[Spot], path_rows: frozenset[int]) -> bool:
    """Each chosen object is within reach given the others (step 4: every earlier row
    holds an animal path or a chosen object of the same type)."""
    rows = {s.row for s in chosen} | path_rows
    return all(all(r in rows for r in range(s.row)) for s in chosen)


def harvest_options(
    tableau: Sequence[ForageCard],
    objects: Mapping[str, ForageObject],
    bonuses: Mapping[str, ForageBonus],
    cap: int,
    *,
    rules: Foraging | None = None,
    character: Character | None = None,
) -> tuple[HarvestOption, ...]:
    """Every harvest that can be chosen now, best first (most expected tokens).

    A harvest is a set of objects of one type, each within reach given the others, at
    most ``cap`` of them (and at most the encounter's limit for animals). Prey are
    included only with ``rules`` and ``character`` (their value is the hunt's chance
    times what it gains); predators never (a fight is not a harvest).
    """
    every = spots(tableau)
    path_rows = frozenset(
        s.row for s in every if (o := objects.get(s.object)) is not None and o.animal_path
    )
    by_type: dict[str, list[Spot]] = {}
    for s in every:
        obj = objects[s.object]
        if obj.animal_path or obj.encounter is Encounter.PREDATOR:
            continue
        if obj.yields is None and obj.encounter is None and not s.bonus:
            continue
        by_type.setdefault(s.object, []).append(s)
    out: list[tuple[Fraction, int, HarvestOption]] = []
    for kind, candidates in by_type.items():
        obj = objects[kind]
        limit = cap
        test: EncounterTest | None = None
        if obj.encounter is not None:
            if rules is None or character is None:
                continue
            test = (
                rules.hunt_large_prey
                if obj.encounter is Encounter.LARGE_PREY
                else rules.hunt_small_prey
            )
            limit = min(cap, test.max_animals)
        hunt: dict[int, Fraction] = {}
        for k in range(1, min(limit, len(candidates)) + 1):
            for chosen in combinations(candidates, k):
                if not _valid(chosen, path_rows):
                    continue
                keys = tuple(s.key for s in chosen)
                if test is None:
                    gained = Counter(harvest_yield(tableau, keys, objects, bonuses))
                    success = ONE
                else:
                    assert character is not None
                    gained = Counter(
                        harvest_yield(tableau, keys, objects, bonuses, with_objects=False)
                    )
                    gained += _tokens((*test.success_per_animal * k, *test.success))
                    if k not in hunt:
                        traits = {Trait(t): v for t, v in test.traits.items()}
                        hunt[k] = ability_test_odds(
                            character,
                            test.ability,
                            encounter_difficulty(test, k),
                            trait_modifiers=traits,
                        ).without_legend.success
                    success = hunt[k]
                if not gained:
                    continue
                option = HarvestOption(
                    kind, keys, success, MappingProxyType(dict(sorted(gained.items())))
                )
                out.append((option.expected_tokens, -len(out), option))
    out.sort(key=lambda o: (o[0], o[1]), reverse=True)
    return tuple(o[2] for o in out)


def predator_next_chance(
    tableau: Sequence[ForageCard],
    remaining: Sequence[ForageCard],
    objects: Mapping[str, ForageObject],
) -> Fraction:
    """The chance that the next expansion forces a predator encounter: two cards are
    drawn from ``remaining`` (one if only one is left), the player keeps a legal card
    (:func:`~companion.rules.foraging.legal_expansion_choices`) without a predator in the
    front row if there is one (Rulebook: Foraging, step 2)."""
    if front_row_predator(tableau, objects):
        return ONE
    if not remaining:
        return ZERO
    if len(remaining) == 1:
        return ONE if front_row_predator([*tableau, remaining[0]], objects) else ZERO
    # The rules see a drawn card only through its predators' rows: the engine is asked
    # once per pair of (nearest predator row) classes, and its answer reused.
    nearest = {c.id: min(rows, default=None)
               for c in remaining if (rows := predator_rows(c, objects))}
    front = {c.id: nearest.get(c.id) == 0 for c in remaining}
    memo: dict[tuple[int | None, int | None], tuple[bool, bool]] = {}
    forced = 0
    pairs = 0
    for a, b in combinations(remaining, 2):
        pairs += 1
        if not front[a.id] and not front[b.id]:
            continue
        cls = (nearest.get(a.id), nearest.get(b.id))
        if cls not in memo:
            legal = legal_expansion_choices(tableau, a, b, objects)
            memo[cls] = (a.id in legal, b.id in legal)
        keep_a, keep_b = memo[cls]
        if not ((keep_a and not front[a.id]) or (keep_b and not front[b.id])):
            forced += 1
    return Fraction(forced, pairs)


def keep_odds(
    tableau: Sequence[ForageCard],
    drawn: Sequence[ForageCard],
    deck: Sequence[ForageCard],
    objects: Mapping[str, ForageObject],
    bonuses: Mapping[str, ForageBonus],
    cap: int,
    *,
    rules: Foraging | None = None,
    character: Character | None = None,
) -> tuple[KeepOdds, ...]:
    """For each card in ``drawn`` (the two cards of step 1 or 2), what keeping it leads
    to; ``deck`` is the whole forage deck (the cards that can still come are the deck
    without the tableau and the kept card: the other goes back, Rulebook: Foraging,
    steps 1-2). ``cap`` is the harvest cap (:func:`~companion.rules.foraging.
    harvest_cap`); with ``rules`` and ``character``, prey hunts count as harvests.
    """
    if not 1 <= len(drawn) <= 2:
        raise IllegalAction(f"foraging draws one or two cards; got {len(drawn)}")
    legal = (
        {c.id for c in drawn}
        if not tableau
        else set(
            legal_expansion_choices(
                tableau, drawn[0], drawn[1] if len(drawn) > 1 else None, objects
            )
        )
    )
    out: list[KeepOdds] = []
    placed = {c.id for c in tableau}
    for card in drawn:
        kept = [*tableau, card]
        forced = front_row_predator(kept, objects)
        reach = frozenset(within_reach(kept, (), objects))
        best = None
        if not forced:
            options = harvest_options(kept, objects, bonuses, cap, rules=rules,
                                       character=character)
            best = options[0] if options else None
        remaining = [c for c in deck if c.id not in placed and c.id != card.id]
        chance = predator_next_chance(kept, remaining, objects)
        out.append(KeepOdds(card.id, card.id in legal, forced, reach, best, chance))
    return tuple(out)
