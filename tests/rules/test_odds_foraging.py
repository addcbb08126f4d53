"""Exact foraging odds (issue 12): encounters by the rulebook's thresholds; the card to
keep against every pair of cards drawn and every harvest, through the foraging engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

import pytest

from companion.content import Content, load_content
from companion.content.schema.base import Ability
from companion.content.schema.cards import Encounter, ForageCard
from companion.rules.foraging import (
    front_row_predator,
    harvest_yield,
    legal_expansion_choices,
    spots,
    within_reach,
)
from companion.rules.odds_foraging import (
    encounter_odds,
    harvest_options,
    keep_odds,
    predator_next_chance,
)
from tests.rules.factories import make


@cache
def sample() -> Content:
    return load_content("sample")


# --- encounters (Rulebook: Foraging > Animal Encounters; D5, D6) -------------------------


def test_animal_encounters_small_prey_two_prey_need_7_plus_dexterity_3_is_one_half() -> None:
    odds = encounter_odds(sample().rules.foraging, make(), Encounter.SMALL_PREY, 2)
    assert odds.hunt is not None
    assert odds.hunt.without_legend.difficulty == 7
    assert odds.hunt.without_legend.success == Fraction(1, 2)
    assert sum(odds.hunt.without_legend.totals.values()) == 1


def test_animal_encounters_large_prey_8_plus_dexterity_3_is_one_third() -> None:
    odds = encounter_odds(sample().rules.foraging, make(), Encounter.LARGE_PREY)
    assert odds.hunt is not None and odds.fight is None
    assert odds.hunt.without_legend.success == Fraction(1, 3)


def test_animal_encounters_predator_fight_10_plus_might_4_flee_8_plus_dexterity_3() -> None:
    ash = make(boosts={Ability.MIGHT: (1,)})
    odds = encounter_odds(sample().rules.foraging, ash, Encounter.PREDATOR)
    assert odds.fight is not None and odds.flee is not None and odds.hunt is None
    assert odds.fight.without_legend.success == Fraction(2, 6)  # 1d6 + 4 + 1 >= 10
    assert odds.flee.without_legend.success == Fraction(2, 6)  # 1d6 + 3 >= 8


# --- the card to keep -----------------------------------------------------------------


def brute_predator_next(tableau: Sequence[ForageCard], remaining: Sequence[ForageCard]) -> Fraction:
    """Every ordered pair the next expansion can draw, through the engine."""
    objects = sample().forage_objects
    if front_row_predator(tableau, objects):
        return Fraction(1)
    if len(remaining) < 2:
        return (
            Fraction(sum(front_row_predator([*tableau, c], objects) for c in remaining), 1)
            if remaining
            else Fraction(0)
        )
    forced = total = 0
    by_id = {c.id: c for c in remaining}
    for a, b in permutations(remaining, 2):
        total += 1
        legal = legal_expansion_choices(tableau, a, b, objects)
        forced += all(front_row_predator([*tableau, by_id[c]], objects) for c in legal)
    return Fraction(forced, total)


def brute_best_tokens(tableau: Sequence[ForageCard], cap: int) -> int:
    """Every set of objects of one type chosen one at a time within reach (engine)."""
    objects, bonuses = sample().forage_objects, sample().forage_bonuses
    every = spots(tableau)
    best = 0
    for kind in {s.object for s in every}:
        obj = objects[kind]
        if obj.animal_path or obj.encounter is not None:
            continue
        mine = [s for s in every if s.object == kind]
        for k in range(1, cap + 1):
            for chosen in combinations(mine, k):
                ordered = sorted(chosen, key=lambda s: s.row)
                picked: list[str] = []
                ok = True
                for s in ordered:
                    if s.key not in within_reach(tableau, picked, objects):
                        ok = False
                        break
                    picked.append(s.key)
                if ok:
                    best = max(best, len(harvest_yield(tableau, picked, objects, bonuses)))
    return best


def tableaus(deck_name: str, count: int) -> list[tuple[list[ForageCard], list[ForageCard]]]:
    deck = sample().forage_deck(deck_name)
    rng = random.Random(deck_name)
    out = []
    for _ in range(count):
        cards = deck[:]
        rng.shuffle(cards)
        size = rng.randint(0, 3)
        out.append((cards[:size], cards[size : size + 2]))
    return out


@pytest.mark.parametrize("deck_name", ["forest", "plains"])
def test_keep_odds_match_every_pair_and_every_harvest(deck_name: str) -> None:
    c = sample()
    deck = c.forage_deck(deck_name)
    cap = c.rules.foraging.harvest_cap
    harvests = 0
    for tableau, drawn in tableaus(deck_name, 8):
        advice = keep_odds(tableau, drawn, deck, c.forage_objects, c.forage_bonuses, cap)
        assert [a.card for a in advice] == [d.id for d in drawn]
        legal = (
            {d.id for d in drawn}
            if not tableau
            else set(legal_expansion_choices(tableau, drawn[0], drawn[1], c.forage_objects))
        )
        for a, card in zip(advice, drawn, strict=True):
            kept = [*tableau, card]
            assert a.legal == (card.id in legal)
            assert a.forces_encounter == front_row_predator(kept, c.forage_objects)
            assert a.within_reach == within_reach(kept, [], c.forage_objects)
            placed = {x.id for x in kept}
            remaining = [x for x in deck if x.id not in placed]
            assert a.predator_next == brute_predator_next(kept, remaining)
            if not a.forces_encounter:
                assert a.expected_tokens == brute_best_tokens(kept, cap)
                harvests += a.best_harvest is not None
    assert harvests > 0


def test_keep_odds_prey_hunts_count_at_the_hunts_chance() -> None:
    c = sample()
    deck = c.forage_deck("forest")
    with_prey = [
        card
        for card in deck
        if any(s.object == "large-prey" and s.row == 0 for s in spots([card]))
        and not front_row_predator([card], c.forage_objects)
    ]
    if not with_prey:
        pytest.skip("the sample forest deck has no front-row large prey without a predator")
    card = with_prey[0]
    options = harvest_options(
        [card],
        c.forage_objects,
        c.forage_bonuses,
        3,
        rules=c.rules.foraging,
        character=make(),
    )
    hunt = [o for o in options if o.object == "large-prey"]
    assert hunt and hunt[0].success == Fraction(1, 3)  # Dexterity 3, 8+
    assert hunt[0].resources["meat"] == 3


def test_predator_next_is_zero_with_an_empty_deck_and_one_when_forced_now() -> None:
    c = sample()
    deck = c.forage_deck("plains")
    front = [d for d in deck if front_row_predator([d], c.forage_objects)]
    quiet = [d for d in deck if not front_row_predator([d], c.forage_objects)]
    assert predator_next_chance(quiet[:1], [], c.forage_objects) == 0
    if front:
        assert predator_next_chance(front[:1], quiet, c.forage_objects) == 1
