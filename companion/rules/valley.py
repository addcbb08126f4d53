"""Tokens placed on hexes during a challenge: shelter, fire and lore.

Rulebook: Fire/Shelter Tokens; Tracks > Lore > Lore in the Valley; Continuing Play >
The Valley (only tiles and overlays stay between games).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from companion.rules.errors import IllegalAction
from companion.rules.ids import HexId
from companion.rules.society import Society, gain_lore


@dataclass(frozen=True)
class HexTokens:
    """Shelter, fire and lore tokens on the valley's hexes."""

    shelters: frozenset[HexId] = frozenset()
    """Hexes with a shelter token (until the end of the challenge)."""
    fires: frozenset[HexId] = frozenset()
    """Hexes with a fire token (removed at Tend Fire unless wood is spent)."""
    lore: Mapping[HexId, int] = field(default_factory=dict)
    """Lore tokens on each hex, collected by entering it."""


def place_shelter(tokens: HexTokens, hex: HexId) -> HexTokens:
    """Place a shelter token (e.g. Prepare Shelter)."""
    return replace(tokens, shelters=tokens.shelters | {hex})


def place_fire(tokens: HexTokens, hex: HexId) -> HexTokens:
    """Place a fire token."""
    return replace(tokens, fires=tokens.fires | {hex})


def place_lore(tokens: HexTokens, hex: HexId, count: int = 1) -> HexTokens:
    """An effect places lore tokens on a hex."""
    if count < 1:
        raise IllegalAction(f"place at least one lore token; got {count}")
    lore = dict(tokens.lore)
    lore[hex] = lore.get(hex, 0) + count
    return replace(tokens, lore=lore)


def collect_lore(tokens: HexTokens, society: Society, hex: HexId) -> tuple[HexTokens, Society]:
    """A character entering ``hex`` gains the lore tokens on it (Rulebook: Lore in the Valley)."""
    count = tokens.lore.get(hex, 0)
    if not count:
        return tokens, society
    lore = {h: n for h, n in tokens.lore.items() if h != hex}
    return replace(tokens, lore=lore), gain_lore(society, count)


def end_of_challenge(tokens: HexTokens) -> HexTokens:
    """At the end of a challenge fire, shelter and uncollected lore leave the valley."""
    del tokens
    return HexTokens()
