"""Exact odds (issue 12): tests, contests, mining, the Night's activity, the behemoth.

Each advisor is checked against a brute force written here (every die, every order of
the cards or chips) on small cases, against a seeded Monte Carlo estimate on large ones
(within 3 standard errors), and on hand-computed cases named after the rulebook.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import permutations, product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import Content, load_content
from companion.content.schema.base import Ability, Omen
from companion.content.schema.cards import MovementRoll, NightCard, NightRequirement, NightType
from companion.content.schema.effects import Gain, Suffer
from companion.content.schema.rules import RulesConstants
from companion.rules.behemoth import (
    BehemothState,
    MovementBoard,
    end_hex_distribution,
    move,
    reach_probability,
    shortest_paths,
)
from companion.rules.checks import ContestOutcome
from companion.rules.effects import describe_effect
from companion.rules.geometry import Axial
from companion.rules.ids import CharacterName, HexId, LegendId, Trait
from companion.rules.legends import Legend
from companion.rules.mining import MiningChip
from companion.rules.odds import (
    NightHex,
    ability_test_odds,
    behemoth_odds,
    contest_odds,
    mining_odds,
    night_activity_odds,
    night_card_resolvable,
)
from tests.rules.factories import make


@cache
def sample() -> Content:
    return load_content("sample")


# --- tests and contests ---------------------------------------------------------------


def test_tests_1d6_plus_ability_8_plus_with_might_4_is_one_half() -> None:
    ash = make()  # Might 4
    odds = ability_test_odds(ash, Ability.MIGHT, 8).without_legend
    assert odds.success == Fraction(1, 2)
    assert sum(odds.totals.values()) == 1
    assert dict(odds.totals) == {t: Fraction(1, 6) for t in range(5, 11)}


def test_boost_slots_a_major_and_a_minor_boost_add_three() -> None:
    ash = make(boosts={Ability.MIGHT: (2, 1)})
    odds = ability_test_odds(ash, Ability.MIGHT, 10).without_legend
    assert odds.boosts == 3
    assert odds.success == Fraction(4, 6)  # die 3+


def test_tests_trait_bonus_applies_only_with_the_trait() -> None:
    ash = make()  # wise
    mods = {Trait("wise"): 2, Trait("brave"): -3}
    odds = ability_test_odds(ash, Ability.DEXTERITY, 8, trait_modifiers=mods).without_legend
    assert odds.modifier == 2
    assert odds.success == Fraction(4, 6)  # 1d6 + 3 + 2 >= 8: die 3+


def test_legends_substitute_ability_or_lend_a_trait_both_reported() -> None:
    legend = Legend(LegendId("L1"), "Old Bran", {a: 6 for a in Ability}, (Trait("brave"),))
    not_held = Legend(LegendId("L2"), "Gone", {a: 6 for a in Ability}, ())
    ash = make(legends=(LegendId("L1"),))
    advice = ability_test_odds(
        ash,
        Ability.DEXTERITY,
        10,
        trait_modifiers={Trait("brave"): 2},
        legends=[legend, not_held],
    )
    assert advice.without_legend.success == Fraction(0)  # 1d6 + 3 >= 10 never
    substitute, lend = advice.with_legend
    assert (substitute.legend, substitute.legend_trait, substitute.ability_value) == (
        "L1",
        None,
        6,
    )
    assert substitute.success == Fraction(1, 2)  # 1d6 + 6 >= 10: die 4+
    assert (lend.legend_trait, lend.modifier) == ("brave", 2)
    assert lend.success == Fraction(1, 3)  # 1d6 + 3 + 2 >= 10: die 5+
    assert advice.best is substitute


def test_contests_d16_might_4_against_7_with_a_major_boost(rules: RulesConstants) -> None:
    # score 9; totals 5..10: 10 succeeds; 5..9 are within 4 (stalemate)
    odds = contest_odds(rules, make(), Ability.MIGHT, 7, (2,)).without_legend
    assert (odds.success, odds.stalemate, odds.defeat) == (
        Fraction(1, 6),
        Fraction(5, 6),
        Fraction(0),
    )
    assert odds.behemoth_score == 9


def test_contests_d16_dexterity_3_against_10_is_mostly_defeat(rules: RulesConstants) -> None:
    odds = contest_odds(rules, make(), Ability.DEXTERITY, 10).without_legend
    # totals 4..9: 6..9 are within 4 of 10 (stalemate), 4 and 5 are defeats
    assert (odds.success, odds.stalemate, odds.defeat) == (
        Fraction(0),
        Fraction(4, 6),
        Fraction(2, 6),
    )
    assert sum(odds.outcomes.values()) == 1


@settings(max_examples=60, deadline=None)
@given(
    value=st.integers(1, 6),
    boosts=st.lists(st.sampled_from([1, 2]), max_size=3),
    behemoth=st.integers(0, 14),
    behemoth_boosts=st.lists(st.sampled_from([1, 2]), max_size=2),
    bonus=st.integers(-3, 3),
)
def test_contest_odds_match_brute_force(
    value: int, boosts: list[int], behemoth: int, behemoth_boosts: list[int], bonus: int
) -> None:
    rules = _rules()
    ash = make(abilities={a: value for a in Ability}, boosts={Ability.MIGHT: tuple(boosts)})
    odds = contest_odds(
        rules,
        ash,
        Ability.MIGHT,
        behemoth,
        behemoth_boosts,
        trait_modifiers={Trait("wise"): bonus},
    ).without_legend
    score = behemoth + sum(behemoth_boosts)
    count: Counter[ContestOutcome] = Counter()
    for die in range(1, 7):
        total = die + value + sum(boosts) + bonus
        if total > score:
            count[ContestOutcome.SUCCESS] += 1
        elif score - total <= rules.contest.stalemate_margin:
            count[ContestOutcome.STALEMATE] += 1
        else:
            count[ContestOutcome.DEFEAT] += 1
    assert dict(odds.outcomes) == {o: Fraction(n, 6) for o, n in count.items()}
    assert sum(odds.outcomes.values()) == 1


def _rules() -> RulesConstants:
    from tests.rules.factories import load_rules

    return load_rules()


# --- mining ---------------------------------------------------------------------------

SUN = MiningChip("sunstone", Omen.SUN, (), (Gain(do="gain", resource="sunstone"),))
CLOUD = MiningChip("cloudstone", Omen.CLOUD, (Suffer(do="suffer", token="minor_injury"),))
CLAY = MiningChip("clay", Omen.MOON, (), (Gain(do="gain", resource="clay"),))
RIVER = MiningChip("riverstone", Omen.COMET)
CAVE = [SUN, SUN, CLOUD, CLAY, RIVER]  # Rulebook: Mining, step 1 (D14)


def test_mining_cave_under_the_sun_one_chip_matches_two_times_in_five() -> None:
    odds = mining_odds(CAVE, [Omen.SUN])
    one = odds.stop_after_one
    assert dict(one.matches) == {0: Fraction(3, 5), 1: Fraction(2, 5)}
    # a sunstone under the sun: 1 sunstone + 1 more (its match effect)
    assert one.expected("sunstone") == Fraction(2, 5) * 2
    assert one.expected_tokens == 1 + Fraction(2, 5)
    assert one.any_other_effect == Fraction(1, 5)  # the cloudstone's injury


def test_mining_cave_two_pulls_miss_the_sun_three_times_in_ten() -> None:
    two = mining_odds(CAVE, [Omen.SUN]).draw_twice
    assert two is not None
    assert two.matches[0] == Fraction(3, 10)  # C(3, 2) / C(5, 2)
    assert two.matches[2] == Fraction(1, 10)
    assert two.chips[("sunstone (sun)", "sunstone (sun)")] == Fraction(1, 10)


def _mining_brute(
    bag: Sequence[MiningChip], omens: set[Omen], draws: int
) -> tuple[
    Counter[tuple[str, ...]],
    Counter[int],
    Counter[tuple[tuple[str, int], ...]],
    Counter[tuple[str, ...]],
    int,
]:
    chips: Counter[tuple[str, ...]] = Counter()
    matches: Counter[int] = Counter()
    yields: Counter[tuple[tuple[str, int], ...]] = Counter()
    others: Counter[tuple[str, ...]] = Counter()
    orders = 0
    for order in permutations(range(len(bag)), draws):
        orders += 1
        taken = [bag[i] for i in order]
        chips[tuple(sorted(c.label() for c in taken))] += 1
        hit = [c.omen in omens for c in taken]
        matches[sum(hit)] += 1
        gained: Counter[str] = Counter(c.material for c in taken)
        texts: list[str] = []
        for c, h in zip(taken, hit, strict=True):
            for e in c.match_effects if h else c.effects:
                if isinstance(e, Gain):
                    gained[str(e.resource)] += e.amount
                else:
                    texts.append(describe_effect(e))
        yields[tuple(sorted(gained.items()))] += 1
        others[tuple(sorted(texts))] += 1
    return chips, matches, yields, others, orders


@settings(max_examples=40, deadline=None)
@given(
    bag=st.lists(st.sampled_from([SUN, CLOUD, CLAY, RIVER]), min_size=1, max_size=6),
    omens=st.sets(st.sampled_from(list(Omen)), max_size=2),
)
def test_mining_odds_match_every_order_of_pulls(bag: list[MiningChip], omens: set[Omen]) -> None:
    odds = mining_odds(bag, omens)
    assert len(odds.plans) == min(2, len(bag))
    for plan in odds.plans:
        chips, matches, yields, others, n = _mining_brute(bag, omens, plan.draws)
        assert dict(plan.other_effects) == {k: Fraction(v, n) for k, v in others.items()}
        for dist in (plan.chips, plan.matches, plan.yields, plan.other_effects):
            assert sum(dist.values()) == 1
        assert dict(plan.chips) == {k: Fraction(v, n) for k, v in chips.items()}
        assert dict(plan.matches) == {k: Fraction(v, n) for k, v in matches.items()}
        assert dict(plan.yields) == {k: Fraction(v, n) for k, v in yields.items()}


# --- the Night ------------------------------------------------------------------------


def card(
    id: str, activity: int, *, features: tuple[str, ...] = (), trait: str | None = None
) -> NightCard:
    return NightCard(
        id=id,
        name=id,
        type=NightType.SOLO,
        requires=NightRequirement(features=features, trait=trait),
        text="-",
        omens=[Omen.MOON],
        activity=activity,
    )


def _night_brute(
    pile: list[NightCard],
    discard: list[NightCard],
    ok: list[list[bool]],
) -> dict[int, Fraction]:
    """Every order of the pile, and of each reshuffled discard, as the Night engine
    draws: weight each path by the number of orders (probability = weight / total)."""
    out: dict[int, Fraction] = {}
    limit = len(pile) + len(discard)
    index = {c.id: i for i, c in enumerate(pile + discard)}

    def hexes(
        h: int, pile: tuple[int, ...], discard: tuple[int, ...], p: Fraction, act: int, misses: int
    ) -> None:
        if h == len(ok):
            out[act] = out.get(act, Fraction(0)) + p
            return
        if not pile:
            if not discard:
                hexes(h + 1, pile, discard, p, act, 0)
                return
            orders = list(permutations(discard))
            for order in orders:
                hexes(h, order, (), p / len(orders), act, misses)
            return
        top, rest = pile[0], pile[1:]
        c = _cards[top]
        if ok[h][top]:
            hexes(h + 1, rest, (*discard, top), p, act + c.activity, 0)
        elif misses + 1 > limit:
            hexes(h + 1, rest, (*discard, top), p, act, 0)
        else:
            hexes(h, rest, (*discard, top), p, act, misses + 1)

    _cards = {index[c.id]: c for c in pile + discard}
    starts = list(permutations(index[c.id] for c in pile))
    for order in starts:
        hexes(0, order, tuple(index[c.id] for c in discard), Fraction(1, len(starts)), 0, 0)
    return out


NIGHT_DECK = [
    card("A", 1),
    card("B", 2, features=("wetlands",)),
    card("C", 0, trait="wise"),
    card("D", 1, features=("forest",)),
    card("E", 3, trait="brave"),
]
HEXES = [
    NightHex(HexId("H1"), frozenset({"forest"}), frozenset({"wise"})),
    NightHex(HexId("H2"), frozenset({"wetlands"}), frozenset({"brave"})),
    NightHex(HexId("H3"), frozenset(), frozenset()),
]


@pytest.mark.parametrize(
    ("pile", "discard", "hexes"),
    [
        (NIGHT_DECK[:4], NIGHT_DECK[4:], HEXES),
        (NIGHT_DECK[:2], NIGHT_DECK[2:], HEXES),  # the deck runs out: reshuffle
        (NIGHT_DECK[1:3], [NIGHT_DECK[4]], HEXES[2:]),  # nothing resolvable in H3
        (NIGHT_DECK, [], HEXES[:2]),
    ],
)
def test_night_activity_matches_every_order_of_the_deck(
    rules: RulesConstants,
    pile: list[NightCard],
    discard: list[NightCard],
    hexes: list[NightHex],
) -> None:
    odds = night_activity_odds(rules, pile, discard, hexes, unrest=0, activity=0)
    ok = [
        [night_card_resolvable(c, h, unrest=0, activity=0) for c in pile + discard] for h in hexes
    ]
    brute = _night_brute(pile, discard, ok)
    assert sum(odds.from_cards.values()) == 1
    assert dict(odds.from_cards) == {k: v for k, v in brute.items() if v}
    assert sum(odds.cards_resolved.values()) == 1


def test_night_phase_increase_activity_one_card_per_hex_plus_unrest(
    rules: RulesConstants,
) -> None:
    # Two hexes, every card resolvable, amounts 1 and 3: both drawn, +4, and unrest 11
    # adds 2 per Night (D10: 6+ and 11+).
    pile = [card("A", 1), card("B", 3)]
    hexes = HEXES[2:] * 2
    odds = night_activity_odds(rules, pile, [], hexes, unrest=11, activity=0)
    assert odds.from_unrest == 2
    assert dict(odds.increase) == {6: 1}
    assert odds.at_least(6) == 1


def test_night_card_requirements_unmet_cards_are_skipped(rules: RulesConstants) -> None:
    # H3 has no forest: D (forest) is skipped, A (1) is resolved whatever the order.
    odds = night_activity_odds(
        rules,
        [card("A", 1), card("D", 5, features=("forest",))],
        [],
        HEXES[2:],
        unrest=0,
        activity=0,
    )
    assert dict(odds.from_cards) == {1: 1}


def _night_sample(
    rng: random.Random,
    pile: list[NightCard],
    discard: list[NightCard],
    ok: dict[Any, bool],
    hexes: list[NightHex],
) -> int:
    """One Night drawn as the engine draws it: reshuffles and the miss limit included."""
    order, used = pile[:], discard[:]
    rng.shuffle(order)
    limit = len(pile) + len(discard)
    got = 0
    for h in hexes:
        misses = 0
        while True:
            if not order:
                if not used:
                    break
                order, used = used, []
                rng.shuffle(order)
            c = order.pop()
            used.append(c)
            if ok[(c.id, h.hex)]:
                got += c.activity
                break
            misses += 1
            if misses > limit:
                break
    return got


def test_night_activity_monte_carlo_on_the_sample_night_deck(rules: RulesConstants) -> None:
    deck = list(sample().night_cards.values())
    pile, discard = deck[:18], deck[18:]
    hexes = [
        NightHex(HexId("H1"), frozenset({"forest", "river"}), frozenset({"wise"})),
        NightHex(HexId("H2"), frozenset({"wetlands"}), frozenset({"brave"})),
        NightHex(HexId("H3"), frozenset({"cave"}), frozenset()),
        NightHex(HexId("H4"), frozenset({"lake"}), frozenset({"wise"})),
    ]
    odds = night_activity_odds(rules, pile, discard, hexes, unrest=7, activity=5)
    assert sum(odds.from_cards.values()) == 1
    assert odds.from_unrest == 1
    ok = {
        (c.id, h.hex): night_card_resolvable(c, h, unrest=7, activity=5)
        for c in deck
        for h in hexes
    }
    rng = random.Random(12)
    samples = 20_000
    counts: Counter[int] = Counter(
        _night_sample(rng, pile, discard, ok, hexes) for _ in range(samples)
    )
    for amount, p in odds.from_cards.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / samples)
        assert abs(counts[amount] / samples - float(p)) <= 3 * sigma + 1e-9
    assert set(counts) <= set(odds.from_cards)


# --- the behemoth ---------------------------------------------------------------------


def test_behemoth_odds_delegate_to_the_behemoth_module() -> None:
    board = MovementBoard.of({(0, 0): 1, (1, -1): 2, (1, 0): 1, (2, -1): 1, (2, 0): 2})
    here = HexId(str(Axial(0, 0)))
    goal = HexId(str(Axial(2, -1)))
    state = BehemothState(
        behemoth="b",
        hex=here,
        lair=(here, "a"),
        instinct="I",
        secret="S",
        reaction_deck=(),
    )
    roll = MovementRoll(dice=1, modifier=-2)
    who = {CharacterName("Ash"): HexId(str(Axial(1, 0))), CharacterName("Bo"): goal}
    odds = behemoth_odds(state, board, roll, goal, who)
    assert dict(odds.end_hex) == end_hex_distribution(state, board, roll, goal)
    assert dict(odds.reaches) == reach_probability(state, board, roll, goal, who)
    assert sum(odds.end_hex.values()) == 1
    # brute force: every die, every tied shortest path equally likely
    paths = shortest_paths(board, Axial(0, 0), Axial(2, -1))
    ends: Counter[HexId] = Counter()
    for die, path in product(range(1, 7), paths):
        m = move(board, Axial(0, 0), path, max(0, die - 2))
        ends[board.name(m.end)] += 1
    n = 6 * len(paths)
    assert dict(odds.end_hex) == {h: Fraction(c, n) for h, c in ends.items()}
