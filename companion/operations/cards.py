"""Cards the table draws that the campaign's content lacks, entered into its own pack.

The owner plays with the real box beside the app; a card drawn at the table may not be
in the campaign's content. Here:

- :func:`enter_card` writes a new card into the campaign's own user pack (created on
  first use, extending the campaign's pack), reloads the content, records the pack
  versions the campaign now uses, and gives the card to the procedure in progress, so
  the step goes on with it.
- :func:`reload_content` takes in changes made to the user's packs (the My cards
  window) without restarting.

Reading a typed card (by id or name) and refusing an unknown one is
``operations.typed_cards``; its names are also importable from here, where the screens
and the terminal have always found them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlmodel import Session, select

from companion.content import ContentError
from companion.content import user_pack as packs
from companion.operations import procedures
from companion.operations.behemoth import behemoth_rows
from companion.operations.campaign_packs import CampaignContent as CampaignContent
from companion.operations.campaign_packs import campaign_content as campaign_content
from companion.operations.campaign_packs import rebuild_content as rebuild_content
from companion.operations.campaign_packs import record_packs
from companion.operations.carried import OwnCardCopy
from companion.operations.changes import Changes, MissingFromPack, Refused, missing_materials_hint
from companion.operations.core import NIGHT_DECK, Campaign
from companion.operations.procedure_row import procedure_row
from companion.operations.typed_cards import PROCEDURE_CARD_KINDS as PROCEDURE_CARD_KINDS
from companion.operations.typed_cards import UnknownCard as UnknownCard
from companion.operations.typed_cards import card_kind as card_kind
from companion.operations.typed_cards import card_names as card_names
from companion.operations.typed_cards import is_known as is_known
from companion.operations.typed_cards import pack_names as pack_names
from companion.operations.typed_cards import resolve_card_id as resolve_card_id
from companion.operations.typed_cards import resolve_typed as resolve_typed
from companion.operations.typed_cards import teach
from companion.operations.typed_cards import unknown_card as unknown_card
from companion.store import models

# --- entering a card ------------------------------------------------------------------------


def content_error(exc: ContentError, word: str, kind: str) -> Refused:
    """Each problem as ``field.path: why`` (the card's own fields; a problem elsewhere
    in the pack keeps its ``file:line``)."""
    import re

    lines = []
    for issue in exc.issues:
        inside = re.sub(rf"^{re.escape(kind)}\.\d+\.?", "", issue.path)
        if issue.line is None or inside != issue.path:
            lines.append(f"  {inside or 'card'}: {issue.message}")
        else:
            lines.append(f"  {issue}")
    # A material the card names that the pack does not know yet (issue 36 item 2): its
    # token is entered on the spot, then the card again.
    materials = tuple(dict.fromkeys(
        m[1] for i in exc.issues
        if (m := re.fullmatch(r"no material, food or water with id '(.+)'", i.message))))
    if materials:
        return MissingFromPack(f"The {word} was not saved:\n" + "\n".join(lines) + "\n"
                               + missing_materials_hint(materials), materials=materials)
    return Refused(f"The {word} was not saved:\n" + "\n".join(lines))


def enter_card(campaign: Campaign, *, kind: str, data: Mapping[str, Any],
               replace_id: str | None = None) -> Changes:
    """Write the card ``data`` of ``kind`` into the campaign's own pack and play on
    with it: the content is reloaded, the campaign records the pack versions it now
    uses and carries the card in its file (this version of it), and a procedure in
    progress that draws this kind of card gets it (it can be drawn at once).
    ``replace_id`` edits a card of that pack instead.

    Refused, naming each field and why, if the card does not validate (or would break
    the pack); then nothing is written.
    """
    word = packs.kind_word(kind)
    own, card, copy = write_own_card(campaign, kind, data, replace_id=replace_id)
    card_id = copy.card_id
    name = str(getattr(card, "name", "") or "")
    shown = f"{card_id} ({name})" if name else card_id
    before = CampaignContent.of(campaign)
    try:
        with campaign.write("content.card", f"entered the {word} {shown}") as session:
            carry_own_card(campaign, session, copy, replace_id=replace_id)
            learned = _teach_procedure(campaign, session, kind, card_id)
            if kind == "night_cards" and not learned:
                _add_to_night_deck(session, card_id)
            if kind == "reaction_cards" and not learned:
                _add_to_reaction_deck(session, card_id, str(getattr(card, "behemoth", "")))
            text = f"Entered the {word} {shown} into {own.manifest.name}"
            session.info["journal_text"] = text
    except Refused:
        before.apply(campaign)
        raise
    return Changes(summary=text, procedure=True, journal=True, detail=card_id)


def write_own_card(campaign: Campaign, kind: str, data: Mapping[str, Any], *,
                   replace_id: str | None = None) -> tuple[packs.UserPack, Any, OwnCardCopy]:
    """Write ``data`` (an entry of ``kind``) into the campaign's own pack (created with
    its first entry): (the pack, the entry, the copy the campaign file will carry).
    Refused, naming each field and why, if it does not validate or would break the
    pack; then nothing is written."""
    word = packs.kind_word(kind)
    try:
        # The own pack is created with its first card, never by a refused one.
        own = packs.own_pack_for(campaign.content.packs, create=False)
        card = packs.add_cards(own, kind, [dict(data)], replace=replace_id,
                               extra_dirs=campaign.extra_content)[0]
    except ContentError as exc:
        raise content_error(exc, word, kind) from exc
    except OSError as exc:
        raise Refused(f"The {word} could not be written: {exc}") from exc
    entry = packs.clean_entry(kind, card.model_dump(mode="json"))
    card_id = packs.entry_id(kind, entry) or ""
    pack = packs.find_user_pack(own.manifest.id)
    copy = OwnCardCopy(own.manifest.id, kind, card_id, entry, packs.card_digest(entry),
                       str(pack.manifest.version) if pack else "")
    return own, card, copy


def write_own_cards(campaign: Campaign, sets: Mapping[str, Sequence[Mapping[str, Any]]]
                    ) -> list[OwnCardCopy]:
    """Write entries of several kinds (kind -> entries) into the campaign's own pack
    at once, all of them or none (a crafting entry and the new item it names): the
    copies the campaign file will carry. Refused, naming each field and why, as
    :func:`write_own_card`; then nothing is written."""
    kinds = [kind for kind, cards in sets.items() if cards]
    try:
        own = packs.own_pack_for(campaign.content.packs, create=False)
        written = packs.add_card_sets(own, {k: [dict(c) for c in sets[k]] for k in kinds},
                                      extra_dirs=campaign.extra_content)
    except ContentError as exc:
        raise content_error(exc, " and ".join(map(packs.kind_word, kinds)),
                            kinds[0]) from exc
    except OSError as exc:
        raise Refused(f"Your pack could not be written: {exc}") from exc
    pack = packs.find_user_pack(own.manifest.id)
    version = str(pack.manifest.version) if pack else ""
    copies = []
    for kind, models_written in written.items():
        for card in models_written:
            entry = packs.clean_entry(kind, card.model_dump(mode="json"))
            copies.append(OwnCardCopy(own.manifest.id, kind, packs.entry_id(kind, entry) or "",
                                      entry, packs.card_digest(entry), version))
    return copies


def carry_own_card(campaign: Campaign, session: Session, copy: OwnCardCopy, *,
                   replace_id: str | None = None) -> None:
    """Inside an open write: the campaign file carries ``copy`` (in place of the entry
    ``replace_id``, if it was edited under another id), and the campaign plays with the
    content rebuilt with it (the pack versions recorded)."""
    from companion.operations import carried

    if replace_id is not None and replace_id != copy.card_id:
        old = carried.row_of(session, (copy.pack_id, copy.kind, replace_id))
        if old is not None:
            session.delete(old)
    carried.put(session, copy)
    rebuild_content(campaign, session)
    record_packs(session, campaign.content)


def reload_content(campaign: Campaign) -> Changes:
    """Load the campaign's packs again (after the user's packs changed, e.g. in My
    Cards) and record the versions it now uses. A card changed or removed in this data
    folder's pack since the campaign's content was built is taken in (the file carries
    the new version, or no longer carries it); every other card the file carries keeps
    the version it played with. Refused, with each problem, if the packs do not load;
    the campaign then goes on with the content it had."""
    from companion.operations import carried

    before = CampaignContent.of(campaign)
    with campaign.file.read() as session:
        row = session.get(models.Campaign, 1)
        recorded = list(row.content_packs) if row else []
        cards = carried.carried(session)
    ids = [p["id"] for p in recorded] or [p.id for p in campaign.content.packs]
    built = campaign_content(ids, campaign.extra_content, cards)
    if built.problem is not None:
        campaign.content_problem = built.problem
        raise Refused(f"Your pack could not be loaded; the campaign goes on without it:\n"
                      f"{built.problem}")
    then, now = before.pack_state, built.pack_state
    changed = [key for key in {*then, *now} if key in cards and
               (then[key].digest if key in then else None) !=
               (now[key].digest if key in now else None)]
    try:
        with campaign.write("content.reload", "content reloaded") as session:
            for key in sorted(changed):
                if key in now:
                    carried.put(session, now[key])
                elif (gone := carried.row_of(session, key)) is not None:
                    session.delete(gone)
            rebuild_content(campaign, session)
            content = campaign.content
            record_packs(session, content)
            chain = " > ".join(f"{p.name} {p.version}" for p in content.packs)
            session.info["journal_text"] = f"Content reloaded: {chain}"
    except Refused:
        before.apply(campaign)
        raise
    return Changes(summary=f"Content reloaded: {chain}", procedure=True, everything=True)


def _add_to_night_deck(session: Session, card_id: str) -> None:
    """A Night card entered outside the Night joins the bottom of the Night deck (the
    deck follows the content until it is first shuffled)."""
    deck = session.exec(select(models.DeckState).where(models.DeckState.deck == NIGHT_DECK)
                        ).first()
    if deck is not None and card_id not in (*deck.draw_pile, *deck.discard):
        deck.draw_pile = [*deck.draw_pile, card_id]


def _add_to_reaction_deck(session: Session, card_id: str, behemoth: str) -> None:
    """A Reaction card entered between encounters joins the bottom of its behemoth's
    Reaction deck, if that behemoth is in play."""
    for row in behemoth_rows(session):
        if row.behemoth_id == behemoth and card_id not in (row.reaction_deck or []):
            row.reaction_deck = [*(row.reaction_deck or []), card_id]


def _teach_procedure(campaign: Campaign, session: Session, kind: str, card_id: str) -> bool:
    """Give the card to the procedure in progress if it draws cards of ``kind``; True
    if it did."""
    row = procedure_row(session)
    if row is None:
        return False
    saved = dict(row.state)
    if PROCEDURE_CARD_KINDS.get(str(saved.get("kind", ""))) != kind:
        return False
    _, procedure = procedures.load(campaign, session)
    procedure = teach(campaign, saved, procedure, kind, card_id)
    if procedure is None:
        return False
    saved["procedure"] = procedure.to_state()
    row.state = saved
    return True
