"""Items, the bag, storage containers and exchanges.

Rulebook: Mantle > Bag, Item Slots, Exceeding Item Limits, Losing Items; Day Phase > Day
Actions (exchanges); Night Phase > Degrade Food, Reconcile Inventory; reading D11.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.content.schema.base import Slot
from companion.content.schema.rules import RulesConstants
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.ids import ContainerId, HexId, Icon, ItemId, Technology
from companion.rules.resources import BagToken, Side, TokenKind


@dataclass(frozen=True)
class ItemFacts:
    """What the rules need of an item card; filled from Content by the operations layer."""

    id: ItemId
    """The item card's id."""
    slot: Slot
    """The slot it takes on the mantle."""
    technologies: frozenset[Technology] = frozenset()
    """Technology icons (wood, water, stone ...) for outposts and structures."""
    processing_icons: tuple[Icon, ...] = ()
    """Processing icons the item gives (each usable once per Process action)."""


# --- items ----------------------------------------------------------------------------


def _free_slots(rules: RulesConstants, character: Character, slot: Slot) -> int:
    """How many more items ``slot`` holds (D11: ``rules.item_slots``)."""
    return rules.item_slots.get(slot, 0) - character.slots_used(slot)


def equip(rules: RulesConstants, character: Character, item: ItemFacts) -> Character:
    """Equip an item in a free slot; refused when the slot is full (see :func:`receive_item`)."""
    if _free_slots(rules, character, item.slot) <= 0:
        limit = rules.item_slots.get(item.slot, 0)
        raise IllegalAction(
            f"{character.name} already has {limit} {item.slot} item{'s' if limit != 1 else ''}"
        )
    return replace(character, items=(*character.items, (item.id, item.slot)))


def lose_item(character: Character, item: ItemId) -> Character:
    """The character loses the item; it returns to the item deck (Rulebook: Losing Items)."""
    for index, (held, _) in enumerate(character.items):
        if held == item:
            return replace(character, items=character.items[:index] + character.items[index + 1 :])
    raise IllegalAction(f"{character.name} has no item {item}")


def item_slot(character: Character, item: ItemId) -> Slot:
    """The slot an equipped item takes."""
    for held, slot in character.items:
        if held == item:
            return slot
    raise IllegalAction(f"{character.name} has no item {item}")


def receive_item(
    rules: RulesConstants,
    character: Character,
    item: ItemFacts,
    *,
    excess: ItemId | None = None,
    give_excess_to: Character | None = None,
) -> tuple[Character, Character | None, ItemId | None]:
    """A character crafts or receives ``item``; apply the item limit (Exceeding Item Limits).

    With the slot full, the character chooses one item of that slot (``excess``, which may
    be the new one) and gives it to another character in the same hex who has room, or
    loses it. Returns (character, the receiver of the excess or None, the lost item or None).
    """
    if _free_slots(rules, character, item.slot) > 0:
        return equip(rules, character, item), give_excess_to, None
    if excess is None:
        raise IllegalAction(
            f"{character.name} has no free {item.slot} slot; choose an item to give away or lose"
        )
    held = replace(character, items=(*character.items, (item.id, item.slot)))
    if item_slot(held, excess) is not item.slot:
        raise IllegalAction(f"{excess} is not a {item.slot} item")
    held = lose_item(held, excess)
    if give_excess_to is None:
        return held, None, excess
    _same_hex(character, give_excess_to)
    if _free_slots(rules, give_excess_to, item.slot) <= 0:
        raise IllegalAction(f"{give_excess_to.name} has no free {item.slot} slot")
    receiver = replace(give_excess_to, items=(*give_excess_to.items, (excess, item.slot)))
    return held, receiver, None


def _same_hex(a: Character, b: Character) -> None:
    if a.name == b.name:
        raise IllegalAction(f"{a.name} cannot exchange with themself")
    if a.hex is None or a.hex != b.hex:
        raise IllegalAction(f"{a.name} and {b.name} are not in the same hex")


def give_item(
    rules: RulesConstants, giver: Character, receiver: Character, item: ItemId
) -> tuple[Character, Character]:
    """Exchange: give an item to a character in the same hex who has a free slot."""
    _same_hex(giver, receiver)
    slot = item_slot(giver, item)
    if _free_slots(rules, receiver, slot) <= 0:
        raise IllegalAction(f"{receiver.name} has no free {slot} slot")
    return lose_item(giver, item), replace(receiver, items=(*receiver.items, (item, slot)))


def hold_item(character: Character, item: ItemFacts) -> Character:
    """The character gets ``item`` even when its slot is full (Exceeding Item Limits).

    Crafting, card effects, Discovery and exchanges all hand items over this way; an
    excess is then settled by the player with :func:`settle_excess` (which item goes,
    and to whom) before the character acts again (D11).
    """
    return replace(character, items=(*character.items, (item.id, item.slot)))


def over_limit(rules: RulesConstants, character: Character) -> tuple[tuple[Slot, int, int], ...]:
    """Each slot the character holds too many items for: (slot, held, limit)."""
    out = []
    for slot in dict.fromkeys(s for _, s in character.items):
        held, limit = character.slots_used(slot), rules.item_slots.get(slot, 0)
        if held > limit:
            out.append((slot, held, limit))
    return tuple(out)


def settle_excess(
    rules: RulesConstants, holder: Character, item: ItemId, receiver: Character | None
) -> tuple[Character, Character | None]:
    """Settle an excess item: ``item`` (of a slot the holder has too many of) goes to
    ``receiver``, a character in the same hex with a free slot of that kind, or is lost
    when ``receiver`` is None. Rulebook: Mantle > Exceeding Item Limits (D11).
    """
    slot = item_slot(holder, item)
    if all(s is not slot for s, _, _ in over_limit(rules, holder)):
        raise IllegalAction(
            f"{holder.name} has room for every {slot} item they hold; nothing must go"
        )
    held = lose_item(holder, item)
    if receiver is None:
        return held, None
    _same_hex(holder, receiver)
    if _free_slots(rules, receiver, slot) <= 0:
        raise IllegalAction(f"{receiver.name} has no free {slot} slot")
    return held, replace(receiver, items=(*receiver.items, (item, slot)))


# --- the bag --------------------------------------------------------------------------


def _token_cells(rules: RulesConstants, token: BagToken) -> int:
    """Cells a token covers in the bag (``rules.bag``)."""
    if token.kind is TokenKind.MATERIAL:
        return rules.bag.large_material_cells if token.large else rules.bag.small_material_cells
    if token.kind is TokenKind.WATER:
        return rules.bag.water_cells
    return rules.bag.food_cells


def bag_cells(rules: RulesConstants, tokens: Sequence[BagToken]) -> int:
    """Cells the tokens cover."""
    return sum(_token_cells(rules, t) for t in tokens)


def gain_tokens(character: Character, tokens: Sequence[BagToken]) -> Character:
    """Put tokens in the bag; what does not fit is discarded at Reconcile Inventory."""
    return replace(character, bag=(*character.bag, *tokens))


def take_tokens(
    character: Character, indices: Sequence[int]
) -> tuple[Character, tuple[BagToken, ...]]:
    """Remove the bag tokens at ``indices``; returns the character and those tokens."""
    chosen = set(indices)
    if len(chosen) != len(indices):
        raise IllegalAction("the same token was chosen twice")
    for index in chosen:
        if not 0 <= index < len(character.bag):
            raise IllegalAction(f"{character.name} has no token number {index + 1} in the bag")
    taken = tuple(character.bag[i] for i in sorted(chosen))
    kept = tuple(t for i, t in enumerate(character.bag) if i not in chosen)
    return replace(character, bag=kept), taken


def degrade_food(tokens: Sequence[BagToken]) -> tuple[BagToken, ...]:
    """Degrade Food: fresh perishable food ferments, fermented food is discarded.

    Rulebook: Night Phase > Degrade Food.

    >>> [str(t) for t in degrade_food((BagToken.perishable("fish"), BagToken.water()))]
    ['fermented fish', 'water']
    >>> degrade_food(degrade_food((BagToken.perishable("fish"),)))
    ()
    """
    out: list[BagToken] = []
    for token in tokens:
        if token.kind is TokenKind.PERISHABLE_FOOD:
            if token.side is Side.FRESH:
                out.append(replace(token, side=Side.FERMENTED))
        else:
            out.append(token)
    return tuple(out)


def processed(token: BagToken) -> BagToken:
    """Flip a material or tough food from unprocessed to processed (Rulebook: Processing)."""
    if token.kind not in (TokenKind.MATERIAL, TokenKind.TOUGH_FOOD):
        raise IllegalAction(f"{token.name} cannot be processed")
    if token.side is not Side.UNPROCESSED:
        raise IllegalAction(f"the {token.name} is already processed")
    return replace(token, side=Side.PROCESSED)


def give_tokens(
    giver: Character, receiver: Character, indices: Sequence[int]
) -> tuple[Character, Character]:
    """Exchange: give bag tokens to a character in the same hex."""
    _same_hex(giver, receiver)
    giver, tokens = take_tokens(giver, indices)
    return giver, gain_tokens(receiver, tokens)


# --- storage containers ---------------------------------------------------------------


@dataclass(frozen=True)
class Container:
    """A storage container in a hex (a structure's store); materials persist between games."""

    id: ContainerId
    """The container's id."""
    hex: HexId
    """Where it stands."""
    tokens: tuple[BagToken, ...] = ()
    """What it holds."""
    accepts: frozenset[str] | None = None
    """The material names it can store; None: any material."""
    capacity: int | None = None
    """Materials it holds at most (reading D21); None: no limit. 0: it stores nothing
    more (what an outpost held before it lost its store may still be taken out)."""
    name: str = ""
    """What the table calls it ("the Storehouse at Hearth"); the id when empty."""


def store_tokens(
    character: Character, container: Container, indices: Sequence[int]
) -> tuple[Character, Container]:
    """Place materials from the bag into a container in the character's hex."""
    named = container.name or container.id
    if character.hex != container.hex:
        raise IllegalAction(f"{character.name} is not in the hex of {named}")
    character, tokens = take_tokens(character, indices)
    for token in tokens:
        if token.kind is not TokenKind.MATERIAL:
            raise IllegalAction(f"a storage container holds materials, not {token.name}")
        if container.accepts is not None and token.name not in container.accepts:
            raise IllegalAction(f"{named} cannot store {token.name}")
    # Reading D21: a store holds what its text says, no more.
    if container.capacity is not None and len(container.tokens) + len(tokens) > \
            container.capacity:
        room = max(0, container.capacity - len(container.tokens))
        raise IllegalAction(f"{named} holds at most {container.capacity} materials "
                            f"({len(container.tokens)} stored, room for {room}); "
                            f"{len(tokens)} will not fit")
    return character, replace(container, tokens=(*container.tokens, *tokens))


def retrieve_tokens(
    character: Character, container: Container, indices: Sequence[int]
) -> tuple[Character, Container]:
    """Take materials from a container in the character's hex into the bag."""
    if character.hex != container.hex:
        raise IllegalAction(f"{character.name} is not in the hex of "
                            f"{container.name or container.id}")
    chosen = set(indices)
    if len(chosen) != len(indices) or any(not 0 <= i < len(container.tokens) for i in chosen):
        raise IllegalAction(f"{container.name or container.id} has no such tokens")
    taken = tuple(container.tokens[i] for i in sorted(chosen))
    kept = tuple(t for i, t in enumerate(container.tokens) if i not in chosen)
    return gain_tokens(character, taken), replace(container, tokens=kept)
