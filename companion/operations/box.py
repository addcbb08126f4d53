"""The owner's box: a campaign whose content is the rules alone (the ``stonesaga-rules``
pack: rules.yaml with its readings, the rulebook's terrain features and technology
icons), the rulebook's two regions (the ``box`` pack) and the owner's own pack
(``box-mine``), which learns the box as it is played.

Nothing of the sample pack is in such a campaign, so a typed id is never resolved to a
card the group does not own: it is either in the owner's pack or typed in once. A deck
the owner's pack holds no card of yet is drawn at the table; every place that would draw
from it in app mode says so in game words (:func:`empty_deck_refusal`) and changes
nothing. The app draws in the app only from a deck it holds whole
(:func:`deck_is_whole`): the owner's typed cards are a few of the box's deck, never all.
"""

from __future__ import annotations

from typing import Any

from companion.operations.changes import Refused

BOX_PACK = "box"
"""The shipped pack a "My own box" campaign is played with (extends the rules pack)."""
SAMPLE_PACK = "sample"
"""The shipped demo pack (invented cards and hexes, for learning the app)."""
RULES_PACK = "stonesaga-rules"
"""The one rules file's pack, which both extend."""

KIND_WORDS = {
    "box": "My own box — the app learns it as you play",
    "sample": "Sample campaign — invented cards and hexes, for learning the app",
    "pack": "Content pack",
}
"""A campaign's kind in the words the wizard, the status and the title use."""

SHORT_WORDS = {"box": "My own box", "sample": "Sample campaign", "pack": "Own content"}
"""The kind in a few words (the window title, the status bar)."""


def campaign_kind(content: Any) -> str:
    """``"box"`` for a campaign of the owner's box, ``"sample"`` for the sample pack's,
    else ``"pack"`` (a pack of the owner's making that extends the rules)."""
    ids = [str(p.id) for p in content.packs]
    if BOX_PACK in ids:
        return "box"
    if SAMPLE_PACK in ids:
        return "sample"
    return "pack"


_DECK_WORDS = {
    "forage_cards": "forage cards",
    "fishing_cards": "fishing cards",
    "delving_cards": "delving cards",
    "discovery_cards": "Discovery cards",
    "night_cards": "Night cards",
    "reaction_cards": "Reaction cards",
    "instinct_cards": "Instinct cards",
    "secret_cards": "Secret cards",
    "materials": "mining chips",
    "hexes": "hex tiles",
}


def empty_deck_refusal(kind: str, deck: str | None = None) -> Refused:
    """What to do when the app would draw from a deck the campaign's pack holds no card
    of: draw at the table and type it in ("Your pack has no forest forage cards yet:
    draw one from the box and type it")."""
    words = _DECK_WORDS.get(kind, kind.replace("_", " "))
    if deck:
        words = f"{deck} {words}"
    if kind == "materials":
        return Refused(f"Your pack knows no {words} for this feature yet: draw one from "
                       "the bag at the table and type it.")
    return Refused(f"Your pack has no {words} yet: draw one from the box and type it.")


def deck_is_whole(content: Any, kind: str) -> bool:
    """Whether the app holds the deck ``kind`` (``night_cards``, ``discovery_cards`` ...)
    whole, every card of it, and may draw from it in the app: some pack the campaign
    plays with declares it in its ``pack.yaml`` (``whole_decks``; the sample declares
    all of its decks). A deck of the owner's box is held only as the cards the group
    typed so far: it is drawn at the table, and the app never shuffles or draws it."""
    return any(kind in getattr(pack, "whole_decks", ()) for pack in content.packs)


def not_whole_refusal(kind: str) -> Refused:
    """Why the app does not draw from a deck it does not hold whole, in game words."""
    words = _DECK_WORDS.get(kind, kind.replace("_", " "))
    return Refused(f"The app holds only the {words} you typed, not your box's whole deck, "
                   f"so it cannot draw one: draw it from the box and type it (a card the "
                   "app knows is picked by its id or name).")


AT_THE_TABLE = (" Or play it at the table and type what it gave (At the table…; in the "
                "terminal, act … --at-table).")
"""How an activity the pack cannot lay out yet is played anyway (table_activity)."""


def missing_deck(content: Any, action: str, feature: str) -> Refused | None:
    """Why a feature action cannot begin because the pack lacks what it draws (my own
    box, before the table typed any such card): None when it can begin. ``action`` is
    the feature action's value (forage, fish, mine, delve)."""
    info = content.features.get(feature)
    if info is None:
        return None
    words = str(info.name).lower()
    if action == "forage":
        spec = next((a for a in info.actions if a.action.value == "forage"), None)
        deck = str(spec.deck) if spec is not None and spec.deck else feature
        cards = [c for c in content.forage_cards.values() if str(c.deck) == deck]
        if len(cards) < 2:  # Foraging, step 1: two cards are drawn
            return Refused(f"Your pack has {len(cards) or 'no'} {deck} forage card"
                           f"{'' if len(cards) == 1 else 's'} yet; foraging draws two: "
                           "enter the cards you draw from the box (Content ▸ My Cards, "
                           "or 'companion content add-card') and forage again." + AT_THE_TABLE)
    if action == "fish":
        return _fishing_missing(content, info, words)
    if action == "mine" and not info.mining_chips:
        return Refused(f"Your pack knows no mining chips for the {words} yet: mine at the "
                       "table with the box's bag, and enter the chips (Content ▸ My Cards) "
                       "to mine here in the app." + AT_THE_TABLE)
    if action == "delve" and not content.delving_cards:
        return Refused(f"{empty_deck_refusal('delving_cards')}{AT_THE_TABLE}")
    return None


def _fishing_missing(content: Any, info: Any, words: str) -> Refused | None:
    """Why fishing at ``info`` cannot begin in words (Fishing: a stock, a water and an
    outcome card are drawn; the feature's bonus and mishap, D15), or None."""
    cards = len(content.fishing_cards)
    if not cards:
        return Refused("Your pack has no fishing cards yet: enter them from the box "
                       "(Content ▸ My Cards) to fish here." + AT_THE_TABLE)
    if info.fishing is None:
        return Refused(f"Your pack does not know yet what fishing at the {words} gives "
                       f"and costs: enter the {words} with its fishing bonus and mishap "
                       "(Content ▸ My Cards) to fish here." + AT_THE_TABLE)
    if cards < 3:
        return Refused(f"Your pack has {cards} fishing card{'' if cards == 1 else 's'} "
                       "yet; fishing draws three (stock, water, outcome): enter the cards "
                       "you draw from the box (Content ▸ My Cards) and fish again." + AT_THE_TABLE)
    return None
