"""Exploring: the first tray at set up, the regions, placing a new tray, revealing a hex.

Rulebook: Set Up > Determine Starting Hex and Place Characters; Actions > Explore;
Valley > Regions, Populating a Terrain Tray.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import HexTile
from companion.rules.errors import IllegalAction
from companion.rules.exploration.valley import (
    TRIANGLE,
    Place,
    Placement,
    Terrain,
    Tray,
    TrayShape,
    Valley,
    frozen_map,
)
from companion.rules.geometry import Axial
from companion.rules.hex_words import hex_words
from companion.rules.ids import HexId

# --- set up: the first tray ---------------------------------------------------------------


def _starting_tile(terrain: Terrain, region: str) -> HexTile:
    """The region's starting hex."""
    starts = [t for t in terrain.hexes.values() if t.region == region and t.starting]
    if len(starts) != 1:
        raise IllegalAction(f"region {region} has {len(starts)} starting hexes; it needs one")
    return starts[0]


def first_tray(
    terrain: Terrain,
    region: str,
    others: Sequence[HexId | None] = (None, None),
    *,
    origin: Axial = Axial(0, 0),  # noqa: B008 (frozen value)
    orientation: str = "east",
    start_slot: int = 0,
    shape: TrayShape = TRIANGLE,
) -> Valley:
    """The valley of a first game: one tray with the region's starting hex, face up, and
    ``others``: random hexes of that region placed face down (their ids drawn by the app,
    typed by the table, or None until flipped).

    Rulebook: Set Up > Determine Starting Hex and Place Characters. The starting hex
    goes in slot ``start_slot`` (the origin by default); characters begin there.
    """
    start = _starting_tile(terrain, region)
    if len(others) != shape.slots - 1:
        raise IllegalAction(
            f"the first tray holds the starting hex and {shape.slots - 1} random hexes; "
            f"got {len(others)}"
        )
    if not 0 <= start_slot < shape.slots:
        raise IllegalAction(f"a tray has slots 0 to {shape.slots - 1}; not {start_slot}")
    _check_draws(terrain, Valley(shape=shape), region, others)
    tray = Tray(0, region, origin, orientation)
    cells = tray.cells(shape)
    tiles: list[HexId | None] = list(others)
    tiles.insert(start_slot, HexId(start.id))
    return Valley(
        trays=(tray,),
        tiles=frozen_map(dict(zip(cells, tiles, strict=True))),
        explored=frozenset({cells[start_slot]}),
        shape=shape,
    )


# --- regions -----------------------------------------------------------------------------


def typed_tile_count(terrain: Terrain, region: str) -> int | None:
    """How many tiles the box holds for ``region`` when its tiles are typed as the table
    places them ("My own box": the region gives ``tiles``); None when the pack lists
    them all (the sample). Such a region's bag is the box's, never the app's to draw."""
    regions_ = getattr(terrain, "regions", None) or {}
    info = regions_.get(region)
    count = getattr(info, "tiles", None)
    return int(count) if count is not None else None


def region_bag(valley: Valley, terrain: Terrain, region: str) -> list[HexId]:
    """The tiles of ``region`` a new tray may draw: not placed, and no starting hex.

    Rulebook: Populating a Terrain Tray ("put all remaining tiles for the relevant region
    into the bag"); Actions > Explore (the new region's pool excludes the alternate
    starting hex). Sorted by id; the app draws from it with its seeded generator.
    """
    placed = set(valley.tiles.values())
    return sorted(
        HexId(t.id)
        for t in terrain.hexes.values()
        if t.region == region and not t.starting and t.id not in placed
    )


def unused_tiles(valley: Valley, terrain: Terrain, region: str) -> int:
    """How many tiles of ``region`` are still unused (face-down unread slots count as used).

    The region's non-starting tiles, minus the slots of its trays holding anything but
    its starting hex.
    """
    pool = [t for t in terrain.hexes.values() if t.region == region and not t.starting]
    starts = {t.id for t in terrain.hexes.values() if t.region == region and t.starting}
    typed = typed_tile_count(terrain, region)
    size = max(len(pool), typed - 1) if typed is not None else len(pool)
    used = sum(
        1
        for tray in valley.trays_of(region)
        for cell in tray.cells(valley.shape)
        if valley.tiles[cell] not in starts
    )
    return max(0, size - used)


def _tiles_placed(valley: Valley, region: str) -> int:
    """Number of slots of ``region``'s trays (tiles placed for that region)."""
    return len(valley.trays_of(region)) * valley.shape.slots


def regions(terrain: Terrain) -> list[str]:
    """Every region that has tiles (listed, or in the box to be typed), in the content's
    order."""
    found = dict.fromkeys(str(t.region) for t in terrain.hexes.values())
    for region in getattr(terrain, "regions", None) or {}:
        if typed_tile_count(terrain, region) is not None:
            found.setdefault(str(region), None)
    return list(found)


def _region_refusal(
    rules: RulesConstants, valley: Valley, terrain: Terrain, home: str, region: str
) -> str | None:
    """Why a new tray of ``region`` cannot be added from a tray of ``home`` (None: it can)."""
    limits = rules.valley
    if region not in regions(terrain):
        return f"there is no region {region}"
    if region != home:
        if valley.trays_of(region):
            return (
                f"a new tray belongs to the region of the tray the character stands in "
                f"({home}), or begins a region not yet in the valley; {region} has trays"
            )
        first = valley.trays[0].region
        placed = len(valley.trays_of(first))
        if placed < limits.trays_before_next_region:
            return (
                f"{first} has {placed} of its {limits.trays_before_next_region} trays; "
                f"the valley enters a new region only after that"
            )
    unused = unused_tiles(valley, terrain, region)
    if unused < limits.min_unused_tiles_for_new_tray:
        return (
            f"{region} has {unused} unused tiles; a new tray needs at least "
            f"{limits.min_unused_tiles_for_new_tray}"
        )
    placed_tiles = _tiles_placed(valley, region)
    if placed_tiles + valley.shape.slots > limits.max_tiles_per_region:
        return (
            f"{region} has {placed_tiles} tiles placed; a region holds at most "
            f"{limits.max_tiles_per_region}"
        )
    return None


def new_tray_regions(
    rules: RulesConstants, valley: Valley, terrain: Terrain, character_hex: Place
) -> list[str]:
    """The regions a new tray placed from ``character_hex`` may belong to."""
    home = valley.region_of(character_hex)
    return [r for r in regions(terrain) if _region_refusal(rules, valley, terrain, home, r) is None]


# --- placing a tray (Actions > Explore) ---------------------------------------------------


def _touching_edges(valley: Valley, cells: Sequence[Axial], character: Axial) -> tuple[int, int]:
    """(edges of the character's tray the cells touch, of those on the character's hex)."""
    tray = valley.tray_of(character).cells(valley.shape)
    pairs = [(old, new) for old in tray for new in cells if old.is_adjacent(new)]
    return len(pairs), sum(1 for old, _ in pairs if old == character)


def _geometry_refusal(
    valley: Valley, cells: Sequence[Axial], character: Axial, who: str
) -> str | None:
    overlap = sorted(c for c in cells if c in valley.tiles)
    if overlap:
        return (
            f"the new tray would cover {', '.join(valley.name(c) for c in overlap)}, "
            f"already in the valley"
        )
    touching, on_hex = _touching_edges(valley, cells, character)
    if touching < 2 or on_hex < 1:
        return (
            f"the new tray must touch two edges of the tray {who} stands in, one of them on "
            f"{who}'s hex; it touches {touching}, {on_hex} on {who}'s hex"
        )
    return None


def check_tray_placement(
    rules: RulesConstants,
    valley: Valley,
    terrain: Terrain,
    character_hex: Place,
    placement: Placement,
    *,
    who: str = "the character",
) -> None:
    """Raise :class:`IllegalAction` unless ``placement`` is a legal new tray.

    Rulebook: Actions > Explore.
    """
    if valley.shape.slots != rules.valley.tray_slots:
        raise IllegalAction(
            f"a tray has {rules.valley.tray_slots} slots; this tray shape has {valley.shape.slots}"
        )
    character = valley.locate(character_hex)
    cells = placement.cells(valley.shape)
    reason = _geometry_refusal(valley, cells, character, who)
    if reason is None:
        home = valley.region_of(character)
        reason = _region_refusal(rules, valley, terrain, home, placement.region)
    if reason is not None:
        raise IllegalAction(reason)


def tray_placements(valley: Valley, character_hex: Place) -> list[Placement]:
    """Every place a new tray fits, by geometry alone (region left empty), sorted.

    Each tray covering a hex next to the character is tried in every orientation.
    """
    character = valley.locate(character_hex)
    seen: set[frozenset[Axial]] = set()
    found: list[Placement] = []
    for orientation, offsets in valley.shape.orientations.items():
        for neighbour in character.neighbours():
            for offset in offsets:
                placement = Placement(neighbour - offset, orientation, "")
                cells = placement.cells(valley.shape)
                key = frozenset(cells)
                if key in seen:
                    continue
                seen.add(key)
                if _geometry_refusal(valley, cells, character, "") is None:
                    found.append(placement)
    return sorted(found)


def legal_tray_placements(
    rules: RulesConstants, valley: Valley, terrain: Terrain, character_hex: Place
) -> list[Placement]:
    """EVERY legal new tray for a character exploring from ``character_hex``: each place
    it fits, for each region it may belong to. Empty when no tray may be added.

    Rulebook: Actions > Explore.
    """
    if valley.shape.slots != rules.valley.tray_slots:
        return []
    regions_ok = new_tray_regions(rules, valley, terrain, character_hex)
    return [
        replace(p, region=r) for r in regions_ok for p in tray_placements(valley, character_hex)
    ]


def _check_draws(
    terrain: Terrain, valley: Valley, region: str, tiles: Sequence[HexId | None]
) -> None:
    bag = set(region_bag(valley, terrain, region))
    known = [t for t in tiles if t is not None]
    if len(set(known)) != len(known):
        raise IllegalAction("the same hex cannot be drawn twice")
    placed = set(valley.tiles.values())
    for tile in known:
        if tile not in bag:
            info = terrain.hexes.get(tile)
            if info is None and typed_tile_count(terrain, region) is not None:
                # A tile of the box not typed in yet: known by its id until flipped.
                if tile in placed:
                    raise _already_placed(valley, terrain, tile)
                continue
            if info is None:
                raise IllegalAction(f"there is no hex {tile}")
            if info.region != region:
                raise IllegalAction(f"hex {tile} is from {info.region}, not {region}")
            if info.starting:
                raise IllegalAction(f"hex {tile} is a starting hex; it is not in the bag")
            raise _already_placed(valley, terrain, tile)


def _already_placed(valley: Valley, terrain: Terrain, tile: HexId) -> IllegalAction:
    """A tile typed for a new tray that lies in the valley already, said as the table sees
    it: a face-down one by where it lies, never as "hex E05" (Valley > Hexes; issue 36
    item 13)."""
    again = "type the id printed on the tile the table placed"
    if tile not in valley.tiles.values():
        return IllegalAction(f"{tile} is already in the valley: {again}")
    cell = valley.locate(tile)
    if valley.is_explored(cell):
        return IllegalAction(f"{tile} ({hex_words(valley, terrain.hexes, cell)}) is already "
                             f"in the valley, face up: {again}")
    return IllegalAction(f"the tile typed as {tile} is already in the valley, face down: "
                         f"{hex_words(valley, terrain.hexes, cell)}; {again}")


def place_tray(
    rules: RulesConstants,
    valley: Valley,
    terrain: Terrain,
    character_hex: Place,
    placement: Placement,
    tiles: Sequence[HexId | None] | None = None,
    *,
    who: str = "the character",
) -> Valley:
    """Add a new tray, filled face down with ``tiles`` drawn from the region's bag.

    ``tiles`` are the draws, one per slot in slot order (None: not read yet). The
    character then explores one of :func:`entry_hexes` (see :func:`move_cost`).
    Rulebook: Actions > Explore; Populating a Terrain Tray.
    """
    check_tray_placement(rules, valley, terrain, character_hex, placement, who=who)
    slots = valley.shape.slots
    draws: Sequence[HexId | None] = [None] * slots if tiles is None else tiles
    if len(draws) != slots:
        raise IllegalAction(f"a new tray is filled with {slots} hexes; got {len(draws)}")
    _check_draws(terrain, valley, placement.region, draws)
    tray = Tray(len(valley.trays), placement.region, placement.origin, placement.orientation)
    new_tiles = dict(valley.tiles)
    new_tiles.update(zip(tray.cells(valley.shape), draws, strict=True))
    return replace(valley, trays=(*valley.trays, tray), tiles=frozen_map(new_tiles))


def entry_hexes(valley: Valley, placement: Placement, character_hex: Place) -> list[Axial]:
    """The new tray's hexes next to the character: where they may explore next."""
    character = valley.locate(character_hex)
    return sorted(c for c in placement.cells(valley.shape) if c.is_adjacent(character))


def reveal(terrain: Terrain, valley: Valley, place: Place, tile: HexId | None = None) -> Valley:
    """Flip a face-down hex (the character explored it). ``tile`` is the id read on it,
    needed when the slot's tile was not read when drawn."""
    cell = valley.locate(place)
    if cell in valley.explored:
        raise IllegalAction(f"hex {valley.name(cell)} is already explored")
    known = valley.tiles[cell]
    if known is not None and tile is not None and tile != known:
        raise IllegalAction(f"the hex at {cell} is {known}, not {tile}")
    if known is None:
        if tile is None:
            raise IllegalAction(f"say which hex was flipped at {cell}")
        _check_draws(terrain, valley, valley.region_of(cell), [tile])
        known = tile
    if known not in terrain.hexes:
        # My own box: a tile is typed in once, when it is first flipped.
        raise IllegalAction(f"the tile {known} is not in your pack yet: type what it shows "
                            f"(its name, the terrain feature in each section, its omens) "
                            f"first")
    new_tiles = dict(valley.tiles)
    new_tiles[cell] = known
    return replace(valley, tiles=frozen_map(new_tiles), explored=valley.explored | {cell})
