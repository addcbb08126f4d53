"""Content packs: schemas, the loader with ``file:line`` errors, and merged ``Content``.

Public API::

    load_content(pack_id="sample", extra_dirs=()) -> Content
    load_pack_dir(folder) -> Content
    discover_packs(extra_dirs=()) -> list[PackManifest]
    import_crafting_csv(csv_paths, pack_dir) -> ImportReport
    Content, ContentError, ContentIssue, PackManifest, CraftingResult, CraftingResultKind
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.content.errors import ContentError, ContentIssue
    from companion.content.importer import ImportReport, import_crafting_csv
    from companion.content.loader import discover_packs, load_content, load_pack_dir
    from companion.content.model import (
        Codex,
        Content,
        CraftingResult,
        CraftingResultKind,
        CraftingTable,
        Sealed,
    )
    from companion.content.schema.pack import KINDS, PackManifest

_HOMES: dict[str, str] = {
    **dict.fromkeys(("ContentError", "ContentIssue"), "companion.content.errors"),
    **dict.fromkeys(("ImportReport", "import_crafting_csv"), "companion.content.importer"),
    **dict.fromkeys(("discover_packs", "load_content", "load_pack_dir"),
                    "companion.content.loader"),
    **dict.fromkeys(("Codex", "Content", "CraftingResult", "CraftingResultKind",
                     "CraftingTable", "Sealed"), "companion.content.model"),
    **dict.fromkeys(("KINDS", "PackManifest"), "companion.content.schema.pack"),
}
"""Where each name lives. Imported when first used: the importer (csv, YAML writing)
is never needed to open a campaign, and the start-up's first view reads the content
cache's file (:mod:`companion.content.cache_file`) before any pydantic class loads."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'companion.content' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "KINDS",
    "Codex",
    "Content",
    "ContentError",
    "ContentIssue",
    "CraftingResult",
    "CraftingResultKind",
    "CraftingTable",
    "ImportReport",
    "PackManifest",
    "Sealed",
    "discover_packs",
    "import_crafting_csv",
    "load_content",
    "load_pack_dir",
]
