"""The Campaign Journal's own merge rule, applied to an import into a campaign.

The Journal merges union by id (app.js ``mergeById``): of two copies of one entry the
one with the newer ``updatedAt`` wins, a tie keeping its own; a deletion is a copy of
its own (``"deleted": true`` with the time of the deletion), so a deletion beats an
older edit and an edit beats an older deletion. The campaign's side of each entry is
what the export writes (``webjournal_links.our_side``): the Journal's copy while the row
is as imported, the time of the last edit once edited here, a tombstone with the time
of the deletion once deleted here.

:func:`settle` marks every planned item with the side the rule takes (a section's
choice of "newer", the default, follows it; "add" keeps ours; "theirs" takes the
file's), turns an entry deleted here that the file still has into a difference (not a
new row), plans the file's deletions of entries the campaign holds, and collects the
Journal's tombstones the campaign keeps so that the export gives them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlmodel import Session, SQLModel, select

from companion.operations.core import Campaign
from companion.operations.webjournal_entries import web_code
from companion.operations.webjournal_links import OurEntry, OurSide, WebOrigin, our_side
from companion.operations.webjournal_plan import Planned
from companion.store import models
from companion.store import webjournal as fmt
from companion.store.models import table_of

#: The Journal's sections -> the preview's.
PREVIEW_SECTION = {"recipes": "codes", "nullCodes": "codes", "provisionalCodes": "codes",
                   "behemoths": "behemoths", "challengeRecord": "challenges",
                   "loomingChallenges": "looming", "investigations": "investigations",
                   "notePages": "notes", "codexEntries": "codex", "caveWall": "drawings",
                   "culture.outposts": "outposts"}


def updated_at(entry: Mapping[str, Any]) -> int:
    """An entry's ``updatedAt`` as the Journal compares it (none counts as 0)."""
    value = entry.get("updatedAt")
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else 0


def newer_side(theirs: int, ours: int) -> str:
    """The Journal's rule: the file's copy wins only when strictly newer."""
    return "theirs" if theirs > ours else "ours"


def settle(campaign: Campaign, session: Session, doc: fmt.WebDocument,
           items: list[Planned]) -> tuple[list[WebOrigin], OurSide]:
    """Apply the Journal's rule to the planned ``items`` (in place) and plan the file's
    tombstones; returns the tombstones to keep and the campaign's side."""
    side = our_side(campaign, session)
    for item in list(items):
        if item.origin is not None:
            _settle_item(item, side)
    carried = _plan_tombstones(doc, session, side, items)
    return carried, side


def _ours(item: Planned, side: OurSide) -> tuple[OurEntry | None, OurEntry | None]:
    """(the campaign's copy of the item's entry by its Journal id, or else the entry of
    the row the import matched it to)."""
    assert item.origin is not None
    web_id = item.origin.web_id or str(item.origin.raw.get("id") or "")
    linked = side.find(item.origin.section, web_id) if web_id else None
    row, row_id = item.row, getattr(item.row, "id", None)
    matched = side.by_row.get((table_of(type(row)).name, row_id)) \
        if isinstance(row, SQLModel) and row_id is not None else None
    return linked, matched


def _settle_item(item: Planned, side: OurSide) -> None:
    assert item.origin is not None
    theirs = updated_at(item.origin.raw)
    linked, matched = _ours(item, side)
    if item.state == "added":
        if linked is not None and linked.deleted:
            _deleted_here(item, linked, theirs)
        return
    ours = linked or matched
    ours_at = ours.updated_at if ours is not None else 0
    if item.state == "conflict":
        item.newer = newer_side(theirs, ours_at)
        item.relink = False
    else:  # already there: remember the file's copy unless ours is newer
        item.relink = linked is None or theirs >= ours_at


def _deleted_here(item: Planned, ours: OurEntry, theirs: int) -> None:
    """The file still has an entry the campaign holds as deleted: a difference, the
    file's side bringing the entry back."""
    rows, place = list(item.new_rows), item.place

    def bring_back(session: Session) -> Any:
        for row in rows:
            session.add(row)
        return place(session) if place else (rows[0] if rows else None)
    where = "here" if ours.deleted_here else "in the Journal earlier"
    item.state, item.detail = "conflict", f"ours: deleted {where}; the file: kept"
    item.new_rows, item.place, item.replace = [], None, bring_back
    item.deleted_here, item.newer, item.relink = True, newer_side(theirs, ours.updated_at), \
        False


def _plan_tombstones(doc: fmt.WebDocument, session: Session, side: OurSide,
                     items: list[Planned]) -> list[WebOrigin]:
    """The file's deletions: of an entry the campaign holds, a difference (the file's
    side deleting the row); of one it holds as deleted or does not hold, kept as the
    Journal wrote it (when newer than ours), for the export to give back."""
    carried = []
    for tombstone in doc.tombstones:
        origin = WebOrigin(tombstone.section, tombstone.raw, tombstone.web_id)
        theirs = updated_at(tombstone.raw)
        ours = side.find(tombstone.section, tombstone.web_id) if tombstone.web_id else None
        if ours is None or ours.deleted:
            if tombstone.web_id and (ours is None or theirs > ours.updated_at):
                carried.append(origin)
            continue
        if ours.row is None:
            continue  # an entry kept whole (no home here): the file's copy is not ours
        section = "culture" if tombstone.section.startswith("culture.") \
            and tombstone.section != "culture.outposts" else \
            PREVIEW_SECTION.get(tombstone.section)
        table = _table(ours.row[0])
        row = session.get(table, ours.row[1]) if table is not None else None
        if section is None or row is None:
            continue
        label = str(getattr(row, "name", "") or getattr(row, "title", "") or
                    getattr(row, "text", "") or getattr(row, "code", "") or tombstone.web_id)
        items.append(Planned(
            section, f"{label} (deleted in the web journal)", "conflict",
            "ours: kept; the file: deleted",
            replace=_remover(tombstone, table, ours.row[1]), origin=origin,
            newer=newer_side(theirs, ours.updated_at), deletes=True, relink=False))
    return carried


def _table(name: str) -> Any:
    return next((t for t in models.GAME_TABLES if table_of(t).name == name), None)


def _remover(tombstone: fmt.WebTombstone, table: Any, row_id: int) -> Any:
    """The file's side of a deletion: the row goes (an outpost with the structures built
    in it; a recipe with every code of it). A code that is both the group's finding and
    a community report loses only the side the Journal deleted."""
    def remove(session: Session) -> None:
        target = session.get(table, row_id)
        if target is None:
            return
        if table is models.CodeRecord and _one_side_of_a_code(tombstone, target):
            return
        if table is models.Outpost:
            for built in session.exec(select(models.OutpostStructure).where(
                    models.OutpostStructure.outpost_id == row_id)).all():
                session.delete(built)
        if table is models.CodeRecord and tombstone.section == "recipes":
            for other in _recipe_records(session, tombstone.raw, target):
                session.delete(other)
        session.delete(target)
    return remove


def _one_side_of_a_code(tombstone: fmt.WebTombstone, record: models.CodeRecord) -> bool:
    """Take away only the deleted side of a code the Journal lists twice (a dead end or
    recipe and a community report): True when that was all there was to do."""
    data = dict(record.data or {})
    unverified = data.get("unverified")
    if tombstone.section == "provisionalCodes" and record.status != "provisional":
        data.pop("unverified", None)
        record.data = data
        return True
    if tombstone.section == "nullCodes" and isinstance(unverified, dict):
        # The community report stays, as an unverified code of its own.
        rest = {k: v for k, v in unverified.items() if k != "name"}
        record.status, record.name, record.data = "provisional", str(
            unverified.get("name") or ""), rest
        return True
    return False


def _recipe_records(session: Session, raw: Mapping[str, Any], first: models.CodeRecord
                    ) -> Iterable[models.CodeRecord]:
    """The other records of the recipe the Journal deleted (its codes, same item)."""
    codes = {f"{c.get('color')} {c.get('digits')}" for c in raw.get("codes") or []
             if isinstance(c, dict)}
    for record in session.exec(select(models.CodeRecord).where(
            models.CodeRecord.status == "recipe")).all():
        key = f"{web_code(record.code)['color']} {web_code(record.code)['digits']}"
        if record.id != first.id and key in codes and record.name == first.name:
            yield record


def tribe_newer(doc: fmt.WebDocument, side: OurSide) -> str:
    """The side the Journal's rule takes for the tribe's name (``culture.updatedAt``)."""
    return newer_side(updated_at({"updatedAt": doc.culture_updated_at}),
                      int(side.tribe_updated_at or 0))
