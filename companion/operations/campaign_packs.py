"""The content a campaign plays with: its packs (the rulebook's, the box's, the owner's
own pack) and the cards its file carries over the user's pack (:func:`campaign_content`).
The campaign handle builds it when a campaign opens; entering a card, reloading the
packs and reading a challenge's cards rebuild it (:func:`rebuild_content`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlmodel import Session

from companion.content import Content, ContentError, load_content
from companion.content import user_pack as packs
from companion.content.schema.pack import KIND_MODELS, PackManifest
from companion.operations.carried import CardKey, OwnCardCopy
from companion.operations.changes import Refused
from companion.store import models

if TYPE_CHECKING:
    from companion.operations.core import Campaign


def load_pack(pack_id: str, extra_content: Sequence[Path]) -> Content:
    """The content pack ``pack_id`` (Refused, in the owner's words, when it does not load
    or is not installed)."""
    try:
        return load_content(pack_id, extra_dirs=tuple(extra_content), cached=True)
    except ContentError as exc:
        raise Refused(f"The content pack '{pack_id}' could not be loaded:\n{exc}") from exc
    except KeyError as exc:
        raise Refused(f"This campaign uses the content pack '{pack_id}', which is not "
                      "installed. Add it with --content PATH.") from exc


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
        if manifest.id not in by_pack and is_users(manifest.id):
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
            user = packs.find_user_pack(manifest.id) if is_users(manifest.id) else None
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
    recorded = [pack_ids] if isinstance(pack_ids, str) else list(pack_ids) or ["sample"]
    top = recorded[-1]
    candidates = list(recorded)
    own = packs.find_user_pack(top + packs.OWN_SUFFIX)
    if own is not None and not is_users(top):
        candidates.append(own.manifest.id)
    problem: ContentError | None = None
    tried: set[str] = set()
    while candidates:
        wanted = candidates.pop()
        if wanted in tried:
            continue
        tried.add(wanted)
        if not is_users(wanted):
            return load_pack(wanted, extra_content), problem
        try:
            return load_content(wanted, extra_dirs=tuple(extra_content), cached=True), problem
        except ContentError as exc:
            problem = problem or exc
            user = packs.find_user_pack(wanted)
            if user is not None and user.manifest.extends is not None:
                candidates.append(user.manifest.extends)
    assert problem is not None  # a user pack failed and nothing was left to fall back on
    raise Refused(f"The content pack '{top}' could not be loaded:\n{problem}")


def is_users(pack_id: str) -> bool:
    """Whether ``pack_id`` is one of the user's packs (even one whose pack.yaml no longer
    reads: its folder is named after it)."""
    from companion import paths

    return packs.find_user_pack(pack_id) is not None or \
        (paths.user_content_dir() / pack_id / "pack.yaml").is_file() or \
        pack_id.endswith(packs.OWN_SUFFIX)  # an own pack whose folder was removed


def record_packs(session: Session, content: Content) -> None:
    """Record the packs (and their versions) the campaign now plays with."""
    row = session.get(models.Campaign, 1)
    if row is not None:
        row.content_packs = [{"id": p.id, "version": str(p.version)} for p in content.packs]
