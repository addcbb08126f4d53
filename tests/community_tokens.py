"""The community's transcription of the box's material tokens
(tests/fixtures/community/materials.json, the Stonesaga Campaign Journal's shape) and a
recipe of the web Journal's own export (tests/fixtures/web-journal), as a group with the
real box types them: tokens entered with their edge pips, an item read in the Codex."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CATEGORIES = {"plant": "vegetable", "animal": "animal", "mineral": "mineral", "rare": "rare"}


def community_token(name: str) -> dict[str, Any]:
    """``material add``'s arguments for the community's token ``name`` (its processed
    side from its "processed" entry): name, category and each side's edge pips."""
    marks = json.loads((FIXTURES / "community" / "materials.json").read_text("utf-8"))
    token = marks[name]

    def edges(entry: dict[str, Any]) -> dict[str, tuple[str, int] | None]:
        out: dict[str, tuple[str, int] | None] = {}
        for edge, pip in (entry.get("marks") or {}).items():
            if pip:
                colour, count = pip.rsplit(" ", 1)
                out[edge] = (colour.casefold(), int(count))
        return out

    processed = marks.get(token["processed"] or "", {})
    return {"name": name, "category": CATEGORIES[token["cat"]],
            "unprocessed": edges(token), "processed": edges(processed)}


def journal_recipe(item_id: str) -> dict[str, Any]:
    """A recipe of the web Journal's export (v5): ``{"id": "IT29", "name": "Rope",
    "codes": [...], "notes": ...}``."""
    data = json.loads((FIXTURES / "web-journal" / "v5-8aae632-played.json").read_text("utf-8"))
    return next(r for r in data["recipes"] if r["id"] == item_id)
