"""Hex tiles from the table: typing a tile of the box once, the first time it is flipped
(or the starting hex at set-up), into the owner's pack, so it is known next time.

Rulebook: Valley > Hexes ("Each hex tile depicts a part of the valley ... an unexplored
state ... and an explored state"; "each hex has an ID"); Populating a Terrain Tray. A
tile is a hex card of the campaign's own pack (``<pack>-mine``), written by the card
entry machinery (:func:`companion.operations.cards.enter_card`): one undoable operation,
carried in the campaign file like every own card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign

SECTIONS = ("a", "b", "c")
"""A tile's three sections, as printed (Rulebook: Valley > Hexes)."""
NO_FEATURE = ("", "-", "none", "empty", "nothing")
"""What a player may type for a section with no terrain feature."""


def tile_known(campaign: Campaign, tile: str) -> bool:
    """Whether the campaign's content knows the hex tile ``tile`` (typed before, or in
    the pack)."""
    return tile.strip() in campaign.content.hexes


def feature_id(campaign: Campaign, typed: str | None) -> str | None:
    """A terrain feature typed by id or name, in any case ("Dried flats"); None for an
    empty section. Refused, listing the features, for anything else."""
    text = " ".join((typed or "").split()).casefold()
    if text in NO_FEATURE:
        return None
    for feature in campaign.content.features.values():
        if text in (feature.id.casefold(), feature.name.casefold()):
            return str(feature.id)
    names = ", ".join(f.name for f in campaign.content.features.values())
    raise Refused(f"There is no terrain feature '{typed}': choose one of {names}, or "
                  "'none' for an empty section.")


def region_id(campaign: Campaign, typed: str) -> str:
    """A region typed by id or name, in any case."""
    text = " ".join(typed.split()).casefold()
    for region in campaign.content.regions.values():
        if text in (region.id.casefold(), region.name.casefold()):
            return str(region.id)
    names = " or ".join(r.name for r in campaign.content.regions.values())
    raise Refused(f"There is no region '{typed}': the tiles are of {names}.")


def type_tile(campaign: Campaign, *, tile: str, region: str,
              sections: Mapping[str, str | None] | Sequence[str | None], name: str = "",
              omens: Mapping[str, str] | None = None, starting: bool = False) -> Changes:
    """Type the hex tile ``tile`` from the table into the owner's pack: its region, its
    name (if it has one), the terrain feature in each section a, b, c (None or "none":
    an empty section) and its omens (omen -> section). ``starting``: the region's
    starting hex (set-up). Known from then on; one undoable operation.
    """
    from companion.operations.cards import enter_card

    tile = tile.strip()
    if not tile:
        raise Refused("Type the id printed on the tile.")
    if tile_known(campaign, tile):
        raise Refused(f"The tile {tile} is already known "
                      f"({campaign.content.hexes[tile].name or 'no name'}).")
    if not isinstance(sections, Mapping):
        if len(sections) != len(SECTIONS):
            raise Refused("Give the terrain feature of each of the three sections a, b, c "
                          "('none' for an empty one).")
        sections = dict(zip(SECTIONS, sections, strict=True))
    features = {s: feature_id(campaign, sections.get(s)) for s in SECTIONS}
    if all(f is None for f in features.values()):
        raise Refused(f"The tile {tile} shows at least one terrain feature: give the "
                      "feature of each section.")
    data: dict[str, Any] = {"id": tile, "region": region_id(campaign, region),
                            "sections": features}
    if name.strip():
        data["name"] = " ".join(name.split())
    if starting:
        data["starting"] = True
    if omens:
        data["omens"] = [{"omen": o.strip().casefold(), "section": s.strip().casefold()}
                         for o, s in omens.items()]
    return enter_card(campaign, kind="hexes", data=data)


def parse_omens(typed: Sequence[str]) -> dict[str, str]:
    """``["comet:b", "sun=a"]`` -> ``{"comet": "b", "sun": "a"}`` (the CLI's --omen)."""
    found: dict[str, str] = {}
    for text in typed:
        parts = text.replace("=", ":").split(":")
        if len(parts) != 2 or not parts[0].strip() or parts[1].strip().casefold() not in SECTIONS:
            raise Refused(f"Write an omen as OMEN:SECTION, e.g. comet:b; not '{text}'.")
        found[parts[0].strip()] = parts[1].strip()
    return found


def tile_to_type(campaign: Campaign, name: str, to_hex: str) -> tuple[str, str] | None:
    """The tile a move of ``name`` to ``to_hex`` (a tile id, or the way it lies) would
    flip whose face the campaign does not know yet, as ``(tile, region)``: the GUI asks
    for it first (Valley > Hexes). None when nothing is to be typed."""
    from companion.operations.exploration import hex_named
    from companion.operations.state import load_game
    from companion.operations.valley import load_valley
    from companion.rules.errors import IllegalAction

    with campaign.file.read() as session:
        valley = load_valley(session)
        game = load_game(session, campaign.content)
    try:
        here = game.character(name).hex
        if here is None or here not in valley:
            return None
        tile = hex_named(valley, here, to_hex)
        if tile not in valley or valley.is_explored(tile) or tile_known(campaign, tile):
            return None
        return str(tile), valley.region_of(tile)
    except IllegalAction:
        return None
