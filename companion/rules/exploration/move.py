"""Crossing and moving: obstructed crossings and the energy a move costs.

Rulebook: Actions > Move, Explore; Valley > Overlays; Behemoths > Lair.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import OverlayKind
from companion.rules.errors import IllegalAction
from companion.rules.exploration.valley import (
    DEFAULT_SECTIONS,
    Place,
    Section,
    SectionLayout,
    Terrain,
    Valley,
)
from companion.rules.geometry import Axial, opposite
from companion.rules.ids import HexId

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


def crossing_blockers(
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
    blockers = crossing_blockers(valley, terrain, start, end, layout=layout)
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
