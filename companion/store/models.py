"""Every table of a campaign file (sqlmodel): the face of the store's table modules.

What the rulebook says persists between games (Continuing Play; Using the Journal), plus
what a game in progress needs to resume (decks, random state, a procedure mid-way).

The tables the campaign is shown from (:mod:`companion.store.shown_tables`) are declared
when this module is imported; the others (:mod:`companion.store.later_tables`), with
:data:`GAME_TABLES`, :data:`HISTORY_TABLES` and :data:`ALL_TABLES`, when one of them is
first asked for here (``models.ChallengeLogEntry``). The conventions every table keeps are
in :mod:`companion.store.table_base`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.store.shown_tables import (
    BehemothState,
    Campaign,
    Character,
    CultureAbility,
    DeckState,
    HexToken,
    JournalEvent,
    Legend,
    MantlePower,
    Outpost,
    OutpostStructure,
    Overlay,
    OwnCard,
    ProcedureState,
    Society,
    ValleyHex,
    ValleyTray,
)
from companion.store.table_base import StoreTable, json_column, table_of, utcnow

if TYPE_CHECKING:
    from companion.store.later_tables import (
        ALL_TABLES,
        GAME_TABLES,
        HISTORY_TABLES,
        CaveWallIllustration,
        ChallengeLogEntry,
        CodeRecord,
        CodexEntryRead,
        DeckChange,
        GoalState,
        LoomingChallenge,
        NotePage,
        OmenInvestigation,
        RetainedSupply,
        RngState,
        SavePoint,
        WebJournalLink,
    )

LATER_NAMES = frozenset({
    "ALL_TABLES", "GAME_TABLES", "HISTORY_TABLES", "CaveWallIllustration",
    "ChallengeLogEntry", "CodeRecord", "CodexEntryRead", "DeckChange", "GoalState",
    "LoomingChallenge", "NotePage", "OmenInvestigation", "RetainedSupply", "RngState",
    "SavePoint", "WebJournalLink",
})
"""The names :mod:`companion.store.later_tables` holds, declared when first used."""


def __getattr__(name: str) -> Any:
    """Declare the later tables on first use of one of them, and keep the name here."""
    if name in LATER_NAMES:
        from companion.store import later_tables

        globals()[name] = value = getattr(later_tables, name)
        return value
    raise AttributeError(f"module 'companion.store.models' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *LATER_NAMES})


__all__ = [
    "ALL_TABLES", "GAME_TABLES", "HISTORY_TABLES", "BehemothState", "Campaign",
    "CaveWallIllustration", "ChallengeLogEntry", "Character", "CodeRecord", "CodexEntryRead",
    "CultureAbility", "DeckChange", "DeckState", "GoalState", "HexToken", "JournalEvent",
    "Legend", "LoomingChallenge", "MantlePower", "NotePage", "OmenInvestigation", "Outpost",
    "OutpostStructure", "Overlay", "OwnCard", "ProcedureState", "RetainedSupply", "RngState",
    "SavePoint", "Society", "StoreTable", "ValleyHex", "ValleyTray", "WebJournalLink",
    "json_column", "table_of", "utcnow",
]
