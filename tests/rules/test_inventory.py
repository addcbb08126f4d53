"""Rulebook: Mantle > Item Slots, Exceeding Item Limits, Losing Items, Bag (D11); Night >
Degrade Food, Reconcile Inventory; Tokens; Day Actions (exchanges)."""

from __future__ import annotations

import pytest

from companion.content.schema.base import Slot
from companion.content.schema.rules import RulesConstants
from companion.rules.errors import IllegalAction
from companion.rules.ids import ContainerId, HexId, ItemId
from companion.rules.inventory import (
    Container,
    ItemFacts,
    bag_cells,
    degrade_food,
    equip,
    give_item,
    give_tokens,
    lose_item,
    processed,
    receive_item,
    retrieve_tokens,
    store_tokens,
)
from companion.rules.resources import BagToken, Side, TokenKind
from tests.rules.factories import make


def item(name: str, slot: Slot) -> ItemFacts:
    return ItemFacts(ItemId(name), slot)


def held(*items: tuple[str, Slot]) -> tuple[tuple[ItemId, Slot], ...]:
    return tuple((ItemId(i), s) for i, s in items)


@pytest.mark.parametrize(("slot", "limit"), [(Slot.HAND, 2), (Slot.BODY, 3), (Slot.GEAR, 3)])
def test_item_slots_2_hand_3_body_3_gear_d11(rules: RulesConstants, slot: Slot, limit: int) -> None:
    ash = make()
    for n in range(limit):
        ash = equip(rules, ash, item(f"i{n}", slot))
    assert ash.slots_used(slot) == limit
    with pytest.raises(IllegalAction, match=f"already has {limit} {slot} items"):
        equip(rules, ash, item("one-too-many", slot))


FULL_HANDS = held(("axe", Slot.HAND), ("spear", Slot.HAND))


def test_exceeding_item_limits_give_to_character_in_same_hex(rules: RulesConstants) -> None:
    ash, bryn = make("Ash", items=FULL_HANDS), make("Bryn")
    ash, bryn2, lost = receive_item(
        rules, ash, item("knife", Slot.HAND), excess=ItemId("axe"), give_excess_to=bryn
    )
    assert [i for i, _ in ash.items] == ["spear", "knife"]
    assert bryn2 is not None and bryn2.items == held(("axe", Slot.HAND))
    assert lost is None


def test_exceeding_item_limits_lose_it_otherwise(rules: RulesConstants) -> None:
    ash, _, lost = receive_item(
        rules, make(items=FULL_HANDS), item("knife", Slot.HAND), excess=ItemId("knife")
    )
    assert ash.items == FULL_HANDS and lost == "knife"


@pytest.mark.parametrize(
    ("receiver_hex", "receiver_items", "message"),
    [("H2", (), "not in the same hex"), ("H1", FULL_HANDS, "Bryn has no free hand slot")],
)
def test_exceeding_item_limits_receiver_must_be_in_hex_with_room(
    rules: RulesConstants,
    receiver_hex: str,
    receiver_items: tuple[tuple[ItemId, Slot], ...],
    message: str,
) -> None:
    bryn = make("Bryn", hex=HexId(receiver_hex), items=receiver_items)
    with pytest.raises(IllegalAction, match=message):
        receive_item(
            rules,
            make(items=FULL_HANDS),
            item("knife", Slot.HAND),
            excess=ItemId("axe"),
            give_excess_to=bryn,
        )


def test_exceeding_item_limits_needs_a_choice(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="choose an item"):
        receive_item(rules, make(items=FULL_HANDS), item("knife", Slot.HAND))


def test_losing_items() -> None:
    assert lose_item(make(items=FULL_HANDS), ItemId("axe")).items == held(("spear", Slot.HAND))
    with pytest.raises(IllegalAction, match="has no item bow"):
        lose_item(make(), ItemId("bow"))


def test_day_actions_exchange_items_in_same_hex(rules: RulesConstants) -> None:
    ash, bryn = give_item(rules, make("Ash", items=FULL_HANDS), make("Bryn"), ItemId("axe"))
    assert (len(ash.items), bryn.items) == (1, held(("axe", Slot.HAND)))
    with pytest.raises(IllegalAction, match="not in the same hex"):
        give_item(
            rules, make("Ash", items=FULL_HANDS), make("Bryn", hex=HexId("H9")), ItemId("axe")
        )


FIBER = BagToken.material("fiber")
STONE = BagToken.material("stone", large=True)
FISH = BagToken.perishable("fish")
NUTS = BagToken.tough("nuts")
WATER = BagToken.water()
FERMENTED_FISH = BagToken(TokenKind.PERISHABLE_FOOD, "fish", Side.FERMENTED)


def test_bag_cells_by_token_kind(rules: RulesConstants) -> None:
    # large material 2, small material 1, food 1, water 1
    assert bag_cells(rules, (FIBER, STONE, FISH, NUTS, WATER)) == 6


@pytest.mark.parametrize(
    ("token", "after"),
    [
        (FISH, (FERMENTED_FISH,)),
        (FERMENTED_FISH, ()),
        (BagToken("perishable_food", "fish", "fermented"), ()),  # type: ignore[arg-type]
        (NUTS, (NUTS,)),
        (FIBER, (FIBER,)),
        (WATER, (WATER,)),
    ],
)
def test_degrade_food_fresh_fermented_discarded(
    token: BagToken, after: tuple[BagToken, ...]
) -> None:
    assert degrade_food((token,)) == after


def test_tokens_gained_unprocessed_or_fresh_tough_food_edible_once_processed() -> None:
    assert FIBER.side is Side.UNPROCESSED and FISH.side is Side.FRESH
    assert not NUTS.edible and processed(NUTS).edible and FISH.edible
    with pytest.raises(IllegalAction, match="already processed"):
        processed(processed(FIBER))
    with pytest.raises(IllegalAction, match="cannot be processed"):
        processed(WATER)


def test_day_actions_exchange_materials_in_same_hex() -> None:
    ash, bryn = give_tokens(make("Ash", bag=(FIBER, FISH)), make("Bryn"), [1])
    assert (ash.bag, bryn.bag) == ((FIBER,), (FISH,))


def test_day_actions_storage_container_in_hex() -> None:
    box = Container(ContainerId("granary"), HexId("H1"), accepts=frozenset({"fiber"}))
    ash, box2 = store_tokens(make(bag=(FIBER, STONE)), box, [0])
    assert (ash.bag, box2.tokens) == ((STONE,), (FIBER,))
    with pytest.raises(IllegalAction, match="cannot store stone"):
        store_tokens(ash, box2, [0])
    with pytest.raises(IllegalAction, match="holds materials"):
        store_tokens(make(bag=(FISH,)), box, [0])
    with pytest.raises(IllegalAction, match="not in the hex"):
        store_tokens(make(bag=(FIBER,), hex=HexId("H2")), box, [0])
    ash, box3 = retrieve_tokens(ash, box2, [0])
    assert (ash.bag, box3.tokens) == ((STONE, FIBER), ())


@pytest.mark.parametrize(("capacity", "held", "storing", "refusal"), [
    # Reading D21: a store holds what its card says. Storehouse: 3. 0 held + 3 = 3 fits.
    (3, 0, 3, None),
    # 2 held + 2 = 4 > 3: refused, room for 1 (3 - 2).
    (3, 2, 2, "holds at most 3 materials \\(2 stored, room for 1\\); 2 will not fit"),
    # An outpost that lost its store: capacity 0, nothing more goes in (0 + 1 > 0).
    (0, 1, 1, "holds at most 0 materials"),
    # No limit printed: 8 held + 4 = 12 fits.
    (None, 8, 4, None),
])
def test_day_actions_storage_container_holds_what_its_card_says(
        capacity: int | None, held: int, storing: int, refusal: str | None) -> None:
    """Rulebook: Day Actions ("exchange materials with any storage container"); D21."""
    box = Container(ContainerId("1"), HexId("H1"), (STONE,) * held, capacity=capacity,
                    name="the Storehouse at Hearth")
    ash = make(bag=(FIBER,) * storing)
    if refusal is None:
        ash, box = store_tokens(ash, box, list(range(storing)))
        assert (ash.bag, len(box.tokens)) == ((), held + storing)
        return
    with pytest.raises(IllegalAction, match=f"the Storehouse at Hearth {refusal}"):
        store_tokens(ash, box, list(range(storing)))
