"""Fishing (Rulebook: Activities > Fishing, steps 1-7; readings D3, D15), on the sample
pack's fishing deck. Expected values are worked out by hand from content/sample/fishing.yaml."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import Content
from companion.content.schema.base import HealthToken, WaterLine
from companion.content.schema.cards import FishingModifier, StrikeLocation
from companion.rules.errors import IllegalAction
from companion.rules.fishing import (
    Allocation,
    FishingProcedure,
    final_difficulty,
    legal_allocations,
    resolve_strike,
    token_catalogue,
)
from companion.rules.procedure import Choice, Decider
from companion.rules.resources import BagToken


def start(content: Content, terrain: str) -> FishingProcedure:
    feature = content.features[terrain]
    assert feature.fishing is not None
    return FishingProcedure.start(
        "Ash",
        terrain,
        feature.fishing,
        content.fishing_cards.values(),
        token_catalogue(content.materials.values(), content.foods.values()),
        content.rules.fishing.dice,
    )


def play(proc: FishingProcedure, choices: Sequence[Choice]) -> FishingProcedure:
    for choice in choices:
        before = proc.to_state()
        proc = proc.apply(choice)
        again = FishingProcedure.from_state(json.loads(json.dumps(proc.to_state())))
        assert again == proc
        assert before != proc.to_state()
    return proc


def loc(size: int, *lines: str) -> StrikeLocation:
    return StrikeLocation(size=size, lines=tuple(WaterLine(x) for x in lines))


def brute_force(water: Sequence[StrikeLocation], dice: Sequence[int]) -> set[Allocation]:
    """Every assignment of each die to a location (or to nowhere), kept if it fits and
    places as many dice as the water can hold: an independent oracle."""
    to_place = min(len(dice), sum(x.size for x in water))
    found = set()
    for where in product(range(-1, len(water)), repeat=len(dice)):
        per = [
            tuple(sorted((d for d, w in zip(dice, where, strict=True) if w == i), reverse=True))
            for i in range(len(water))
        ]
        if (
            all(len(p) <= x.size for p, x in zip(per, water, strict=True))
            and sum(map(len, per)) == to_place
        ):
            found.add(tuple(per))
    return found


# --- Step 4: dividing the dice --------------------------------------------------------


def test_fishing_step4_every_allocation_fi09_pairs(content: Content) -> None:
    # FI09's water: location 1 holds 1 (red), 2 holds 2 (white), 3 holds 1 (black).
    water = content.fishing_cards["FI09"].water
    assert legal_allocations(water, [6, 6, 1, 1]) == [
        ((1,), (6, 1), (6,)),
        ((1,), (6, 6), (1,)),
        ((6,), (1, 1), (6,)),
        ((6,), (6, 1), (1,)),
    ]


def test_fishing_step4_every_allocation_fi09_distinct_dice(content: Content) -> None:
    # 4 choices for location 1, 3 for location 3, the other two go to location 2.
    allocations = legal_allocations(content.fishing_cards["FI09"].water, [1, 2, 3, 4])
    assert len(allocations) == 12
    assert ((4,), (2, 1), (3,)) in allocations
    assert all(len(a[1]) == 2 for a in allocations)


def test_fishing_step4_every_allocation_fi10_room_to_spare(content: Content) -> None:
    # FI10's water holds 2 (red), 1 (white), 2 (black): one place stays empty.
    water = content.fishing_cards["FI10"].water
    assert legal_allocations(water, [5, 5, 5, 5]) == [
        ((5,), (5,), (5, 5)),
        ((5, 5), (), (5, 5)),
        ((5, 5), (5,), (5,)),
    ]
    # Location 2 empty: 6 ways to split 4 dice 2+2; location 2 filled: 4 x 6 ways.
    assert len(legal_allocations(water, [1, 2, 3, 4])) == 30


def test_fishing_step4_water_too_small_places_as_many_as_fit() -> None:
    assert legal_allocations([loc(2, "red")], [1, 2, 3, 4]) == [
        ((2, 1),),
        ((3, 1),),
        ((3, 2),),
        ((4, 1),),
        ((4, 2),),
        ((4, 3),),
    ]


@pytest.mark.parametrize("card", [f"FI{n:02d}" for n in range(1, 13)])
def test_fishing_step4_allocations_match_brute_force(content: Content, card: str) -> None:
    water = content.fishing_cards[card].water
    for dice in ([1, 2, 3, 4], [6, 6, 6, 6], [2, 2, 5, 5], [3, 1, 3, 6]):
        assert set(legal_allocations(water, dice)) == brute_force(water, dice)


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 2), min_size=1, max_size=4),
    dice=st.lists(st.integers(1, 6), min_size=1, max_size=4),
)
def test_fishing_step4_allocations_property(sizes: list[int], dice: list[int]) -> None:
    water = [loc(s, "red") for s in sizes]
    allocations = legal_allocations(water, dice)
    assert allocations == sorted(set(allocations))
    assert set(allocations) == brute_force(water, dice)


# --- Step 6: final difficulty and the strike ------------------------------------------


@pytest.mark.parametrize(
    ("base", "modifier", "expected"),
    [
        (4, "+3", 7),
        (6, "+2 mishap", 8),
        (9, "-1 mishap", 8),
        (6, "-3", 3),
        (8, "x2 bonus", 16),
        (4, "x2", 8),
        (5, "×2 mishap", 10),
    ],
)
def test_fishing_step6_final_difficulty(base: int, modifier: str, expected: int) -> None:
    assert final_difficulty(base, FishingModifier.model_validate(modifier)) == expected


def test_fishing_step6_add_modifier_with_mishap(content: Content) -> None:
    # FI01 black: base 6, modifier +2 mishap -> 8; 3+4 = 7 fails.
    card = content.fishing_cards["FI01"]
    strike = resolve_strike(
        card.targets[WaterLine.BLACK], card.modifiers[WaterLine.BLACK], [3, 4], collected=False
    )
    assert (strike.strike_value, strike.difficulty, strike.success) == (7, 8, False)
    assert strike.contents == () and strike.mishap and not strike.bonus


def test_fishing_step6_subtract_modifier(content: Content) -> None:
    # FI06 white: base 6, modifier -3 -> 3; a single 3 equals it: success.
    card = content.fishing_cards["FI06"]
    strike = resolve_strike(
        card.targets[WaterLine.WHITE], card.modifiers[WaterLine.WHITE], [3], collected=False
    )
    assert (strike.difficulty, strike.success) == (3, True)
    assert strike.contents == card.targets[WaterLine.WHITE].contents
    assert not strike.bonus and not strike.mishap


def test_fishing_step6_multiply_modifier(content: Content) -> None:
    # FI04 red: base 4, modifier x2 -> 8; 4+4 = 8 succeeds, 4+3 fails (no mishap).
    card = content.fishing_cards["FI04"]
    target, modifier = card.targets[WaterLine.RED], card.modifiers[WaterLine.RED]
    assert resolve_strike(target, modifier, [4, 4], collected=False).success
    fail = resolve_strike(target, modifier, [4, 3], collected=False)
    assert not fail.success and not fail.mishap


def test_fishing_step6_multiply_modifier_with_bonus(content: Content) -> None:
    # FI02 red: base 8, x2 bonus -> 16: even 6+6 fails; the bonus needs a success.
    card = content.fishing_cards["FI02"]
    strike = resolve_strike(
        card.targets[WaterLine.RED], card.modifiers[WaterLine.RED], [6, 6], collected=False
    )
    assert (strike.difficulty, strike.success, strike.bonus, strike.mishap) == (
        16,
        False,
        False,
        False,
    )


def test_fishing_step7_collected_target_pays_nothing(content: Content) -> None:
    # FI02 black: base 5, +2 bonus -> 7; a 12 succeeds but the target was collected.
    card = content.fishing_cards["FI02"]
    target, modifier = card.targets[WaterLine.BLACK], card.modifiers[WaterLine.BLACK]
    first = resolve_strike(target, modifier, [6, 6], collected=False)
    again = resolve_strike(target, modifier, [6, 6], collected=True)
    assert first.success and first.bonus and first.contents == target.contents
    assert again.success and not again.bonus and again.contents == ()


# --- the whole activity, per terrain (D15) ----------------------------------------------

# Stock FI03: red 6 -> 3 fish; white 6 -> fish + bone; black 6 -> reed.
# Water FI09: location 1 (1 die, red), 2 (2 dice, white), 3 (1 die, black).
# Outcome FI05: red -1 bonus (5), white +1 mishap (7), black +3 bonus (9).
# Dice 6, 5, 2, 1: 6 on 1 (red 6 >= 5: 3 fish + bonus), 5 on 3 (black 5 < 9: no
# mishap under a bonus modifier), 2 and 1 on 2 (white 3 < 7: mishap).
SCRIPT: list[Choice] = [
    "FI03",
    "FI09",
    (6, 5, 2, 1),
    "1",
    "3",
    "2",
    "2",
    "FI05",
    "1/red",
    "3/black",
    "2/white",
]


def test_fishing_lake_bonus_fish_and_mishap_energy(content: Content) -> None:
    proc = play(start(content, "lake"), SCRIPT)
    assert proc.is_finished()
    out = proc.outcome()
    assert out.gained == (BagToken.perishable("fish"),) * 4
    assert out.energy == -1 and out.suffered == ()
    assert out.extra["collected"] == ["red"]


def test_fishing_river_bonus_water_and_mishap_minor_injury(content: Content) -> None:
    out = play(start(content, "river"), SCRIPT).outcome()
    assert Counter(t.name for t in out.gained) == {"fish": 3, "water": 1}
    assert out.suffered == (HealthToken.MINOR_INJURY,) and out.energy == 0


def test_fishing_wetlands_bonus_is_a_choice_and_mishap_minor_disease(content: Content) -> None:
    proc = play(start(content, "wetlands"), SCRIPT[:-3])
    proc = play(proc, ["1/red"])
    step = proc.step()
    assert step.decider is Decider.PLAYER and step.options == ("1", "2")
    assert step.labels == {"1": "gain 1 fiber", "2": "gain 1 wood"}
    assert not proc.is_finished()
    proc = play(proc, ["2", "3/black", "2/white"])
    out = proc.outcome()
    assert out.gained == (
        *(BagToken.perishable("fish"),) * 3,
        BagToken.material("wood", large=True),
    )
    assert out.suffered == (HealthToken.MINOR_DISEASE,)


def test_fishing_step7_each_target_once_in_play(content: Content) -> None:
    # Stock FI01 red: 4 -> fish + shell. Water FI03: 1 (1 die, red), 2 (2, white),
    # 3 (1, black+red), 4 (2, red). Outcome FI05: red -1 bonus (3), white +1 mishap (10).
    # 6+6 on 4 wins red (+ bonus fish); the 6 on 1 also beats red's 3 but red is
    # collected: nothing, and no second bonus; the 1 on 2 fails white: mishap.
    proc = play(
        start(content, "lake"),
        ["FI01", "FI03", (6, 6, 6, 1), "4", "4", "1", "2", "FI05", "4/red", "1/red", "2/white"],
    )
    out = proc.outcome()
    assert Counter(t.name for t in out.gained) == {"fish": 2, "shell": 1}
    assert out.energy == -1
    assert "collected" in out.log[-3]


def test_fishing_a_card_is_drawn_once(content: Content) -> None:
    proc = play(start(content, "lake"), ["FI03"])
    assert len(proc.step().options) == 11 and "FI03" not in proc.step().options
    # FI06's water: 1 (2 dice, red), 2 (1, white), 3 (2, black+white), 4 (1, black+red).
    proc = play(proc, ["FI06", (1, 2, 3, 4), "1", "1", "3", "4"])
    options = proc.step().options
    assert proc.step().decider is Decider.CARD and len(options) == 10
    assert "FI03" not in options and "FI06" not in options


def test_fishing_steps_in_rulebook_order(content: Content) -> None:
    proc = start(content, "lake")
    seen = []
    for choice in SCRIPT:
        step = proc.step()
        seen.append(step.decider)
        if step.decider is Decider.CARD:
            assert choice in step.options
        proc = proc.apply(choice)
    assert seen == [
        Decider.CARD,
        Decider.CARD,
        Decider.DICE,
        *[Decider.PLAYER] * 4,
        Decider.CARD,
        *[Decider.PLAYER] * 3,
    ]
    assert proc.dice == (6, 5, 2, 1) and proc.placed == ((6,), (2, 1), (5,))
    with pytest.raises(IllegalAction):
        proc.apply("1/red")


@pytest.mark.parametrize(
    ("prefix", "bad"),
    [
        ([], "XX99"),
        (["FI03"], "FI03"),  # the stock card is not in the deck any more
        (["FI03", "FI09"], (6, 5, 2)),
        (["FI03", "FI09"], (6, 5, 2, 7)),
        (["FI03", "FI09"], "6521"),
        (["FI03", "FI09", (6, 5, 2, 1)], "4"),
        (["FI03", "FI09", (6, 5, 2, 1), "1"], "1"),  # location 1 holds one die
        (SCRIPT[:8], "1/white"),  # the white line does not cross location 1
        (SCRIPT[:9], "1/red"),  # its dice are gone
    ],
)
def test_fishing_refuses_illegal_inputs(
    content: Content, prefix: list[Choice], bad: Choice
) -> None:
    proc = play(start(content, "lake"), prefix)
    state = proc.to_state()
    with pytest.raises(IllegalAction):
        proc.apply(bad)
    assert proc.to_state() == state


def test_fishing_start_checks_the_deck_and_tokens(content: Content) -> None:
    lake = content.features["lake"].fishing
    assert lake is not None
    cards = list(content.fishing_cards.values())
    tokens = token_catalogue(content.materials.values(), content.foods.values())
    with pytest.raises(IllegalAction, match="at least 3"):
        FishingProcedure.start("Ash", "lake", lake, cards[:2], tokens, 4)
    with pytest.raises(IllegalAction, match="fish"):
        FishingProcedure.start("Ash", "lake", lake, cards, {}, 4)
    with pytest.raises(IllegalAction, match="twice"):
        FishingProcedure.start("Ash", "lake", lake, cards + cards[:1], tokens, 4)


def test_fishing_describe_names_the_layout(content: Content) -> None:
    text = play(start(content, "lake"), SCRIPT).describe()
    assert "Stock FI03" in text and "Water FI09" in text and "Outcome FI05" in text
    assert "Mishap: lose 1 energy." in text
