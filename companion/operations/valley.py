"""The valley between rows and the rules' :class:`~companion.rules.exploration.Valley`.

Rows: ``valley_tray`` (``tray_number`` = the rules' tray index + 1, placement
``{"q", "r", "orientation"}``), ``valley_hex`` (``slot`` = the tray slot, in the tray
shape's slot order), ``overlay`` (tile section covered).
"""

from __future__ import annotations

from typing import cast

from sqlmodel import Session, col, select

from companion.rules.exploration import Tray, Valley
from companion.rules.geometry import Axial
from companion.rules.ids import HexId
from companion.store import models


def load_valley(session: Session) -> Valley:
    """The valley as the rules see it (kept by a read session until the file is next
    written, as ``state.load_game`` keeps the game: issue 37)."""
    cache = session.info.get("read_cache")
    if cache is None:
        return _read_valley(session)
    version = session.connection().exec_driver_sql("PRAGMA data_version").scalar()
    kept = cache.get(VALLEY_KEPT)
    if kept is not None and kept[0] == version:
        return cast(Valley, kept[1])
    valley = _read_valley(session)
    cache[VALLEY_KEPT] = (version, valley)
    return valley


VALLEY_KEPT = "valley"
"""The read cache's key of the valley last read (with the file's data version)."""


def _read_valley(session: Session) -> Valley:
    trays: list[Tray] = []
    tiles: dict[Axial, HexId | None] = {}
    explored: set[Axial] = set()
    tray_rows = session.exec(
        select(models.ValleyTray).order_by(col(models.ValleyTray.tray_number))).all()
    for row in tray_rows:
        place = row.placement
        tray = Tray(row.tray_number - 1, row.region, Axial(int(place["q"]), int(place["r"])),
                    str(place["orientation"]))
        trays.append(tray)
        cells = tray.cells()
        for hex_row in session.exec(select(models.ValleyHex).where(
                models.ValleyHex.tray_id == row.id)).all():
            cell = cells[int(hex_row.slot)]
            tiles[cell] = HexId(hex_row.tile_id) if hex_row.tile_id else None
            if hex_row.explored:
                explored.add(cell)
    overlays = {}
    lair = None
    tile_of = {h.id: h.tile_id for h in session.exec(select(models.ValleyHex)).all()}
    for overlay in session.exec(select(models.Overlay)).all():
        tile = tile_of.get(overlay.hex_id)
        if tile and overlay.section in ("a", "b", "c"):
            key = (HexId(tile), overlay.section)
            overlays[key] = overlay.overlay_id
            if overlay.kind == "lair":
                lair = key
    return Valley(trays=tuple(trays), tiles=tiles, explored=frozenset(explored),
                  overlays=overlays, lair=lair)  # type: ignore[arg-type]


def save_valley(session: Session, before: Valley, after: Valley) -> None:
    """Write new trays, revealed or read tiles, and overlay changes."""
    tray_ids: dict[int, int] = {}
    for row in session.exec(select(models.ValleyTray)).all():
        tray_ids[row.tray_number - 1] = row.id or 0
    for tray in after.trays[len(before.trays):]:
        row = models.ValleyTray(tray_number=tray.index + 1, region=tray.region,
                                placement={"q": tray.origin.q, "r": tray.origin.r,
                                           "orientation": tray.orientation})
        session.add(row)
        session.flush()
        tray_ids[tray.index] = row.id or 0
        for slot, cell in enumerate(tray.cells(after.shape)):
            session.add(models.ValleyHex(tray_id=row.id or 0, slot=str(slot),
                                         tile_id=after.tiles[cell],
                                         explored=cell in after.explored))
    by_place = _hex_rows(session, after, tray_ids)
    for cell, hex_row in by_place.items():
        tile = after.tiles.get(cell)
        if hex_row.tile_id != tile:
            hex_row.tile_id = tile
        if hex_row.explored != (cell in after.explored):
            hex_row.explored = cell in after.explored
    if after.overlays != before.overlays:
        _save_overlays(session, after)


def _hex_rows(session: Session, valley: Valley, tray_ids: dict[int, int]
              ) -> dict[Axial, models.ValleyHex]:
    rows = {}
    for tray in valley.trays:
        cells = tray.cells(valley.shape)
        for hex_row in session.exec(select(models.ValleyHex).where(
                models.ValleyHex.tray_id == tray_ids.get(tray.index))).all():
            rows[cells[int(hex_row.slot)]] = hex_row
    return rows


def _save_overlays(session: Session, valley: Valley) -> None:
    hex_of = {h.tile_id: h.id for h in session.exec(select(models.ValleyHex)).all()}
    existing: dict[tuple[int | None, str | None], models.Overlay] = {
        (o.hex_id, o.section): o for o in session.exec(select(models.Overlay)).all()}
    wanted: dict[tuple[int | None, str | None], tuple[str, str]] = {}
    for (tile, section), overlay in valley.overlays.items():
        kind = "lair" if valley.lair == (tile, section) else "outpost"
        wanted[(hex_of[tile], section)] = (overlay, kind)
    for key, row in existing.items():
        if key not in wanted:
            session.delete(row)
    for (hex_id, place), (overlay, kind) in wanted.items():
        found = existing.get((hex_id, place))
        if found is None:
            session.add(models.Overlay(hex_id=hex_id or 0, section=place, overlay_id=overlay,
                                       kind=kind))
        elif found.overlay_id != overlay or (found.kind == "lair") != (kind == "lair"):
            found.overlay_id, found.kind = overlay, kind  # else keep its kind (e.g. other)
