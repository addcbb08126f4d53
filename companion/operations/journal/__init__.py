"""The journal's sections (Rulebook: Using the Journal; Continuing Play): what each one
holds, the operations that write them, and one search over everything.

Sections and their rows:

- **Challenge Log**: ``challenge_log_entry`` (per epoch: challenge, characters, the
  outcome entry read at the end);
- **Culture**: the society's lore, ``culture_ability`` and ``mantle_power`` rows, and
  three free lists. The free lists are ``note_page`` rows whose ``title`` is
  ``"culture:<list>"`` (``culture:taboos``, ``culture:pigments``, ``culture:knowledge``),
  one entry per row, ``text`` the entry and ``position`` its order. They are *not*
  ``culture_ability`` rows: the rules read every culture ability as one the society has;
- **Outposts**: ``outpost`` + ``outpost_structure``;
- **Valley Map**: the journal grid of hex IDs (``rules.exploration.journal_grid``);
- **Behemoths**: ``behemoth_state``;
- **Decks**: ``deck_change`` (persistent additions and removals);
- **Primal Cave Wall**: ``cave_wall_illustration`` (a PNG and its marks);
- **Legends**: ``legend`` (``succeeded_by_id`` makes the lineage);
- **Entries**: free-text journal events (kind ``journal.entry``/``note``) with author;
- **History**: every other journal event.

Every write is one ``Campaign.write`` (one transaction, one journal event), so undo
reverts it like any operation.

The journal is a package, one module per part of the book: ``book`` (the sections and
their lines), ``society_pages`` (Challenge Log, Culture), ``valley_pages`` (Outposts, Valley
Map, Behemoths), ``record_pages`` (Notes, Decks, Primal Cave Wall, Legends, Entries,
History) and ``searching``. Every name is importable from here.
"""

from __future__ import annotations

from companion.operations.journal.book import (
    CULTURE_LISTS,
    ENTRY_KINDS,
    HISTORY_HIDDEN,
    MAX_IMAGE_BYTES,
    MAX_IMAGE_SIDE,
    SECTIONS,
    BehemothLine,
    CaveWallLine,
    ChallengeLine,
    CultureEntry,
    CulturePage,
    DeckChangeLine,
    EntryLine,
    LegendLine,
    NoteLine,
    OutpostLine,
    SearchHit,
)
from companion.operations.journal.record_pages import (
    DECK_CHANGES,
    add_cave_wall_illustration,
    add_deck_change,
    cave_wall,
    cave_wall_image,
    cave_wall_strokes,
    codex_entries_read,
    crafting_codes,
    deck_changes,
    edit_cave_wall_illustration,
    edit_deck_change,
    entries,
    history,
    legends,
    lineages,
    note_pages,
    omen_investigations,
    prepare_image,
    remove_cave_wall_illustration,
    remove_deck_change,
    write_entry,
)
from companion.operations.journal.searching import (
    search,
)
from companion.operations.journal.society_pages import (
    KEPT_MANTLE_POWERS,
    WEB_WORDS,
    add_culture_entry,
    challenge_log,
    culture,
    edit_culture_entry,
    record_outcome,
    remove_culture_entry,
    set_challenge_characters,
)
from companion.operations.journal.valley_pages import (
    behemoths,
    outposts,
    valley_map,
)
from companion.operations.webjournal_entries import CULTURE_PREFIX as CULTURE_PREFIX
from companion.operations.webjournal_entries import DEMEANOR_LINE as DEMEANOR_LINE

__all__ = [
    "add_cave_wall_illustration", "add_culture_entry", "add_deck_change", "BehemothLine",
    "behemoths", "cave_wall", "cave_wall_image", "cave_wall_strokes", "CaveWallLine",
    "challenge_log", "ChallengeLine", "codex_entries_read", "crafting_codes", "culture",
    "CULTURE_LISTS", "CULTURE_PREFIX", "CultureEntry", "CulturePage", "DECK_CHANGES",
    "deck_changes", "DeckChangeLine", "DEMEANOR_LINE", "edit_cave_wall_illustration",
    "edit_culture_entry", "edit_deck_change", "entries", "ENTRY_KINDS", "EntryLine", "history",
    "HISTORY_HIDDEN", "KEPT_MANTLE_POWERS", "LegendLine", "legends", "lineages", "MAX_IMAGE_BYTES",
    "MAX_IMAGE_SIDE", "note_pages", "NoteLine", "omen_investigations", "OutpostLine", "outposts",
    "prepare_image", "record_outcome", "remove_cave_wall_illustration", "remove_culture_entry",
    "remove_deck_change", "search", "SearchHit", "SECTIONS", "set_challenge_characters",
    "valley_map", "WEB_WORDS", "write_entry",
]
