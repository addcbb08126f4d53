"""What importing a web Campaign Journal file would do, item by item (the preview's
rows): shared by the import's planners (``webjournal``, ``webjournal_codes``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import SQLModel

from companion.operations.webjournal_entries import KEPT_PREFIX
from companion.operations.webjournal_links import WebOrigin
from companion.store import models
from companion.store import webjournal as fmt


@dataclass
class Planned:
    """One thing of the file, and what importing it would do."""

    section: str
    label: str
    state: str
    """"added", "conflict" or "already there"."""
    detail: str = ""
    """For a conflict: ours against the file's."""
    new_rows: list[SQLModel] = field(default_factory=list)
    replace: Any = None
    """For a conflict: a callable (session) -> None taking the file's side."""
    material: fmt.WebMaterial | None = None
    origin: WebOrigin | None = None
    """The file's entry this comes from (linked to its row, for the export)."""
    row: Any = None
    """The row it lives in when that row is already in the campaign."""
    place: Any = None
    """For an addition that changes a row rather than adding one: a callable (session)
    -> the row."""


def _kept_item(label: str, text: str, origin: WebOrigin | None = None) -> Planned:
    return Planned("kept", label, "added", new_rows=[models.NotePage(
        title=KEPT_PREFIX + label, text=text, position=0)], origin=origin)


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True,
                                                                      default=str)
