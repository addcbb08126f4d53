"""The web Campaign Journal's crafting codes planned into a campaign: recipes, dead
ends and community reports as ``code_record`` rows (a community report beside the
group's own finding for the same code, as in the Journal)."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session

from companion.operations.webjournal_entries import code_text, same_data
from companion.operations.webjournal_links import WebOrigin
from companion.operations.webjournal_plan import Planned, kept_item
from companion.store import models
from companion.store import webjournal as fmt


def _pair_data(pair: fmt.WebPair) -> dict[str, Any]:
    data: dict[str, Any] = {"left": pair.left, "right": pair.right}
    if pair.left_category:
        data["left_category"] = pair.left_category
    if pair.right_category:
        data["right_category"] = pair.right_category
    if pair.inferred:
        data["inferred"] = True
    return data


def plan_codes(doc: fmt.WebDocument, existing: dict[str, models.CodeRecord],
                items: list[Planned]) -> None:
    seen: dict[str, str] = {}
    rows: dict[str, models.CodeRecord] = {}
    """The record each code of the file lives in (new or already there)."""

    def plan(text: str, status: str, name: str, data: dict[str, Any], label: str,
             origin: WebOrigin | None) -> None:
        if text in seen:
            items.append(kept_item(f"{label} (the file also has {text}: {seen[text]})",
                                    json.dumps({"code": text, "name": name, **data},
                                               ensure_ascii=False, indent=2), origin))
            return
        seen[text] = _status_words(f"{status} {name}".strip())
        row = existing.get(text)
        if row is None:
            new = models.CodeRecord(code=text, status=status, name=name, data=data)
            rows[text] = new
            items.append(Planned("codes", label, "added", new_rows=[new], origin=origin))
            return
        rows[text] = row
        if row.status == status and row.name == name and all(
                same_data(row.data.get(k), v) for k, v in data.items()):
            items.append(Planned("codes", label, "already there", origin=origin, row=row))
        elif row.status == status and row.name in ("", name):
            # Same finding; the file knows more (materials, notes): nothing to choose.
            def merge(session: Session, row_id: int = row.id or 0,
                      extra: dict[str, Any] = data, name_: str = name) -> None:
                target = session.get(models.CodeRecord, row_id)
                if target is not None:
                    target.name = name_
                    target.data = {**target.data, **extra}
            differing = sorted(k for k, v in data.items() if not same_data(row.data.get(k), v))
            items.append(Planned("codes", label, "conflict",
                                 "the file's " + (", ".join(_DATA_WORDS.get(k, k)
                                                            for k in differing) or "name")
                                 + " differ",
                                 replace=merge, origin=origin, row=row))
        else:
            ours = f"{row.status} {row.name}".strip()

            def take(session: Session, row_id: int = row.id or 0) -> None:
                target = session.get(models.CodeRecord, row_id)
                if target is not None:
                    target.status, target.name, target.data = status, name, dict(data)
            items.append(Planned("codes", label, "conflict",
                                 f"ours: {_status_words(ours)}; the file: "
                                 f"{_status_words(f'{status} {name}'.strip())}",
                                 replace=take, origin=origin, row=row))

    for recipe in doc.recipes:
        origin = WebOrigin("recipes", recipe.raw, recipe.web_id or recipe.item_id)
        if not recipe.codes:
            items.append(kept_item(f"Recipe {recipe.name or recipe.item_id} (no code)",
                                    json.dumps(_recipe_json(recipe), ensure_ascii=False,
                                               indent=2), origin))
            continue
        for n, code in enumerate(recipe.codes):
            data: dict[str, Any] = {"materials": [_pair_data(p) for p in recipe.pairs]}
            if recipe.item_id:
                data["item_id"] = recipe.item_id
            if recipe.notes:
                data["notes"] = recipe.notes
            if recipe.extra:
                data["web"] = recipe.extra
            text = code_text(code)
            # The recipe is linked to the record of its first code placed.
            first = origin if n == 0 or text in seen else None
            plan(text, "recipe", recipe.name, data, f"{text} {recipe.name}".strip(),
                 first if not any(i.origin is origin for i in items) else None)
    for null in doc.null_codes:
        text = code_text(null.code)
        plan(text, "null", "", {"materials": [_pair_data(null.pair)]} if null.pair else {},
             f"{text} (dead end)", WebOrigin("nullCodes", null.raw, null.code.key))
    for prov in doc.provisional:
        text = code_text(prov.code)
        data = {k: v for k, v in (("card_id", prov.card_id), ("flavor", prov.flavor),
                                  ("game_text", prov.game_text), ("source", prov.source))
                if v}
        if prov.dead_end:
            data["dead_end"] = True
        if prov.revealed:
            data["revealed"] = True
        origin = WebOrigin("provisionalCodes", prov.raw, prov.code.key)
        beside = rows.get(text)
        if beside is None or beside.status == "provisional":
            plan(text, "provisional", prov.name, data, f"{text} (unverified)", origin)
            continue
        # The group's own finding (a dead end, a recipe) and the community's report
        # stand side by side for one code, as in the web journal.
        unverified = {**data, "name": prov.name} if prov.name else data
        if same_data(beside.data.get("unverified"), unverified):
            items.append(Planned("codes", f"{text} (unverified, beside "
                                 f"{_status_words(beside.status)})", "already there",
                                 origin=origin, row=beside))
            continue

        def place(session: Session, record: models.CodeRecord = beside,
                  report: dict[str, Any] = unverified) -> models.CodeRecord:
            target = record if record.id is None else session.get(
                models.CodeRecord, record.id)
            assert target is not None
            target.data = {**(target.data or {}), "unverified": report}
            return target
        items.append(Planned("codes", f"{text} (unverified, beside "
                             f"{_status_words(beside.status)})", "added", origin=origin,
                             place=place))


_DATA_WORDS = {"item_id": "item card", "game_text": "game text", "card_id": "card",
               "dead_end": "dead end", "web": "other fields"}


def _status_words(text: str) -> str:
    status, _, name = text.partition(" ")
    word = {"recipe": "crafts", "null": "a dead end", "provisional": "unverified"}.get(
        status, status)
    return f"{word} {name}".strip()


def _recipe_json(recipe: fmt.WebRecipe) -> dict[str, Any]:
    return {"id": recipe.item_id, "name": recipe.name,
            "materials": [_pair_data(p) for p in recipe.pairs], "notes": recipe.notes,
            **recipe.extra}
