"""The start-up's first view: the campaign on screen before the database layer loads
(issue 37).

The window shows the Valley tab and the status bar from a light read: the rows they show,
read with plain ``sqlite3`` (:mod:`companion.store.first_rows`), and the names they show
from the content cache's JSON (:mod:`companion.content.cache_file`), with no sqlmodel
table class and no pydantic class. The launcher paints it, then opens the campaign the
usual way in the same step (lock, checks, migration, backup, the background check), and
the real views take its place before any click is handled: input waits in the event
queue meanwhile, so every click acts on the real view. Whenever the light read cannot
say exactly what the real view would, :func:`read_first_view` answers None and the
campaign opens the usual way only.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.content.cache_file import cache_key, pack_roots, read
from companion.rules.exploration.valley import Tray, Valley
from companion.rules.geometry import Axial
from companion.rules.ids import HexId
from companion.store.first_rows import (
    OWN_CARDS_SQL,
    FirstRows,
    own_cards_digest,
    read_first_rows,
)
from companion.ui.map_items import PLAYER_COLOURS, HexState, PieceState, SectionState
from companion.ui.map_read import LairNote, MapData, OutpostLine, initials_of, mark_of

SHORT_WORDS = {"box": "My own box", "sample": "Sample campaign", "pack": "Own content"}
"""``operations.box.SHORT_WORDS`` (a test checks they agree)."""
BOX_PACK, SAMPLE_PACK = "box", "sample"
"""``operations.box.BOX_PACK`` and ``SAMPLE_PACK``."""


@dataclass(frozen=True)
class FirstView:
    """What the window shows of a campaign just opened: the Valley map, the status
    bar's labels and the window's title."""

    path: Path
    title: str
    kind: str
    """'box', 'sample' or 'pack' (``operations.box.campaign_kind``)."""
    map: MapData
    status: Mapping[str, str]
    """The status bar's labels by key ('omen', 'activity', 'unrest', 'epoch',
    'challenge'), worded as ``MainWindow`` words them."""


def read_first_view(path: Path, extra_content: Sequence[Path] = ()) -> FirstView | None:
    """The first view of the campaign at ``path``, or None when it must open the usual
    way first (see :mod:`companion.store.first_rows`), or when its content is not known
    to be the cached chain the full open will play with (the owner's packs or carried
    cards that the window's last full open did not remember, or that changed since; a
    stale or missing cache)."""
    rows = read_first_rows(path)
    if rows is None:
        return None
    recorded = [str(p["id"]) for p in rows.campaign["content_packs"]] or [SAMPLE_PACK]
    if rows.own_cards == NO_OWN_CARDS and not _owner_has_packs():
        key: str | None = cache_key(recorded[-1], pack_roots(extra_content))
    else:  # which of the owner's cards it plays with: as the last full open found
        key = _remembered_key(Path(path), recorded, rows.own_cards, extra_content)
    data = read(key) if key is not None else None
    if data is None:
        return None
    try:
        content = _Names(data)
        return FirstView(Path(path).absolute(), _title(rows, path), content.kind(),
                         _map_data(rows, content), _status(rows, content))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None  # a shape this reading does not know: the usual way shows it


NO_OWN_CARDS = own_cards_digest(())
"""The digest of a campaign carrying none of the owner's cards."""
MEMO_FORMAT = 1
MEMO_KEEP = 16
"""How many campaigns the memo of :func:`remember_opened` keeps."""


def _memo_file() -> Path:
    from companion import paths

    return paths.user_data_dir() / "cache" / "first-view.json"


def _memo() -> dict[str, Any]:
    try:
        data = json.loads(_memo_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != MEMO_FORMAT or \
            not isinstance(data.get("campaigns"), dict):
        return {}
    campaigns: dict[str, Any] = data["campaigns"]
    return campaigns


def remember_opened(campaign: Any) -> None:
    """After a full open: which cached pack chain ``campaign`` plays with, and what
    that was decided from (its recorded packs and the cards it carries), so that the
    next start can show its first view when the owner has packs of their own. The
    chain's cache key, computed again then from every pack file, says whether the
    owner's packs changed meanwhile; a campaign whose content did not come from the
    cache is forgotten. A memo that cannot be written only means no first view."""
    from companion.content.cache import origin_of

    path = str(Path(campaign.path).absolute())
    campaigns = _memo()
    campaigns.pop(path, None)
    origin = origin_of(campaign.content) \
        if getattr(campaign, "content_problem", None) is None else None
    if origin is not None:
        key, pack_id, roots = origin
        with campaign.file.read() as session:
            connection = session.connection()
            packs = connection.exec_driver_sql(
                "SELECT content_packs FROM campaign WHERE id = 1").scalar()
            own = own_cards_digest(tuple(row) for row in
                                   connection.exec_driver_sql(OWN_CARDS_SQL).all())
        recorded = [str(p["id"]) for p in json.loads(packs or "[]")] or [SAMPLE_PACK]
        campaigns[path] = {"key": key, "pack_id": pack_id, "roots": list(roots),
                           "packs": recorded, "own_cards": own}
    kept = dict(list(campaigns.items())[-MEMO_KEEP:])
    target = _memo_file()
    with contextlib.suppress(OSError):
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"format": MEMO_FORMAT, "campaigns": kept}),
                       encoding="utf-8")
        os.replace(tmp, target)


def _remembered_key(path: Path, recorded: list[str], own_cards: str,
                    extra_content: Sequence[Path]) -> str | None:
    """The cache key the last full open of ``path`` played with, when nothing it was
    decided from has changed since (same packs recorded, same cards carried, the same
    extra content, and every pack file as it was: the key computed again)."""
    memo = _memo().get(str(path.absolute()))
    if not isinstance(memo, dict) or memo.get("packs") != recorded or \
            memo.get("own_cards") != own_cards:
        return None
    roots = [Path(r) for r in memo["roots"]]
    wanted = pack_roots(extra_content)
    if roots[:len(wanted)] != wanted:
        return None
    key = cache_key(str(memo["pack_id"]), roots)
    return key if key == memo["key"] else None


def _owner_has_packs() -> bool:
    from companion import paths

    root = paths.user_content_dir()
    return (root / "pack.yaml").exists() or any(
        (folder / "pack.yaml").exists() for folder in root.iterdir())


class _Names:
    """The cached chain's entries by kind and id (plain JSON, as dumped)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.rules: Mapping[str, Any] = data["rules"]
        self.packs = [str(manifest["id"]) for manifest, _folder in data["chain"]]
        self.entries: dict[str, dict[str, Mapping[str, Any]]] = {
            kind: {str(item["id"]): item for _pack, item in items if "id" in item}
            for kind, items in data["entries"].items()}

    def get(self, kind: str, key: str | None) -> Mapping[str, Any] | None:
        return self.entries.get(kind, {}).get(key) if key else None

    def kind(self) -> str:
        if BOX_PACK in self.packs:
            return "box"
        return "sample" if SAMPLE_PACK in self.packs else "pack"

    def energy_max(self, character_count: int) -> int:
        # Rulebook: Set Up > Step 4, reading D8: energy by character count.
        for scale in self.rules["character_scale"]:
            if scale["characters"] == character_count:
                return int(scale["energy"])
        raise KeyError(character_count)

    def health_max(self, character_count: int) -> int:
        for scale in self.rules["character_scale"]:
            if scale["characters"] == character_count:
                return int(scale["health"])
        raise KeyError(character_count)


def _title(rows: FirstRows, path: Path) -> str:
    return str(rows.campaign["society_name"] or Path(path).absolute().stem)


def _valley(rows: FirstRows) -> Valley:
    """As ``operations.valley.load_valley``."""
    trays: list[Tray] = []
    tiles: dict[Axial, HexId | None] = {}
    explored: set[Axial] = set()
    for row in rows.trays:
        place = row["placement"]
        tray = Tray(row["tray_number"] - 1, row["region"],
                    Axial(int(place["q"]), int(place["r"])), str(place["orientation"]))
        trays.append(tray)
        cells = tray.cells()
        for hex_row in rows.hexes:
            if hex_row["tray_id"] == row["id"]:
                cell = cells[int(hex_row["slot"])]
                tiles[cell] = HexId(hex_row["tile_id"]) if hex_row["tile_id"] else None
                if hex_row["explored"]:
                    explored.add(cell)
    overlays: dict[tuple[HexId, str], str] = {}
    lair = None
    tile_of = {h["id"]: h["tile_id"] for h in rows.hexes}
    for overlay in rows.overlays:
        tile = tile_of.get(overlay["hex_id"])
        if tile and overlay["section"] in ("a", "b", "c"):
            key = (HexId(tile), overlay["section"])
            overlays[key] = overlay["overlay_id"]
            if overlay["kind"] == "lair":
                lair = key
    return Valley(trays=tuple(trays), tiles=tiles, explored=frozenset(explored),
                  overlays=overlays, lair=lair)  # type: ignore[arg-type]


def _map_data(rows: FirstRows, content: _Names) -> MapData:
    """As ``map_read.read_map(campaign, odds=False)``: the map's first fill."""
    valley = _valley(rows)
    tile_of = {h["id"]: HexId(h["tile_id"]) for h in rows.hexes if h["tile_id"]}
    structures: dict[int, list[str]] = {}
    for s in rows.structures:
        structures.setdefault(s["outpost_id"], []).append(s["structure_id"])
    outposts = tuple(
        OutpostLine(o["name"], o["status"], tile_of.get(o["hex_id"]), o["section"],
                    tuple(str((content.get("structures", s) or {}).get("name", s))
                          for s in structures.get(o["id"] or 0, [])))
        for o in rows.outposts)
    kinds = {(tile_of.get(o["hex_id"]), o["section"]): o["kind"] for o in rows.overlays}
    ruined = {(o.tile, o.section) for o in outposts if o.status == "ruin"}
    fires, shelters, lore = _tokens(rows, tile_of)
    hexes = []
    for cell in valley.cells():
        tile = valley.tiles[cell]
        info = content.get("hexes", tile)
        sections: list[SectionState] = []
        if cell in valley.explored and info is not None:
            for key in ("a", "b", "c"):
                sections.append(_section(valley, content, kinds, ruined, tile, key,
                                         info["sections"].get(key)))
        hexes.append(HexState(
            cell, tile, valley.region_of(cell), cell in valley.explored, tuple(sections),
            fire=tile in fires if tile else False,
            shelter=tile in shelters if tile else False,
            lore=lore.get(tile, 0) if tile else 0))
    count = rows.campaign["character_count"] or 2
    names = [c["name"] for c in rows.characters]
    initials = initials_of(names)
    players = list(dict.fromkeys(c["player"] for c in rows.characters))
    pieces = []
    for number, character in enumerate(rows.characters):
        where = tile_of.get(character["hex_id"])
        if where is None or where not in valley:
            continue
        colour = PLAYER_COLOURS[players.index(character["player"]) % len(PLAYER_COLOURS)]
        # Rulebook: Mantle > Health Track, Incapacitation (basic rules: a full track).
        down = len(character["health"]) >= content.health_max(count)
        pieces.append(PieceState(character["name"], initials[character["name"]], colour,
                                 valley.locate(where), number, down))
    behemoth, target = _behemoth(rows, content, valley, tile_of)
    energy = {c["name"]: (c["energy"], content.energy_max(count)) for c in rows.characters}
    return MapData(valley, tuple(hexes), tuple(pieces), outposts, behemoth, target,
                   energy, {}, _lair(rows, valley, tile_of))


def _section(valley: Valley, content: _Names, kinds: Mapping[Any, str],
             ruined: set[Any], tile: HexId | None, key: str,
             feature: str | None) -> SectionState:
    covered = valley.overlays.get((tile, key))  # type: ignore[arg-type]
    cover_kind = None
    cover_name = ""
    if covered is not None:
        overlay = content.get("overlays", covered)
        cover_name = str(overlay["name"]) if overlay is not None else covered
        kind = kinds.get((tile, key)) or (str(overlay["kind"]) if overlay else "other")
        cover_kind = mark_of(valley.lair == (tile, key), (tile, key) in ruined, kind)
    info = content.get("features", feature)
    return SectionState(key, feature, str(info["name"]) if info else (feature or ""),
                        cover_kind, cover_name)


def _tokens(rows: FirstRows, tile_of: Mapping[int, HexId]
            ) -> tuple[set[HexId], set[HexId], dict[HexId, int]]:
    """As ``operations.state.tokens_from_rows``: fires, shelters and lore by tile."""
    fires: set[HexId] = set()
    shelters: set[HexId] = set()
    lore: dict[HexId, int] = {}
    for token in rows.tokens:
        tile = tile_of.get(token["hex_id"])
        if tile is None:
            continue
        if token["kind"] == "shelter":
            shelters.add(tile)
        elif token["kind"] == "fire":
            fires.add(tile)
        elif token["kind"] == "lore":
            lore[tile] = lore.get(tile, 0) + token["count"]
    return fires, shelters, lore


def _behemoth(rows: FirstRows, content: _Names, valley: Valley, tile_of: Mapping[int, HexId]
              ) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    row = rows.behemoths[0] if rows.behemoths else None
    behemoth = target = None
    if row is None or row["hex_id"] is None:
        return None, None
    tile = tile_of.get(row["hex_id"])
    if tile is not None and tile in valley:
        known = content.get("behemoths", row["behemoth_id"])
        behemoth = (row["name"] or (str(known["name"]) if known else "Behemoth"), str(tile))
    aim = row["target"] or {}
    if "hex" in aim:
        target = ("hex", str(aim["hex"]))
    elif "character" in aim:
        target = ("character", str(aim["character"]))
    return behemoth, target


def _lair(rows: FirstRows, valley: Valley, tile_of: Mapping[int, HexId]) -> LairNote | None:
    lairs = [b for b in rows.behemoths if b["lair_overlay"] or b["lair_zone"]]
    if not lairs:
        return None
    row = lairs[0]
    placed = tile_of.get(row["lair_hex_id"]) if row["lair_hex_id"] is not None else None
    lair_tile = str(placed) if placed is not None and placed in valley else \
        row["lair_hex"] if row["lair_hex"] and row["lair_hex"] in valley else None
    return LairNote(row["name"] or row["behemoth_id"] or "The behemoth", lair_tile,
                    row["lair_hex"], row["lair_overlay"], row["lair_zone"])


def _status(rows: FirstRows, content: _Names) -> dict[str, str]:
    """The status bar's labels, worded as ``MainWindow._refresh_status`` words them from
    ``Campaign.status()``."""
    society = rows.society
    challenge = content.get("challenges", society["current_challenge_id"])
    # Rulebook: Omen > Current Omen: the top of the Night discard, else the challenge's
    # starting omen.
    omens: tuple[str, ...] = ()
    top = content.get("night_cards", rows.night_discard[-1]) if rows.night_discard else None
    if top is not None:
        omens = tuple(str(o) for o in top["omens"])
    elif challenge is not None and challenge.get("starting_omen"):
        omens = (str(challenge["starting_omen"]),)
    name = challenge["name"] if challenge is not None else None
    return {
        "omen": "Omen: " + (", ".join(o.title() for o in omens) or "none"),
        "activity": f"Activity: {society['activity']}",
        "unrest": f"Unrest: {society['unrest']}",
        "epoch": f"Epoch {rows.campaign['epoch']}",
        "challenge": f"Challenge: {name}" if name else "No challenge",
    }
