"""Rulebook: Mantle > Item Slots, Exceeding Item Limits (D11: 2 hand, 3 body, 3 gear);
Game Structure > Day Actions (exchanges). An item beyond the slots is held until the
player chooses which item goes and to whom; it is lost only when no one in the hex has
room, and the character takes no action before choosing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.content.schema.base import Slot
from companion.content.schema.rules import RulesConstants
from companion.rules.day import (
    check_item_limits,
    excess_refusal,
    exchange_item,
    gather_water,
    receive_item_choosing,
    room_for,
    settle,
)
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import FeatureId, HexId, ItemId
from companion.rules.inventory import ItemFacts, hold_item, over_limit
from companion.rules.outposts import FeatureAction, FeatureFacts
from tests.rules.factories import make

H1, H2 = HexId("H1"), HexId("H2")
KNIFE, SLING, TORCH = ItemId("knife"), ItemId("sling"), ItemId("torch")
HAND = {i: ItemFacts(i, Slot.HAND) for i in (KNIFE, SLING, TORCH)}
LAKE = FeatureFacts(FeatureId("lake"), actions=frozenset({FeatureAction.GATHER_WATER}))


def hands(*held: ItemId) -> tuple[tuple[ItemId, Slot], ...]:
    return tuple((i, Slot.HAND) for i in held)


def game(ash: tuple[ItemId, ...] = (), bryn: tuple[ItemId, ...] = (),
         bryn_hex: HexId = H1) -> Game:
    return Game((make("Ash", items=hands(*ash), hex=H1),
                 make("Bryn", items=hands(*bryn), hex=bryn_hex)))


def held(g: Game, name: str) -> list[str]:
    return [str(i) for i, _ in g.character(name).items]


@pytest.mark.parametrize(
    ("ash", "bryn", "bryn_hex", "excess", "to", "ash_after", "bryn_after", "refusal"),
    [
        # A free slot: equipped, nothing to choose.
        ((KNIFE,), (), H1, None, None, ["knife", "torch"], [], None),
        # Full: without a choice, refused in game words, naming who has room.
        ((KNIFE, SLING), (), H1, None, None, None, None,
         "Ash holds 3 hand items: choose one to give to Bryn"),
        # The choice: the new item or an old one, to a character in the hex with room.
        ((KNIFE, SLING), (), H1, TORCH, "Bryn", ["knife", "sling"], ["torch"], None),
        ((KNIFE, SLING), (), H1, KNIFE, "Bryn", ["sling", "torch"], ["knife"], None),
        # Lost only when nobody can take it.
        ((KNIFE, SLING), (), H1, SLING, None, None, None,
         "Bryn has room for a hand item: give the sling rather than lose it"),
        ((KNIFE, SLING), (KNIFE, SLING), H1, SLING, None, ["knife", "torch"],
         ["knife", "sling"], None),
        ((KNIFE, SLING), (), H2, TORCH, None, ["knife", "sling"], [], None),
        # Only to a character in the same hex, with a free slot.
        ((KNIFE, SLING), (), H2, TORCH, "Bryn", None, None, "not in the same hex"),
        ((KNIFE, SLING), (KNIFE, SLING), H1, TORCH, "Bryn", None, None,
         "Bryn has no free hand slot"),
    ],
)
def test_mantle_exceeding_item_limits_receive_with_a_choice(
    rules: RulesConstants, ash: tuple[ItemId, ...], bryn: tuple[ItemId, ...],
    bryn_hex: HexId, excess: ItemId | None, to: str | None, ash_after: list[str] | None,
    bryn_after: list[str] | None, refusal: str | None,
) -> None:
    g = game(ash, bryn, bryn_hex)
    if refusal is not None:
        with pytest.raises(IllegalAction, match=refusal):
            receive_item_choosing(rules, g, "Ash", HAND[TORCH], excess=excess, excess_to=to)
        return
    after = receive_item_choosing(rules, g, "Ash", HAND[TORCH], excess=excess, excess_to=to)
    assert held(after, "Ash") == ash_after and held(after, "Bryn") == bryn_after
    assert over_limit(rules, after.character("Ash")) == ()


def test_mantle_exceeding_item_limits_no_action_before_the_choice(rules: RulesConstants) -> None:
    g = game((KNIFE, SLING))
    g = g.with_characters(hold_item(g.character("Ash"), HAND[TORCH]))
    assert over_limit(rules, g.character("Ash")) == ((Slot.HAND, 3, 2),)
    assert room_for(rules, g, "Ash", Slot.HAND) == ["Bryn"]
    assert excess_refusal(rules, g, "Ash", Slot.HAND) == \
        "Ash holds 3 hand items: choose one to give to Bryn"
    with pytest.raises(IllegalAction, match="Ash holds 3 hand items"):
        gather_water(rules, g, "Ash", LAKE, 2)
    with pytest.raises(IllegalAction, match="Ash holds 3 hand items"):
        check_item_limits(rules, g, "Ash")
    check_item_limits(rules, g, "Bryn")  # only the holder waits
    settled = settle(rules, g, "Ash", TORCH, "Bryn")
    check_item_limits(rules, settled, "Ash")
    before = settled.character("Ash").energy
    assert gather_water(rules, settled, "Ash", LAKE, 2).character("Ash").energy == before - 1
    with pytest.raises(IllegalAction, match="room for every hand item"):
        settle(rules, settled, "Ash", KNIFE, "Bryn")


def test_day_actions_exchange_into_a_full_slot_is_a_choice(rules: RulesConstants) -> None:
    g = game((TORCH,), (KNIFE, SLING))
    with pytest.raises(IllegalAction, match="Bryn holds 3 hand items: choose one to give "
                                            "to Ash"):
        exchange_item(rules, g, "Ash", "Bryn", TORCH)
    swapped = exchange_item(rules, g, "Ash", "Bryn", TORCH, excess=KNIFE, excess_to="Ash")
    assert held(swapped, "Ash") == ["knife"] and held(swapped, "Bryn") == ["sling", "torch"]
    apart = replace(g, characters=(g.character("Ash"),
                                   replace(g.character("Bryn"), hex=H2)))
    with pytest.raises(IllegalAction, match="not in the same hex"):
        exchange_item(rules, apart, "Ash", "Bryn", TORCH)
