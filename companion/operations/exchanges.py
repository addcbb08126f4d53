"""Exchanges and storage containers, before or after any Day action (Rulebook: Actions >
Exchange; Outposts > Storage; Item limits): items and tokens passed between characters
in one hex, materials stored in and taken from an outpost's storage structures, and an
excess item settled. ``operations.day`` offers them with the Day's actions."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

from sqlmodel import Session

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.procedure_row import (
    Step,
    discovery_waiting,
    procedure_in_progress,
    refuse_between_games,
)
from companion.operations.state import load_game, save_game
from companion.rules import day as day_rules
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import ContainerId, ItemId, OutpostId
from companion.rules.inventory import Container, over_limit
from companion.rules.resources import BagToken, Side

# --- the Day's own facts ----------------------------------------------------------------


def _containers(session: Session, game: Game, campaign: Campaign) -> Game:
    """The storage containers: an active outpost's structures whose text says they store
    (reading D21: an outpost by itself is no container), holding the materials the
    Journal's Outposts section records as stored there (Rulebook: Day Actions; Outposts
    and Ruins: materials stored in structures are kept between challenges). An outpost
    that lost its store keeps what it held for the taking, and takes nothing more."""
    from companion.store import models

    containers = []
    for outpost in game.outposts:
        row = session.get(models.Outpost, int(outpost.id))
        if row is None or outpost.status.value != "active":
            continue
        stores = [card for card in (campaign.content.structures.get(s)
                                    for s in outpost.structures)
                  if card is not None and card.storage is not None]
        if not stores and not row.materials:
            continue
        tokens = tuple(_stored_token(campaign, text) for text in row.materials)
        limits = [card.storage.capacity for card in stores if card.storage is not None]
        capacity = sum(c for c in limits if c is not None) \
            if stores and None not in limits else (None if stores else 0)
        kinds = [card.storage.materials for card in stores if card.storage is not None]
        accepts = None if not stores or any(not k for k in kinds) else \
            frozenset(str(m) for k in kinds for m in k)
        name = "the " + " and ".join(card.name for card in stores) + f" at {outpost.name}" \
            if stores else outpost.name
        containers.append(Container(ContainerId(outpost.id), outpost.hex, tokens,
                                    accepts, capacity, name))
    return replace(game, containers=tuple(containers))


def _stored_token(campaign: Campaign, text: str) -> BagToken:
    """A stored material as the journal writes it: "wood" or "processed wood" (large or
    small as the pack's token is)."""
    side, _, name = text.rpartition(" ")
    material = campaign.content.materials.get(name)
    token = BagToken.material(name, large=material is not None and material.size == "large")
    return replace(token, side=Side.PROCESSED) if side == "processed" else token


def _save_containers(session: Session, before: Game, after: Game) -> None:
    from companion.store import models

    old = {c.id: c for c in before.containers}
    for box in after.containers:
        if old.get(box.id) == box:
            continue
        row = session.get(models.Outpost, int(box.id))
        assert row is not None
        row.materials = [t.name if t.side is Side.UNPROCESSED else str(t) for t in box.tokens]
        session.add(row)


@contextmanager
def _items_named(campaign: Campaign) -> Iterator[None]:
    """Refusals name items as their cards do ("Ash has no Stone Knife")."""
    try:
        yield
    except IllegalAction as exc:
        text = str(exc)
        for item in campaign.content.items.values():
            text = text.replace(f"has no item {item.id}", f"has no {item.name}")
            text = text.replace(f"the {item.id} rather", f"the {item.name} rather")
        raise IllegalAction(text) from exc


def _exchange_operation(campaign: Campaign, kind: str, step: Step) -> Changes:
    """An exchange is no action: it takes no energy and keeps the action order."""
    with campaign.write(kind, kind) as session, _items_named(campaign):
        busy = procedure_in_progress(session)
        if busy == "night":
            raise Refused("Items and materials are exchanged during the Day, not at Night.")
        if busy is not None:
            raise Refused(f"An activity is in progress: finish the {busy} first.")
        refuse_between_games(session)
        due = discovery_waiting(session)
        if due is not None:
            # Rulebook: Day Actions: exchanges happen "before and/or after any Day action";
            # a move is not over until its Discovery card is drawn (Actions > Move).
            raise Refused(f"{due[0]} must draw a Discovery card first (arrived in {due[1]}): "
                          "an exchange comes before or after an action, not in the middle "
                          "of one.")
        before = _containers(session, load_game(session, campaign.content), campaign)
        after, text = step(before, session)
        save_game(session, campaign.content, before, after)
        _save_containers(session, before, after)
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True, outposts=True)


def _item_id(campaign: Campaign, text: str) -> ItemId:
    """An item named by its id or its card name."""
    for item in campaign.content.items.values():
        if text in (item.id, item.name) or text.lower() == item.name.lower():
            return ItemId(item.id)
    raise Refused(f"There is no item '{text}' in the content pack.")


def item_name(campaign: Campaign, item: str) -> str:
    """An item's card name."""
    found = campaign.content.items.get(item)
    return found.name if found is not None else item


def _token_words(tokens: Sequence[BagToken]) -> str:
    return ", ".join(str(t) for t in tokens) or "nothing"


def exchange_item(campaign: Campaign, *, giver: str, receiver: str, item: str,
                  excess: str | None = None, excess_to: str | None = None) -> Changes:
    """Give an item to a character in the same hex, before or after any Day action; a
    receiver with a full slot chooses at once which item goes and to whom (Rulebook:
    Day Actions; Mantle > Exceeding Item Limits)."""
    chosen = _item_id(campaign, item)
    extra = _item_id(campaign, excess) if excess else None

    def step(game: Game, session: Session) -> tuple[Game, str]:
        after = day_rules.exchange_item(campaign.content.rules, game, giver, receiver, chosen,
                                        excess=extra, excess_to=excess_to)
        a, b = game.character(giver).name, game.character(receiver).name
        text = f"{a} gave the {item_name(campaign, chosen)} to {b}"
        if extra is not None:
            text += "; " + _excess_words(campaign, b, extra, excess_to)
        return after, text

    return _exchange_operation(campaign, "exchange.item", step)


def _excess_words(campaign: Campaign, holder: str, item: ItemId, to: str | None) -> str:
    named = item_name(campaign, item)
    if to is None:
        return f"{holder} had no room and lost the {named} (back to the item deck)"
    return f"{holder} had no room and gave the {named} to {to}"


def exchange_tokens(campaign: Campaign, *, giver: str, receiver: str,
                    tokens: Sequence[int]) -> Changes:
    """Give materials or food (bag positions, 0-based) to a character in the same hex."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        given = [game.character(giver).bag[i] for i in tokens
                 if 0 <= i < len(game.character(giver).bag)]
        after = day_rules.exchange_tokens(game, giver, receiver, tokens)
        a, b = game.character(giver).name, game.character(receiver).name
        return after, f"{a} gave {_token_words(given)} to {b}"

    return _exchange_operation(campaign, "exchange.tokens", step)


def _outpost_here(game: Game, name: str, outpost: str) -> ContainerId:
    """The storage container of the outpost named (by name or id) in the character's hex."""
    character = game.character(name)
    boxes = {box.id: box for box in game.containers}
    for found in game.outposts:
        if outpost not in (found.id, found.name) and outpost.lower() != found.name.lower():
            continue
        if found.hex != character.hex:
            raise IllegalAction(f"{found.name} is not in {character.name}'s hex")
        if ContainerId(found.id) not in boxes:
            raise IllegalAction(
                f"{found.name} has no storage container: an outpost stores nothing by "
                "itself, only a structure whose card says it stores (such as a Storehouse)")
        return ContainerId(found.id)
    raise IllegalAction(f"there is no outpost {outpost} to store materials in")


def store_materials(campaign: Campaign, *, name: str, outpost: str,
                    tokens: Sequence[int]) -> Changes:
    """Place materials from the bag (positions, 0-based) in the storage of an outpost in
    the character's hex (Rulebook: Day Actions)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        box = _outpost_here(game, name, outpost)
        given = [game.character(name).bag[i] for i in tokens
                 if 0 <= i < len(game.character(name).bag)]
        after = day_rules.store(game, name, box, tokens)
        where = game.container(box).name or game.outpost(OutpostId(box)).name
        return after, f"{game.character(name).name} stored {_token_words(given)} at {where}"

    return _exchange_operation(campaign, "exchange.store", step)


def retrieve_materials(campaign: Campaign, *, name: str, outpost: str,
                       tokens: Sequence[int]) -> Changes:
    """Take materials (positions in the store, 0-based) from an outpost's storage in the
    character's hex into the bag (Rulebook: Day Actions)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        box = _outpost_here(game, name, outpost)
        stored = game.container(box).tokens
        taken = [stored[i] for i in tokens if 0 <= i < len(stored)]
        after = day_rules.retrieve(game, name, box, tokens)
        where = game.container(box).name or game.outpost(OutpostId(box)).name
        return after, f"{game.character(name).name} took {_token_words(taken)} from {where}"

    return _exchange_operation(campaign, "exchange.retrieve", step)


def settle_excess(campaign: Campaign, *, name: str, item: str, to: str | None = None
                  ) -> Changes:
    """A character holding more items than its slots gives ``item`` to ``to`` (in the
    hex, with room) or loses it when no one can take it (Rulebook: Mantle > Exceeding
    Item Limits; D11). The journal says what went where."""
    chosen = _item_id(campaign, item)

    def step(game: Game, session: Session) -> tuple[Game, str]:
        after = day_rules.settle(campaign.content.rules, game, name, chosen, to)
        holder = game.character(name).name
        receiver = game.character(to).name if to else None
        return after, _excess_words(campaign, holder, chosen, receiver)

    return _exchange_operation(campaign, "exchange.excess", step)


@dataclass(frozen=True)
class Excess:
    """A character holding more items of a slot than the mantle has room for."""

    name: str
    slot: str
    held: int
    limit: int
    items: tuple[tuple[str, str], ...]
    """(item id, card name) of every item of that slot the character holds."""
    room: tuple[str, ...]
    """Characters in the hex with a free slot of that kind."""
    text: str
    """What the player must do, in game words."""


def excess_items(campaign: Campaign) -> list[Excess]:
    """Every item choice waiting (Exceeding Item Limits): the Day panel and the CLI ask."""
    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
    rules = campaign.content.rules
    out = []
    for character in game.characters:
        for slot, held, limit in over_limit(rules, character):
            items = tuple((str(i), item_name(campaign, i)) for i, s in character.items
                          if s is slot)
            out.append(Excess(character.name, slot.value, held, limit, items,
                              tuple(day_rules.room_for(rules, game, character.name, slot)),
                              day_rules.excess_refusal(rules, game, character.name, slot)))
    return out


@dataclass(frozen=True)
class Store:
    """A storage container in a character's hex, as the table sees it (reading D21)."""

    outpost_id: str
    outpost: str
    """The outpost's name (what ``store_materials`` takes)."""
    name: str
    """"the Storehouse at Hearth"."""
    capacity: int | None
    """Materials it holds at most; None: no limit printed."""
    materials: tuple[str, ...]
    """What it holds now."""

    @property
    def label(self) -> str:
        """"the Storehouse at Hearth (1 of 3)" for a list."""
        if self.capacity is None:
            return f"{self.name} ({len(self.materials)} stored)"
        return f"{self.name} ({len(self.materials)} of {self.capacity})"


def stores_here(campaign: Campaign, name: str) -> list[Store]:
    """The storage containers in ``name``'s hex (reading D21)."""
    with campaign.file.read() as session:
        game = _containers(session, load_game(session, campaign.content), campaign)
    here = game.character(name).hex
    return [Store(box.id, game.outpost(OutpostId(box.id)).name, box.name or box.id,
                  box.capacity, tuple(str(t) for t in box.tokens))
            for box in game.containers if box.hex == here]


def outpost_overlays(campaign: Campaign) -> list[tuple[str, str]]:
    """(id, name) of the outpost overlays a new outpost may take (not yet in the valley)."""
    from companion.operations.state import free_outpost_overlays

    with campaign.file.read() as session:
        return free_outpost_overlays(session, campaign.content)


def storage_here(campaign: Campaign, name: str) -> list[tuple[str, str, list[str]]]:
    """(outpost id, outpost name, stored materials) for each storage container in
    ``name``'s hex: an outpost whose structures store (reading D21)."""
    with campaign.file.read() as session:
        game = _containers(session, load_game(session, campaign.content), campaign)
    here = game.character(name).hex
    return [(box.id, game.outpost(OutpostId(box.id)).name, [str(t) for t in box.tokens])
            for box in game.containers if box.hex == here]
