"""Content packs: schemas, the loader with ``file:line`` errors, and merged ``Content``.

Public API::

    load_content(pack_id="sample", extra_dirs=()) -> Content
    load_pack_dir(folder) -> Content
    discover_packs(extra_dirs=()) -> list[PackManifest]
    import_crafting_csv(csv_paths, pack_dir) -> ImportReport
    Content, ContentError, ContentIssue, PackManifest, CraftingResult, CraftingResultKind
"""

from typing import TYPE_CHECKING, Any

from companion.content.errors import ContentError, ContentIssue
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

if TYPE_CHECKING:
    from companion.content.importer import ImportReport, import_crafting_csv


def __getattr__(name: str) -> Any:
    # The importer (csv, YAML writing) is imported when first used: opening a campaign
    # never needs it.
    if name in ("ImportReport", "import_crafting_csv"):
        from companion.content import importer

        return getattr(importer, name)
    raise AttributeError(f"module 'companion.content' has no attribute {name!r}")


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
