"""Tests' look under the fog: the tile of the face-down hex a Day option names by the
way it lies (the players never see it; a test sets up its situation with it)."""

from __future__ import annotations

from typing import Any


def tile_towards(campaign: Any, name: str, way: str) -> str:
    """The tile of the hex lying ``way`` ("north-east") from ``name``'s hex; ``way`` may
    also be a tile id already (an explored hex), returned as it is."""
    from companion.operations.valley import load_valley
    from companion.rules.hex_words import COMPASS

    if way not in COMPASS:
        return way
    here = next(c.hex_id for c in campaign.characters() if c.name == name)
    with campaign.file.read() as session:
        valley = load_valley(session)
    return str(valley.tiles[valley.locate(str(here)).neighbour(COMPASS.index(way))])
