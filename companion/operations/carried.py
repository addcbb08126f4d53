"""The owner's cards a campaign carries: the ``own_card`` rows of its file.

A card of the owner's own pack (``<pack>-mine`` in the user's data folder) that a
campaign plays with is copied into the campaign file, in the transaction of the
operation that enters it or first plays with it, so undo, backups and exports carry it
(DESIGN.md > The owner's box: the cards a campaign uses travel inside its file). This
module is the rows' side only (no content loading): :func:`carry` runs at the end of
every :meth:`Campaign.write <companion.operations.core.Campaign.write>`;
``companion.operations.cards`` builds the content from the pack and these rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from companion.operations.changes import Changes, Refused
from companion.store import models

CardKey = tuple[str, str, str]
"""(pack id, kind, card id)."""


@dataclass(frozen=True)
class OwnCardCopy:
    """One card of a user pack, as a campaign carries it (or would)."""

    pack_id: str
    kind: str
    card_id: str
    data: Mapping[str, Any] = field(compare=False)
    """The entry as a pack file holds it (``user_pack.clean_entry``)."""
    digest: str
    """``user_pack.card_digest(data)``: tells one version of the card from another."""
    pack_version: str = field(default="", compare=False)

    @property
    def key(self) -> CardKey:
        return (self.pack_id, self.kind, self.card_id)

    @property
    def name(self) -> str:
        """The card's name, or its id when it has none."""
        return str(self.data.get("name") or self.card_id)

    @classmethod
    def of_row(cls, row: models.OwnCard) -> OwnCardCopy:
        data = row.data if isinstance(row.data, dict) else {}
        return cls(str(row.pack_id), str(row.kind), str(row.card_id), dict(data),
                   str(row.digest), str(row.pack_version))


def carried(session: Session) -> dict[CardKey, OwnCardCopy]:
    """Every card the campaign carries, by key (the first row of a key wins)."""
    found: dict[CardKey, OwnCardCopy] = {}
    for row in session.exec(select(models.OwnCard).order_by(col(models.OwnCard.id))).all():
        copy = OwnCardCopy.of_row(row)
        found.setdefault(copy.key, copy)
    return found


def row_of(session: Session, key: CardKey) -> models.OwnCard | None:
    pack_id, kind, card_id = key
    return session.exec(select(models.OwnCard).where(
        models.OwnCard.pack_id == pack_id, models.OwnCard.kind == kind,
        models.OwnCard.card_id == card_id).order_by(col(models.OwnCard.id))).first()


def put(session: Session, card: OwnCardCopy) -> None:
    """Carry ``card``: a new row, or this version in place of the one carried."""
    row = row_of(session, card.key)
    if row is None:
        session.add(models.OwnCard(pack_id=card.pack_id, kind=card.kind,
                                   card_id=card.card_id, data=dict(card.data),
                                   digest=card.digest, pack_version=card.pack_version))
    elif row.digest != card.digest:
        row.data = dict(card.data)
        row.digest = card.digest
        row.pack_version = card.pack_version


def carry(session: Session, cards: Iterable[OwnCardCopy]) -> list[OwnCardCopy]:
    """Carry each of ``cards`` the file does not carry yet (a card it carries in another
    version keeps that version: the campaign plays with what it played with). Returns
    the cards added."""
    wanted = list(cards)
    if not wanted:
        return []
    have = {(str(p), str(k), str(c)) for p, k, c in session.exec(select(
        models.OwnCard.pack_id, models.OwnCard.kind, models.OwnCard.card_id)).all()}
    added = [card for card in wanted if card.key not in have]
    for card in added:
        put(session, card)
    return added


# --- a campaign from before schema 3 ------------------------------------------------------


def needs_carrying(campaign: Any) -> bool:
    """Whether ``campaign`` (an open :class:`~companion.operations.core.Campaign`) plays
    with cards of a user pack its file carries none of (it was made before schema 3, or
    the pack was filled outside it)."""
    if not campaign.own_cards:
        return False
    with campaign.file.read() as session:
        packs_carried = {key[0] for key in carried(session)}
    return any(key[0] not in packs_carried for key in campaign.own_cards)


def carry_now(campaign: Any) -> Changes:
    """Carry, in one operation, the cards of the owner's packs the campaign plays with
    and its file does not carry yet (a campaign from before schema 3: run when it is
    migrated, and by the GUI when it opens one). Refused when there are none."""
    with campaign.file.read() as session:
        have = set(carried(session))
    waiting = [c for key, c in campaign.own_cards.items() if key not in have]
    if not waiting:
        raise Refused("The campaign already carries every card of your pack it plays with.")
    count = f"{len(waiting)} card" + ("" if len(waiting) == 1 else "s")
    text = (f"The campaign now carries {count} of your own pack, so its backups and exports "
            "keep them")
    with campaign.write("content.carry", text) as session:  # the write carries them
        session.info["journal_text"] = text
    return Changes(summary=text, journal=True)
