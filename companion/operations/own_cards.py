"""The owner's cards a campaign carries, seen from this computer: what its file carries
that this data folder's pack lacks or holds in another version, and the operations that
bring the two together (the GUI's offer when a campaign opens, ``companion content
adopt``, and ``status``).

The cards travel in the file (``companion.operations.carried``); the content is built
from the pack with the carried cards over it (``cards.campaign_content``), so a campaign
opened on another computer plays with every card it used. A card edited in one place
and not the other: the campaign keeps the version it played with; to play with this
computer's version, edit the card in My Cards (or enter it again) with the campaign open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.content import ContentError
from companion.content import user_pack as packs
from companion.operations.campaign_packs import rebuild_content
from companion.operations.carried import OwnCardCopy, carried, carry_now, needs_carrying
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.store import models

__all__ = ["CarriedCard", "CarriedReport", "adopt_cards", "carried_report", "carry_now",
           "needs_carrying"]


@dataclass(frozen=True)
class CarriedCard:
    """One carried card, in players' words."""

    kind: str
    """The component kind (``fishing_cards``)."""
    word: str
    """The kind in players' words ("fishing card")."""
    card_id: str
    name: str
    pack: str
    """The user pack it belongs to."""

    @property
    def shown(self) -> str:
        """"fishing card FX90 (Moonfish)"."""
        name = f" ({self.name})" if self.name and self.name != self.card_id else ""
        return f"{self.word} {self.card_id}{name}"


@dataclass(frozen=True)
class CarriedReport:
    """The cards a campaign carries, against this computer's pack."""

    carried: int
    """How many cards the file carries."""
    missing: tuple[CarriedCard, ...]
    """Carried cards this computer's pack lacks (played with all the same)."""
    edited: tuple[CarriedCard, ...]
    """Carried cards this computer's pack holds in another version (the campaign keeps
    the version it played with)."""

    def lines(self, path: str = "FILE") -> list[str]:
        """What to tell the player, one sentence a line ([] when all agree)."""
        said = []
        if self.missing:
            said.append(f"This campaign carries {_count(self.missing)} your pack on this "
                        f"computer lacks, and plays with them: "
                        + ", ".join(c.shown for c in self.missing)
                        + f". Add them to your pack with 'companion content adopt {path}' "
                        "(Content > My Cards).")
        if self.edited:
            said.append(f"{_count(self.edited, 'is', 'are').capitalize()} different in "
                        "your pack on this computer; the campaign keeps the version it "
                        "played with: " + ", ".join(c.shown for c in self.edited)
                        + ". To play with this computer's version, edit the card in My "
                        "Cards with the campaign open.")
        return said


def _count(cards: Sequence[CarriedCard], one: str = "", many: str = "") -> str:
    noun = "card" if len(cards) == 1 else "cards"
    verb = (one if len(cards) == 1 else many)
    return f"{len(cards)} {noun}" + (f" {verb}" if verb else "")


def _card(copy: OwnCardCopy) -> CarriedCard:
    return CarriedCard(copy.kind, packs.kind_word(copy.kind), copy.card_id, copy.name,
                       copy.pack_id)


def carried_report(campaign: Campaign) -> CarriedReport:
    """The cards ``campaign`` carries, and those this computer's pack lacks or holds in
    another version (as found when its content was last built)."""
    with campaign.file.read() as session:
        count = len(carried(session))
    return CarriedReport(count, tuple(_card(c) for c in campaign.cards_missing),
                         tuple(_card(c) for c in campaign.cards_edited))


def adopt_cards(campaign: Campaign, *, edited: bool = False) -> Changes:
    """Add the cards the campaign carries that this computer's pack lacks to that pack
    (created if missing), so other campaigns here know them too; with ``edited``, also
    write the campaign's version over this pack's for the cards edited here. One
    operation (the campaign records the pack versions); the pack's files are the user's
    and stay when it is undone. Refused when there is nothing to add."""
    wanted = [*campaign.cards_missing, *(campaign.cards_edited if edited else ())]
    if not wanted:
        raise Refused("Your pack on this computer already has every card this campaign "
                      "carries." + (" Some are different here: add --edited to write the "
                                    "campaign's versions over them."
                                    if campaign.cards_edited else ""))
    by_pack: dict[str, list[OwnCardCopy]] = {}
    for card in wanted:
        by_pack.setdefault(card.pack_id, []).append(card)
    added: list[str] = []
    problems: list[str] = []
    for pack_id, cards in by_pack.items():
        manifest = next((p for p in campaign.content.packs if p.id == pack_id), None)
        try:
            pack = packs.find_user_pack(pack_id) or packs.create_pack(
                pack_id, manifest.name if manifest else f"My cards ({pack_id})",
                extends=(manifest.extends if manifest and manifest.extends
                         else pack_id.removesuffix(packs.OWN_SUFFIX)))
        except (ContentError, OSError) as exc:
            problems.append(f"{pack_id}: {exc}")
            continue
        have = packs.pack_cards(pack.folder)
        for card in cards:
            replace = card.card_id if (card.kind, card.card_id) in have else None
            try:
                packs.add_card(pack.folder, card.kind, dict(card.data), replace=replace,
                               extra_dirs=campaign.extra_content)
            except ContentError as exc:
                problems.append(f"{_card(card).shown}: "
                                + "; ".join(i.message for i in exc.issues))
                continue
            except OSError as exc:
                problems.append(f"{_card(card).shown}: {exc}")
                continue
            added.append(_card(card).shown)
    if not added:
        raise Refused("No card could be added to your pack:\n  " + "\n  ".join(problems))
    text = "Added to your pack on this computer: " + ", ".join(added)
    with campaign.write("content.adopt", text) as session:
        rebuild_content(campaign, session)
        row = session.get(models.Campaign, 1)
        if row is not None:
            row.content_packs = [{"id": p.id, "version": str(p.version)}
                                 for p in campaign.content.packs]
        session.info["journal_text"] = text
    summary = text + (". Not added:\n  " + "\n  ".join(problems) if problems else "")
    return Changes(summary=summary, journal=True, everything=True)
