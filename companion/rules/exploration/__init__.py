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

Where each part lives: :mod:`~companion.rules.exploration.valley` (the conventions, the
valley, overlays, the journal's Valley Map), :mod:`~companion.rules.exploration.explore`
(the first tray, regions, placing a tray, revealing: Set Up; Actions > Explore) and
:mod:`~companion.rules.exploration.move` (crossing and moving: Actions > Move).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.rules.exploration.explore import (
        check_tray_placement,
        entry_hexes,
        first_tray,
        legal_tray_placements,
        new_tray_regions,
        place_tray,
        region_bag,
        regions,
        reveal,
        typed_tile_count,
    )
    from companion.rules.exploration.move import MoveCost, move_cost
    from companion.rules.exploration.valley import (
        DEFAULT_SECTIONS,
        SECTIONS,
        TRIANGLE,
        Bounds,
        Place,
        Placement,
        Section,
        SectionLayout,
        Terrain,
        Tray,
        TrayShape,
        Valley,
        bounds,
        journal_grid,
        place_lair,
        place_overlay,
    )
    from companion.rules.ids import HexId

_HOMES: dict[str, str] = {
    **dict.fromkeys((
        "check_tray_placement", "entry_hexes", "first_tray", "legal_tray_placements",
        "new_tray_regions", "place_tray", "region_bag", "regions", "reveal",
        "typed_tile_count"), "companion.rules.exploration.explore"),
    **dict.fromkeys(("MoveCost", "move_cost"), "companion.rules.exploration.move"),
    **dict.fromkeys((
        "DEFAULT_SECTIONS", "SECTIONS", "TRIANGLE", "Bounds", "Place", "Placement", "Section",
        "SectionLayout", "Terrain", "Tray", "TrayShape", "Valley", "bounds", "journal_grid",
        "place_lair", "place_overlay"), "companion.rules.exploration.valley"),
    "HexId": "companion.rules.ids",
}
"""Where each name of the package face lives: imported when first used, so that the
valley alone (:mod:`~companion.rules.exploration.valley`, which the start-up's first view
draws) does not import the content schema that exploring and moving read."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'companion.rules.exploration' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_SECTIONS",
    "SECTIONS",
    "TRIANGLE",
    "Bounds",
    "HexId",
    "MoveCost",
    "Place",
    "Placement",
    "Section",
    "SectionLayout",
    "Terrain",
    "Tray",
    "TrayShape",
    "Valley",
    "bounds",
    "check_tray_placement",
    "entry_hexes",
    "first_tray",
    "journal_grid",
    "legal_tray_placements",
    "move_cost",
    "new_tray_regions",
    "place_lair",
    "place_overlay",
    "place_tray",
    "region_bag",
    "regions",
    "reveal",
    "typed_tile_count",
]
