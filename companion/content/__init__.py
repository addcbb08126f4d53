"""Content packs: schemas, the loader with ``file:line`` errors, and merged ``Content``.

Public API::

    load_content(pack_id="sample", extra_dirs=()) -> Content
    load_pack_dir(folder) -> Content
    discover_packs(extra_dirs=()) -> list[PackManifest]
    import_crafting_csv(csv_paths, pack_dir) -> ImportReport
    Content, ContentError, ContentIssue, PackManifest, CraftingResult, CraftingResultKind
"""

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
