"""The valley as placed on the table: terrain trays, hexes, overlays, exploring and moving.

Rulebook: Valley (Regions, Terrain Trays, Hexes, Overlays); Set Up > Determine Starting Hex
and Place Characters; Actions > Explore, Move, Open Terrain Features; Behemoths > Lair.

Positions are :class:`~companion.rules.geometry.Axial` hexes (flat-top, edge 0 on top,
clockwise; see :mod:`companion.rules.geometry`). Wherever a function takes a position it
also accepts the :data:`~companion.rules.ids.HexId` of the tile lying there, since a
character's ``hex`` is a tile id. A cell may hold a face-down tile whose id nobody knows
yet (at the table the tile is only read when flipped): its tile id is then ``None``.

Conventions (each is one table or one function, so a pack could later carry it):

* **Sections and edges** (:data:`DEFAULT_SECTIONS`): tiles never rotate (every ID faces
  the same way, Rulebook: Populating a Terrain Tray), so each section always faces the
  same edges. Section A covers edges 0-1 (N, NE), B edges 2-3 (SE, S, the ID edge),
  C edges 4-5 (SW, NW): the hexagon cut into three rhombi from its centre. A feature in a
  section touches that section's edges.
* **Tray shape** (:data:`TRIANGLE`): a tray's three slots are three mutually adjacent
  hexes, a compact triangle, in one of two orientations: ``"east"`` (the origin with its
  NE and SE neighbours) or ``"west"`` (the origin with its NW and SW neighbours). Every
  such triangle has exactly one (origin, orientation).
* **Touching edges** (Actions > Explore, "touches at least two edges of the current
  terrain tray ..., including at least one edge of their current hex"): an edge of the
  current tray is a hex edge of one of its cells; the new tray touches it when one of its
  cells lies across it. So the new tray must have at least two (old cell, new cell)
  adjacent pairs with the character's tray, and one of them must involve the
  character's hex.
* **Obstructed crossing** (Actions > Move, "If all paths from the character's hex to the
  destination hex cross at least one terrain feature on one or both sides of the
  abutting hex borders"): two adjacent hexes abut along one border, edge ``e`` of the
  first and edge ``e + 3`` of the second. A path crosses it through one section of each
  hex touching that border. A section *blocks* when it holds a feature that is not open
  terrain (plains, dried flats) and is not covered by an overlay (Valley > Overlays: a
  covered feature "is not counted as a feature when crossing that edge"), or when it is
  covered by a behemoth's lair (Behemoths > Lair: crossing it "is considered to be
  crossing a terrain feature"). A path is clear only if neither of its sections blocks;
  the crossing is obstructed when no path is clear, i.e. when every section on the first
  side blocks, or every section on the second side blocks. With the default table each
  edge lies in exactly one section, so: obstructed iff the section on either side blocks.
* **Exploring** (Actions > Explore) costs ``action_costs.explore`` and never the
  obstructed extra: the hex is unexplored, its features "shrouded in mist"; only Move
  names the extra energy.
* **Regions** (Actions > Explore): a new tray belongs to the region of the tray the
  character stands in, while that region has at least ``min_unused_tiles_for_new_tray``
  unused tiles and room under ``max_tiles_per_region``; once the first region (the first
  tray's) has ``trays_before_next_region`` trays, a tray may instead begin a region not yet
  in the valley, whose pool excludes its (alternate) starting hex. A region's pool never
  holds a starting hex: the first region's was placed at set up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Literal, Protocol, TypeVar

from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import Feature, HexTile, Overlay, OverlayKind
from companion.rules.errors import IllegalAction
from companion.rules.geometry import Axial, opposite, to_offset
from companion.rules.ids import HexId

Section = Literal["a", "b", "c"]
"""A hex's section, as keyed in :attr:`HexTile.sections`."""

SECTIONS: tuple[Section, ...] = ("a", "b", "c")

Place = Axial | HexId
"""A hex in the valley: its position, or the id of the tile lying there."""


# --- conventions --------------------------------------------------------------------------


@dataclass(frozen=True)
class SectionLayout:
    """Which edges (0-5) each section of a hex touches. Every edge needs a section."""

    edges: Mapping[Section, frozenset[int]]
    """Section -> the edges it touches."""

    def __post_init__(self) -> None:
        if set(self.edges) != set(SECTIONS):
            raise ValueError("a section layout gives the edges of sections a, b and c")
        covered = frozenset().union(*self.edges.values())
        if covered != frozenset(range(6)):
            raise ValueError(f"every edge 0-5 must lie in a section; got {sorted(covered)}")

    def sections_on(self, edge: int) -> tuple[Section, ...]:
        """The sections touching ``edge``.

        >>> DEFAULT_SECTIONS.sections_on(3)
        ('b',)
        """
        return tuple(s for s in SECTIONS if edge in self.edges[s])


DEFAULT_SECTIONS = SectionLayout(
    MappingProxyType({"a": frozenset({0, 1}), "b": frozenset({2, 3}), "c": frozenset({4, 5})})
)
"""Section A: edges 0-1 (N, NE); B: 2-3 (SE, S); C: 4-5 (SW, NW)."""


@dataclass(frozen=True)
class TrayShape:
    """The slots of a terrain tray, as offsets from its origin, per orientation."""

    name: str
    orientations: Mapping[str, tuple[Axial, ...]]
    """Orientation name -> the slots' offsets from the origin (slot order)."""

    def __post_init__(self) -> None:
        sizes = {len(cells) for cells in self.orientations.values()}
        if not self.orientations or len(sizes) != 1:
            raise ValueError("every orientation of a tray has the same number of slots")
        for name, cells in self.orientations.items():
            if len(set(cells)) != len(cells):
                raise ValueError(f"tray orientation {name!r} repeats a slot")

    @property
    def slots(self) -> int:
        """Number of hex slots in one tray."""
        return len(next(iter(self.orientations.values())))

    def cells(self, origin: Axial, orientation: str) -> tuple[Axial, ...]:
        """The hexes a tray covers when placed at ``origin`` in ``orientation``."""
        try:
            offsets = self.orientations[orientation]
        except KeyError:
            names = ", ".join(self.orientations)
            raise IllegalAction(
                f"a {self.name} tray is placed {names}; not {orientation!r}"
            ) from None
        return tuple(origin + d for d in offsets)


TRIANGLE = TrayShape(
    "triangle",
    MappingProxyType(
        {
            "east": (Axial(0, 0), Axial(1, -1), Axial(1, 0)),
            "west": (Axial(0, 0), Axial(-1, 0), Axial(-1, 1)),
        }
    ),
)
"""Three mutually adjacent hexes: the origin plus its NE and SE (or NW and SW) neighbours."""


class Terrain(Protocol):
    """What the rules need from the content: tiles, features and overlays by id.

    ``companion.content.Content`` satisfies it.
    """

    @property
    def hexes(self) -> Mapping[str, HexTile]: ...

    @property
    def features(self) -> Mapping[str, Feature]: ...

    @property
    def overlays(self) -> Mapping[str, Overlay]: ...


# --- the valley ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Tray:
    """A terrain tray placed in the valley (Rulebook: Valley > Terrain Trays)."""

    index: int
    """Its place in :attr:`Valley.trays` (0 is the first tray, placed at set up)."""
    region: str
    """The region whose tiles fill it."""
    origin: Axial
    """The hex of its first slot."""
    orientation: str = "east"
    """One of the shape's orientations (``"east"`` or ``"west"`` for :data:`TRIANGLE`)."""

    def cells(self, shape: TrayShape = TRIANGLE) -> tuple[Axial, ...]:
        """Its hexes, in slot order.

        >>> Tray(0, "emberfen", Axial(0, 0)).cells()
        (Axial(q=0, r=0), Axial(q=1, r=-1), Axial(q=1, r=0))
        """
        return shape.cells(self.origin, self.orientation)


@dataclass(frozen=True, order=True)
class Placement:
    """Where a new tray could go, and which region's tiles fill it."""

    origin: Axial
    orientation: str
    region: str

    def cells(self, shape: TrayShape = TRIANGLE) -> tuple[Axial, ...]:
        """The hexes the new tray would cover."""
        return shape.cells(self.origin, self.orientation)


K = TypeVar("K")
V = TypeVar("V")


def _frozen_map(mapping: Mapping[K, V] | None = None) -> Mapping[K, V]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Valley:
    """The valley: its trays, the tile in each slot, what is explored, and overlays.

    Persistent between games (Rulebook: Continuing Play): tiles and overlays stay.
    """

    trays: tuple[Tray, ...] = ()
    """Placed trays, in the order they were placed."""
    tiles: Mapping[Axial, HexId | None] = field(default_factory=_frozen_map)
    """Every slot of every tray -> its tile id (None: face down and not yet read)."""
    explored: frozenset[Axial] = frozenset()
    """Slots whose tile is face up (an explored hex always has a known tile id)."""
    overlays: Mapping[tuple[HexId, Section], str] = field(default_factory=_frozen_map)
    """(tile, section) -> the overlay covering it (outposts, lairs ...)."""
    lair: tuple[HexId, Section] | None = None
    """Where the behemoth's lair overlay lies (Rulebook: Behemoths > Lair), if in play."""
    shape: TrayShape = TRIANGLE
    """The shape of every tray."""

    def __post_init__(self) -> None:
        # freeze what the caller handed in, so a Valley never changes under its owner
        object.__setattr__(self, "tiles", _frozen_map(self.tiles))
        object.__setattr__(self, "explored", frozenset(self.explored))
        object.__setattr__(self, "overlays", _frozen_map(self.overlays))
        cells: list[Axial] = []
        for i, tray in enumerate(self.trays):
            if tray.index != i:
                raise ValueError(f"tray {tray.index} is at position {i}")
            cells += tray.cells(self.shape)
        if len(set(cells)) != len(cells):
            raise ValueError("two trays overlap")
        if set(cells) != set(self.tiles):
            raise ValueError("the valley's tiles are exactly its trays' slots")
        if not self.explored <= set(cells):
            raise ValueError("only a slot of a tray can be explored")
        if any(self.tiles[c] is None for c in self.explored):
            raise ValueError("an explored hex is face up: its tile id is known")
        known = [t for t in self.tiles.values() if t is not None]
        if len(set(known)) != len(known):
            raise ValueError("a tile lies in two slots")

    # --- reading -----------------------------------------------------------------------

    def cells(self) -> list[Axial]:
        """Every slot, sorted."""
        return sorted(self.tiles)

    def __contains__(self, place: object) -> bool:
        if isinstance(place, Axial):
            return place in self.tiles
        return isinstance(place, str) and place in self.tiles.values()

    def locate(self, place: Place) -> Axial:
        """The position of ``place`` (a position in the valley, or a tile id lying in it)."""
        if isinstance(place, Axial):
            if place not in self.tiles:
                raise IllegalAction(f"there is no hex at {place} in the valley")
            return place
        for cell, tile in self.tiles.items():
            if tile == place:
                return cell
        raise IllegalAction(f"hex {place} is not in the valley")

    def tile_at(self, place: Place) -> HexId | None:
        """The tile id in a slot (None if face down and not yet read)."""
        return self.tiles[self.locate(place)]

    def is_explored(self, place: Place) -> bool:
        """True if the hex is face up."""
        return self.locate(place) in self.explored

    def tray_of(self, place: Place) -> Tray:
        """The tray a hex lies in."""
        cell = self.locate(place)
        for tray in self.trays:
            if cell in tray.cells(self.shape):
                return tray
        raise AssertionError("every slot lies in a tray")  # pragma: no cover

    def region_of(self, place: Place) -> str:
        """The region of the tray a hex lies in."""
        return self.tray_of(place).region

    def trays_of(self, region: str) -> list[Tray]:
        """The trays of one region."""
        return [t for t in self.trays if t.region == region]

    def name(self, place: Place) -> str:
        """A hex in words: a face-up hex's tile id; a face-down one by where it lies
        ("the unexplored hex north of E01"), never its tile (Valley > Hexes)."""
        from companion.rules.hex_words import hex_words

        cell = self.locate(place)
        tile = self.tiles[cell]
        if cell in self.explored and tile is not None:
            return str(tile)
        return hex_words(self, {}, cell)


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
        tiles=_frozen_map(dict(zip(cells, tiles, strict=True))),
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


def _unused_tiles(valley: Valley, terrain: Terrain, region: str) -> int:
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
    unused = _unused_tiles(valley, terrain, region)
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


def _tray_placements(valley: Valley, character_hex: Place) -> list[Placement]:
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
        replace(p, region=r) for r in regions_ok for p in _tray_placements(valley, character_hex)
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
                    raise IllegalAction(f"hex {tile} is already in the valley")
                continue
            if info is None:
                raise IllegalAction(f"there is no hex {tile}")
            if info.region != region:
                raise IllegalAction(f"hex {tile} is from {info.region}, not {region}")
            if info.starting:
                raise IllegalAction(f"hex {tile} is a starting hex; it is not in the bag")
            raise IllegalAction(f"hex {tile} is already in the valley")


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
    return replace(valley, trays=(*valley.trays, tray), tiles=_frozen_map(new_tiles))


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
    return replace(valley, tiles=_frozen_map(new_tiles), explored=valley.explored | {cell})


# --- overlays -----------------------------------------------------------------------------


def place_overlay(valley: Valley, place: Place, section: Section, overlay: str) -> Valley:
    """Cover one section of an explored hex with an overlay (Rulebook: Valley > Overlays)."""
    tile = _face_up_tile(valley, place)
    if (tile, section) in valley.overlays or valley.lair == (tile, section):
        raise IllegalAction(f"section {section.upper()} of {tile} is already covered")
    overlays = dict(valley.overlays)
    overlays[(tile, section)] = overlay
    return replace(valley, overlays=_frozen_map(overlays))


def place_lair(valley: Valley, place: Place, section: Section, overlay: str) -> Valley:
    """Place the behemoth's lair: an explored hex with no overlays, in any orientation
    (any section). Rulebook: Behemoths > Behemoth Setup > Place Lair."""
    tile = _face_up_tile(valley, place)
    if valley.lair is not None:
        raise IllegalAction(f"the behemoth's lair is already in {valley.lair[0]}")
    if any(t == tile for t, _ in valley.overlays):
        raise IllegalAction(f"the lair goes in a hex with no overlays; {tile} has one")
    valley = place_overlay(valley, tile, section, overlay)
    return replace(valley, lair=(tile, section))


def _face_up_tile(valley: Valley, place: Place) -> HexId:
    cell = valley.locate(place)
    tile = valley.tiles[cell]
    if cell not in valley.explored or tile is None:
        raise IllegalAction(f"{valley.name(cell)} is unexplored")
    return tile


# --- crossing and moving (Actions > Move, Explore) ----------------------------------------


def _blocker(valley: Valley, terrain: Terrain, tile: HexId, section: Section) -> str | None:
    """What in ``section`` of ``tile`` blocks a crossing (None if nothing does)."""
    where = f"section {section.upper()} of {tile}"
    overlay = valley.overlays.get((tile, section))
    info = terrain.overlays.get(overlay) if overlay is not None else None
    if valley.lair == (tile, section) or (info is not None and info.kind is OverlayKind.LAIR):
        return f"the lair in {where}"  # Rulebook: Behemoths > Lair
    if overlay is not None:
        return None  # Rulebook: Valley > Overlays: a covered feature is not counted
    info_tile = terrain.hexes.get(tile)
    if info_tile is None:
        raise IllegalAction(f"there is no hex {tile} in the content")
    feature_id = info_tile.sections[section]
    if feature_id is None:
        return None
    feature = terrain.features.get(feature_id)
    if feature is not None and feature.open_terrain:
        return None  # Rulebook: Open Terrain Features
    name = feature.name.lower() if feature is not None else feature_id
    return f"{name} in {where}"


def _side_blockers(
    valley: Valley, terrain: Terrain, cell: Axial, edge: int, layout: SectionLayout
) -> list[str] | None:
    """The blockers of every section on this side of the border; None if one is clear."""
    tile = valley.tiles[cell]
    if tile is None:
        raise IllegalAction(f"the hex at {cell} is face down; its features are unknown")
    found = []
    for section in layout.sections_on(edge):
        blocker = _blocker(valley, terrain, tile, section)
        if blocker is None:
            return None
        found.append(blocker)
    return found


def _adjacent_pair(valley: Valley, a: Place, b: Place, who: str) -> tuple[Axial, Axial, int]:
    start, end = valley.locate(a), valley.locate(b)
    if start == end:
        raise IllegalAction(f"{who} is already in {valley.name(start)}")
    edge = start.edge_towards(end)
    if edge is None:
        raise IllegalAction(
            f"{valley.name(end)} is not next to {valley.name(start)}; {who} moves one hex at a time"
        )
    return start, end, edge


def _crossing_blockers(
    valley: Valley,
    terrain: Terrain,
    a: Place,
    b: Place,
    *,
    layout: SectionLayout = DEFAULT_SECTIONS,
) -> list[str]:
    """What obstructs the crossing from ``a`` to adjacent ``b``, in words; empty if the
    path is open. See the module docstring for the reading."""
    start, end, edge = _adjacent_pair(valley, a, b, "the character")
    blockers: list[str] = []
    for cell, side in ((start, edge), (end, opposite(edge))):
        found = _side_blockers(valley, terrain, cell, side, layout)
        if found is not None:
            blockers += found
    return blockers


@dataclass(frozen=True)
class MoveCost:
    """What stepping into an adjacent hex costs."""

    energy: int
    """Energy to pay."""
    obstructed: bool
    """True if the path is obstructed (the extra energy is included)."""
    explores: bool
    """True if the hex is unexplored: it is flipped (Explore), then a Discovery is drawn."""
    reason: str
    """The cost in words, e.g. "Move to E03 on an obstructed path (river in ...): 2"."""


def move_cost(
    rules: RulesConstants,
    valley: Valley,
    terrain: Terrain,
    a: Place,
    b: Place,
    *,
    who: str = "the character",
    layout: SectionLayout = DEFAULT_SECTIONS,
) -> MoveCost:
    """The energy for a character in ``a`` to step into adjacent ``b``.

    Explored ``b``: Move, ``action_costs.move`` plus ``move_obstructed_extra`` on an
    obstructed path. Unexplored ``b``: Explore, ``action_costs.explore`` (never
    obstructed: the hex is still in mist). Rulebook: Actions > Move; Explore.
    """
    costs = rules.action_costs
    start, end, _ = _adjacent_pair(valley, a, b, who)
    if end not in valley.explored:
        return MoveCost(
            costs.explore,
            obstructed=False,
            explores=True,
            reason=f"Explore {valley.name(end)}: {costs.explore} energy",
        )
    blockers = _crossing_blockers(valley, terrain, start, end, layout=layout)
    if blockers:
        energy = costs.move + costs.move_obstructed_extra
        reason = (
            f"Move to {valley.name(end)} on an obstructed path ({'; '.join(blockers)}): "
            f"{energy} energy"
        )
    else:
        energy = costs.move
        reason = f"Move to {valley.name(end)}: {energy} energy"
    return MoveCost(energy, obstructed=bool(blockers), explores=False, reason=reason)


# --- the journal's Valley Map -------------------------------------------------------------


@dataclass(frozen=True)
class Bounds:
    """The valley's extent in the journal grid's "even-q" offset coordinates."""

    first_column: int
    """Leftmost column (always even, so the grid's odd columns sit half a hex lower)."""
    first_row: int
    columns: int
    rows: int


def bounds(valley: Valley) -> Bounds | None:
    """The extent of :func:`journal_grid` (None for an empty valley)."""
    offsets = [to_offset(c) for c in valley.tiles]
    if not offsets:
        return None
    first_column = min(col for col, _ in offsets)
    first_column -= first_column & 1
    first_row = min(row for _, row in offsets)
    return Bounds(
        first_column,
        first_row,
        max(col for col, _ in offsets) - first_column + 1,
        max(row for _, row in offsets) - first_row + 1,
    )


def journal_grid(valley: Valley) -> list[list[HexId | None]]:
    """The Valley Map as rows of tile ids (None: no hex, or a face-down unread tile).

    Flat-top hexes in columns; column 0 of the grid is even, and odd columns sit half a
    hex lower than even ones, as they would be drawn.

    For a first tray at (0, 0) facing east, with the starting hex E01 at the origin and
    E04 to its north-east, the rows are ``[[None, "E04"], ["E01", None]]``.
    """
    box = bounds(valley)
    if box is None:
        return []
    grid: list[list[HexId | None]] = [[None] * box.columns for _ in range(box.rows)]
    for cell, tile in valley.tiles.items():
        col, row = to_offset(cell)
        grid[row - box.first_row][col - box.first_column] = tile
    return grid
