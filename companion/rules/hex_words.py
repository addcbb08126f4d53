"""Hexes and trays in the table's words: where a hex lies, never grid coordinates, and
never the tile under a face-down hex.

Rulebook: Valley > Hexes ("Each tile has an unexplored state (where its features are
shrouded in mist) and an explored state"): a face-down tile's id and features are not
the players' to see until it is flipped, so a face-down hex is named by where it lies
("the unexplored hex north-east of Ashen Ford"); Actions > Explore ("place it such that
it touches at least two edges of the current terrain tray"): a new tray is named by the
hex it lies beside and the hexes it touches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.geometry import Axial

COMPASS = ("north", "north-east", "south-east", "south", "south-west", "north-west")
"""Edge k of a hex (``geometry.EDGE_NAMES`` order) in words."""

UNEXPLORED = "?"
"""A face-down tile where a list shows tile ids (the delving table, a tooltip)."""


def direction(start: Axial, end: Axial) -> str | None:
    """Which way ``end`` lies from the adjacent ``start`` ("north-east"); None if they
    are not adjacent."""
    edge = start.edge_towards(end)
    return COMPASS[edge] if edge is not None else None


def tile_name(valley: Any, hexes: Mapping[str, Any], cell: Axial) -> str:
    """A face-up hex's name as printed (its id when it has none); "?" for a face-down
    one."""
    tile = valley.tiles.get(cell)
    if cell not in valley.explored or tile is None:
        return UNEXPLORED
    info = hexes.get(str(tile))
    return str(getattr(info, "name", "") or tile)


def hex_words(valley: Any, hexes: Mapping[str, Any], cell: Axial,
              near: Axial | None = None) -> str:
    """A hex in words: a face-up hex by its name; a face-down one by where it lies from
    a face-up neighbour (``near`` first: the character's hex), e.g. "the unexplored hex
    north of Ashen Ford"."""
    if cell in valley.explored and valley.tiles.get(cell) is not None:
        return tile_name(valley, hexes, cell)
    neighbours = [n for n in cell.neighbours() if n in valley.explored]
    if near is not None and near in valley.explored and near.is_adjacent(cell):
        neighbours.insert(0, near)
    for other in neighbours:
        way = direction(other, cell)
        if way is not None:
            return f"the unexplored hex {way} of {tile_name(valley, hexes, other)}"
    return "an unexplored hex"


def tray_words(valley: Any, hexes: Mapping[str, Any], cells: Sequence[Axial],
               start: Axial) -> str:
    """A new tray's place in words: which way it lies from the character's hex and the
    face-up hexes it touches, e.g. "north-east of Ashen Ford, touching Birchhollow"."""
    ways = list(dict.fromkeys(w for c in sorted(cells) if (w := direction(start, c))))
    here = tile_name(valley, hexes, start)
    text = f"{' and '.join(ways) or 'beside'} of {here}"
    near = [c for c in cells if c.is_adjacent(start)]
    if len(near) == 1:  # one hex beside the character: say which way the tray runs on
        on = list(dict.fromkeys(w for c in sorted(cells) if c != near[0]
                                and (w := direction(near[0], c))))
        if on:
            text += f", running on {' and '.join(on)}"
    touching: list[str] = []
    unexplored = 0
    for cell in sorted(valley.tiles):
        if cell == start or not any(cell.is_adjacent(c) for c in cells):
            continue
        if cell in valley.explored:
            touching.append(tile_name(valley, hexes, cell))
        else:
            unexplored += 1
    if unexplored:
        touching.append(f"{unexplored} unexplored hex" + ("es" if unexplored > 1 else ""))
    if touching:
        text += ", touching " + " and ".join(touching)
    return text
