"""Rulebook: Game Structure > Day Phase, Day Actions, Action Order; Actions (Move, Explore,
Revive, Feature Actions); Processing; Solo Play > Hardcore Solo > Action Costs (D19);
readings D1-D4."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.content.schema.base import HealthToken as H
from companion.content.schema.base import Slot
from companion.content.schema.rules import RulesConstants
from companion.rules.day import (
    action_cost,
    all_passed,
    exchange_item,
    exchange_tokens,
    explore,
    feature_action,
    gather_water,
    move,
    pass_turn,
    prepare_shelter,
    process,
    revive,
)
from companion.rules.errors import IllegalAction
from companion.rules.game import Day, Game, Phase
from companion.rules.ids import FeatureId, HexId, Icon, ItemId, OutpostId
from companion.rules.inventory import ItemFacts
from companion.rules.outposts import FeatureAction, FeatureFacts, Outpost
from companion.rules.resources import BagToken, Side, TokenKind
from companion.rules.society import Society
from companion.rules.valley import HexTokens
from tests.rules.factories import HARDCORE, make

H1, H2 = HexId("H1"), HexId("H2")
CAVE = FeatureFacts(
    FeatureId("cave"),
    actions=frozenset({FeatureAction.PREPARE_SHELTER, FeatureAction.MINE, FeatureAction.DELVE}),
)
LAKE = FeatureFacts(
    FeatureId("lake"), actions=frozenset({FeatureAction.GATHER_WATER, FeatureAction.FISH})
)
PLAINS = FeatureFacts(
    FeatureId("plains"), open_terrain=True, actions=frozenset({FeatureAction.FORAGE})
)


def game(*names: str, **changes: object) -> Game:
    return Game(tuple(make(n) for n in (names or ("Ash", "Bryn", "Tam"))), **changes)  # type: ignore[arg-type]


def energy(g: Game, name: str = "Ash") -> int:
    return g.character(name).energy


def test_action_order_no_two_actions_in_a_row(rules: RulesConstants) -> None:
    g = explore(rules, game(), "Ash", H2)
    with pytest.raises(
        IllegalAction,
        match="^Ash has already taken the last action; Bryn or Tam must act or pass first$",
    ):
        move(rules, g, "Ash", H1, obstructed=False)
    g = pass_turn(g, "Bryn")
    with pytest.raises(IllegalAction, match="Tam must act or pass first$"):
        move(rules, g, "Ash", H1, obstructed=False)
    g = move(rules, g, "Tam", H2, obstructed=False)
    g = move(rules, g, "Ash", H1, obstructed=False)  # Tam acted in between
    g = pass_turn(g, "Tam")
    g = move(rules, g, "Ash", H2, obstructed=False)  # all others passed
    assert energy(g) == 4 - 2 - 1 - 1


def test_day_phase_passing(rules: RulesConstants) -> None:
    g = pass_turn(game(), "Ash")
    with pytest.raises(IllegalAction, match="Ash has passed this Day"):
        explore(rules, g, "Ash", H2)
    with pytest.raises(IllegalAction, match="already passed"):
        pass_turn(g, "Ash")
    assert not all_passed(g)  # the Night (operations.start_night) waits for Bryn and Tam


def test_day_phase_ends_when_all_passed_no_day_action_at_night(rules: RulesConstants) -> None:
    g = game()
    for name in ("Ash", "Bryn", "Tam"):
        g = pass_turn(g, name)
    assert all_passed(g)
    night = replace(g, day=Day(phase=Phase.NIGHT))  # rules.night plays the Night itself
    with pytest.raises(IllegalAction, match="only during the Day"):
        explore(rules, night, "Ash", H2)


@pytest.mark.parametrize(("obstructed", "cost"), [(False, 1), (True, 2)])
def test_actions_move_costs_1_plus_1_when_obstructed(
    rules: RulesConstants, obstructed: bool, cost: int
) -> None:
    g = move(rules, game(), "Ash", H2, obstructed=obstructed)
    assert (energy(g), g.character("Ash").hex) == (4 - cost, H2)


def test_actions_cost_refused_in_game_words(rules: RulesConstants) -> None:
    g = game()
    g = g.with_characters(replace(g.character("Ash"), energy=1))
    with pytest.raises(IllegalAction, match="^Ash has 1 energy; Explore costs 2$"):
        explore(rules, g, "Ash", H2)
    with pytest.raises(IllegalAction, match="^Ash has 1 energy; Move costs 2$"):
        move(rules, g, "Ash", H2, obstructed=True)


def test_actions_explore_costs_2(rules: RulesConstants) -> None:
    assert energy(explore(rules, game(), "Ash", H2)) == 2


def test_lore_in_the_valley_collected_on_entering(rules: RulesConstants) -> None:
    g = game(tokens=HexTokens(lore={H2: 2}), society=Society(lore=1))
    g = move(rules, g, "Ash", H2, obstructed=False)
    assert (g.society.lore, dict(g.tokens.lore)) == (3, {})


def test_actions_revive_costs_2_degrades_one_token(rules: RulesConstants) -> None:
    g = game()
    g = g.with_characters(
        replace(g.character("Tam"), health=(H.MAJOR_INJURY, H.MINOR_DISEASE, H.MINOR_INJURY))
    )
    g2 = revive(rules, g, "Ash", "Tam", 0)
    assert g2.character("Tam").health == (H.MINOR_INJURY, H.MINOR_DISEASE, H.MINOR_INJURY)
    assert energy(g2) == 2
    with pytest.raises(IllegalAction, match="Tam is incapacitated and cannot take actions"):
        explore(rules, g, "Tam", H2)


@pytest.mark.parametrize(
    ("tam_health", "tam_hex", "message"),
    [
        ((H.MINOR_INJURY,), H1, "Tam is not incapacitated"),
        ((H.MINOR_INJURY,) * 3, H2, "Tam is not in Ash's hex"),
    ],
)
def test_actions_revive_refused(
    rules: RulesConstants, tam_health: tuple[H, ...], tam_hex: HexId, message: str
) -> None:
    g = game()
    g = g.with_characters(replace(g.character("Tam"), health=tam_health, hex=tam_hex))
    with pytest.raises(IllegalAction, match=message):
        revive(rules, g, "Ash", "Tam", 0)


def test_feature_actions_prepare_shelter(rules: RulesConstants) -> None:
    g = prepare_shelter(rules, game(), "Ash", CAVE)
    assert (g.tokens.shelters, energy(g)) == (frozenset({H1}), 3)
    with pytest.raises(IllegalAction, match="Prepare shelter is not done at a lake"):
        prepare_shelter(rules, game(), "Ash", LAKE)


def test_feature_actions_covered_feature_inaccessible(rules: RulesConstants) -> None:
    outpost = Outpost(OutpostId("o1"), "Hearth", 1, H1, FeatureId("cave"))
    with pytest.raises(IllegalAction, match="covered by an outpost"):
        prepare_shelter(rules, game(outposts=(outpost,)), "Ash", CAVE)


def test_feature_actions_gather_water_gains_2(rules: RulesConstants) -> None:
    g = gather_water(rules, game(), "Ash", LAKE, 2)
    assert g.character("Ash").bag == (BagToken.water(), BagToken.water())
    assert energy(g) == 3


@pytest.mark.parametrize(
    ("action", "feature", "cost"),
    [
        (FeatureAction.FORAGE, PLAINS, 2),
        (FeatureAction.FISH, LAKE, 2),
        (FeatureAction.MINE, CAVE, 2),
        (FeatureAction.DELVE, CAVE, 1),
    ],
)
def test_feature_actions_costs_d1_to_d4(
    rules: RulesConstants, action: FeatureAction, feature: FeatureFacts, cost: int
) -> None:
    g = game(society=Society(delving_unlocked=True))
    assert energy(feature_action(rules, g, "Ash", action, feature)) == 4 - cost


def test_feature_actions_delve_refused_unless_unlocked_d4(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="Delving is not available"):
        feature_action(rules, game(), "Ash", FeatureAction.DELVE, CAVE)


def test_feature_actions_only_where_the_feature_offers_them(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="Fish is not done at a plains"):
        feature_action(rules, game(), "Ash", FeatureAction.FISH, PLAINS)


BLADE = Icon("blade")
KNIFE = ItemFacts(ItemId("knife"), Slot.HAND, processing_icons=(BLADE, BLADE))
NEEDS = {
    "fiber": (BLADE,),
    "bone": (BLADE,),
    "hide": (Icon("energy"), Icon("energy")),
    "nuts": (Icon("energy"),),
}
FIBER, BONE, HIDE = (BagToken.material(n) for n in ("fiber", "bone", "hide"))


def processor(*bag: BagToken) -> Game:
    g = game()
    return g.with_characters(replace(g.character("Ash"), bag=bag, items=((KNIFE.id, Slot.HAND),)))


@pytest.mark.parametrize(
    ("bag", "chosen", "cost"),
    [
        ((FIBER, BONE), [0, 1], 1),  # two blades: fiber and bone
        ((FIBER, FIBER), [0, 1], 1),
        ((HIDE,), [0], 1 + 2),  # the energy icon as often as paid
        ((BagToken.tough("nuts"),), [0], 1 + 1),  # tough food is processed too
    ],
)
def test_processing_each_icon_once_energy_icon_as_often_as_paid(
    rules: RulesConstants, bag: tuple[BagToken, ...], chosen: list[int], cost: int
) -> None:
    g = process(rules, processor(*bag), "Ash", chosen, NEEDS, {KNIFE.id: KNIFE})
    assert energy(g) == 4 - cost
    assert all(t.side is Side.PROCESSED for t in g.character("Ash").bag)


def test_processing_icon_used_up(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="no blade icon left to process the bone"):
        process(rules, processor(FIBER, FIBER, BONE), "Ash", [0, 1, 2], NEEDS, {KNIFE.id: KNIFE})


def test_processing_refuses_processed_and_water(rules: RulesConstants) -> None:
    done = BagToken(TokenKind.MATERIAL, "fiber", Side.PROCESSED)
    with pytest.raises(IllegalAction, match="already processed"):
        process(rules, processor(done), "Ash", [0], NEEDS, {KNIFE.id: KNIFE})
    with pytest.raises(IllegalAction, match="cannot be processed"):
        process(rules, processor(BagToken.water()), "Ash", [0], NEEDS, {KNIFE.id: KNIFE})


def test_hardcore_solo_first_action_each_day_costs_1_less_d19(rules: RulesConstants) -> None:
    g = Game((make("Solo", track_rules=HARDCORE, energy=5, energy_max=5),))
    assert action_cost(rules, g, "Solo", 2) == 1
    g = explore(rules, g, "Solo", H2)
    assert energy(g, "Solo") == 4
    assert action_cost(rules, g, "Solo", 2) == 2
    g = explore(rules, g, "Solo", H1)  # alone: no one else must pass first
    assert energy(g, "Solo") == 2
    new_day = replace(pass_turn(g, "Solo"), day=Day())  # after the Night
    assert action_cost(rules, new_day, "Solo", 1) == 0


def test_day_actions_exchange_only_during_the_day(rules: RulesConstants) -> None:
    g = game()
    g = g.with_characters(replace(g.character("Ash"), items=((KNIFE.id, Slot.HAND),), bag=(FIBER,)))
    g2 = exchange_item(rules, g, "Ash", "Bryn", KNIFE.id)
    assert g2.character("Bryn").items == ((KNIFE.id, Slot.HAND),)
    g3 = exchange_tokens(g, "Ash", "Bryn", [0])
    assert g3.character("Bryn").bag == (FIBER,)
    night = replace(g, day=replace(g.day, phase=Phase.NIGHT))
    with pytest.raises(IllegalAction, match="during the Night"):
        exchange_item(rules, night, "Ash", "Bryn", KNIFE.id)
    with pytest.raises(IllegalAction, match="during the Night"):
        exchange_tokens(night, "Ash", "Bryn", [0])


def test_day_actions_need_a_placed_character(rules: RulesConstants) -> None:
    g = Game((make("Ash", hex=None), make("Bryn")))
    with pytest.raises(IllegalAction, match="Ash has not been placed in the valley"):
        prepare_shelter(rules, g, "Ash", CAVE)
