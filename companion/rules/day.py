"""The Day phase: action order, passing, costs and the Day actions.

Rulebook: Game Structure > Day Phase, Day Actions, Action Order; Actions (Explore, Move,
Revive, Feature Actions); Processing; Building an Outpost; Building Structures; Solo Play
> Hardcore Solo > Action Costs; readings D1-D4, D12, D19.

Every action takes a :class:`~companion.rules.game.Game` and returns a new one; a refused
action raises :class:`~companion.rules.errors.IllegalAction` and changes nothing. Actions
that start an activity (Forage, Fish, Mine, Delve) only check and pay here; the activity
engine takes over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.content.schema.base import Slot
from companion.content.schema.rules import RulesConstants
from companion.rules.character import Age, Character
from companion.rules.errors import IllegalAction
from companion.rules.game import Game, Phase
from companion.rules.health import degrade, spend_energy
from companion.rules.ids import CharacterName, ContainerId, HexId, Icon, ItemId, OutpostId
from companion.rules.inventory import (
    ItemFacts,
    gain_tokens,
    give_tokens,
    hold_item,
    item_slot,
    lose_item,
    over_limit,
    processed,
    retrieve_tokens,
    settle_excess,
    store_tokens,
    take_tokens,
)
from companion.rules.outposts import (
    FeatureAction,
    FeatureFacts,
    Outpost,
    StructureFacts,
    add_structure,
    check_outpost_placement,
    has_technology,
    match_materials,
)
from companion.rules.resources import BagToken
from companion.rules.valley import collect_lore, place_shelter

ENERGY_ICON = Icon("energy")
"""The processing icon every character has, usable once per energy paid (Processing)."""


# --- order, passing, cost -------------------------------------------------------------


def _names(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def check_can_act(game: Game, name: str) -> Character:
    """The character may take a Day action now, else IllegalAction.

    No character takes two actions in a row unless all others have passed
    (Rulebook: Action Order); incapacitated characters cannot act (Incapacitation).
    """
    if game.day.phase is not Phase.DAY:
        raise IllegalAction("Day actions are taken only during the Day phase")
    character = game.character(name)
    if character.age is Age.LEGEND:
        raise IllegalAction(f"{character.name} is a legend and no longer acts")
    if character.name in game.day.passed:
        raise IllegalAction(f"{character.name} has passed this Day")
    if character.incapacitated:
        raise IllegalAction(f"{character.name} is incapacitated and cannot take actions")
    if character.hex is None:
        raise IllegalAction(f"{character.name} has not been placed in the valley")
    if game.day.last_actor == character.name:
        waiting = [
            c.name
            for c in game.characters
            if c.name != character.name and c.name not in game.day.passed
        ]
        if waiting:
            raise IllegalAction(
                f"{character.name} has already taken the last action; "
                f"{_names(waiting)} must act or pass first"
            )
    return character


def action_cost(rules: RulesConstants, game: Game, name: str, base: int) -> int:
    """The energy an action costs this character now.

    Hardcore solo: the first action each Day costs ``hardcore_solo.first_action_discount``
    less (D19), never below 0.
    """
    character = game.character(name)
    if character.track_rules.hardcore and character.name not in game.day.acted:
        return max(0, base - rules.hardcore_solo.first_action_discount)
    return base


def _act(
    rules: RulesConstants, game: Game, name: str, what: str, base: int
) -> tuple[Game, Character]:
    """Check the order, pay the cost, record the action; returns the game and the actor."""
    character = check_can_act(game, name)
    check_item_limits(rules, game, name)
    cost = action_cost(rules, game, name, base)
    character = spend_energy(character, cost, what)
    day = replace(
        game.day,
        last_actor=character.name,
        acted=game.day.acted | {character.name},
        investigated=game.day.investigated - {character.name},
    )
    return replace(game.with_characters(character), day=day), character


def take_action(
    rules: RulesConstants, game: Game, name: str, what: str, base: int
) -> tuple[Game, Character]:
    """A Day action the activity modules resolve themselves (e.g. Craft): check the
    action order, pay ``base`` energy (hardcore discount applied) and record it.
    Rulebook: Actions > Action Cost; Action Order."""
    return _act(rules, game, name, what, base)


def pass_turn(game: Game, name: str) -> Game:
    """The character passes for the rest of the Day (Rulebook: Day Phase)."""
    if game.day.phase is not Phase.DAY:
        raise IllegalAction("passing happens during the Day phase")
    character = game.character(name)
    if character.name in game.day.passed:
        raise IllegalAction(f"{character.name} has already passed")
    return replace(game, day=replace(game.day, passed=game.day.passed | {character.name}))


def all_passed(game: Game) -> bool:
    """Every character has passed: the Day phase ends."""
    return all(c.name in game.day.passed for c in game.characters)


# --- basic actions --------------------------------------------------------------------


def move(rules: RulesConstants, game: Game, name: str, to_hex: HexId, *, obstructed: bool) -> Game:
    """Move to an adjacent explored hex: 1 energy, +1 on an obstructed path.

    Adjacency and ``obstructed`` come from the valley (operations layer); lore tokens in the
    new hex are collected. Rulebook: Actions > Move; Lore in the Valley.
    """
    costs = rules.action_costs
    base = costs.move + (costs.move_obstructed_extra if obstructed else 0)
    return _enter(rules, game, name, to_hex, "Move", base)


def explore(rules: RulesConstants, game: Game, name: str, to_hex: HexId) -> Game:
    """Explore an adjacent unexplored hex: 2 energy (Rulebook: Actions > Explore)."""
    return _enter(rules, game, name, to_hex, "Explore", rules.action_costs.explore)


def _enter(
    rules: RulesConstants, game: Game, name: str, to_hex: HexId, what: str, base: int
) -> Game:
    if game.character(name).hex == to_hex:
        raise IllegalAction(f"{game.character(name).name} is already in hex {to_hex}")
    game, character = _act(rules, game, name, what, base)
    character = replace(character, hex=to_hex)
    tokens, society = collect_lore(game.tokens, game.society, to_hex)
    return replace(game.with_characters(character), tokens=tokens, society=society)


def revive(rules: RulesConstants, game: Game, name: str, target: str, token: int) -> Game:
    """Revive an incapacitated character in the same hex: 2 energy, degrade one token.

    Rulebook: Actions > Revive.
    """
    patient = game.character(target)
    reviver = game.character(name)
    if patient.name == reviver.name:
        raise IllegalAction(f"{reviver.name} cannot revive themself")
    if not patient.incapacitated:
        raise IllegalAction(f"{patient.name} is not incapacitated")
    if patient.hex != reviver.hex:
        raise IllegalAction(f"{patient.name} is not in {reviver.name}'s hex")
    healed = degrade(patient, token)
    game, _ = _act(rules, game, name, "Revive", rules.action_costs.revive)
    return game.with_characters(healed)


# --- feature actions ------------------------------------------------------------------


def _feature(game: Game, name: str, feature: FeatureFacts, action: FeatureAction) -> None:
    if action not in feature.actions:
        raise IllegalAction(
            f"{action.replace('_', ' ').capitalize()} is not done at a {feature.id}"
        )
    covered = {o.covers for o in game.outposts if o.hex == game.character(name).hex}
    if feature.id in covered:
        raise IllegalAction(f"the {feature.id} here is covered by an outpost")


def prepare_shelter(rules: RulesConstants, game: Game, name: str, feature: FeatureFacts) -> Game:
    """Prepare Shelter at a cave: place a shelter token in the hex for the challenge.

    ``feature`` is a feature of the character's hex (operations layer).
    """
    _feature(game, name, feature, FeatureAction.PREPARE_SHELTER)
    game, character = _act(rules, game, name, "Prepare Shelter", rules.action_costs.prepare_shelter)
    assert character.hex is not None  # checked by check_can_act
    return replace(game, tokens=place_shelter(game.tokens, character.hex))


def gather_water(
    rules: RulesConstants, game: Game, name: str, feature: FeatureFacts, water: int
) -> Game:
    """Gather Water at a lake, river or wetlands: gain ``water`` water tokens (2 in the
    rulebook; the pack's rules constants do not list it, so the caller passes it)."""
    if water < 0:
        raise ValueError("water gained cannot be negative")
    _feature(game, name, feature, FeatureAction.GATHER_WATER)
    game, character = _act(rules, game, name, "Gather Water", rules.action_costs.gather_water)
    return game.with_characters(gain_tokens(character, [BagToken.water()] * water))


def feature_action(
    rules: RulesConstants, game: Game, name: str, action: FeatureAction, feature: FeatureFacts
) -> Game:
    """Start Forage, Fish, Mine or Delve: check and pay; the activity engine takes over.

    Delve is refused until delving is unlocked (Rulebook: Delving; D4).
    """
    costs = {
        FeatureAction.FORAGE: ("Forage", rules.action_costs.forage),
        FeatureAction.FISH: ("Fish", rules.action_costs.fish),
        FeatureAction.MINE: ("Mine", rules.action_costs.mine),
        FeatureAction.DELVE: ("Delve", rules.action_costs.delve),
    }
    if action not in costs:
        raise IllegalAction(f"{action} is not an activity")
    if action is FeatureAction.DELVE and not game.society.delving_unlocked:
        raise IllegalAction("Delving is not available until a game effect grants access to it")
    _feature(game, name, feature, action)
    what, base = costs[action]
    game, _ = _act(rules, game, name, what, base)
    return game


# --- processing -----------------------------------------------------------------------


def _available_icons(
    character: Character, items: Mapping[ItemId, ItemFacts], extra: Sequence[Icon] = ()
) -> Counter[Icon]:
    """Processing icons from the character's items (plus ``extra``, e.g. a structure's)."""
    icons: Counter[Icon] = Counter(extra)
    for item, _ in character.items:
        if item in items:
            icons.update(items[item].processing_icons)
    return icons


def process(
    rules: RulesConstants,
    game: Game,
    name: str,
    tokens: Sequence[int],
    needs: Mapping[str, Sequence[Icon]],
    items: Mapping[ItemId, ItemFacts],
    extra_icons: Sequence[Icon] = (),
) -> Game:
    """Process: flip the chosen bag tokens to their processed side.

    ``needs`` maps a material (or tough food) name to the icons it needs. Each available
    icon is used once; the energy icon as often as the character pays 1 energy for it.
    Rulebook: Processing & Crafting > Processing.
    """
    character = game.character(name)
    if not tokens:
        raise IllegalAction("choose at least one token to process")
    pool = _available_icons(character, items, extra_icons)
    extra_energy = 0
    _, chosen = take_tokens(character, tokens)
    for token in chosen:
        processed(token)  # refuses what can't be processed
        if token.name not in needs:
            raise IllegalAction(f"no processing icons are known for {token.name}")
        for icon in needs[token.name]:
            if icon == ENERGY_ICON:
                extra_energy += 1
            elif pool[icon] > 0:
                pool[icon] -= 1
            else:
                raise IllegalAction(
                    f"{character.name} has no {icon} icon left to process the {token.name}"
                )
    game, character = _act(rules, game, name, "Process", rules.action_costs.process + extra_energy)
    bag = list(character.bag)
    for index in tokens:
        bag[index] = processed(bag[index])
    return game.with_characters(replace(character, bag=tuple(bag)))


# --- building -------------------------------------------------------------------------


def _contributors(
    game: Game, builder: Character, contributions: Mapping[str, int]
) -> list[tuple[Character, int]]:
    out = []
    for name, energy in contributions.items():
        other = game.character(name)
        if other.name == builder.name:
            raise IllegalAction(f"{builder.name} builds; only other characters contribute")
        if other.hex != builder.hex:
            raise IllegalAction(f"{other.name} is not in {builder.name}'s hex")
        if energy < 0:
            raise IllegalAction(f"{other.name} cannot contribute {energy} energy")
        if other.incapacitated:
            raise IllegalAction(f"{other.name} is incapacitated and cannot contribute")
        out.append((other, energy))
    return out


def build_outpost(
    rules: RulesConstants,
    game: Game,
    name: str,
    *,
    outpost_id: OutpostId,
    outpost_name: str,
    epoch: int,
    covers: FeatureFacts,
    items: Mapping[ItemId, ItemFacts],
    contributions: Mapping[str, int] | None = None,
) -> Game:
    """Build an outpost over the feature ``covers`` in the builder's hex (D12).

    Costs ``action_costs.build_outpost`` energy; each energy another character in the hex
    contributes reduces the builder's share. Forest, water and stone features need a
    technology item held by the builder or a contributor (``FeatureFacts.outpost_technology``).
    Rulebook: Valley > Building an Outpost, Outpost Placement.
    """
    builder = check_can_act(game, name)
    helpers = _contributors(game, builder, contributions or {})
    given = sum(e for _, e in helpers)
    base = rules.action_costs.build_outpost
    if given > base:
        raise IllegalAction(f"an outpost costs {base} energy; {given} contributed")
    if any(o.id == outpost_id for o in game.outposts):
        raise IllegalAction(f"there is already an outpost {outpost_id}")
    assert builder.hex is not None  # checked by check_can_act
    if any(o.hex == builder.hex and o.covers == covers.id for o in game.outposts):
        raise IllegalAction(f"the {covers.id} in this hex is already covered")
    check_outpost_placement(covers, [builder, *(c for c, e in helpers if e > 0)], items)
    paid = [spend_energy(c, e, f"contributing {e}") for c, e in helpers]
    game, builder = _act(
        rules, game.with_characters(*paid), name, "Build Outpost", max(0, base - given)
    )
    assert builder.hex is not None
    outpost = Outpost(outpost_id, outpost_name, epoch, builder.hex, covers.id)
    return game.with_outpost(outpost)


def build_structure(
    rules: RulesConstants,
    game: Game,
    name: str,
    *,
    outpost: OutpostId,
    structure: StructureFacts,
    items: Mapping[ItemId, ItemFacts],
    materials: Mapping[str, Sequence[int]] | None = None,
    contributions: Mapping[str, int] | None = None,
) -> Game:
    """Build a structure at an outpost in the builder's hex.

    ``materials`` maps each character (builder or another in the hex) to the bag tokens
    they discard; together they must pay exactly the structure's material costs.
    ``contributions`` is energy from others, reducing the builder's share. A technology
    the structure needs must be on an item of the builder or a contributor. At most
    ``outposts.structure_limit`` structures per outpost (D12).
    Rulebook: Processing & Crafting > Building Structures.
    """
    builder = check_can_act(game, name)
    site = game.outpost(outpost)
    if site.hex != builder.hex:
        raise IllegalAction(f"{site.name} is not in {builder.name}'s hex")
    built = add_structure(rules, site, structure.id)
    materials = materials or {}
    helpers = _contributors(game, builder, contributions or {})
    for giver in materials:
        if game.character(giver).name != builder.name:
            _contributors(game, builder, {giver: 0})
    given = sum(e for _, e in helpers)
    if given > structure.energy:
        raise IllegalAction(f"{structure.id} costs {structure.energy} energy; {given} contributed")
    contributing = {builder.name} | {c.name for c, e in helpers if e > 0}
    contributing |= {game.character(g).name for g, idx in materials.items() if idx}
    for technology in sorted(structure.technologies):
        if not has_technology([game.character(n) for n in contributing], technology, items):
            raise IllegalAction(f"{structure.id} needs a {technology}-technology item in the hex")
    paid: dict[CharacterName, Character] = {}
    discarded: list[BagToken] = []
    for giver, indices in materials.items():
        who = game.character(giver)
        who, tokens = take_tokens(who, indices)
        paid[who.name] = who
        discarded.extend(tokens)
    match_materials(structure.materials, discarded)
    for helper, energy in helpers:
        helper = paid.get(helper.name, helper)
        paid[helper.name] = spend_energy(helper, energy, f"contributing {energy}")
    game = game.with_characters(*paid.values())
    game, _ = _act(rules, game, name, f"Build {structure.id}", max(0, structure.energy - given))
    return game.with_outpost(built)


# --- exchanges (before or after any Day action) ---------------------------------------


def _during_day(game: Game) -> None:
    if game.day.phase is not Phase.DAY:
        raise IllegalAction("items and materials cannot be exchanged during the Night")


def exchange_item(
    rules: RulesConstants,
    game: Game,
    giver: str,
    receiver: str,
    item: ItemId,
    *,
    excess: ItemId | None = None,
    excess_to: str | None = None,
) -> Game:
    """Give an item to a character in the same hex (Rulebook: Day Actions).

    When the receiver's slot is full, the receiver chooses at once which item of that
    slot goes (``excess``, possibly the one given) and to whom (``excess_to``, possibly
    the giver), or loses it when no one has room (Exceeding Item Limits, D11).
    """
    _during_day(game)
    a, b = game.character(giver), game.character(receiver)
    if a.name == b.name:
        raise IllegalAction(f"{a.name} cannot exchange with themself")
    if a.hex is None or a.hex != b.hex:
        raise IllegalAction(f"{a.name} and {b.name} are not in the same hex")
    slot = item_slot(a, item)
    game = game.with_characters(lose_item(a, item))
    return receive_item_choosing(rules, game, b.name, ItemFacts(item, slot), excess=excess,
                                 excess_to=excess_to)


def exchange_tokens(game: Game, giver: str, receiver: str, tokens: Sequence[int]) -> Game:
    """Give materials or food to a character in the same hex (Rulebook: Day Actions)."""
    _during_day(game)
    a, b = give_tokens(game.character(giver), game.character(receiver), tokens)
    return game.with_characters(a, b)


def store(game: Game, name: str, container: ContainerId, tokens: Sequence[int]) -> Game:
    """Place materials in a storage container in the character's hex."""
    _during_day(game)
    character, box = store_tokens(game.character(name), game.container(container), tokens)
    return game.with_characters(character).with_container(box)


def retrieve(game: Game, name: str, container: ContainerId, tokens: Sequence[int]) -> Game:
    """Take materials from a storage container in the character's hex."""
    _during_day(game)
    character, box = retrieve_tokens(game.character(name), game.container(container), tokens)
    return game.with_characters(character).with_container(box)


# --- exceeding item limits ------------------------------------------------------------


def room_for(rules: RulesConstants, game: Game, name: str, slot: Slot) -> list[str]:
    """Characters in ``name``'s hex (not ``name``) with a free ``slot``, in play order."""
    holder = game.character(name)
    return [
        c.name
        for c in game.characters
        if c.name != holder.name
        and holder.hex is not None
        and c.hex == holder.hex
        and c.slots_used(slot) < rules.item_slots.get(slot, 0)
    ]


def excess_refusal(rules: RulesConstants, game: Game, name: str, slot: Slot) -> str:
    """What the holder of too many ``slot`` items must do, in game words."""
    character = game.character(name)
    held = character.slots_used(slot)
    who = room_for(rules, game, name, slot)
    choice = f"give to {_names(who)}" if who else "lose (no one in the hex has room)"
    return f"{character.name} holds {held} {slot} items: choose one to {choice}"


def check_item_limits(rules: RulesConstants, game: Game, name: str) -> None:
    """Refuse while the character holds more items than its slots (D11): the player
    first chooses which item goes (Rulebook: Mantle > Exceeding Item Limits)."""
    character = game.character(name)
    over = over_limit(rules, character)
    if over:
        raise IllegalAction(excess_refusal(rules, game, character.name, over[0][0]))


def settle(rules: RulesConstants, game: Game, name: str, item: ItemId, to: str | None) -> Game:
    """The holder of too many items gives ``item`` to ``to`` (in the hex, with room), or
    loses it (``to`` None) only when no one in the hex has room for it.

    Rulebook: Mantle > Exceeding Item Limits (D11).
    """
    holder = game.character(name)
    slot = item_slot(holder, item)
    if to is None:
        who = room_for(rules, game, holder.name, slot)
        if who and any(s is slot for s, _, _ in over_limit(rules, holder)):
            raise IllegalAction(
                f"{_names(who)} {'has' if len(who) == 1 else 'have'} room for a {slot} item: "
                f"give the {item} rather than lose it"
            )
        holder, _ = settle_excess(rules, holder, item, None)
        return game.with_characters(holder)
    holder, receiver = settle_excess(rules, holder, item, game.character(to))
    assert receiver is not None
    return game.with_characters(holder, receiver)


def receive_item_choosing(
    rules: RulesConstants,
    game: Game,
    name: str,
    item: ItemFacts,
    *,
    excess: ItemId | None = None,
    excess_to: str | None = None,
) -> Game:
    """``name`` gets ``item``; with the slot full, ``excess`` says which item of that slot
    goes and ``excess_to`` to whom (None: lost, only when no one has room). Without a
    choice and with the slot full, refused in game words (Exceeding Item Limits)."""
    character = hold_item(game.character(name), item)
    game = game.with_characters(character)
    if not any(s is item.slot for s, _, _ in over_limit(rules, character)):
        return game
    if excess is None:
        raise IllegalAction(excess_refusal(rules, game, character.name, item.slot))
    return settle(rules, game, character.name, excess, excess_to)
