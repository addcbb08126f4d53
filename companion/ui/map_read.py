"""What the valley map shows, read from the campaign (``companion.ui.map_view`` draws it).

Contracts:

* :func:`read_map` reads everything the map shows in one read transaction
  (:class:`MapData`, plain frozen values).
* :func:`read_rows` reads it as :class:`MapRows` (the values the map is drawn from, with
  the row ids they came from), :func:`map_data` draws :class:`MapData` from them, and
  :func:`reread` reads again only the rows a click wrote (issue 37: a move reads its
  character and the hex it explored, not the whole map), or answers None when it cannot
  be sure, and the whole map is read.

Imports no database module at import time: the start-up's first view builds
:class:`MapData` without them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from companion.rules.geometry import Axial
from companion.ui.map_items import PLAYER_COLOURS, HexState, PieceState, SectionState

if TYPE_CHECKING:
    from sqlmodel import Session

    from companion.operations import Campaign
    from companion.operations.changes import Written
    from companion.operations.state import HexIndex
    from companion.rules.character import Character
    from companion.rules.exploration import Valley
    from companion.rules.valley import HexTokens


@dataclass(frozen=True)
class OutpostLine:
    name: str
    status: str
    tile: str | None
    section: str | None
    structures: tuple[str, ...] = ()


@dataclass(frozen=True)
class MapData:
    """What the map shows, read in one go."""

    valley: Valley
    hexes: tuple[HexState, ...]
    pieces: tuple[PieceState, ...]
    outposts: tuple[OutpostLine, ...] = ()
    behemoth: tuple[str, str] | None = None
    """(name, tile) of the behemoth in play."""
    target: tuple[str, str] | None = None
    """("hex", tile) or ("character", name) of its target token."""
    energy: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Character -> (energy, maximum)."""
    behemoth_odds: dict[str, float] = field(default_factory=dict)
    """Tile -> probability that the behemoth ends its next activation there (exact,
    over its movement roll and random tie-breaks; Rulebook: Behemoth Activation)."""
    lair: LairNote | None = None
    """The lair's overlay tile and zone as the group wrote them (the web Journal's
    ``lairOverlay`` / ``lairZone``), when known."""


@dataclass(frozen=True)
class LairNote:
    """Where the group wrote the behemoth's lair: its hex, the overlay tile it is on and
    that overlay's zone (A, B or C)."""

    name: str
    """The behemoth's name."""
    tile: str | None
    """The lair's hex on the map (placed, or the written hex when the map has it)."""
    hex_written: str
    overlay: str
    zone: str

    @property
    def badge(self) -> str:
        """The mark on the hex: "Lair OG03 · zone B"."""
        return "Lair " + " · ".join(x for x in (
            self.overlay, f"zone {self.zone}" if self.zone else "") if x)

    @property
    def text(self) -> str:
        """The map's note: "Mossback's lair: hex VV02 (not on the map yet), overlay tile
        OG03, zone B"."""
        where = self.tile or self.hex_written
        parts = [f"hex {where}" + ("" if self.tile else " (not on the map yet)")
                 if where else "hex not known"]
        if self.overlay:
            parts.append(f"overlay tile {self.overlay}")
        if self.zone:
            parts.append(f"zone {self.zone}")
        return f"{self.name}'s lair: " + ", ".join(parts)



def mark_of(lair: bool, ruined: bool, kind: str) -> str:
    """How a section's overlay is marked on the map: the behemoth's lair, a ruin, an
    outpost; rockfall and other effects get a rubble mark, as a ruin's."""
    if lair or kind == "lair":
        return "lair"
    if ruined:
        return "ruin"
    return "outpost" if kind == "outpost" else "ruin"

def initials_of(names: Sequence[str]) -> dict[str, str]:
    """Each character's initials on their piece."""
    # Two letters ("As", "Br"): one capital alone read like a section letter A/B/C.
    short = {n: n[:2].title() for n in names}
    for name in names:
        if sum(1 for v in short.values() if v == short[name]) > 1:
            short[name] = name[:2].title()
    return short


@dataclass(frozen=True)
class MapRows:
    """What the map is drawn from, as read, with the row ids it came from: the Valley
    view keeps it, so that a click reads again only the rows it wrote (:func:`reread`)."""

    valley: Valley
    hex_cells: Mapping[int, Axial]
    """``valley_hex`` row id -> its slot in the valley."""
    index: HexIndex
    campaign: Any
    """The campaign row (its character count and solo variant set the tracks' maxima)."""
    characters: tuple[tuple[int, Character], ...]
    """The characters in play, in order, by ``character`` row id."""
    tokens: HexTokens
    outposts: tuple[OutpostLine, ...]
    kinds: Mapping[tuple[Any, Any], str]
    """(tile, section) -> the kind of the overlay row covering it."""
    behemoth: tuple[str, str] | None
    target: tuple[str, str] | None
    lair: LairNote | None


def read_map(campaign: Campaign, *, odds: bool = True) -> MapData:
    """Everything the map shows, from one read of the campaign file (``odds=False``:
    without the behemoth's odds, which :func:`behemoth_end_odds` computes)."""
    return map_data(read_rows(campaign), campaign, odds=odds)


def read_rows(campaign: Campaign) -> MapRows:
    """What the map shows, from one read of the campaign file."""
    from sqlmodel import col, select

    from companion.operations.state import HexIndex, load_game
    from companion.operations.valley import load_valley
    from companion.store import models

    content = campaign.content
    with campaign.file.read() as session:
        valley = load_valley(session)
        game = load_game(session, content)
        trays = {t.id: t.tray_number - 1 for t in session.exec(select(models.ValleyTray)).all()}
        hex_rows = session.exec(select(models.ValleyHex)).all()
        tile_of = {r.id: r.tile_id for r in hex_rows if r.id is not None and r.tile_id}
        index = HexIndex(tile_of, {t: i for i, t in tile_of.items()})
        hex_cells = {r.id: valley.trays[trays[r.tray_id]].cells()[int(r.slot)]
                     for r in hex_rows if r.id is not None and r.tray_id in trays}
        campaign_row = session.get(models.Campaign, 1) or models.Campaign()
        # The ids of the characters load_game reads, in its order.
        ids = list(session.exec(select(col(models.Character.id)).where(
            col(models.Character.status).in_(["active", "incapacitated"])
        ).order_by(col(models.Character.id))))
        outpost_rows = session.exec(select(models.Outpost)).all()
        structures: dict[int, list[str]] = {}
        for s in session.exec(select(models.OutpostStructure)).all():
            structures.setdefault(s.outpost_id, []).append(s.structure_id)
        behemoth_rows = session.exec(select(models.BehemothState)).all()
        kinds = {(index.tile(o.hex_id), o.section): o.kind
                 for o in session.exec(select(models.Overlay)).all()}
    outposts = tuple(
        OutpostLine(o.name, o.status, index.tile(o.hex_id), o.section,
                    tuple(content.structures[s].name if s in content.structures else s
                          for s in structures.get(o.id or 0, [])))
        for o in outpost_rows)
    behemoth, target = _behemoth(campaign, behemoth_rows, index, valley)
    return MapRows(valley, hex_cells, index, campaign_row,
                   tuple((row_id or 0, c) for row_id, c in zip(ids, game.characters,
                                                               strict=True)), game.tokens, outposts,
                   kinds, behemoth, target, _lair(behemoth_rows, index, valley))


def _behemoth(campaign: Campaign, rows: Sequence[Any], index: HexIndex, valley: Valley
              ) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    """(name, tile) of the behemoth in play and ("hex"|"character", what) of its target."""
    row = rows[0] if rows else None
    behemoth = target = None
    if row is not None and row.hex_id is not None:
        tile = index.tile(row.hex_id)
        if tile is not None and tile in valley:
            content = campaign.content
            known = content.behemoths.get(row.behemoth_id) \
                if hasattr(content, "behemoths") else None
            behemoth = (row.name or (known.name if known else "Behemoth"), str(tile))
        aim = row.target or {}
        if "hex" in aim:
            target = ("hex", str(aim["hex"]))
        elif "character" in aim:
            target = ("character", str(aim["character"]))
    return behemoth, target


def _lair(rows: Sequence[Any], index: HexIndex, valley: Valley) -> LairNote | None:
    lair_rows = [b for b in rows if b.lair_overlay or b.lair_zone]
    if not lair_rows:
        return None
    row = lair_rows[0]
    placed = index.tile(row.lair_hex_id) if row.lair_hex_id is not None else None
    lair_tile = str(placed) if placed is not None and placed in valley else \
        row.lair_hex if row.lair_hex and row.lair_hex in valley else None
    return LairNote(row.name or row.behemoth_id or "The behemoth", lair_tile,
                    row.lair_hex, row.lair_overlay, row.lair_zone)


def map_data(rows: MapRows, campaign: Campaign, *, odds: bool = True) -> MapData:
    """What the map shows, drawn from ``rows`` (``odds``: with the behemoth's odds)."""
    content, valley = campaign.content, rows.valley
    ruined = {(o.tile, o.section) for o in rows.outposts if o.status == "ruin"}
    tokens = rows.tokens
    hexes = []
    for cell in valley.cells():
        tile = valley.tiles[cell]
        region = valley.region_of(cell)
        explored = cell in valley.explored
        sections: list[SectionState] = []
        info = content.hexes.get(tile) if tile else None
        if explored and info is not None:
            for key in ("a", "b", "c"):
                feature = info.sections.get(key)
                covered = valley.overlays.get((tile, key))  # type: ignore[arg-type]
                cover_kind = None
                cover_name = ""
                if covered is not None:
                    overlay = content.overlays.get(covered)
                    cover_name = overlay.name if overlay is not None else covered
                    kind = rows.kinds.get((tile, key)) or \
                        (overlay.kind.value if overlay else "other")
                    cover_kind = mark_of(valley.lair == (tile, key), (tile, key) in ruined,
                                         kind)
                feature_info = content.features.get(feature) if feature else None
                sections.append(SectionState(
                    key, feature, feature_info.name if feature_info else (feature or ""),
                    cover_kind, cover_name))
        hexes.append(HexState(
            cell, tile, region, explored, tuple(sections),
            fire=tile in tokens.fires if tile else False,
            shelter=tile in tokens.shelters if tile else False,
            lore=tokens.lore.get(tile, 0) if tile else 0))
    characters = [c for _id, c in rows.characters]
    initials = initials_of([c.name for c in characters])
    players = list(dict.fromkeys(c.player for c in characters))
    pieces = []
    for number, character in enumerate(characters):
        if character.hex is None or character.hex not in valley:
            continue
        # each character keeps one spot in every hex, so a move never shifts the others
        colour = PLAYER_COLOURS[players.index(character.player) % len(PLAYER_COLOURS)]
        pieces.append(PieceState(character.name, initials[character.name], colour,
                                 valley.locate(character.hex), number,
                                 character.incapacitated))
    end_odds = behemoth_end_odds(campaign) if rows.behemoth is not None and odds else {}
    return MapData(valley, tuple(hexes), tuple(pieces), rows.outposts, rows.behemoth,
                   rows.target, {c.name: (c.energy, c.energy_max) for c in characters},
                   end_odds, rows.lair)


def behemoth_end_odds(campaign: Campaign) -> dict[str, float]:
    """Tile -> the exact chance that the behemoth ends its next activation there (empty
    when no behemoth is in play or its preview cannot be drawn)."""
    from companion.operations import Refused
    from companion.operations.behemoth import behemoth_overlay_data

    try:
        overlay = behemoth_overlay_data(campaign)
    except Refused:
        overlay = None  # e.g. its Instinct card is not in the pack: no preview to draw
    return dict(overlay["end_odds"]) if overlay else {}


# --- reading again only what a click wrote (issue 37) ------------------------------------

SHOWN_TABLES = frozenset({"valley_tray", "valley_hex", "overlay", "hex_token", "character",
                          "campaign", "legend", "outpost", "outpost_structure",
                          "behemoth_state"})
"""The tables the map is drawn from (through :func:`read_rows`)."""

ROW_BY_ROW = frozenset({"character", "valley_hex", "hex_token"})
"""The tables :func:`reread` reads again by themselves; any other of
:data:`SHOWN_TABLES` written means the whole map is read."""

WHOLE_CHARACTER = frozenset({"*", "name", "player", "status"})
"""A character's columns that change who is in play, in what order, under what name or
colour: written, the whole map is read."""


def reread(campaign: Campaign, rows: MapRows, written: Written) -> MapRows | None:
    """``rows`` with only what ``written`` names read again: the characters' rows and
    the hexes' rows it wrote, the hexes' tokens; ``rows`` itself when it wrote nothing
    the map shows. None when that cannot be sure (a row added or taken away, a hex's tile,
    the trays, outposts, overlays, the behemoth): read the whole map then."""
    tables = written.tables & SHOWN_TABLES
    if not tables:
        return rows
    if not tables <= ROW_BY_ROW or rows.behemoth is not None:
        return None  # (the behemoth's odds hang on nearly everything)
    characters = written.columns_of("character")
    hexes = written.columns_of("valley_hex")
    if characters & WHOLE_CHARACTER or not hexes <= {"explored"}:
        return None
    with campaign.file.read() as session:
        again = rows
        if hexes:
            valley = _explored_again(session, rows, written.ids("valley_hex"))
            if valley is None:
                return None
            again = replace(again, valley=valley)
        if characters:
            again = replace(again, characters=_characters_again(
                session, campaign, rows, written.ids("character")))
        if "hex_token" in tables:
            from companion.operations.state import tokens_from_rows

            again = replace(again, tokens=tokens_from_rows(session, rows.index))
    return again


def _explored_again(session: Session, rows: MapRows, ids: frozenset[int]) -> Valley | None:
    """The valley with the hexes ``ids`` explored or not as their rows say now (None:
    a row the map did not know)."""
    from sqlmodel import col, select

    from companion.store import models

    explored = set(rows.valley.explored)
    for row in session.exec(select(models.ValleyHex).where(col(models.ValleyHex.id).in_(ids))):
        cell = rows.hex_cells.get(row.id or 0)
        if cell is None:
            return None
        (explored.add if row.explored else explored.discard)(cell)
    return replace(rows.valley, explored=frozenset(explored))


def _characters_again(session: Session, campaign: Campaign, rows: MapRows,
                      ids: frozenset[int]) -> tuple[tuple[int, Character], ...]:
    """The characters in play, those of rows ``ids`` read again (the others, and who is
    in play, as they were: their names and statuses were not written)."""
    from sqlmodel import col, select

    from companion.operations.state import character_from_row
    from companion.store import models

    mine = {row_id for row_id, _c in rows.characters} & ids
    if not mine:
        return rows.characters
    fresh = {row.id: row for row in session.exec(
        select(models.Character).where(col(models.Character.id).in_(mine)))}
    return tuple(
        (row_id, character_from_row(fresh[row_id], rows.campaign, campaign.content,
                                    rows.index, character.legends)
         if row_id in fresh else character)
        for row_id, character in rows.characters)
