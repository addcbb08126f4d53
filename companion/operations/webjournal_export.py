"""Export a campaign as the web Campaign Journal's file, version 5 (the newest it reads).

Every entry goes back under its Journal id, field for field as the Journal wrote it,
with its ``updatedAt``, unless it was edited here (then ``updatedAt`` is the time of that
edit, so the Journal's merge takes ours). An entry first made here has a stable id from
its row (``sc-behemoth-4``) and the time it last changed. An entry the Journal had and
that was deleted here goes back as the Journal's own tombstone (``"deleted": true``,
every field as it last was, the time of the deletion), so its merge deletes it too
instead of bringing it back; the Journal's own tombstones go back as it wrote them, so
its "Recently deleted" lists keep them. Entries the campaign has no home for were kept
whole by the import and go back as they were. What is written is what an import into
the campaign merges against (``webjournal_links.our_side``): the two always agree.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlmodel import Session, col, select

from companion.content.schema.base import Edge
from companion.operations.changes import Refused
from companion.operations.core import Campaign
from companion.operations.webjournal_entries import CULTURE_KINDS, KEPT_PREFIX
from companion.operations.webjournal_links import KEYED_SECTIONS, our_side
from companion.operations.webjournal_materials import (
    PACK_HOLDS,
    held_in_pack,
    own_pack_id,
    read_custom_materials,
)
from companion.store import models
from companion.store import webjournal as fmt

EXPORT_VERSION = 5
"""The Journal's export version written (app.js ``EXPORT_VERSION``)."""
EXPORT_APP = "Stonesaga Crafting Journal"
"""What the Journal itself writes in ``"app"`` (every version of it reads the file)."""
LIST_SECTIONS = ("recipes", "behemoths", "challengeRecord", "loomingChallenges",
                 "investigations", "notePages", "caveWall", "codexEntries")
CULTURE_LISTS = ("structures", "mantlePowers", "knowledgeCards", "taboos", "pigments",
                 "outposts")
MANTLE_POWERS = fmt.section_words("mantlePowers")
"""The kept note's name for mantle powers an older import kept as a note."""
CAVE_WALL = fmt.section_words("caveWall")
"""The kept note's name for cave wall drawings an older import kept as a note."""


def export_document(campaign: Campaign) -> dict[str, Any]:
    """The campaign as the web app's version 5 file (crafting discoveries and journal):
    every entry :func:`~companion.operations.webjournal_links.our_side` gives, the
    Journal's own tombstones and ours among them."""
    doc: dict[str, Any] = {k: [] for k in LIST_SECTIONS}
    doc.update({k: {} for k in KEYED_SECTIONS})
    culture: dict[str, Any] = {"tribeName": "", "updatedAt": None,
                               **{k: [] for k in CULTURE_LISTS}}
    with campaign.file.read() as session:
        side = our_side(campaign, session)
        old_kept = _older_kept_lists(session)
    culture["tribeName"], culture["updatedAt"] = side.tribe_name, side.tribe_updated_at
    deleted_materials: list[dict[str, Any]] = []
    for ours in side.entries:
        entry = dict(ours.entry)
        if ours.section in KEYED_SECTIONS:
            entry.pop("id", None)
            doc[ours.section][ours.web_id] = entry
        elif ours.section == "customMaterials":
            deleted_materials.append(entry)
        elif ours.section.startswith("culture."):
            culture[ours.section[len("culture."):]].append(entry)
        elif ours.section in doc:
            doc[ours.section].append(entry)
    for path, value in side.top.items():
        _put_path(doc, culture, path, value)
    for section, values in old_kept.items():
        target = culture["mantlePowers"] if section == "mantlePowers" else doc["caveWall"]
        target.extend(values)
    materials = [_material_json(m, campaign.content.materials)
                 for m in read_custom_materials(own_pack_id(campaign))]
    # The Journal's deleted custom materials go back too, unless made again since.
    live = {str(m.get("name", "")).casefold() for m in materials}
    materials += [m for m in deleted_materials if str(m.get("name", "")).casefold()
                  not in live]
    now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"app": EXPORT_APP, "version": EXPORT_VERSION, "exportedAt": now,
            "lastUpdated": now, "recipes": doc["recipes"], "nullCodes": doc["nullCodes"],
            "customMaterials": materials, "culture": culture, "behemoths": doc["behemoths"],
            "challengeRecord": doc["challengeRecord"],
            "loomingChallenges": doc["loomingChallenges"],
            "investigations": doc["investigations"], "notePages": doc["notePages"],
            "caveWall": doc["caveWall"], "codexEntries": doc["codexEntries"],
            "provisionalCodes": doc["provisionalCodes"],
            "driveFileId": None, "driveToken": None}


def _put_path(doc: dict[str, Any], culture: dict[str, Any], path: str, value: Any) -> None:
    """A section the campaign has no home for, back where the file had it."""
    if path.startswith("culture."):
        culture[path[len("culture."):]] = value
    else:
        doc[path] = value


def _older_kept_lists(session: Session) -> dict[str, list[dict[str, Any]]]:
    """Mantle powers and cave wall drawings an import before the links kept as a note
    holding their JSON: they go back to their place (with ids to merge by)."""
    out: dict[str, list[dict[str, Any]]] = {}
    linked = {lk.row_id for lk in session.exec(select(models.WebJournalLink).where(
        models.WebJournalLink.row_table == "note_page")).all()}
    titles = {KEPT_PREFIX + MANTLE_POWERS: ("mantlePowers", "mantle"),
              KEPT_PREFIX + CAVE_WALL: ("caveWall", "cave")}
    for page in session.exec(select(models.NotePage).where(
            col(models.NotePage.title).in_(list(titles)))).all():
        if page.id in linked:
            continue
        try:
            value = json.loads(page.text)
        except ValueError:
            continue
        if not isinstance(value, list):
            continue
        section, word = titles[page.title]
        out.setdefault(section, []).extend(
            {"id": f"sc-{word}-{page.id}-{n}", **entry}
            for n, entry in enumerate(value) if isinstance(entry, dict))
    return out


def _material_json(m: Mapping[str, Any], materials: Mapping[str, Any]) -> dict[str, Any]:
    """A kept custom material as the web app writes it (every field it wrote); one in
    the user's pack takes its category and pips from the pack (as My Cards may have
    changed them)."""
    if not held_in_pack(m):
        return {**m, "cat": m.get("cat") or "unknown"}
    token = materials.get(str(m.get("material") or m.get("side_of")))
    side = None if token is None else (token.processed if m.get("side_of") else
                                       token.unprocessed)
    marks = None
    if side is not None and any(side.pip(e) for e in Edge):
        marks = [_mark(side.pip(Edge(e))) for e in ("left", "right", "top", "bottom")]
    cat = "unknown" if token is None else str(token.category.value)
    rest = {k: v for k, v in m.items()
            if k not in (*PACK_HOLDS, "material", "side_of", "name", "processed", "image",
                         "notes")}
    return {"name": m["name"], "cat": "plant" if cat == "vegetable" else cat,
            "processed": m.get("processed"), "image": m.get("image"), "marks": marks,
            "notes": m.get("notes"), **rest}


def _mark(pip: Any) -> str | None:
    """A pip as the web app writes a mark: "Green 2"."""
    return None if pip is None else f"{str(pip.colour.value).title()} {pip.count}"


def _live(entries: list[Any]) -> int:
    return sum(1 for e in entries if not (isinstance(e, dict) and e.get("deleted")))


def export_web_journal(campaign: Campaign, dest: Path) -> dict[str, int]:
    """Write the campaign as a web-journal version 5 file; returns counts per section
    (entries, not counting the tombstones of entries deleted here)."""
    document = export_document(campaign)
    try:
        Path(dest).write_text(json.dumps(document, ensure_ascii=False, indent=2),
                              encoding="utf-8")
    except OSError as exc:
        raise Refused(f"Could not write {dest}: {exc.strerror or exc}") from None
    culture = document["culture"]
    return {"recipes": _live(document["recipes"]),
            "null codes": _live(list(document["nullCodes"].values())),
            "unverified codes": _live(list(document["provisionalCodes"].values())),
            "custom materials": len(document["customMaterials"]),
            "culture entries": sum(_live(culture[k]) for k in CULTURE_KINDS),
            "outposts": _live(culture["outposts"]),
            "behemoths": _live(document["behemoths"]),
            "challenges": _live(document["challengeRecord"]),
            "looming challenges": _live(document["loomingChallenges"]),
            "investigations": _live(document["investigations"]),
            "note pages": _live(document["notePages"]),
            "codex entries": _live(document["codexEntries"]),
            "cave wall drawings": _live(document["caveWall"])}
