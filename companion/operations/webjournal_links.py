"""Every row of a campaign as the web Campaign Journal's entry, and the links that keep
each entry's Journal id and ``updatedAt``.

:func:`campaign_entries` reads the campaign once and gives, per Journal section, each
row's entry (version 5's fields). The import links each entry it placed to its row
(:func:`make_links`); the export (``webjournal_export``) writes the entries back under
their Journal ids, exactly as the file had them unless the row was edited here, and
tombstones for rows deleted here. An entry first made in the companion gets a stable
id from its row (``sc-behemoth-4``): the Journal's merge (union by id, newer
``updatedAt`` wins) then updates it instead of adding it twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, col, select

from companion.operations.core import Campaign
from companion.operations.webjournal_entries import (
    CULTURE_KINDS,
    CULTURE_PREFIX,
    KEPT_PREFIX,
    behemoth_entry,
    challenge_entry,
    code_key,
    codex_entry,
    content_name,
    drawing_entry,
    investigation_entry,
    link_data,
    looming_entry,
    note_entry,
    outpost_entry,
    parse_culture_text,
    restore,
    stamp,
    web_code,
)
from companion.store import models
from companion.store.history import decode_value
from companion.store.models import table_of

#: The Journal's list sections with a table here: section -> (table, id word).
ROW_SECTIONS: dict[str, tuple[type[Any], str]] = {
    "behemoths": (models.BehemothState, "behemoth"),
    "challengeRecord": (models.ChallengeLogEntry, "challenge"),
    "loomingChallenges": (models.LoomingChallenge, "looming"),
    "investigations": (models.OmenInvestigation, "omen"),
    "notePages": (models.NotePage, "note"),
    "codexEntries": (models.CodexEntryRead, "codex"),
    "caveWall": (models.CaveWallIllustration, "cave"),
    "culture.outposts": (models.Outpost, "outpost"),
}
KEYED_SECTIONS = ("nullCodes", "provisionalCodes")
"""Sections the Journal keys by code ("Blue 1234") instead of listing."""


@dataclass
class Placed:
    """One entry as the campaign has it: its section, row and fields."""

    section: str
    table: str
    row_id: int
    entry: dict[str, Any]
    own_id: str
    """The id the companion gives it when the Journal did not (stable: from the row)."""
    also: tuple[int, ...] = ()
    """Other rows the entry lives in (a recipe's other codes): a link to any of them is
    the entry's."""


@dataclass
class CampaignEntries:
    by_row: dict[tuple[str, str, int], Placed] = field(default_factory=dict)
    """(section, table, row id) -> the entry."""
    order: list[Placed] = field(default_factory=list)
    tribe_name: str = ""


def _links(session: Session) -> list[models.WebJournalLink]:
    return list(session.exec(select(models.WebJournalLink).order_by(
        col(models.WebJournalLink.id))).all())


def links_by_row(session: Session) -> dict[tuple[str, str, int], models.WebJournalLink]:
    return {(link.section, link.row_table, link.row_id): link for link in _links(session)
            if link.row_table and link.row_id is not None}


def links_by_web_id(session: Session) -> dict[tuple[str, str], models.WebJournalLink]:
    return {(link.section, link.web_id): link for link in _links(session)}


def _culture_section(kind: str) -> str:
    return f"culture.{kind}"


def campaign_entries(campaign: Campaign, session: Session) -> CampaignEntries:
    """Every row with a home in the Journal, as its entry (version 5's fields)."""
    out = CampaignEntries()
    links = links_by_row(session)

    def add(section: str, table: str, row_id: int | None, entry: dict[str, Any],
            own_id: str, also: tuple[int, ...] = ()) -> None:
        placed = Placed(section, table, row_id or 0, entry, own_id, also)
        for one in (row_id or 0, *also):
            out.by_row.setdefault((section, table, one), placed)
        out.order.append(placed)

    row = session.get(models.Campaign, 1)
    out.tribe_name = row.society_name if row else ""
    content = campaign.content
    codes = session.exec(select(models.CodeRecord).order_by(col(models.CodeRecord.id))).all()
    _recipes(campaign, [c for c in codes if c.status == "recipe"], add)
    for c in codes:
        key = code_key(c.code)
        if c.status == "null":
            add("nullCodes", "code_record", c.id, _null_entry(c), key)
        if c.status == "provisional":
            add("provisionalCodes", "code_record", c.id, _provisional_entry(c.data or {},
                                                                            c.name), key)
        elif isinstance((c.data or {}).get("unverified"), dict):
            # A community report beside the group's own finding for the code.
            unverified = c.data["unverified"]
            add("provisionalCodes", "code_record", c.id,
                _provisional_entry(unverified, str(unverified.get("name") or "")), key)
    by_list = {v: k for k, v in CULTURE_KINDS.items()}
    kept = {(link.row_table, link.row_id) for link in links.values()
            if link.data.get("entry") is not None}
    structure_ids: dict[str, str] = {}
    for page in session.exec(select(models.NotePage).order_by(
            col(models.NotePage.position), col(models.NotePage.id))).all():
        if ("note_page", page.id) in kept:
            continue  # a note keeping an entry without a home: the entry goes back
        if page.title.startswith(CULTURE_PREFIX):
            kind = by_list.get(page.title[len(CULTURE_PREFIX):])
            if kind:
                section = _culture_section(kind)
                entry = parse_culture_text(kind, page.text)
                add(section, "note_page", page.id, entry, f"sc-culture-{page.id}")
                if kind == "structures":
                    link = links.get((section, "note_page", page.id or 0))
                    web_id = link.web_id if link else f"sc-culture-{page.id}"
                    for name in (entry.get("cardId"), entry.get("name")):
                        if name:
                            structure_ids.setdefault(str(name).casefold(), web_id)
            continue
        if page.title.startswith(KEPT_PREFIX) and _is_json_list(page.text):
            continue  # an older import's kept list: see the export
        add("notePages", "note_page", page.id, note_entry(page), f"sc-note-{page.id}")
    tiles = {h.id: h.tile_id or "" for h in session.exec(select(models.ValleyHex)).all()}
    for b in session.exec(select(models.BehemothState).order_by(
            col(models.BehemothState.id))).all():
        name = b.name or content_name(content.behemoths, b.behemoth_id)
        add("behemoths", "behemoth_state", b.id,
            behemoth_entry(b, name, b.lair_hex or tiles.get(b.lair_hex_id, "")),
            f"sc-behemoth-{b.id}")
    for ch in session.exec(select(models.ChallengeLogEntry).order_by(
            col(models.ChallengeLogEntry.epoch), col(models.ChallengeLogEntry.id))).all():
        name = ch.name or content_name(content.challenges, ch.challenge_id)
        add("challengeRecord", "challenge_log_entry", ch.id, challenge_entry(ch, name),
            f"sc-challenge-{ch.id}")
    for order, e in enumerate(session.exec(select(models.LoomingChallenge).order_by(
            col(models.LoomingChallenge.position), col(models.LoomingChallenge.id))).all()):
        name = e.name or content_name(content.challenges, e.challenge_id)
        add("loomingChallenges", "looming_challenge", e.id, looming_entry(e, name, order),
            f"sc-looming-{e.id}")
    for i in session.exec(select(models.OmenInvestigation).order_by(
            col(models.OmenInvestigation.id))).all():
        add("investigations", "omen_investigation", i.id, investigation_entry(i),
            f"sc-omen-{i.id}")
    for x in session.exec(select(models.CodexEntryRead).order_by(
            col(models.CodexEntryRead.id))).all():
        add("codexEntries", "codex_entry_read", x.id, codex_entry(x), f"sc-codex-{x.id}")
    t = models.CaveWallIllustration
    for d in session.exec(select(t).order_by(col(t.id))).all():
        if d.strokes:  # a drawing the Journal made (a picture here has no strokes)
            add("caveWall", "cave_wall_illustration", d.id, drawing_entry(d),
                f"sc-cave-{d.id}")
    built: dict[int, list[str]] = {}
    for s in session.exec(select(models.OutpostStructure).order_by(
            col(models.OutpostStructure.id))).all():
        found = structure_ids.get(s.structure_id.casefold()) or structure_ids.get(
            content_name(content.structures, s.structure_id).casefold())
        if found:
            built.setdefault(s.outpost_id, []).append(found)
    for o in session.exec(select(models.Outpost).order_by(col(models.Outpost.id))).all():
        add("culture.outposts", "outpost", o.id, outpost_entry(o, built.get(o.id or 0, [])),
            f"sc-outpost-{o.id}")
    return out


def _is_json_list(text: str) -> bool:
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, list) and all(isinstance(v, dict) for v in value)


def _recipes(campaign: Campaign, records: Iterable[models.CodeRecord], add: Any) -> None:
    """Recipes: one entry per item card, its codes those of the records naming it."""
    recipes: dict[str, tuple[int, dict[str, Any]]] = {}
    rows: dict[str, list[int]] = {}
    for record in records:
        data = record.data or {}
        item_id = recipe_id(campaign, record)
        if item_id not in recipes:
            pairs = [p for p in data.get("materials", []) if isinstance(p, dict)]
            first = web_pair(pairs[0]) if pairs else {"mat1Name": "", "mat1Cat": "",
                                                      "mat2Name": "", "mat2Cat": ""}
            recipes[item_id] = (record.id or 0, {
                "name": record.name, "codes": [], **first,
                "altPairs": [web_pair(p) for p in pairs[1:]],
                "notes": str(data.get("notes", "")), **dict(data.get("web", {}))})
        recipes[item_id][1]["codes"].append(web_code(record.code))
        rows.setdefault(item_id, []).append(record.id or 0)
    for item_id, (row_id, entry) in recipes.items():
        add("recipes", "code_record", row_id, entry, item_id, tuple(rows[item_id][1:]))


def recipe_id(campaign: Campaign, record: models.CodeRecord) -> str:
    """The Journal's id of the recipe a code record belongs to: its item card (from the
    record, else the pack's item of that name), else one made from the code."""
    items = getattr(campaign.content, "items", {})
    name = " ".join(record.name.split()).casefold()
    by_name = next((i.id for i in items.values()
                    if " ".join(i.name.split()).casefold() == name), "") if name else ""
    return str((record.data or {}).get("item_id") or by_name or f"sc-{record.code}")


def web_pair(pair: Mapping[str, Any]) -> dict[str, Any]:
    out = {"mat1Name": pair.get("left", ""), "mat1Cat": pair.get("left_category", ""),
           "mat2Name": pair.get("right", ""), "mat2Cat": pair.get("right_category", "")}
    if pair.get("inferred"):
        out["inferred"] = True
    return out


def _null_entry(record: models.CodeRecord) -> dict[str, Any]:
    pairs = [p for p in (record.data or {}).get("materials", []) if isinstance(p, dict)]
    return {"mat1": pairs[0].get("left", ""), "mat2": pairs[0].get("right", "")} if pairs \
        else {}


def _provisional_entry(data: Mapping[str, Any], name: str) -> dict[str, Any]:
    return {"cardId": data.get("card_id") or None, "name": name or None,
            "isNothing": bool(data.get("dead_end")), "flavor": data.get("flavor", ""),
            "gameText": data.get("game_text", ""), "source": data.get("source", ""),
            "revealed": bool(data.get("revealed"))}


# --- import: link what was placed ------------------------------------------------------


@dataclass(frozen=True)
class WebOrigin:
    """Where a planned row came from in the file: its section and the entry as written
    (its id, ``updatedAt`` and every field)."""

    section: str
    raw: Mapping[str, Any]
    web_id: str = ""
    """The entry's id; for a keyed section, its key ("Blue 1234")."""


def make_links(campaign: Campaign, session: Session,
               placed: Iterable[tuple[WebOrigin, Any]]) -> None:
    """Link each entry to the row it now lives in (rows already flushed): ``placed`` is
    (origin, row or None). An entry with no row (``None``) is kept whole for the Journal
    (``data["entry"]``); a row is a table row, or a note page keeping the entry."""
    placed = list(placed)
    existing = links_by_web_id(session)
    # Structures first: an outpost names the structure entries built in it.
    placed.sort(key=lambda p: p[0].section == "culture.outposts")
    entries: CampaignEntries | None = None
    for origin, row in placed:
        web_id = origin.web_id or str(origin.raw.get("id") or "")
        table = table_of(type(row)).name if row is not None else ""
        row_id = getattr(row, "id", None)
        if not web_id:
            # An entry without an id (older and hand-made files): it goes back under
            # the stable id its row gives it, with every field as the file wrote it.
            if row is None or not table:
                continue
            if entries is None:
                session.flush()
                entries = campaign_entries(campaign, session)
            ours_now = entries.by_row.get((origin.section, table, row_id or 0))
            if ours_now is None:
                continue
            web_id = ours_now.own_id
        updated = origin.raw.get("updatedAt")
        updated_at = int(updated) if isinstance(updated, (int, float)) \
            and not isinstance(updated, bool) else None
        link = existing.get((origin.section, web_id))
        if link is None:
            link = models.WebJournalLink(section=origin.section, web_id=web_id)
            existing[(origin.section, web_id)] = link
        link.row_table, link.row_id, link.updated_at = table, row_id, updated_at
        kept_whole = row is None or (table == "note_page" and origin.section != "notePages"
                                     and not origin.section.startswith("culture."))
        if kept_whole:
            link.data, link.stamp = {"entry": dict(origin.raw)}, ""
        else:
            if entries is None or origin.section == "culture.outposts":
                session.add(link)
                session.flush()
                entries = campaign_entries(campaign, session)
            ours = entries.by_row.get((origin.section, table, row_id or 0))
            if ours is None:
                link.data, link.stamp = {"entry": dict(origin.raw)}, ""
            else:
                link.data, link.stamp = link_data(origin.raw, ours.entry), stamp(ours.entry)
        session.add(link)
    session.flush()


def epoch_ms(time: datetime) -> int:
    """A time as the Journal's ``updatedAt``: milliseconds since 1970 (UTC)."""
    return int((time if time.tzinfo else time.replace(tzinfo=UTC)).timestamp() * 1000)


# --- when each row last changed here -----------------------------------------------------


@dataclass
class RowHistory:
    """What the journal's live history (every operation not undone) says of each row:
    an undo takes its operation's times back with it, so the export after an undo is
    the export before the operation."""

    times: dict[tuple[str, int], int] = field(default_factory=dict)
    """(table, row id) -> when the row last changed (milliseconds)."""
    born: dict[tuple[str, int], int] = field(default_factory=dict)
    """(table, row id) -> the operation that inserted the row now under that id."""
    gone: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    """(table, row id) -> the row as it was when it was deleted (rows deleted now)."""
    last_deleted: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    """(table, row id) -> the last row deleted under that number, as it was."""
    reborn: set[tuple[str, int]] = field(default_factory=set)
    """Rows under the number of a row deleted before them."""
    ever_linked: set[tuple[str, int]] = field(default_factory=set)
    """Every (table, row id) a link was tied to: the Journal's entries (a row the
    Journal's deletion took away is not one made here)."""
    linked: dict[int, int] = field(default_factory=dict)
    """link id -> the operation that last tied the link to its row."""

    def same_row(self, link: models.WebJournalLink) -> bool:
        """Whether the row the link names is still the one it was tied to: SQLite
        gives a deleted row's number to the next new row of its table."""
        born = self.born.get((link.row_table, link.row_id or 0))
        tied = self.linked.get(link.id or 0)
        return born is None or tied is None or born <= tied


def row_history(session: Session) -> RowHistory:
    """Read the journal's live history once (see :class:`RowHistory`)."""
    out = RowHistory()
    events = session.exec(select(models.JournalEvent).where(
        col(models.JournalEvent.undone).is_(False),
        col(models.JournalEvent.kind).not_in(("undo", "redo"))).order_by(
        col(models.JournalEvent.id))).all()
    links: dict[int, dict[str, Any]] = {}
    for event in events:
        when = epoch_ms(event.time)
        for change in event.changes or ():
            key = (str(change.get("table")), int(change.get("id") or 0))
            out.times[key] = when
            before, after = change.get("before"), change.get("after")
            if before is None and after is not None:
                out.born[key] = event.id or 0
                if out.gone.pop(key, None) is not None:
                    out.reborn.add(key)
            elif after is None and isinstance(before, dict):
                out.gone[key] = out.last_deleted[key] = before
            if key[0] == "web_journal_link" and isinstance(after, dict):
                if "row_id" in after:
                    out.linked[key[1]] = event.id or 0
                state = links.setdefault(key[1], {})
                state.update(after)
                if state.get("row_table") and state.get("row_id") is not None:
                    out.ever_linked.add((str(state["row_table"]), int(state["row_id"])))
    return out


def ghost(table: str, image: Mapping[str, Any]) -> Any:
    """A deleted row, rebuilt from its image in the journal (never added to a
    session)."""
    model = next((t for t in models.GAME_TABLES if table_of(t).name == table), None)
    if model is None:
        return None
    columns = table_of(model).columns
    return model(**{c.name: decode_value(c.type, image.get(c.name)) for c in columns})


def ghost_entry(campaign: Campaign, section: str, row: Any) -> dict[str, Any]:
    """The Journal's entry of a row deleted here, as it was (the fields the Journal's
    "Recently deleted" list shows go back with its tombstone)."""
    content = campaign.content
    if section.startswith("culture.") and section != "culture.outposts":
        return parse_culture_text(section[len("culture."):], row.text)
    makers: dict[str, Any] = {
        "behemoths": lambda b: behemoth_entry(
            b, b.name or content_name(content.behemoths, b.behemoth_id), b.lair_hex or ""),
        "challengeRecord": lambda c: challenge_entry(
            c, c.name or content_name(content.challenges, c.challenge_id)),
        "loomingChallenges": lambda e: looming_entry(
            e, e.name or content_name(content.challenges, e.challenge_id), e.position),
        "investigations": investigation_entry, "notePages": note_entry,
        "codexEntries": codex_entry, "caveWall": drawing_entry,
        "culture.outposts": lambda o: outpost_entry(o, []),
        "nullCodes": _null_entry,
        "provisionalCodes": lambda c: _provisional_entry(
            c.data or {}, c.name) if c.status == "provisional" else _provisional_entry(
            (c.data or {}).get("unverified") or {},
            str(((c.data or {}).get("unverified") or {}).get("name") or "")),
        "recipes": lambda c: {"name": c.name, "codes": [web_code(c.code)]},
    }
    make = makers.get(section)
    return dict(make(row)) if make is not None else {}


# --- the campaign's side of a merge, and of the export ---------------------------------


@dataclass
class OurEntry:
    """One entry of the Journal as the campaign has it now: what the export writes."""

    section: str
    web_id: str
    entry: dict[str, Any]
    """Every field, ``id`` and ``updatedAt`` included (and ``"deleted": true`` for a
    tombstone)."""
    row: tuple[str, int] | None = None
    """(table, row id) of its home here, while it has one."""
    deleted_here: bool = False
    """A tombstone for an entry deleted in the campaign (not one kept from the
    Journal)."""

    @property
    def updated_at(self) -> int:
        value = self.entry.get("updatedAt")
        return int(value) if isinstance(value, (int, float)) \
            and not isinstance(value, bool) else 0

    @property
    def deleted(self) -> bool:
        return bool(self.entry.get("deleted"))


@dataclass
class OurSide:
    """The campaign as the Journal's entries (:func:`our_side`)."""

    entries: list[OurEntry] = field(default_factory=list)
    """In the export's order: the rows, then what the links keep."""
    by_web_id: dict[tuple[str, str], OurEntry] = field(default_factory=dict)
    by_row: dict[tuple[str, int], OurEntry] = field(default_factory=dict)
    tribe_name: str = ""
    tribe_updated_at: int | None = None
    top: dict[str, Any] = field(default_factory=dict)
    """Sections the campaign has no home for, as the file had them (path -> value)."""

    def add(self, entry: OurEntry) -> None:
        self.entries.append(entry)
        self.by_web_id[(entry.section, entry.web_id)] = entry
        if entry.row is not None:
            self.by_row[entry.row] = entry

    def find(self, section: str, web_id: str) -> OurEntry | None:
        return self.by_web_id.get((section, web_id))


def our_side(campaign: Campaign, session: Session, now_ms: int | None = None) -> OurSide:
    """Every entry the campaign holds for the Journal, with the ``updatedAt`` the Journal's
    merge compares: the Journal's own while the row is as imported; the time of the last
    edit here (later than the Journal's) once it was edited here; a row deleted here is
    a tombstone with the time of its deletion; the Journal's own tombstones as it wrote
    them. The export writes exactly these, and an import merges against them."""
    if now_ms is None:
        now_ms = epoch_ms(datetime.now(UTC))
    out = OurSide()
    entries = campaign_entries(campaign, session)
    history = row_history(session)
    links = _links(session)
    live_pages = {p.id for p in session.exec(select(models.NotePage)).all()}
    by_row = {(lk.section, lk.row_table, lk.row_id): lk for lk in links
              if lk.row_table and lk.row_id is not None and lk.data.get("entry") is None
              and history.same_row(lk)}
    taken = {(lk.section, lk.web_id) for lk in links}
    out.tribe_name = entries.tribe_name
    for placed in entries.order:
        link = next((by_row[k] for k in ((placed.section, placed.table, one) for one in (
            placed.row_id, *placed.also)) if k in by_row), None)
        entry = restore(placed.entry, link.data) if link else dict(placed.entry)
        web_id = link.web_id if link else placed.own_id
        if link is None and ((placed.section, web_id) in taken or (
                placed.table, placed.row_id) in history.reborn) \
                and web_id.endswith(f"-{placed.row_id}"):
            # A new row under a deleted one's number: an id of its own.
            web_id = f"{web_id}-{history.born.get((placed.table, placed.row_id), 0)}"
        if link is not None and link.stamp == stamp(placed.entry):
            updated = link.updated_at
        else:  # first made here, or edited here since the Journal's copy
            changed = history.times.get((placed.table, placed.row_id))
            updated = max(changed or now_ms, (link.updated_at or 0) + 1) if link \
                else changed
        whole = {"id": web_id, **{k: v for k, v in entry.items() if k != "id"}}
        if updated is not None:
            whole["updatedAt"] = updated
        out.add(OurEntry(placed.section, web_id, whole, (placed.table, placed.row_id)))
        for one in placed.also:
            out.by_row.setdefault((placed.table, one), out.entries[-1])
    for link in links:
        if link.section == "culture":
            meta = link.data.get("entry") or {}
            if meta.get("namedAfterFile") and out.tribe_name == meta["namedAfterFile"]:
                out.tribe_name = ""  # the Journal's file had no tribe name
            if meta.get("tribeName") == out.tribe_name:
                out.tribe_updated_at = meta.get("updatedAt")
            else:  # renamed here since
                changed = history.times.get(("campaign", 1)) or now_ms
                out.tribe_updated_at = max(changed, int(meta.get("updatedAt") or 0) + 1)
            continue
        kept = link.data.get("entry")
        if kept is not None:
            if link.row_table == "note_page" and link.row_id not in live_pages:
                continue  # the group deleted the note keeping it
            if link.section.startswith("top:"):
                out.top[link.section[len("top:"):]] = kept.get("value")
            else:
                out.add(OurEntry(link.section, link.web_id, dict(kept)))
            continue
        if (link.section, link.web_id) in out.by_web_id:
            continue
        # Deleted here: the Journal's own tombstone, every field as it last was, with
        # the time of the deletion (so the Journal's merge deletes it too).
        key = (link.row_table, link.row_id or 0)
        image = history.last_deleted.get(key)
        row = ghost(link.row_table, image) if image is not None else None
        fields = restore(ghost_entry(campaign, link.section, row), link.data) \
            if row is not None else {}
        deleted = max(history.times.get(key) or now_ms, (link.updated_at or 0) + 1)
        out.add(OurEntry(link.section, link.web_id, {
            "id": link.web_id, **{k: v for k, v in fields.items() if k != "id"},
            "deleted": True, "updatedAt": deleted}, deleted_here=True))
    # Entries made here and deleted since: tombstones under the ids the export gave
    # them, so a Journal that took them from an earlier export deletes them too.
    for key, image in history.gone.items():
        made = None if key in history.ever_linked else own_tombstone(campaign, key, image)
        if made is None or (made[0], made[1]) in out.by_web_id:
            continue
        section, web_id, fields = made
        out.add(OurEntry(section, web_id, {
            "id": web_id, **{k: v for k, v in fields.items() if k != "id"},
            "deleted": True, "updatedAt": history.times.get(key, now_ms)},
            deleted_here=True))
    return out


def own_tombstone(campaign: Campaign, key: tuple[str, int], image: Mapping[str, Any]
                  ) -> tuple[str, str, dict[str, Any]] | None:
    """(section, the id the export gave it, its fields) of a row deleted here that was
    never the Journal's; None for a row that has no entry in the Journal."""
    table, row_id = key
    row = ghost(table, image)
    if row is None:
        return None
    if table == "note_page":
        kind = {v: k for k, v in CULTURE_KINDS.items()}.get(
            row.title[len(CULTURE_PREFIX):]) if row.title.startswith(CULTURE_PREFIX) else None
        if row.title.startswith(CULTURE_PREFIX) and kind is None \
                or row.title.startswith(KEPT_PREFIX):
            return None
        section, web_id = (f"culture.{kind}", f"sc-culture-{row_id}") if kind else (
            "notePages", f"sc-note-{row_id}")
    elif table == "code_record":
        found = {"recipe": "recipes", "null": "nullCodes",
                 "provisional": "provisionalCodes"}.get(row.status)
        if found is None:
            return None
        section = found
        web_id = recipe_id(campaign, row) if found == "recipes" else code_key(row.code)
    else:
        if table == "cave_wall_illustration" and not row.strokes:
            return None  # a picture here, never a drawing of the Journal's
        match = next(((name, word) for name, (model, word) in ROW_SECTIONS.items()
                      if table_of(model).name == table), None)
        if match is None:
            return None
        section, web_id = match[0], f"sc-{match[1]}-{row_id}"
    return section, web_id, ghost_entry(campaign, section, row)
