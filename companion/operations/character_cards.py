"""Traits and mantles typed at the table (Rulebook: Character Creation, Steps 2-3).

The rules pack offers the traits and mantles the rulebook names; a trait or mantle the
campaign does not know (a later printing's, a promo card's) is typed once where a
character is made, by its name, and remembered in the owner's own pack (``<pack>-mine``,
carried in the campaign file) through :func:`companion.operations.cards.enter_card`:
one undoable operation each. The GUI's New Character dialog and the wizard, and the
terminal's ``character create --new-trait/--new-mantle``, call the same functions.
"""

from __future__ import annotations

import re
from typing import Any

from companion.content import Content
from companion.operations.changes import Changes, Refused
from companion.operations.characters import known_id
from companion.operations.core import Campaign

WORDS = {"traits": "trait", "mantles": "mantle"}
"""The kinds typed here, in players' words."""

__all__ = ["WORDS", "add_mantle", "add_trait", "ensure", "known_id", "typed_entry"]


def _new_id(content: Content, kind: str, name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or WORDS[kind]
    taken: Any = getattr(content, kind)
    found, number = slug[:60], 2
    while found in taken:
        found, number = f"{slug[:56]}-{number}", number + 1
    return found


def typed_entry(content: Content, kind: str, name: str, text: str = "") -> dict[str, Any]:
    """A trait or mantle as the own pack writes it, from the name the card prints;
    Refused when the name is empty or already known."""
    if kind not in WORDS:
        raise Refused(f"Only traits and mantles are typed here, not {kind}.")
    name = " ".join(name.split())
    if not name:
        raise Refused(f"Type the {WORDS[kind]}'s name as your box prints it.")
    known = known_id(content, kind, name)
    if known is not None:
        entries: Any = getattr(content, kind)
        raise Refused(f"The app knows the {WORDS[kind]} {entries[known].name} already: "
                      "choose it from the list.")
    entry = {"id": _new_id(content, kind, name), "name": name}
    if text.strip():
        entry["text"] = " ".join(text.split())
    return entry


def add_trait(campaign: Campaign, *, name: str, text: str = "") -> Changes:
    """Enter a trait typed from the box into the owner's pack (``Changes.detail``: its
    id); Refused, changing nothing, when it is empty or known already."""
    from companion.operations.cards import enter_card

    return enter_card(campaign, kind="traits",
                      data=typed_entry(campaign.content, "traits", name, text))


def add_mantle(campaign: Campaign, *, name: str, text: str = "") -> Changes:
    """Enter a mantle typed from the box into the owner's pack (``Changes.detail``: its
    id); Refused, changing nothing, when it is empty or known already."""
    from companion.operations.cards import enter_card

    return enter_card(campaign, kind="mantles",
                      data=typed_entry(campaign.content, "mantles", name, text))


def ensure(campaign: Campaign, kind: str, name: str) -> str:
    """The id of the trait or mantle named ``name``: known, or entered now."""
    known = known_id(campaign.content, kind, name)
    if known is not None:
        return known
    changes = (add_trait if kind == "traits" else add_mantle)(campaign, name=name)
    return str(changes.detail)
