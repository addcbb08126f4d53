"""The valley as placed on the table: trays, hexes and overlays, and its journal map.

Rulebook: Valley (Regions, Terrain Trays, Hexes, Overlays); Behemoths > Lair; Campaign
Journal > Valley Map. The conventions (sections and edges, the tray's shape) are set out
in :mod:`companion.rules.exploration`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from companion.rules.errors import IllegalAction
from companion.rules.geometry import Axial, to_offset
from companion.rules.ids import HexId

if TYPE_CHECKING:  # only annotations: the valley alone needs no content schema
    from companion.content.schema.world import Feature, HexTile, Overlay

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


def frozen_map(mapping: Mapping[K, V] | None = None) -> Mapping[K, V]:
    """A read-only copy of ``mapping``."""
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Valley:
    """The valley: its trays, the tile in each slot, what is explored, and overlays.

    Persistent between games (Rulebook: Continuing Play): tiles and overlays stay.
    """

    trays: tuple[Tray, ...] = ()
    """Placed trays, in the order they were placed."""
    tiles: Mapping[Axial, HexId | None] = field(default_factory=frozen_map)
    """Every slot of every tray -> its tile id (None: face down and not yet read)."""
    explored: frozenset[Axial] = frozenset()
    """Slots whose tile is face up (an explored hex always has a known tile id)."""
    overlays: Mapping[tuple[HexId, Section], str] = field(default_factory=frozen_map)
    """(tile, section) -> the overlay covering it (outposts, lairs ...)."""
    lair: tuple[HexId, Section] | None = None
    """Where the behemoth's lair overlay lies (Rulebook: Behemoths > Lair), if in play."""
    shape: TrayShape = TRIANGLE
    """The shape of every tray."""

    def __post_init__(self) -> None:
        # freeze what the caller handed in, so a Valley never changes under its owner
        object.__setattr__(self, "tiles", frozen_map(self.tiles))
        object.__setattr__(self, "explored", frozenset(self.explored))
        object.__setattr__(self, "overlays", frozen_map(self.overlays))
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



# --- overlays -----------------------------------------------------------------------------


def place_overlay(valley: Valley, place: Place, section: Section, overlay: str) -> Valley:
    """Cover one section of an explored hex with an overlay (Rulebook: Valley > Overlays)."""
    tile = _face_up_tile(valley, place)
    if (tile, section) in valley.overlays or valley.lair == (tile, section):
        raise IllegalAction(f"section {section.upper()} of {tile} is already covered")
    overlays = dict(valley.overlays)
    overlays[(tile, section)] = overlay
    return replace(valley, overlays=frozen_map(overlays))


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
