"""Exact fishing odds (issue 12): against every strike plan and order through the
engine's :func:`resolve_strike`, every roll, and a seeded Monte Carlo on the sample pack."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import Content, load_content
from companion.content.schema.base import WaterLine
from companion.content.schema.cards import FishingCard, StrikeLocation
from companion.rules.fishing import Allocation, legal_allocations, resolve_strike
from companion.rules.odds_fishing import (
    LINES,
    allocations,
    fishing_chances,
    rank_allocations,
)


@cache
def sample() -> Content:
    return load_content("sample")


def cards() -> list[FishingCard]:
    return list(sample().fishing_cards.values())


def fishing_card(
    id: str, targets: Sequence[int], modifiers: Sequence[str], water: Sequence[StrikeLocation]
) -> FishingCard:
    return FishingCard.model_validate(
        {
            "id": id,
            "targets": {
                line.value: {"difficulty": d, "contents": [{"do": "gain", "resource": "fish"}]}
                for line, d in zip(LINES, targets, strict=True)
            },
            "modifiers": {line.value: m for line, m in zip(LINES, modifiers, strict=True)},
            "water": [loc.model_dump(mode="json") for loc in water],
        }
    )


EVERY_LINE = StrikeLocation(size=2, lines=list(WaterLine))


def brute_best(
    stock: FishingCard,
    outcome: FishingCard,
    water: Sequence[StrikeLocation],
    allocation: Allocation,
) -> tuple[int, int, int, int]:
    """Every line for each location with dice, every order, through the engine."""
    used = [i for i, d in enumerate(allocation) if d]
    best: tuple[int, int, int, int] | None = None
    for lines in product(*(water[i].lines for i in used)):
        for order in permutations(range(len(used))):
            collected: set[WaterLine] = set()
            mishaps = bonuses = 0
            for j in order:
                line = lines[j]
                strike = resolve_strike(
                    stock.targets[line],
                    outcome.modifiers[line],
                    allocation[used[j]],
                    collected=line in collected,
                )
                if strike.contents:
                    collected.add(line)
                mishaps += strike.mishap
                bonuses += strike.bonus
            mask = sum(1 << LINES.index(line) for line in collected)
            score = (len(collected), -mishaps, bonuses, mask)
            if best is None or score > best:
                best = score
    assert best is not None
    return best


def brute_allocation(
    stock: FishingCard,
    water: Sequence[StrikeLocation],
    allocation: Allocation,
    outcomes: Sequence[FishingCard],
) -> dict[str, object]:
    per_line = dict.fromkeys(LINES, 0)
    won: dict[int, int] = {}
    mishap_any = mishaps = bonuses = 0
    for outcome in outcomes:
        count, minus_mishaps, bonus, mask = brute_best(stock, outcome, water, allocation)
        for i, line in enumerate(LINES):
            per_line[line] += mask >> i & 1
        won[count] = won.get(count, 0) + 1
        mishap_any += minus_mishaps < 0
        mishaps -= minus_mishaps
        bonuses += bonus
    n = len(outcomes)
    return {
        "target_chances": {line: Fraction(v, n) for line, v in per_line.items()},
        "targets_won": {k: Fraction(v, n) for k, v in won.items()},
        "mishap_chance": Fraction(mishap_any, n),
        "expected_mishaps": Fraction(mishaps, n),
        "expected_bonuses": Fraction(bonuses, n),
    }


def rank(stats: dict[str, object]) -> tuple[Fraction, Fraction, Fraction]:
    won = stats["targets_won"]
    assert isinstance(won, dict)
    expected = sum((k * p for k, p in won.items()), Fraction(0))
    mishap = stats["mishap_chance"]
    bonus = stats["expected_bonuses"]
    assert isinstance(mishap, Fraction) and isinstance(bonus, Fraction)
    return (expected, -mishap, bonus)


# --- hand-computed ----------------------------------------------------------------------


def test_fishing_step_6_two_dice_on_one_location_win_8_plus_five_times_in_twelve() -> None:
    stock = fishing_card("S", (8, 20, 20), ("+0", "+0", "+0"), [EVERY_LINE])
    outcome = fishing_card("O", (1, 1, 1), ("+0", "+0", "+0"), [EVERY_LINE])
    odds = fishing_chances(stock, [EVERY_LINE], [outcome], dice=2)
    assert odds.target_chances[WaterLine.RED] == Fraction(15, 36)  # 2d6 >= 8
    assert dict(odds.targets_won) == {0: Fraction(21, 36), 1: Fraction(15, 36)}
    assert odds.expected_targets == Fraction(5, 12)


def test_fishing_step_6_mishap_only_on_a_failed_strike() -> None:
    # One die on a size-1 location crossed by red only; red is 4 "+0 mishap": a 1-3 fails
    loc = StrikeLocation(size=1, lines=[WaterLine.RED])
    water = [loc, StrikeLocation(size=1, lines=[WaterLine.WHITE, WaterLine.BLACK])]
    stock = fishing_card("S", (4, 30, 30), ("+0", "+0", "+0"), water)
    outcome = fishing_card("O", (1, 1, 1), ("+0 mishap", "+0", "+0"), water)
    ranked = rank_allocations(stock, water, [2], [outcome])
    # the 2 anywhere: on red it fails with a mishap; on white/black it fails quietly
    assert [r.allocation for r in ranked] == [((), (2,)), ((2,), ())]
    assert ranked[0].mishap_chance == 0
    assert ranked[1].mishap_chance == 1


def test_fishing_step_7_a_target_pays_once() -> None:
    # Two locations both on red only: two successes win one target, one bonus.
    water = [StrikeLocation(size=1, lines=[WaterLine.RED])] * 2 + [
        StrikeLocation(size=1, lines=[WaterLine.WHITE, WaterLine.BLACK])
    ]
    stock = fishing_card("S", (2, 30, 30), ("+0", "+0", "+0"), water)
    outcome = fishing_card("O", (1, 1, 1), ("+0 bonus", "+0", "+0"), water)
    best = rank_allocations(stock, water, [6, 6], [outcome])[0]
    assert best.targets_won == {1: 1}
    assert best.expected_bonuses == 1


# --- brute force ------------------------------------------------------------------------


SMALL = [
    (0, 1, (2, 3, 4)),
    (3, 5, (0, 6, 7)),
    (8, 9, (1, 2, 10, 11)),
]


@pytest.mark.parametrize(("stock", "water", "outcomes"), SMALL)
@pytest.mark.parametrize("dice", [(6, 3, 3), (5, 4, 2, 1)])
def test_rank_allocations_match_every_strike_plan(
    stock: int, water: int, outcomes: tuple[int, ...], dice: tuple[int, ...]
) -> None:
    deck = cards()
    s, w = deck[stock], deck[water].water
    outs = [deck[i] for i in outcomes]
    ranked = rank_allocations(s, w, dice, outs)
    assert sorted(r.allocation for r in ranked) == legal_allocations(w, dice)
    ranks = []
    for odds in ranked:
        brute = brute_allocation(s, w, odds.allocation, outs)
        assert dict(odds.target_chances) == brute["target_chances"]
        assert dict(odds.targets_won) == brute["targets_won"]
        assert sum(odds.targets_won.values()) == 1
        assert odds.mishap_chance == brute["mishap_chance"]
        assert odds.expected_mishaps == brute["expected_mishaps"]
        assert odds.expected_bonuses == brute["expected_bonuses"]
        ranks.append(rank(brute))
    assert ranks == sorted(ranks, reverse=True)


@pytest.mark.parametrize(("stock", "water", "outcomes"), SMALL[:2])
def test_fishing_chances_match_every_roll_with_the_best_allocation(
    stock: int, water: int, outcomes: tuple[int, ...]
) -> None:
    deck = cards()
    s, w = deck[stock], deck[water].water
    outs = [deck[i] for i in outcomes]
    dice = 2
    odds = fishing_chances(s, w, outs, dice=dice)
    assert sum(odds.targets_won.values()) == 1
    total = Fraction(0)
    mishap = Fraction(0)
    bonus = Fraction(0)
    for roll in product(range(1, 7), repeat=dice):
        best = max((brute_allocation(s, w, a, outs) for a in legal_allocations(w, roll)), key=rank)
        expected, minus_mishap, bonuses = rank(best)
        total += expected
        mishap -= minus_mishap
        bonus += bonuses
    rolls = 6**dice
    assert odds.expected_targets == total / rolls
    assert odds.mishap_chance == mishap / rolls
    assert odds.expected_bonuses == bonus / rolls


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 2), min_size=1, max_size=5),
    dice=st.lists(st.integers(1, 6), min_size=1, max_size=4),
)
def test_allocations_are_the_engines(sizes: list[int], dice: list[int]) -> None:
    water = [StrikeLocation(size=s, lines=[WaterLine.RED]) for s in sizes]
    assert allocations(water, dice) == legal_allocations(water, dice)


# --- Monte Carlo on the sample pack (4 dice, 10 outcome cards) ---------------------------


def test_fishing_chances_monte_carlo_four_dice() -> None:
    deck = cards()
    stock, water = deck[0], deck[1].water
    outs = deck[2:]
    odds = fishing_chances(stock, water, outs, dice=4)
    assert sum(odds.targets_won.values()) == 1
    rng = random.Random(7)
    best: dict[tuple[int, ...], Allocation] = {}
    won: dict[tuple[tuple[int, ...], str], int] = {}
    samples = 20_000
    values = []
    for _ in range(samples):
        roll = tuple(sorted((rng.randint(1, 6) for _ in range(4)), reverse=True))
        outcome = rng.choice(outs)
        if roll not in best:
            best[roll] = rank_allocations(stock, water, roll, outs)[0].allocation
        key = (roll, outcome.id)
        if key not in won:
            won[key] = brute_best(stock, outcome, water, best[roll])[0]
        values.append(won[key])
    mean = sum(values) / samples
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / samples)
    assert abs(float(odds.expected_targets) - mean) <= 3 * sd / math.sqrt(samples)
