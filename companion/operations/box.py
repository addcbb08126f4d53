"""The owner's box: a campaign whose content is the rules alone (the ``stonesaga-rules``
pack: rules.yaml with its readings, the rulebook's terrain features and technology
icons), the rulebook's two regions (the ``box`` pack) and the owner's own pack
(``box-mine``), which learns the box as it is played.

Nothing of the sample pack is in such a campaign, so a typed id is never resolved to a
card the group does not own: it is either in the owner's pack or typed in once. A deck
the owner's pack holds no card of yet is drawn at the table; every place that would draw
from it in app mode says so in game words (:func:`empty_deck_refusal`) and changes
nothing.
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
