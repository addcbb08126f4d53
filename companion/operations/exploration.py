"""The rest of the valley: exploring with new terrain trays, and Discovery cards.

Rulebook: Actions > Explore ("as long as there are at least 3 unused tiles for a region,
a character can explore to add new terrain trays"); Valley > Populating a Terrain Tray;
Actions > Move / Explore ("After the character arrives in the new hex, their player draws
Discovery cards until one can be resolved, then resolves it"); Valley Decks > Discovery.

Operations (each one transaction with one journal event, refusals change nothing):

* :func:`explore_new_tray` — place a legal new tray, fill it with three tiles of its
  region (typed from the table or drawn by the app from the region's bag), move the
  character into one of its hexes next to them paying the Explore cost, flip that hex.
* :func:`move_and_discover` — the Day action Move/Explore (same rules and refusals as
  :func:`companion.operations.day.move`) that also records the Discovery now due.
* :func:`draw_discovery` — draw (typed or app-drawn from the persisted, shuffled
  Discovery deck) until a card can be resolved, then resolve it.

**The Discovery due.** Both entering operations write a ``procedure_state`` row of kind
``"discovery_due"`` (``{"character": name, "hex": tile, "set_aside": [...]}``) in their own
transaction, so undoing the move also takes the due Discovery back. The GUI reads it with
:func:`discovery_due` and prompts; :func:`draw_discovery` clears it. A plain
``operations.move`` (day.py) does not write the row: callers that want the prompt use
:func:`move_and_discover` (the map view does), or call :func:`draw_discovery` with the
character's name after any move.

**Which cards can be resolved.** The sample Discovery cards have no requirement field;
a card cannot be resolved when one of its effects cannot be carried out by this
character here: ``lose`` a resource the character does not carry. If a pack's card has a
``requires`` block (``features`` any-of in the hex, ``trait``, ``min_unrest``,
``min_activity``, as on Night cards), an unmet requirement also sets it aside. Set-aside
cards go to the discard pile with the resolved one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from sqlmodel import Session, select

from companion.content.schema.effects import (
    Activity,
    Boost,
    Culture,
    Effect,
    Energy,
    Gain,
    GainItem,
    Lore,
    Lose,
    Mark,
    Place,
    Read,
    Suffer,
    Test,
    Unlock,
    Unrest,
)
from companion.operations import society_events
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.facts import hex_features, item_facts
from companion.operations.procedure_row import (
    DISCOVERY_DUE,
    day_operation,
    discovery_due,  # noqa: F401 (still read here: the chapter's own question)
    due_row,
    procedure_in_progress,
    refuse_between_games,
)
from companion.operations.state import load_game, save_game
from companion.operations.valley import load_valley, save_valley
from companion.rules import day as day_rules
from companion.rules import exploration, health, inventory
from companion.rules import valley as valley_tokens
from companion.rules.checks import ability_test, die
from companion.rules.effects import describe_effect
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.geometry import Axial
from companion.rules.hex_words import COMPASS, direction, tile_name, tray_words
from companion.rules.ids import HexId
from companion.rules.society import (
    gain_culture_ability,
    gain_lore,
    increase_activity,
    increase_unrest,
    unlock_delving,
)
from companion.store import models

DISCOVERY_DECK = "discovery"
"""The ``deck_state`` row of the Discovery deck."""


# --- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrayOption:
    """A legal new tray for a character, as the GUI and the CLI list it."""

    origin: Axial
    orientation: str
    region: str
    cells: tuple[Axial, ...]
    """The three hexes the tray would cover."""
    entries: tuple[Axial, ...]
    """Its hexes next to the character: where they may enter."""
    start: Axial | None = None
    """The character's hex (the entries' directions are told from it)."""
    region_name: str = ""
    """The region's name in the content pack."""
    variant: str = ""
    """Tells apart options that would read alike ("2 of 3"); the map shows which."""
    words: str = ""
    """Where it lies in words: "north-east of Ashen Ford, touching Birchhollow"."""
    slot_words: tuple[str, ...] = ()
    """Each of its three hexes in words, in slot order ("north of Ashen Ford"): how the
    table is asked which tile lies where, and which one it flipped."""

    @property
    def label(self) -> str:
        """The option in the game's words: region, the hex it lies beside and the hexes
        it touches (never grid coordinates, never a face-down tile)."""
        region = self.region_name or self.region.replace("_", " ").title()
        return (f"{region} tray {self.words}".rstrip()
                + (f" ({self.variant})" if self.variant else ""))

    def entry_words(self) -> list[tuple[int, str]]:
        """The hexes the character may step into (and flip), as (slot, words)."""
        return [(self.cells.index(e), self.slot_words[self.cells.index(e)])
                for e in self.entries if e in self.cells and self.slot_words]


def _slot_words(valley: exploration.Valley, hexes: Any, cells: Sequence[Axial],
                start: Axial) -> tuple[str, ...]:
    """Each new hex by the way it lies from the character's hex, or else from the new
    hexes that do ("beyond the north-east one")."""
    here = tile_name(valley, hexes, start)
    words: list[str] = []
    for cell in cells:
        way = direction(start, cell)
        if way is not None:
            words.append(f"{way} of {here}")
            continue
        near = [direction(start, c) for c in cells if c.is_adjacent(cell)
                and direction(start, c) is not None]
        ways = [n for n in near if n]
        words.append(f"beyond the {' and '.join(ways)} tile{'s' if len(ways) > 1 else ''}"
                     if ways else "the far hex")
    return tuple(words)


def legal_placements(campaign: Campaign, name: str) -> list[TrayOption]:
    """Every legal new tray ``name`` may explore into from their hex (Actions > Explore);
    empty when the region rules or the geometry allow none."""
    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
        valley = load_valley(session)
    character = game.character(name)
    if character.hex is None or character.hex not in valley:
        return []
    options = []
    start = valley.locate(character.hex)
    hexes = campaign.content.hexes
    for placement in exploration.legal_tray_placements(
            campaign.content.rules, valley, campaign.content, character.hex):
        region = campaign.content.regions.get(placement.region)
        cells = placement.cells(valley.shape)
        options.append(TrayOption(
            placement.origin, placement.orientation, placement.region, cells,
            tuple(exploration.entry_hexes(valley, placement, character.hex)),
            start, region.name if region is not None else "",
            words=tray_words(valley, hexes, cells, start),
            slot_words=_slot_words(valley, hexes, cells, start)))
    alike: dict[str, list[int]] = {}
    for index, option in enumerate(options):
        alike.setdefault(option.label, []).append(index)
    for indexes in alike.values():
        if len(indexes) > 1:
            for number, index in enumerate(indexes, 1):
                options[index] = replace(options[index], variant=f"{number} of {len(indexes)}")
    return options


def _set_due(session: Session, name: str, tile: str) -> None:
    row = due_row(session)
    state = {"character": name, "hex": tile, "set_aside": []}
    if row is None:
        session.add(models.ProcedureState(kind=DISCOVERY_DUE, state=state))
    else:
        row.state = state


def refuse_if_due(session: Session, name: str) -> None:
    row = due_row(session)
    if row is not None:
        who = row.state.get("character", "a character")
        raise IllegalAction(f"{who} must draw a Discovery card first (arrived in "
                            f"{row.state.get('hex', '?')})" if who != name else
                            f"{name} must draw a Discovery card first")


# --- moving and exploring -------------------------------------------------------------------


def move_and_discover(campaign: Campaign, *, name: str, to_hex: str) -> Changes:
    """Move (or Explore) into an adjacent hex and record the Discovery now due.

    Same rules, costs and refusals as :func:`companion.operations.day.move`
    (Rulebook: Actions > Move; Explore); in the same transaction the ``discovery_due``
    row names the character, so :func:`draw_discovery` follows.
    """
    def step(game: Game, session: Session) -> tuple[Game, str]:
        refuse_if_due(session, name)
        valley = load_valley(session)
        character = game.character(name)
        if character.hex is None:
            raise IllegalAction(f"{character.name} has not been placed in the valley")
        target = hex_named(valley, character.hex, to_hex)
        cost = exploration.move_cost(campaign.content.rules, valley, campaign.content,
                                     character.hex, target, who=character.name)
        # The journal records the cost charged (Hardcore Solo's first action: less).
        charged = day_rules.action_cost(campaign.content.rules, game, name, cost.energy)
        reason = f"{cost.reason.rsplit(': ', 1)[0]}: {charged} energy"
        if cost.explores:  # flipped now: the journal names the tile turned face up
            reason = f"Explore {target}: {charged} energy"
            game = day_rules.explore(campaign.content.rules, game, name, target)
            save_valley(session, valley, exploration.reveal(campaign.content, valley,
                                                            target))
        else:
            game = day_rules.move(campaign.content.rules, game, name, target,
                                  obstructed=cost.obstructed)
        _set_due(session, character.name, str(target))
        return game, f"{character.name}: {reason}; a Discovery card is due"

    changes = day_operation(campaign, "day.move", step, valley=True, society=True)
    return replace(changes, procedure=True)


def hex_named(valley: exploration.Valley, here: HexId, typed: str) -> HexId:
    """The hex a move goes to: a tile id, or the way it lies from the character's hex
    ("north-east": how a face-down hex is named, its tile unseen)."""
    way = " ".join(typed.split()).casefold()
    if way in COMPASS and here in valley:
        cell = valley.locate(here).neighbour(COMPASS.index(way))
        if cell not in valley:
            raise IllegalAction(f"there is no hex {way} of {here}")
        tile = valley.tiles[cell]
        if tile is None:
            raise IllegalAction(f"the tile {way} of {here} was never read: type the id "
                                "printed on it")
        return tile
    return HexId(typed.strip())


def _parse_enter(enter: str | Axial | int | None, entries: Sequence[Axial],
                 cells: Sequence[Axial], tiles: Sequence[HexId],
                 start: Axial | None = None, *, typed: bool = True) -> Axial:
    """The hex the character steps into and flips, as the table says it: the id of the
    tile flipped, the way it lies from the character ("north-east"), a slot number, or
    None (the only one, else refused: the table picks, not the app)."""
    if not entries:
        raise IllegalAction("the new tray has no hex next to the character")
    ways = {direction(start, e): e for e in entries} if start is not None else {}
    choices = [f"{tiles[cells.index(e)]} ({w})" if e in cells else w
               for w, e in ways.items() if w] or [str(t) for t in tiles]
    if enter is None or enter == "":
        if len(entries) == 1 or not typed:
            return entries[0]  # one to step into; or the app drew the tiles (and chooses)
        raise IllegalAction(f"say which tile the table flipped: {' or '.join(choices)}")
    cell: Axial | None = None
    if isinstance(enter, Axial):
        cell = enter
    elif isinstance(enter, int):
        if not 0 <= enter < len(cells):
            raise IllegalAction(f"a tray has slots 0 to {len(cells) - 1}; not {enter}")
        cell = cells[enter]
    else:
        text = " ".join(enter.split()).casefold()
        by_id = {str(t).casefold(): c for t, c in zip(tiles, cells, strict=True)}
        if text in by_id:  # the box's ids may be numbers: a tile id first
            cell = by_id[text]
        elif text.isdigit():
            return _parse_enter(int(text), entries, cells, tiles, start, typed=typed)
        elif text in COMPASS and text in ways:
            cell = ways[text]
        else:
            raise IllegalAction(f"{enter} is not one of the new tray's tiles next to the "
                                f"character: {' or '.join(choices)}")
    if cell not in entries:
        raise IllegalAction(f"the character can only step into a tile next to them: "
                            f"{' or '.join(choices)}")
    return cell


def explore_new_tray(campaign: Campaign, *, name: str, origin: tuple[int, int] | Axial,
                     orientation: str, region: str | None = None,
                     tiles: Sequence[str] | None = None,
                     enter: str | Axial | int | None = None) -> Changes:
    """Explore into a new terrain tray (Rulebook: Actions > Explore; Populating a Terrain
    Tray).

    ``origin``/``orientation`` place the tray (see :data:`~companion.rules.exploration.
    TRIANGLE`); ``region`` defaults to the character's region when it may grow, else to
    the only region allowed. ``tiles``: the three hex ids drawn at the table, in slot
    order, or None for the app to draw them from the region's bag with the campaign's
    seeded generator. ``enter``: which new hex next to the character they step into (a
    tile id, ``"q,r"``, a slot number; None: the first). The character pays the Explore
    cost and the hex is flipped; a Discovery card is then due.
    """
    content = campaign.content
    rules = content.rules
    cell_origin = origin if isinstance(origin, Axial) else Axial(int(origin[0]), int(origin[1]))
    with campaign.write("valley.explore_tray", f"{name} explored a new terrain tray") as session:
        busy = procedure_in_progress(session)
        if busy is not None:
            raise Refused(f"An activity is in progress: finish the {busy} first.")
        refuse_between_games(session)
        refuse_if_due(session, name)
        game = load_game(session, content)
        valley = load_valley(session)
        character = day_rules.check_can_act(game, name)
        assert character.hex is not None
        if character.hex not in valley:
            raise IllegalAction(f"{character.name}'s hex {character.hex} is not in the valley")
        if region is None:
            allowed = exploration.new_tray_regions(rules, valley, content, character.hex)
            home = valley.region_of(character.hex)
            region = home if home in allowed or not allowed else (
                allowed[0] if len(allowed) == 1 else None)
            if region is None:
                raise IllegalAction(f"say which region the new tray belongs to: "
                                    f"{' or '.join(allowed)}")
        placement = exploration.Placement(cell_origin, orientation, region)
        exploration.check_tray_placement(rules, valley, content, character.hex, placement,
                                         who=character.name)
        slots = valley.shape.slots
        if tiles is None and exploration.typed_tile_count(content, region) is not None:
            raise Refused(f"Type the ids printed on the {slots} tiles the table drew from "
                          f"the bag and placed in the new tray.")
        if tiles is None:
            chance, rng = campaign.chance(session)
            bag = exploration.region_bag(valley, content, region)
            drawn = [HexId(t) for t in chance.shuffle(bag)[:slots]]
            campaign.save_chance(chance, rng)
            how = "drawn by the app"
        else:
            drawn = [HexId(str(t).strip()) for t in tiles]
            how = "drawn at the table"
            if len(drawn) != slots or any(not t for t in drawn):
                raise IllegalAction(f"a new tray is filled with {slots} hexes; give their "
                                    f"{slots} ids in slot order")
        placed = exploration.place_tray(rules, valley, content, character.hex, placement,
                                        drawn, who=character.name)
        entries = exploration.entry_hexes(placed, placement, character.hex)
        cells = placement.cells(valley.shape)
        start = valley.locate(character.hex)
        cell = _parse_enter(enter, entries, cells, drawn, start, typed=tiles is not None)
        tile = placed.tiles[cell]
        assert tile is not None
        before_game = game
        cost = day_rules.action_cost(rules, game, name, rules.action_costs.explore)
        revealed = exploration.reveal(content, placed, cell)
        save_valley(session, valley, revealed)
        game = day_rules.explore(rules, game, name, tile)
        save_game(session, content, before_game, game)
        _set_due(session, character.name, tile)
        where = tray_words(valley, content.hexes, cells, start)
        info = content.hexes.get(str(tile))
        flipped = f"{info.name} ({tile})" if info is not None and info.name else str(tile)
        # Tiles the app drew stay face down in words too (Valley > Hexes): only the
        # flipped one is named.
        laid = (f"{', '.join(drawn)} ({how})" if tiles is not None
                else f"{slots} tiles {how}")
        text = (f"{character.name} explored a new {content.regions[region].name} tray "
                f"{where}: {laid}; entered and flipped {flipped} for "
                f"{cost} energy; a Discovery card is due")
        session.info["journal_text"] = text
    # The tiles the app drew stay face down, in the result too: only the flipped one.
    return Changes(summary=text, characters=True, valley=True, society=True, journal=True,
                   procedure=True, detail=tuple(drawn) if tiles is not None else (tile,))


# --- Discovery ------------------------------------------------------------------------------


def _unresolvable(campaign: Campaign, game: Game, name: str, card: Any) -> str | None:
    """Why ``card`` cannot be resolved by ``name`` now (None: it can)."""
    character = game.character(name)
    requires = getattr(card, "requires", None)
    if requires is not None:
        features = tuple(getattr(requires, "features", ()) or ())
        here = hex_features(campaign, game, character.hex)
        if features and not set(features) & set(here):
            return f"it needs {' or '.join(features)} in the hex"
        trait = getattr(requires, "trait", None)
        if trait and trait not in character.traits:
            return f"it needs the trait {trait}"
        if (getattr(requires, "min_unrest", None) or 0) > game.society.unrest:
            return f"it needs unrest {requires.min_unrest}"
        if (getattr(requires, "min_activity", None) or 0) > game.society.activity:
            return f"it needs activity {requires.min_activity}"
    for effect in card.effects:
        if isinstance(effect, Lose):
            have = sum(1 for t in character.bag if t.name == effect.resource)
            if have < effect.amount:
                return (f"{character.name} has {have} {effect.resource}; it takes "
                        f"{effect.amount}")
    return None


@dataclass
class _Resolution:
    game: Game
    log: list[str]
    rolled: list[int]


def _resolve(campaign: Campaign, res: _Resolution, name: str, effects: Sequence[Effect],
             rolls: list[int], roll_die: Any) -> None:
    """Apply ``effects`` to the character, the society and the hex (in order)."""
    content = campaign.content
    tokens = society_events.resources(content)
    for effect in effects:
        game = res.game
        character = game.character(name)
        words = describe_effect(effect)
        if isinstance(effect, Gain):
            token = tokens.get(effect.resource)
            if token is None:
                res.log.append(f"{words} (no such token in the pack: take it by hand)")
                continue
            character = inventory.gain_tokens(character, [token] * effect.amount)
        elif isinstance(effect, Lose):
            indices = [i for i, t in enumerate(character.bag)
                       if t.name == effect.resource][:effect.amount]
            character, _ = inventory.take_tokens(character, indices)
        elif isinstance(effect, Suffer):
            for _ in range(effect.amount):
                character = health.suffer(character, effect.token)
        elif isinstance(effect, Energy):
            if effect.amount >= 0:
                character = health.gain_energy(character, effect.amount)
            else:
                character = replace(character, energy=max(0, character.energy + effect.amount))
        elif isinstance(effect, Lore):
            if effect.amount >= 0:
                res.game = replace(game, society=gain_lore(game.society, effect.amount))
            else:
                society = replace(game.society,
                                  lore=max(0, game.society.lore + effect.amount))
                res.game = replace(game, society=society)
            res.log.append(words)
            continue
        elif isinstance(effect, Activity):
            res.game = replace(game, society=increase_activity(game.society, effect.amount))
            res.log.append(words)
            continue
        elif isinstance(effect, Unrest):
            res.game = replace(game, society=increase_unrest(game.society, effect.amount))
            res.log.append(words)
            continue
        elif isinstance(effect, Place):
            hex_ = character.hex
            assert hex_ is not None
            if effect.token == "lore":
                placed = valley_tokens.place_lore(game.tokens, hex_, effect.amount)
            elif effect.token == "fire":
                placed = valley_tokens.place_fire(game.tokens, hex_)
            else:
                placed = valley_tokens.place_shelter(game.tokens, hex_)
            res.game = replace(game, tokens=placed)
            res.log.append(f"{words} ({hex_})")
            continue
        elif isinstance(effect, GainItem):
            facts = item_facts(campaign).get(str(effect.item))  # type: ignore[call-overload]
            if facts is None:
                res.log.append(f"{words} (not in the pack: take it by hand)")
                continue
            # Exceeding Item Limits (D11): held; the player then chooses what goes.
            character = inventory.hold_item(character, facts)
            if inventory.over_limit(content.rules, character):
                words += f" ({character.name} must now choose a {facts.slot} item to give " \
                         "away or lose)"
        elif isinstance(effect, Boost):
            if effect.ability is None:
                res.log.append(f"{words}: place it by hand")
                continue
            character = health.add_boost(character, effect.ability, 2 if effect.major else 1)
        elif isinstance(effect, Mark):
            # Rulebook: Fillable Cards: a Discovery card writes a mark on the card.
            from companion.operations.effects import write_mark

            character = write_mark(character, effect.mark)
        elif isinstance(effect, Unlock):
            if effect.flag == "delving":
                res.game = replace(game, society=unlock_delving(game.society))
            res.log.append(words)
            continue
        elif isinstance(effect, Culture):
            society, said = gain_culture_ability(game.society, effect.ability)
            res.game = replace(game, society=society)
            res.log.append(said)
            continue
        elif isinstance(effect, Read):
            res.log.append(f"Read Codex outcome {effect.outcome}")
            continue
        elif isinstance(effect, Test):
            rolled = rolls.pop(0) if rolls else roll_die()
            result, character = ability_test(character, effect.ability, die(rolled))
            res.rolled.append(rolled)
            res.game = game.with_characters(character)
            passed = result.total >= effect.difficulty
            res.log.append(f"test {effect.ability.value}: rolled {rolled}, total "
                           f"{result.total} vs {effect.difficulty}: "
                           f"{'success' if passed else 'failure'}")
            _resolve(campaign, res, name, effect.success if passed else effect.failure,
                     rolls, roll_die)
            continue
        res.game = game.with_characters(character)
        res.log.append(words)


def _deck(campaign: Campaign, session: Session) -> models.DeckState:
    deck = session.exec(select(models.DeckState).where(
        models.DeckState.deck == DISCOVERY_DECK)).first()
    if deck is None:
        chance, rng = campaign.chance(session)
        order = chance.shuffle(sorted(campaign.content.discovery_cards))
        campaign.save_chance(chance, rng)
        deck = models.DeckState(deck=DISCOVERY_DECK, draw_pile=order, discard=[])
        session.add(deck)
    return deck


def discovery_tests(campaign: Campaign, card: str) -> list[str]:
    """The tests a Discovery card may ask for, in game words ("dexterity 6+"), so a card
    drawn at the table can ask for the die (Rulebook: Basic Concepts > Tests)."""
    from companion.operations.typed_cards import resolve_card_id

    found = campaign.content.discovery_cards.get(
        resolve_card_id(campaign.content, "discovery_cards", card))
    out: list[str] = []

    def walk(effects: Sequence[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Test):
                out.append(f"{effect.ability.value} {effect.difficulty}+")
                walk(effect.success)
                walk(effect.failure)

    if found is not None:
        walk(found.effects)
    return out


def discovery_stakes(campaign: Campaign, card: str, who: str) -> list[str]:
    """Each test a Discovery card may ask of ``who``, with its stakes: who tests, which
    ability, the difficulty, and what success and failure do (Rulebook: Basic Concepts >
    Tests; issue 27 item 4)."""
    from companion.rules.checks import stakes_prompt
    from companion.rules.effects import effects_text

    found = campaign.content.discovery_cards.get(card.strip())
    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
    if found is None or not any(c.name == who for c in game.characters):
        return []
    character = game.character(who)
    out: list[str] = []

    def walk(effects: Sequence[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Test):
                out.append(stakes_prompt(character, effect.ability, effect.difficulty,
                                         purpose=f"for {found.name}",
                                         success=effects_text(effect.success),
                                         failure=effects_text(effect.failure)))
                walk(effect.success)
                walk(effect.failure)

    walk(found.effects)
    return out


def draw_discovery(campaign: Campaign, *, name: str | None = None, card: str | None = None,
                   rolls: Sequence[int] = (), app_rolls: bool | None = None) -> Changes:
    """Draw Discovery cards until one can be resolved, then resolve it (Rulebook: Actions >
    Move; Explore; Valley Decks > Discovery).

    ``name`` defaults to the character the due Discovery names. ``card``: the id the
    table drew (None: the app draws from the persisted, shuffled Discovery deck, setting
    aside each card that cannot be resolved and drawing the next). A typed card that
    cannot be resolved is set aside and the Discovery stays due: draw the next one.
    ``rolls``: die values for the card's tests. A card drawn at the table is tested with
    the table's die: a missing die is refused, asking for it, unless ``app_rolls``; a card
    the app draws is rolled by the app unless ``app_rolls`` is False.
    Mechanical effects are applied; a Codex outcome to read is named in the journal.
    """
    content = campaign.content
    if card is None and content.discovery_cards:
        from companion.operations.box import deck_is_whole, not_whole_refusal

        if not deck_is_whole(content, "discovery_cards"):
            # Issue 36 item 4: the owner's typed cards are not the box's deck.
            raise not_whole_refusal("discovery_cards")
    with campaign.write("valley.discovery", "Discovery") as session:
        from companion.operations.procedure_row import refuse_during_night

        refuse_during_night(session, "draw the Discovery card")
        due = due_row(session)
        who = name or (str(due.state.get("character")) if due is not None else None)
        if who is None:
            raise IllegalAction("no Discovery card is due; say which character draws one")
        if due is not None and name is not None and due.state.get("character") != name:
            raise IllegalAction(f"the Discovery due is {due.state.get('character')}'s")
        game = load_game(session, content)
        character = game.character(who)
        deck = _deck(campaign, session)
        draw_pile, discard = list(deck.draw_pile), list(deck.discard)
        set_aside = list(due.state.get("set_aside", [])) if due is not None else []
        chance, rng = campaign.chance(session)
        notes: list[str] = []
        chosen = None
        if card is not None:
            from companion.operations.typed_cards import resolve_card_id, unknown_card

            card_id = resolve_card_id(content, "discovery_cards", card)  # id or name
            found = content.discovery_cards.get(card_id)
            if found is None:  # issue 27 item 10: not in content, and the two ways on
                raise unknown_card(campaign, "discovery_cards", card)
            if card_id in set_aside:
                raise IllegalAction(f"{card_id} was already set aside; draw another")
            if card_id in draw_pile:
                draw_pile.remove(card_id)
            elif card_id in discard:
                discard.remove(card_id)
            why = _unresolvable(campaign, game, who, found)
            if why is not None:
                set_aside.append(card_id)
                notes.append(f"{found.name} ({card_id}) cannot be resolved ({why}): set aside")
            else:
                chosen = found
        else:
            while chosen is None:
                if not draw_pile:
                    if not discard:
                        break
                    draw_pile, discard = chance.shuffle(discard), []
                    notes.append("the Discovery discard was shuffled into a new deck")
                card_id = draw_pile.pop(0)
                found = content.discovery_cards.get(card_id)
                if found is None:
                    continue
                why = _unresolvable(campaign, game, who, found)
                if why is not None:
                    set_aside.append(card_id)
                    notes.append(f"{found.name} ({card_id}) cannot be resolved ({why}): "
                                 "set aside")
                else:
                    chosen = found
        if chosen is None and card is None and not content.discovery_cards:
            from companion.operations.box import empty_deck_refusal

            raise empty_deck_refusal("discovery_cards")  # my own box, none typed yet
        if chosen is None and card is None:
            raise IllegalAction("no Discovery card can be resolved by "
                                f"{character.name} now")
        res = _Resolution(game, [], [])
        if chosen is not None:
            by_app = app_rolls if app_rolls is not None else card is None

            def roll_die() -> int:
                if not by_app:
                    tests = ", ".join(discovery_tests(campaign, chosen.id)) or "a test"
                    raise IllegalAction(f"{chosen.name} ({chosen.id}) asks for a die "
                                        f"({tests}): roll it at the table and give it")
                return chance.roll(1)[0]

            if any(not 1 <= r <= 6 for r in rolls):
                raise IllegalAction("a die shows 1 to 6")
            _resolve(campaign, res, who, chosen.effects, list(rolls), roll_die)
            discard += [*set_aside, chosen.id]
            save_game(session, content, game, res.game)
            if due is not None:
                session.delete(due)
            text = (f"{character.name} drew the Discovery {chosen.name} ({chosen.id}): "
                    f"{chosen.text} " + "; ".join(res.log))
            if notes:
                text = "; ".join(notes) + ". " + text
        else:
            if due is not None:
                due.state = {**due.state, "set_aside": set_aside}
            else:
                session.add(models.ProcedureState(kind=DISCOVERY_DUE, state={
                    "character": who, "hex": character.hex, "set_aside": set_aside}))
            text = f"{character.name}: " + "; ".join(notes) + "; draw the next card"
        deck.draw_pile, deck.discard = draw_pile, discard
        campaign.save_chance(chance, rng)
        session.info["journal_text"] = text.strip()
    return Changes(summary=text.strip(), characters=True, society=True, valley=True,
                   journal=True, procedure=True,
                   detail=(chosen.id if chosen else None, tuple(set_aside), tuple(res.rolled)))


def place_overlay(campaign: Campaign, *, hex_id: str, section: str, overlay: str) -> Changes:
    """A game effect places an overlay on one section of an explored hex (Rulebook:
    Valley > Overlays: "they can be placed by game effects as well").

    ``hex_id`` is the tile's id, ``section`` a, b or c, ``overlay`` the overlay's id. Only
    overlays that are neither an outpost's (placed when an outpost is built) nor a lair
    (placed at Behemoth Setup) are placed this way, each once. The covered feature is
    inaccessible from then on; undo takes the overlay off again.
    """
    content = campaign.content
    found = content.overlays.get(overlay)
    if found is None:
        raise Refused(f"There is no overlay {overlay!r} in this game's components.")
    if found.kind.value != "other":
        how = ("building the outpost" if found.kind.value == "outpost"
               else "setting up the behemoth")
        raise Refused(f"{found.name} is placed by {how}, not by a game effect.")
    side = section.strip().lower()
    if side not in ("a", "b", "c"):
        raise Refused(f"A hex's sections are A, B and C; not {section!r}.")
    with campaign.write("valley.overlay", f"{found.name} placed on {hex_id}") as session:
        used = session.exec(select(models.Overlay).where(models.Overlay.overlay_id == overlay)
                            ).first()
        if used is not None:
            raise Refused(f"{found.name} is already in the valley.")
        valley = load_valley(session)
        after = exploration.place_overlay(valley, HexId(hex_id), cast(exploration.Section, side),
                                          overlay)
        save_valley(session, valley, after)
        for row in session.exec(select(models.Overlay).where(
                models.Overlay.overlay_id == overlay)).all():
            row.kind = found.kind.value
    return Changes(summary=f"{found.name} covers section {side.upper()} of {hex_id}",
                   valley=True, journal=True)


def overlay_choices(campaign: Campaign) -> list[dict[str, Any]]:
    """The overlays a game effect places (kind other), by name, with the hex each already
    covers (``placed_on``, None while in the box). Rulebook: Valley > Overlays."""
    with campaign.file.read() as session:
        valley = load_valley(session)
    where = {o: str(tile) for (tile, _), o in valley.overlays.items()}
    return [{"id": o.id, "name": o.name, "placed_on": where.get(o.id)}
            for o in sorted(campaign.content.overlays.values(), key=lambda o: o.name)
            if o.kind.value == "other"]
