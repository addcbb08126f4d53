"""The web Campaign Journal's custom materials, and the user's own pack.

The web app keeps materials the group added at the table (``customMaterials``). An
import writes each one it can into the user's own pack (``<pack>-mine``, Content ▸ My
Cards) as a material; what the pack schema has no field for (its picture, notes, the
processed form's name, version 5's ``processing``, the Journal's ``updatedAt``) waits in
a side file, :func:`materials_file`, and the export puts every field back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from sqlmodel import Session

from companion import paths
from companion.operations.core import Campaign
from companion.store import models
from companion.store import webjournal as fmt

WEB_MATERIALS_DIR = "web-journal"


def own_pack_id(campaign: Campaign, session: Session | None = None) -> str:
    """The campaign's own pack, under the user's pack that extends it (the side file of
    custom materials is named after it, whether or not the user's pack exists yet)."""
    from companion.operations.campaign_packs import is_users

    if session is None:
        with campaign.file.read() as reading:
            return own_pack_id(campaign, reading)
    row = session.get(models.Campaign, 1)
    packs = [str(p["id"]) for p in (row.content_packs if row else [])]
    while len(packs) > 1 and is_users(packs[-1]):
        packs.pop()
    return packs[-1] if packs else "sample"


def materials_file(pack_id: str) -> Path:
    """The side file of the web journal's custom materials for the user's pack extending
    ``pack_id``: ``<user data>/web-journal/<pack>-mine-materials.yaml``.

    ``web_journal:`` lists the web app's entries. One that became a material of the
    user's own pack keeps only what the pack schema has no field for (picture, notes,
    the name of its processed form) with ``material: <id>``; the entry of a processed
    form keeps ``side_of: <id>``; the export takes names, categories and pips from the
    pack. One that cannot be a pack material (yet) is kept whole.
    """
    return paths.user_data_dir() / WEB_MATERIALS_DIR / f"{pack_id}-mine-materials.yaml"


def _side_file(pack_id: str) -> dict[str, Any]:
    file = materials_file(pack_id)
    if not file.is_file():
        return {}
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def read_custom_materials(pack_id: str) -> list[dict[str, Any]]:
    """The web journal's custom materials kept for ``pack_id``'s user pack: whole web
    entries (``{name, cat, processed, image, marks, notes}``) or, for those in the pack,
    ``{name, material | side_of, processed, image, notes}``."""
    data = _side_file(pack_id)
    if "web_journal" not in data:  # the first form of this file: the web entries only
        return [_first_form(m) for m in data.get("materials", []) or []
                if isinstance(m, dict) and isinstance(m.get("name"), str)
                and "unprocessed" not in m]
    entries = data["web_journal"]
    return [m for m in entries if isinstance(m, dict) and isinstance(m.get("name"), str)] \
        if isinstance(entries, list) else []


def _first_form(m: Mapping[str, Any]) -> dict[str, Any]:
    marks = m.get("marks")
    return {"name": m["name"], "cat": m.get("category") or "unknown",
            "processed": m.get("processed"), "image": m.get("image"),
            "marks": [marks.get(k) for k in ("left", "right", "top", "bottom")]
            if isinstance(marks, dict) else None, "notes": m.get("notes")}


def held_in_pack(entry: Mapping[str, Any]) -> bool:
    return bool(entry.get("material") or entry.get("side_of"))


def materials_waiting(pack_id: str) -> list[tuple[str, str]]:
    """(name, what it needs) of each kept custom material that is not a pack material
    (nor another token's processed side) and cannot be one yet."""
    kept = read_custom_materials(pack_id)
    sides = {str(m["processed"]).casefold() for m in kept if m.get("processed")}
    waiting = []
    for entry in kept:
        if held_in_pack(entry) or entry["name"].casefold() in sides:
            continue
        material, why = pack_material(entry, kept)
        if material is None:
            waiting.append((entry["name"], why))
    return waiting


def web_material_id(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
    return slug or "material"


def pack_material(entry: Mapping[str, Any], others: Sequence[Mapping[str, Any]]
                  ) -> tuple[dict[str, Any] | None, str]:
    """A web custom material as a pack material (``Material``), checked by the pack
    schema; (None, what it needs) when it cannot be one yet.

    The web app keeps each side of a token as its own material ("Glowing Moss" and its
    ``processed`` form "Glowing Moss (dried)"): the processed one's marks become the
    processed side. It does not record a token's size: a custom material is taken as a
    small token.
    """
    from pydantic import ValidationError

    from companion.content.schema.world import Material, MaterialCategory, MaterialSide

    name = str(entry["name"])
    try:
        category = MaterialCategory(str(entry.get("cat") or "unknown"))
    except ValueError:
        return None, (f"its category is {entry.get('cat') or 'not given'!r}; give it "
                      f"one of animal, mineral, plant or rare to use it in crafting")
    processed_name = str(entry.get("processed") or "")
    processed = next((o for o in others if processed_name
                      and str(o.get("name", "")).casefold() == processed_name.casefold()),
                     None)
    try:
        material = Material(
            id=web_material_id(name), name=name, category=category, size="small",
            unprocessed=MaterialSide.from_marks(entry.get("marks")),
            processed=MaterialSide.from_marks(processed.get("marks") if processed else None))
    except (ValidationError, ValueError) as exc:
        first = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
        return None, f"its marks cannot be read as pips ({first})"
    return material.model_dump(mode="json", exclude_defaults=True), ""


@dataclass(frozen=True)
class MaterialsOutcome:
    """What became of an import's custom materials."""

    added: tuple[str, ...] = ()
    already: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    """``"name: why"`` of each that could not be made a material."""
    pack: str = ""
    file: str | None = None


def _web_entry(m: fmt.WebMaterial) -> dict[str, Any]:
    entry = {"name": m.name, "cat": m.category or "unknown",
             "processed": m.processed or None, "image": m.image or None,
             "marks": list(m.marks) if m.marks else None, "notes": m.notes or None}
    # What else the Journal wrote (version 5's "processing", "updatedAt" ...) goes back.
    entry.update({k: v for k, v in m.raw.items() if k not in entry})
    return entry


#: Fields of a web custom material that the pack holds once it is a pack material.
PACK_HOLDS = ("cat", "marks")


def _link(entry: dict[str, Any], material_id: str, kept: Sequence[dict[str, Any]]) -> None:
    """The side file keeps, of a material now in the pack, what the pack has no field
    for; and of its processed form, which token it is the processed side of."""
    processed = entry.get("processed")
    rest = {"name": entry["name"], "material": material_id, "processed": processed,
            "image": entry.get("image"), "notes": entry.get("notes"),
            **{k: v for k, v in entry.items()
               if k not in (*PACK_HOLDS, "name", "processed", "image", "notes")}}
    entry.clear()
    entry.update(rest)
    for other in kept:
        if processed and other is not entry and not held_in_pack(other) and \
                str(other["name"]).casefold() == str(processed).casefold():
            side = {"name": other["name"], "side_of": material_id,
                    "image": other.get("image"), "notes": other.get("notes"),
                    **{k: v for k, v in other.items()
                       if k not in (*PACK_HOLDS, "name", "image", "notes")}}
            other.clear()
            other.update(side)


def add_custom_materials(campaign: Campaign, session: Session,
                         materials: Iterable[fmt.WebMaterial]) -> MaterialsOutcome:
    """Write the web journal's custom materials into the campaign's own pack (created on
    first use, extending the campaign's pack), skipping those the content already has
    (by id or name); reload the content and record the pack versions in ``session``.

    A material the pack schema refuses (no category, unreadable marks) is kept whole in
    the side file, and the outcome says why. Pack cards are files of the user's, not
    rows of the campaign: undoing the import does not remove them.
    """
    from companion.content import user_pack as packs
    from companion.content.errors import ContentError
    from companion.operations.campaign_packs import rebuild_content, record_packs

    base = own_pack_id(campaign, session)
    kept = read_custom_materials(base)
    names = {m["name"].casefold() for m in kept}
    this_import = set()
    for m in materials:
        this_import.add(m.name.casefold())
        if m.name.casefold() not in names:
            names.add(m.name.casefold())
            kept.append(_web_entry(m))
    sides = {str(m["processed"]).casefold() for m in kept if m.get("processed")}
    content = campaign.content.materials
    ids = set(content)
    have = {m.name.casefold() for m in content.values()}
    added: list[str] = []
    already: list[str] = []
    waiting: list[str] = []
    own = None
    for entry in kept:  # entries kept by an earlier import are tried again
        name = str(entry["name"])
        mine = name.casefold() in this_import
        if held_in_pack(entry) or name.casefold() in sides:
            continue
        material, why = pack_material(entry, kept)
        if material is None:
            if mine:
                waiting.append(f"{name}: {why}")
            continue
        if material["id"] in ids or name.casefold() in have:
            if mine:
                already.append(name)
            continue
        try:
            own = own or packs.own_pack_for(campaign.content.packs)
            packs.add_card(own.folder, "materials", material,
                           extra_dirs=campaign.extra_content)
        except ContentError as exc:
            waiting.append(f"{name}: your own pack refused it ("
                           + "; ".join(i.message for i in exc.issues) + ")")
            continue
        except OSError as exc:
            waiting.append(f"{name}: it could not be written into your own pack ({exc})")
            continue
        ids.add(material["id"])
        added.append(name)
        _link(entry, str(material["id"]), kept)
    file = _write_side_file(base, kept)
    if own is not None and added:
        rebuild_content(campaign, session)
        record_packs(session, campaign.content)
    return MaterialsOutcome(tuple(added), tuple(already), tuple(waiting),
                            own.manifest.name if own is not None else "", str(file))


def _write_side_file(pack_id: str, kept: Sequence[dict[str, Any]]) -> Path:
    file = materials_file(pack_id)
    file.parent.mkdir(parents=True, exist_ok=True)
    header = ("# Materials the group added in the web Campaign Journal, for the user pack "
              f"extending '{pack_id}'.\n# Those with 'material' (or 'side_of', a processed "
              "form) are in that pack (Content > My Cards);\n# kept here is only what the "
              "pack has no field for. Others are the web app's entries as it wrote them.\n")
    file.write_text(header + yaml.safe_dump(
        {"pack": f"{pack_id}-mine", "extends": pack_id, "web_journal": list(kept)},
        sort_keys=False, allow_unicode=True), encoding="utf-8")
    return file
