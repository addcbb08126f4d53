"""A pack chain as loaded: its packs, the files read, the entries merged along
``extends``, and the ``Content`` built from them.

Below both :mod:`companion.content.loader` (which reads and checks the files) and
:mod:`companion.content.cache` (which rebuilds a chain from its cached form).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from companion.content import yamlio
from companion.content.model import Codex, Content, CraftingTable, Sealed
from companion.content.schema.cards import CodexOmenEntry, Goal
from companion.content.schema.pack import KINDS, PackManifest
from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import CraftingEntry

if TYPE_CHECKING:
    import yaml  # imported where a pack is parsed: a cached load never needs it


@dataclass
class PackDir:
    """A discovered pack: its manifest and folder."""

    manifest: PackManifest
    folder: Path


@dataclass
class PackDoc:
    """One parsed file; its node tree is composed again only if an error needs a line."""

    file: Path
    data: Any
    text: str
    pack_id: str = ""
    pack_dir: Path | None = None
    _node: yaml.Node | None = None
    _composed: bool = False

    @property
    def node(self) -> yaml.Node | None:
        if not self._composed:
            import yaml

            self._composed = True
            try:
                self._node = yamlio.compose(self.text)
            except (yaml.YAMLError, RecursionError, ValueError, TypeError):
                self._node = None
        return self._node


@dataclass
class Entry:
    """One validated entry of a pack, with the file and place it was read from."""

    model: BaseModel
    doc: PackDoc
    loc: tuple[str | int, ...]


def entry_key(kind: str, model: BaseModel) -> Any:
    """The key an entry of ``kind`` is merged under along ``extends`` (its id, mostly)."""
    if isinstance(model, CraftingEntry):
        return model.key
    if isinstance(model, CodexOmenEntry):
        return model.key
    if kind == "codex_outcomes":
        return model.number  # type: ignore[attr-defined]
    return str(model.id)  # type: ignore[attr-defined]


def build_content(rules: RulesConstants, chain: list[PackDir],
           entries: dict[str, dict[Any, Entry]]) -> Content:
    """The ``Content`` of a chain's merged entries."""
    def table(kind: str) -> dict[Any, Any]:
        return {key: entry.model for key, entry in entries[kind].items()}

    plain = {
        kind: MappingProxyType(table(kind)) for kind in KINDS
        if kind not in ("crafting", "codex_outcomes", "codex_omen_entries", "goals")
    }
    goals: dict[str, Goal] = table("goals")
    pack_counts: dict[str, dict[str, int]] = {pack.manifest.id: {} for pack in chain}
    for kind, found in entries.items():
        for entry in found.values():
            counts = pack_counts[entry.doc.pack_id]
            counts[kind] = counts.get(kind, 0) + 1
    items = plain["items"]
    return Content(
        rules=rules,
        packs=tuple(pack.manifest for pack in chain),
        goals=MappingProxyType({k: g for k, g in goals.items() if not g.set_aside}),
        set_aside_goals=Sealed({k: g for k, g in goals.items() if g.set_aside}, "goals"),
        crafting=CraftingTable(table("crafting"), items),
        codex=Codex(table("codex_outcomes"), table("codex_omen_entries")),
        pack_counts=MappingProxyType({k: MappingProxyType(v) for k, v in pack_counts.items()}),
        **plain,
    )
