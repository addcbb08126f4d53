"""Cards as the table draws them: typed by id or by name, and entered when unknown.

The owner plays with the real box beside the app; a card drawn at the table may not be
in the campaign's content. Here:

- :func:`resolve_typed` turns what was typed at a card or chip step (an id or a name,
  in any case) into the step's option; :func:`resolve_card_id` does the same for a kind
  of card outside a procedure (a Discovery card). The procedure runner and the
  Discovery draw call them, so every engine accepts names without knowing it.
- :func:`enter_card` writes a new card into the campaign's own user pack (created on
  first use, extending the campaign's pack), reloads the content, records the pack
  versions the campaign now uses, and gives the card to the procedure in progress, so
  the step goes on with it.
- :func:`reload_content` takes in changes made to the user's packs (the My cards
  window) without restarting.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from companion.content import Content, ContentError, load_content
from companion.content import user_pack as packs
from companion.content.schema.pack import KIND_MODELS, PackManifest
from companion.operations.carried import CardKey, OwnCardCopy
from companion.operations.changes import Changes, Refused
from companion.operations.core import NIGHT_DECK, Campaign
from companion.rules.procedure import Choice, Decider, Procedure, Step
from companion.store import models

#: The kind of card each procedure's card (or chip) steps draw.
PROCEDURE_CARD_KINDS: dict[str, str] = {
    "fishing": "fishing_cards",
    "foraging": "forage_cards",
    "delving": "delving_cards",
    "night": "night_cards",
    "behemoth_encounter": "reaction_cards",
    "mining": "materials",
}


def card_kind(procedure_kind: str, step: Step | None) -> str | None:
    """The kind of card ``step`` of a ``procedure_kind`` draws (None: no card is drawn
    there, e.g. a die roll, a player's choice, or a tie broken at random)."""
    if step is None or step.decider not in (Decider.CARD, Decider.CHIP):
        return None
    return PROCEDURE_CARD_KINDS.get(procedure_kind)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def card_names(content: Content, kind: str) -> dict[str, str]:
    """Card id -> name (the id itself where a card has no name) for ``kind``."""
    table: Mapping[str, Any] = getattr(content, kind, {}) or {}
    return {key: str(getattr(card, "name", "") or key) for key, card in table.items()}


def resolve_card_id(content: Content, kind: str, typed: str) -> str:
    """The id of the card of ``kind`` typed as ``typed``, the one reading every card
    field uses (the Day panel's, the Valley map's Discovery panel, a procedure's step,
    ``--card``/``--choice``): its id or its name in any case, a card field's drop-down
    text "DI07 Hot Spring", or a part of one name that no other card's name holds ("hot
    spr"); ``typed`` itself when nothing (or more than one card) matches, so the
    refusal names it."""
    text = typed.strip()
    table: Mapping[str, Any] = getattr(content, kind, {}) or {}
    if text in table:
        return text
    wanted = _fold(text)
    names = card_names(content, kind)
    for key, name in names.items():
        if wanted in (_fold(key), _fold(name), _fold(f"{key} {name}")):
            return key
    if len(wanted) >= 3:  # what the field's completion offers for a typed fragment
        found = [key for key, name in names.items() if name != key and wanted in _fold(name)]
        if len(found) == 1:
            return found[0]
    return text


def resolve_typed(campaign: Campaign, procedure_kind: str, procedure: Procedure, step: Step,
                  choice: Choice) -> Choice:
    """What was typed at a card or chip step, as the step's option: the option itself,
    its label, or the card's id or name, without regard to case."""
    if not isinstance(choice, str) or choice in step.options or \
            step.decider not in (Decider.CARD, Decider.CHIP):
        return choice
    wanted = _fold(choice)
    for option in step.options:
        if _fold(option) == wanted or _fold(step.labels.get(option, "")) == wanted:
            return option
    kind = card_kind(procedure_kind, step)
    if kind is None:
        return choice
    if procedure_kind == "mining":
        # Chips are told apart by their material: "clay", "Clay" or the material's name.
        material = resolve_card_id(campaign.content, "materials", choice)
        bag = getattr(procedure, "bag", ())
        for option in step.options:
            if option.isdigit() and int(option) < len(bag) and \
                    bag[int(option)].material == material:
                return option
        return choice
    return resolve_card_id(campaign.content, kind, choice)


def is_known(campaign: Campaign, kind: str, typed: str) -> bool:
    """Whether ``typed`` names a card of ``kind`` in the campaign's content."""
    card = resolve_card_id(campaign.content, kind, typed)
    return card in (getattr(campaign.content, kind, {}) or {})


# --- a card the campaign does not know ------------------------------------------------------


class UnknownCard(Refused):
    """A card typed at a card step that the campaign's content lacks (issue 27 item
    10): the message names the packs and the two ways on, "Enter this card…" and
    "Just record what happened"; the CLI adds its flags (:attr:`cli_hint`)."""

    def __init__(self, message: str, *, kind: str, typed: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.typed = typed

    cli_hint = ("In the terminal: --enter-card FILE (the card as YAML), or "
                "--record \"gain 2 meat Ash, lore +1\" (what it did; --card ID names it).")


def pack_names(content: Content) -> str:
    """The campaign's packs that hold cards, in players' words: "Sample pack, your own
    pack" (the rules pack every campaign extends holds none, so it is not named)."""
    from companion.operations.box import RULES_PACK

    return ", ".join("your own pack" if p.id.endswith(packs.OWN_SUFFIX) else p.name
                     for p in content.packs if p.id != RULES_PACK)


def unknown_card(campaign: Campaign, kind: str, typed: str, *, deck: str = "") -> UnknownCard:
    """The refusal of ``typed``, a card of ``kind`` the campaign's content lacks."""
    word = packs.kind_word(kind)
    if deck:
        word = f"{deck} {word}"
    return UnknownCard(
        f"{typed.strip()} is not a {word} of this campaign ({pack_names(campaign.content)}). "
        "If the table drew it: \"Enter this card…\" types it in as printed (it joins your "
        "own pack), or \"Just record what happened\" applies what it did in one line "
        "(e.g. gain 2 meat Ash, lore +1).", kind=kind, typed=typed.strip())


def refuse_unknown(campaign: Campaign, saved: Mapping[str, Any], procedure: Procedure,
                   step: Step, choice: Choice) -> None:
    """Raise :class:`UnknownCard` when ``choice``, typed at a card or chip step, names
    no card of the campaign's content (a known card the step does not allow is left
    to the rules' refusal)."""
    from companion.rules.night import is_table_card

    kind = card_kind(str(saved.get("kind", "")), step)
    if kind is None or not isinstance(choice, str) or choice in step.options or \
            is_table_card(choice) or step.decider is Decider.CHIP:
        return
    if not is_known(campaign, kind, choice):
        raise unknown_card(campaign, kind, choice,
                           deck=str(getattr(procedure, "deck_name", "") or ""))


# --- entering a card ------------------------------------------------------------------------


def _content_error(exc: ContentError, word: str, kind: str) -> Refused:
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
    return Refused(f"The {word} was not saved:\n" + "\n".join(lines))


def _record_packs(session: Session, content: Content) -> None:
    row = session.get(models.Campaign, 1)
    if row is not None:
        row.content_packs = [{"id": p.id, "version": str(p.version)} for p in content.packs]


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
        raise _content_error(exc, word, kind) from exc
    except OSError as exc:
        raise Refused(f"The {word} could not be written: {exc}") from exc
    entry = packs.clean_entry(kind, card.model_dump(mode="json"))
    card_id = packs.entry_id(kind, entry) or ""
    pack = packs.find_user_pack(own.manifest.id)
    copy = OwnCardCopy(own.manifest.id, kind, card_id, entry, packs.card_digest(entry),
                       str(pack.manifest.version) if pack else "")
    return own, card, copy


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
    _record_packs(session, campaign.content)


# --- the content a campaign plays with: its pack and the cards it carries ---------------------


@dataclass(frozen=True)
class CampaignContent:
    """What a campaign plays with, built from its packs and the cards its file carries
    (:func:`campaign_content`)."""

    content: Content
    problem: ContentError | None = None
    own_cards: Mapping[CardKey, OwnCardCopy] = field(default_factory=dict)
    """The user-pack cards ``content`` holds, as the file would carry them."""
    missing: tuple[OwnCardCopy, ...] = ()
    """Carried cards this data folder's pack lacks."""
    edited: tuple[OwnCardCopy, ...] = ()
    """Carried cards this data folder's pack holds in another version (the campaign's
    version is the one played)."""
    pack_state: Mapping[CardKey, OwnCardCopy] = field(default_factory=dict)
    """The cards of the user's packs in this data folder when it was built: what
    :func:`reload_content` compares with to take in the changes made since."""

    @classmethod
    def of(cls, campaign: Campaign) -> CampaignContent:
        return cls(campaign.content, campaign.content_problem, dict(campaign.own_cards),
                   tuple(campaign.cards_missing), tuple(campaign.cards_edited),
                   dict(campaign.pack_state))

    def apply(self, campaign: Campaign) -> None:
        campaign.content = self.content
        campaign.content_problem = self.problem
        campaign.own_cards = dict(self.own_cards)
        campaign.cards_missing = self.missing
        campaign.cards_edited = self.edited
        campaign.pack_state = dict(self.pack_state)


def _carried_root(carried: Sequence[packs.CarriedPack]) -> Path:
    """The folder of packs holding ``carried`` (written once; named after what it
    holds, so two campaigns never write the same folder differently)."""
    import hashlib
    import json
    import os
    import shutil

    from companion import paths

    digest = hashlib.sha256()
    for pack in carried:
        digest.update(json.dumps([pack.manifest.model_dump(mode="json"),
                                  sorted((list(k), v) for k, v in pack.cards.items())],
                                 sort_keys=True, default=str).encode("utf-8"))
        if pack.folder is not None:
            for file in sorted(pack.folder.rglob("*")):
                if file.is_file() and not file.name.startswith(".") and \
                        file.suffix != ".tmp":
                    digest.update(str(file.relative_to(pack.folder)).encode("utf-8"))
                    digest.update(file.read_bytes())
    base = paths.user_data_dir() / "cache" / "carried"
    root = base / digest.hexdigest()[:20]
    if not root.is_dir():
        tmp = base / f".{root.name}.{os.getpid()}.tmp"
        packs.write_carried(tmp, carried)
        try:
            tmp.rename(root)
        except OSError:  # another process wrote it first: the same content
            shutil.rmtree(tmp, ignore_errors=True)
    return root


def _sound(card: OwnCardCopy) -> OwnCardCopy | None:
    """The carried card as a pack file would hold it, its digest taken from that (None:
    an entry its kind refuses, left out rather than break the pack it is played in)."""
    try:
        data = packs.clean_entry(card.kind, dict(card.data))
    except ContentError:
        return None
    return replace(card, data=data, digest=packs.card_digest(data))


_PACK_ID = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
"""A pack id as ``PackManifest.id`` allows it (so it is a plain folder name)."""


def _base_of(pack_id: str, recorded: Sequence[str]) -> str:
    if pack_id in recorded and recorded.index(pack_id) > 0:
        return recorded[recorded.index(pack_id) - 1]
    return pack_id.removesuffix(packs.OWN_SUFFIX)


def _carried_manifest(pack_id: str, recorded: Sequence[str],
                      cards: Sequence[OwnCardCopy]) -> PackManifest:
    import re

    versions = sorted({c.pack_version for c in cards if c.pack_version})
    base: str | None = _base_of(pack_id, recorded)
    if base == pack_id or not re.fullmatch(_PACK_ID, str(base)):
        base = None  # the loader then says the pack lacks what it needs
    return PackManifest(id=pack_id, name=f"My cards ({base or pack_id})",
                        version=versions[-1] if versions else "1.0.0", extends=base,
                        description="Cards the campaign carries.")


def campaign_content(pack_ids: str | Sequence[str], extra_content: Sequence[Path] = (),
                     carried: Mapping[CardKey, OwnCardCopy] | None = None) -> CampaignContent:
    """The content a campaign plays with: its packs (:func:`load_campaign_content`) with
    the cards its file carries over the user's pack. A carried card this data folder's
    pack lacks, or holds in another version, is played as the file carries it, and
    listed (``missing``, ``edited``)."""
    import re

    from companion import paths
    from companion.content.errors import ContentIssue

    recorded = [pack_ids] if isinstance(pack_ids, str) else list(pack_ids) or ["sample"]
    by_pack: dict[str, list[OwnCardCopy]] = {}
    for card in (carried or {}).values():
        # Only what a pack could hold: a file's rows never name a folder or file
        # outside the pack written for them (ids as the pack schema allows them).
        if card.kind in KIND_MODELS and re.fullmatch(_PACK_ID, card.pack_id) and \
                packs.entry_id(card.kind, card.data) == card.card_id:
            sound = _sound(card)
            if sound is not None:
                by_pack.setdefault(card.pack_id, []).append(sound)
    missing: list[OwnCardCopy] = []
    edited: list[OwnCardCopy] = []
    overlay: list[packs.CarriedPack] = []
    state: dict[CardKey, OwnCardCopy] = {}

    def pack_of(pack_id: str) -> tuple[packs.UserPack | None, dict[tuple[str, str], Any]]:
        user = packs.find_user_pack(pack_id)
        have = packs.pack_cards(user.folder) if user is not None else {}
        for (kind, card_id), data in have.items():
            assert user is not None
            copy = OwnCardCopy(pack_id, kind, card_id, data, packs.card_digest(data),
                               str(user.manifest.version))
            state[copy.key] = copy
        return user, have

    for pack_id, cards in by_pack.items():
        user, have = pack_of(pack_id)
        lacking = [c for c in cards if (c.kind, c.card_id) not in have]
        other = [c for c in cards if (c.kind, c.card_id) in have
                 and packs.card_digest(have[(c.kind, c.card_id)]) != c.digest]
        missing += lacking
        edited += other
        if lacking or other:
            manifest = user.manifest if user is not None else \
                _carried_manifest(pack_id, recorded, cards)
            overlay.append(packs.CarriedPack(
                manifest, user.folder if user is not None else None,
                {(c.kind, c.card_id): c.data for c in (*lacking, *other)}))
    wanted = [*recorded, *(p for p in by_pack if p not in recorded)]
    if not overlay:
        content, problem = load_campaign_content(wanted, extra_content)
        folders: dict[str, Path] = {}
    else:
        try:
            root = _carried_root(overlay)
        except (OSError, ValueError) as exc:  # the data folder's cache cannot be written
            content, problem = load_campaign_content(wanted, extra_content)
            problem = problem or ContentError([ContentIssue(
                paths.user_data_dir() / "cache", None, "",
                f"the cards this campaign carries could not be written here: {exc}")])
            return CampaignContent(content, problem, _own_cards(content, {}),
                                   tuple(missing), tuple(edited), state)
        content, problem = load_campaign_content(wanted, (*extra_content, root))
        if problem is not None:  # the user's pack is broken: play with the file's cards
            bare = [packs.CarriedPack(
                _carried_manifest(p.manifest.id, recorded, by_pack[p.manifest.id]), None,
                {(c.kind, c.card_id): c.data for c in by_pack[p.manifest.id]})
                for p in overlay]
            try:
                bare_root = _carried_root(bare)
                content = load_content(bare[-1].manifest.id,
                                       extra_dirs=(*extra_content, bare_root))
                root = bare_root
            except (ContentError, KeyError, OSError, ValueError):
                pass  # the pack it extends, as load_campaign_content gave it
        folders = {p.manifest.id: root / p.manifest.id for p in overlay}
    for manifest in content.packs:
        if manifest.id not in by_pack and _is_users(manifest.id):
            pack_of(manifest.id)
    if problem is None:  # a carried pack whose folder is here but does not read: say so
        for pack_id in by_pack:
            folder = paths.user_content_dir() / pack_id
            if packs.find_user_pack(pack_id) is None and (folder / "pack.yaml").is_file():
                problem = ContentError(packs.check_pack(folder))
                break
    return CampaignContent(content, problem, _own_cards(content, folders),
                           tuple(missing), tuple(edited), state)


def _own_cards(content: Content, folders: Mapping[str, Path]) -> dict[CardKey, OwnCardCopy]:
    """The cards of the user packs in ``content``'s chain (read from ``folders`` for a
    pack played as carried, else from the data folder)."""
    found: dict[CardKey, OwnCardCopy] = {}
    for manifest in content.packs:
        folder = folders.get(manifest.id)
        if folder is None:
            user = packs.find_user_pack(manifest.id) if _is_users(manifest.id) else None
            if user is None:
                continue
            folder = user.folder
        for (kind, card_id), data in packs.pack_cards(folder).items():
            copy = OwnCardCopy(manifest.id, kind, card_id, data, packs.card_digest(data),
                               str(manifest.version))
            found[copy.key] = copy
    return found


def rebuild_content(campaign: Campaign, session: Session) -> None:
    """Build the campaign's content again from its packs and the cards the file carries
    (as ``session`` sees them), and record what it now plays with. Refused, with each
    problem, if a pack that is not the user's cannot be loaded."""
    from companion.operations.carried import carried

    row = session.get(models.Campaign, 1)
    recorded = [p["id"] for p in (row.content_packs if row else [])] or \
        [p.id for p in campaign.content.packs]
    built = campaign_content(recorded, campaign.extra_content, carried(session))
    built.apply(campaign)


def load_campaign_content(pack_ids: str | Sequence[str], extra_content: Sequence[Path] = ()
                          ) -> tuple[Content, ContentError | None]:
    """The content a campaign that recorded the packs ``pack_ids`` (its chain, base
    first, or just its last pack) plays with: the user's own pack for its last pack when
    there is one (cards entered for that pack, e.g. with ``content add-card``), else
    that pack.

    A broken user pack never stops a campaign from opening: its problems are returned
    (each ``file:line``) with the content of the pack it extends (or the pack recorded
    before it). Raises Refused only when a pack that is not the user's cannot be loaded.
    """
    from companion.operations.core import _load_pack

    recorded = [pack_ids] if isinstance(pack_ids, str) else list(pack_ids) or ["sample"]
    top = recorded[-1]
    candidates = list(recorded)
    own = packs.find_user_pack(top + packs.OWN_SUFFIX)
    if own is not None and not _is_users(top):
        candidates.append(own.manifest.id)
    problem: ContentError | None = None
    tried: set[str] = set()
    while candidates:
        wanted = candidates.pop()
        if wanted in tried:
            continue
        tried.add(wanted)
        if not _is_users(wanted):
            return _load_pack(wanted, extra_content), problem
        try:
            return load_content(wanted, extra_dirs=tuple(extra_content), cached=True), problem
        except ContentError as exc:
            problem = problem or exc
            user = packs.find_user_pack(wanted)
            if user is not None and user.manifest.extends is not None:
                candidates.append(user.manifest.extends)
    assert problem is not None  # a user pack failed and nothing was left to fall back on
    raise Refused(f"The content pack '{top}' could not be loaded:\n{problem}")


def _is_users(pack_id: str) -> bool:
    """Whether ``pack_id`` is one of the user's packs (even one whose pack.yaml no longer
    reads: its folder is named after it)."""
    from companion import paths

    return packs.find_user_pack(pack_id) is not None or \
        (paths.user_content_dir() / pack_id / "pack.yaml").is_file() or \
        pack_id.endswith(packs.OWN_SUFFIX)  # an own pack whose folder was removed


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
            _record_packs(session, content)
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
    from companion.operations.behemoth import _rows

    for row in _rows(session):
        if row.behemoth_id == behemoth and card_id not in (row.reaction_deck or []):
            row.reaction_deck = [*(row.reaction_deck or []), card_id]


# --- giving the card to the procedure in progress ----------------------------------------------


def _tokens(campaign: Campaign, current: Mapping[str, Any]) -> dict[str, Any]:
    from companion.operations.effects import tokens

    return {**tokens(campaign), **current}


def _fishing(campaign: Campaign, procedure: Any, card: Any,
             saved: Mapping[str, Any]) -> Any:
    return replace(procedure, deck=(*procedure.deck, card), deck_json="",
                   tokens=_tokens(campaign, procedure.tokens))


def _foraging(campaign: Campaign, procedure: Any, card: Any,
              saved: Mapping[str, Any]) -> Any:
    if card.deck != procedure.deck_name:
        return None
    content = campaign.content
    objects = {**procedure.objects}
    bonuses = {**procedure.bonuses}
    for row in (card.rows.front, card.rows.middle, card.rows.back):
        for spot in row:
            objects.setdefault(str(spot.object), content.forage_objects[spot.object])
            for bonus in spot.bonus:
                bonuses.setdefault(str(bonus), content.forage_bonuses[bonus])
    return replace(procedure, deck=(*procedure.deck, card), objects=objects, bonuses=bonuses,
                   deck_json="", tokens=_tokens(campaign, procedure.tokens))


def _delving(campaign: Campaign, procedure: Any, card: Any,
             saved: Mapping[str, Any]) -> Any:
    return replace(procedure, deck=(*procedure.deck, card), deck_json="",
                   tokens=_tokens(campaign, procedure.tokens))


def _mining(campaign: Campaign, procedure: Any, card: Any,
            saved: Mapping[str, Any]) -> Any:
    from companion.rules.mining import MiningChip

    face = card.chip
    chip = MiningChip(card.id) if face is None else MiningChip(
        card.id, face.omen, face.effects, face.match_effects)
    return replace(procedure, bag=(*procedure.bag, chip),
                   tokens=_tokens(campaign, procedure.tokens))


def _encounter(campaign: Campaign, procedure: Any, card: Any,
               saved: Mapping[str, Any]) -> Any:
    if card.behemoth != procedure.behemoth.behemoth:
        return None
    # The card joins the bottom of the Reaction deck; a card typed at a draw may be
    # any card still in the deck, so the table draws it at once.
    deck = (*procedure.behemoth.reaction_deck, str(card.id))
    return replace(procedure, cards=(*procedure.cards, card),
                   behemoth=replace(procedure.behemoth, reaction_deck=deck))


def _night(campaign: Campaign, procedure: Any, card: Any, saved: Mapping[str, Any]) -> Any:
    from companion.operations.procedures import night_facts
    from companion.rules.ids import NightCardId
    from companion.rules.night import NightProcedure

    table = procedure.table
    if card.id in (*table.draw_pile, *table.discard):  # edited: the facts carry it
        return NightProcedure(night_facts(campaign, saved.get("challenge")), table,
                              procedure.choices)
    # The card joins the pile it can be drawn from now: the deck, or, once the deck
    # has run out, the discard pile the next draw shuffles.
    if table.draw_pile:
        table = replace(table, draw_pile=(*table.draw_pile, NightCardId(card.id)))
    else:
        table = replace(table, discard=(*table.discard, NightCardId(card.id)))
    return NightProcedure(night_facts(campaign, saved.get("challenge")), table,
                          procedure.choices)


_TEACHERS: dict[str, Callable[[Campaign, Any, Any, Mapping[str, Any]], Any]] = {
    "fishing": _fishing,
    "foraging": _foraging,
    "delving": _delving,
    "mining": _mining,
    "behemoth_encounter": _encounter,
    "night": _night,
}


def _knows(procedure_kind: str, procedure: Any, card_id: str) -> bool:
    """Whether the procedure in progress has ``card_id`` among the cards it can draw."""
    if procedure_kind == "mining":
        return any(chip.material == card_id for chip in procedure.bag)
    if procedure_kind == "night":
        return card_id in (*procedure.table.draw_pile, *procedure.table.discard)
    if procedure_kind == "behemoth_encounter":
        return card_id in procedure.behemoth.reaction_deck
    return any(str(c.id) == card_id for c in getattr(procedure, "deck", ()))


def _teach(campaign: Campaign, saved: Mapping[str, Any], procedure: Any, kind: str,
           card_id: str) -> Any:
    """The procedure with the card ``card_id`` of ``kind`` (from the content) among
    those it can draw, or None if it draws no such card."""
    procedure_kind = str(saved.get("kind", ""))
    teach = _TEACHERS.get(procedure_kind)
    card = (getattr(campaign.content, kind, {}) or {}).get(card_id)
    if teach is None or card is None or PROCEDURE_CARD_KINDS.get(procedure_kind) != kind:
        return None
    if _knows(procedure_kind, procedure, card_id):
        return _replace_card(procedure, card)
    return teach(campaign, procedure, card, saved)


def _teach_procedure(campaign: Campaign, session: Session, kind: str, card_id: str) -> bool:
    """Give the card to the procedure in progress if it draws cards of ``kind``; True
    if it did."""
    from companion.operations import procedures

    row = session.exec(select(models.ProcedureState).where(
        models.ProcedureState.kind == procedures.PROCEDURE_ROW)).first()
    if row is None:
        return False
    saved = dict(row.state)
    if PROCEDURE_CARD_KINDS.get(str(saved.get("kind", ""))) != kind:
        return False
    _, procedure = procedures._load(campaign, session)
    procedure = _teach(campaign, saved, procedure, kind, card_id)
    if procedure is None:
        return False
    saved["procedure"] = procedure.to_state()
    row.state = saved
    return True


def take_typed(campaign: Campaign, saved: Mapping[str, Any], procedure: Procedure,
               step: Step, choice: Choice) -> tuple[Procedure, Step, Choice]:
    """A card typed at a card or chip step, by id or name, as the step's option.

    A card of the campaign's content that the procedure did not have when it began
    (entered since, e.g. with ``content add-card``) joins what it can draw first: the
    table drew it, so it is in the deck."""
    procedure_kind = str(saved.get("kind", ""))
    resolved = resolve_typed(campaign, procedure_kind, procedure, step, choice)
    kind = card_kind(procedure_kind, step)
    if kind is None or not isinstance(resolved, str) or resolved in step.options:
        return procedure, step, resolved
    card_id = resolve_card_id(campaign.content, kind, resolved)
    if card_id not in (getattr(campaign.content, kind, {}) or {}) or \
            _knows(procedure_kind, procedure, card_id):
        return procedure, step, resolved
    taught = _teach(campaign, saved, procedure, kind, card_id)
    if taught is None:
        return procedure, step, resolved
    step = taught.step()
    return taught, step, resolve_typed(campaign, procedure_kind, taught, step, card_id)


def _replace_card(procedure: Any, card: Any) -> Any:
    """An edited card replaces its old version in the procedure's deck."""
    for name in ("deck", "cards"):
        cards = getattr(procedure, name, None)
        if cards:
            swapped = tuple(card if c.id == card.id else c for c in cards)
            extra = {"deck_json": ""} if hasattr(procedure, "deck_json") else {}
            return replace(procedure, **{name: swapped}, **extra)
    return procedure
