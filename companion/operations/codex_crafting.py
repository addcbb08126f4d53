"""Crafting from the owner's Codex (issue 36 item 1; Rulebook: Processing & Crafting >
Crafting Items; Using the Codex > Crafting Entries).

A "My own box" campaign plays with the rules and the owner's own pack, not the box's
Codex. When two tokens read a code the own pack has not remembered yet, Craft asks what
the owner's Codex says for it, as a Codex outcome is typed once
(:mod:`companion.operations.codex_outcomes`):

- an item: its name, its kind (the slot it takes: hand, body or gear) and what it does,
  typed once (or an item the pack knows already, by name or id);
- a dead end: the entry makes nothing (what it says of the two tokens, if it does);
- no entry: the Codex has none for this code.

:func:`craft_from_codex` remembers the answer in the owner's pack (a crafting entry
keyed by its code, with the new item card when there is one; both carried in the
campaign file like every own card) and then crafts, in ONE undoable operation: the
Craft action's energy is spent only now that the outcome is known, the item is gained
and both tokens used up, or, for no entry, nothing is crafted and the tokens go back
(the rules file's ``crafting.consume_on_no_entry``). The next time the code is laid,
it is simply known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.rules.crafting import CraftingCode

SLOTS = ("hand", "body", "gear")
"""An item's kind: the slot it takes on a mantle (Rulebook: Mantle > Item Slots)."""


@dataclass(frozen=True)
class CodexSays:
    """What the owner's Codex says for a crafting code, as read at the table."""

    item: str = ""
    """The item it makes: its name as printed, or the id or name of an item the pack
    knows ("" for a dead end or no entry)."""
    slot: str = ""
    """A new item's kind: hand, body or gear."""
    text: str = ""
    """What the new item does (its card's text), or a dead end's words."""
    card: str = ""
    """The new item card's id as printed (e.g. IT29); "" makes one from its name."""
    dead_end: bool = False
    """The entry makes nothing."""
    no_entry: bool = False
    """The Codex has no entry for this code."""

    @classmethod
    def parse(cls, text: str) -> CodexSays:
        """``"Bone Needle; gear; +1 to sewing"`` (name; kind; what it does), ``"Stone
        Knife"`` (an item the pack knows), ``"dead end; the cords slip"`` or ``"no
        entry"``: the terminal's ``--codex-says``."""
        parts = [" ".join(p.split()) for p in text.split(";")]
        head = parts[0].casefold() if parts else ""
        if head in ("no entry", "none", "no-entry"):
            return cls(no_entry=True)
        if head in ("dead end", "dead-end", "nothing"):
            return cls(dead_end=True, text="; ".join(parts[1:]))
        if not parts or not parts[0]:
            raise Refused("Say what the Codex says: 'NAME; SLOT; WHAT IT DOES' for an item, "
                          "'dead end; ITS WORDS' or 'no entry'.")
        card = ""
        if len(parts) > 3:
            card = parts[3]
        return cls(item=parts[0], slot=parts[1] if len(parts) > 1 else "",
                   text=parts[2] if len(parts) > 2 else "", card=card)

    def words(self) -> str:
        """The answer in a few words, for the journal."""
        if self.no_entry:
            return "no entry"
        if self.dead_end:
            return "a dead end"
        return self.item


def find_item(campaign: Campaign, typed: str) -> str | None:
    """The id of the item of the campaign's content ``typed`` names (its id or its name,
    any case, spaces and hyphens alike), or None."""
    def key(text: str) -> str:
        return re.sub(r"[\s_-]+", "", text).casefold()

    wanted = key(typed)
    for item_id, item in campaign.content.items.items():
        if wanted in (key(str(item_id)), key(item.name)):
            return str(item_id)
    return None


def _item_id(campaign: Campaign, name: str, card: str) -> str:
    if card:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", card):
            raise Refused(f"An item card's id is letters and digits as printed (e.g. IT29); "
                          f"not '{card}'.")
        if card in campaign.content.items:
            raise Refused(f"Your pack has an item {card} already "
                          f"({campaign.content.items[card].name}).")
        return card
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60] or "item"
    found, number = slug, 2
    while found in campaign.content.items:
        found, number = f"{slug[:56]}-{number}", number + 1
    return found


def new_item(campaign: Campaign, *, name: str, slot: str, text: str = "",
             card: str = "") -> dict[str, Any]:
    """An item card typed at the table, as the owner's pack writes it (Refused in the
    card's words when its name or kind is missing)."""
    name = " ".join(name.split())
    if not name:
        raise Refused("An item needs its name, as its card shows it.")
    kind = slot.strip().casefold()
    if kind not in SLOTS:
        raise Refused(f"Say the kind of the item {name}: the slot it takes, "
                      f"{', '.join(SLOTS)}" + (f"; not '{slot}'." if slot.strip() else "."))
    data: dict[str, Any] = {"id": _item_id(campaign, name, card.strip()), "name": name,
                            "slot": kind}
    if text.strip():
        data["text"] = " ".join(text.split())
    return data


def entries_for(campaign: Campaign, code: CraftingCode, says: CodexSays
                ) -> dict[str, list[dict[str, Any]]]:
    """What the owner's pack remembers of ``code`` from ``says``: kind -> entries (the
    crafting entry, and the item card when the item is new)."""
    entry: dict[str, Any] = {"colour": code.colour.value, "code": code.digits}
    items: list[dict[str, Any]] = []
    if says.no_entry:
        entry["no_entry"] = True
    elif says.dead_end:
        entry["dead_end"] = True
        if says.text.strip():
            entry["text"] = " ".join(says.text.split())
    else:
        known = find_item(campaign, says.item) if not says.slot.strip() else None
        if known is None:
            if not says.slot.strip() and says.item.strip():
                raise Refused(f"Your pack does not know the item {says.item.strip()} yet: "
                              f"say its kind ({', '.join(SLOTS)}) and what it does, typed "
                              "once.")
            item = new_item(campaign, name=says.item, slot=says.slot, text=says.text,
                            card=says.card)
            items.append(item)
            known = str(item["id"])
        entry["item"] = known
    return {"items": items, "crafting": [entry]}


def craft_from_codex(campaign: Campaign, *, name: str, left: int, left_rotation: int,
                     right: int, right_rotation: int, says: CodexSays) -> Changes:
    """Craft with what the owner's Codex says for the code the tokens read (a code the
    own pack has not remembered yet): the answer is remembered in the owner's pack,
    then the Craft action is taken with it, in one undoable operation.

    Refused, changing nothing, when Craft would be (no energy, tokens that do not
    combine, an activity in progress), when the code is remembered already (craft it
    plainly), or when the answer is incomplete (a new item's name and kind).
    """
    from companion.operations.campaign_packs import CampaignContent, record_packs
    from companion.operations.cards import write_own_cards
    from companion.operations.carried import put
    from companion.operations.crafting import craft_laid, laid_code, owners_word_needed

    laid: dict[str, Any] = {"name": name, "left": left, "left_rotation": left_rotation,
                            "right": right, "right_rotation": right_rotation}
    code = laid_code(campaign, **laid)
    if campaign.kind != "box":
        raise Refused("This campaign plays with its pack's own Codex: craft as it is "
                      "(the Codex's word is asked only in a My own box campaign).")
    if not owners_word_needed(campaign, code):
        raise Refused(f"{code.label} is known already in this campaign's Codex: craft it "
                      "as it is (without saying what the Codex says).")
    copies = write_own_cards(campaign, entries_for(campaign, code, says))
    before = CampaignContent.of(campaign)
    try:
        with campaign.write("craft", "craft", codex_says=says.words(), code=str(code)
                            ) as session:
            from companion.operations.campaign_packs import rebuild_content

            for copy in copies:
                put(session, copy)
            rebuild_content(campaign, session)
            record_packs(session, campaign.content)
            text, outcome = craft_laid(campaign, session, **laid)
            text += " (Read in your Codex; remembered in your own pack.)"
            session.info["journal_text"] = text
    except Refused:
        before.apply(campaign)
        _forget(campaign, copies)
        raise
    return Changes(summary=text, characters=True, journal=True, detail=outcome)


def _forget(campaign: Campaign, copies: list[Any]) -> None:
    """The pack keeps no answer the campaign did not take (as a Codex outcome's)."""
    import contextlib

    from companion.content import ContentError
    from companion.content import user_pack as packs

    for copy in reversed(copies):  # the crafting entry before the item it names
        pack = packs.find_user_pack(copy.pack_id)
        if pack is None:
            continue
        with contextlib.suppress(ContentError):
            packs.delete_card(pack.folder, copy.kind, copy.card_id,
                              extra_dirs=campaign.extra_content)
