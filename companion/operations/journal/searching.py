"""One search over every section of the journal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from companion.operations.changes import Refused
from companion.operations.core import Campaign
from companion.operations.journal.book import (
    CULTURE_LISTS,
    ENTRY_KINDS,
    HISTORY_HIDDEN,
    SECTIONS,
    SearchHit,
    card_name,
    culture_list_key,
    culture_list_page,
    hex_tiles,
    like_pattern,
    matching,
)
from companion.operations.journal.society_pages import web_mantle_powers
from companion.store import models


@dataclass(frozen=True)
class _ChallengeSpan:
    first_event: int
    challenge_id: str
    epoch: int


def _challenge_spans(session: Session) -> list[_ChallengeSpan]:
    """Where each challenge's events begin in the history (its 'challenge.start' event),
    read from the few start events through the (kind, id) index."""
    spans = []
    for event in session.exec(select(models.JournalEvent).where(
            models.JournalEvent.kind == "challenge.start",
            col(models.JournalEvent.undone).is_(False)).order_by(
            col(models.JournalEvent.id))).all():
        for change in event.changes:
            if change.get("table") == "challenge_log_entry" and change.get("after"):
                after = change["after"]
                spans.append(_ChallengeSpan(event.id or 0, str(after.get("challenge_id", "")),
                                            int(after.get("epoch", 1))))
                break
    return spans


def _event_ranges(spans: Sequence[_ChallengeSpan], *, epoch: int | None,
                  challenge: str | None) -> list[tuple[int, int | None]]:
    """Id ranges [first, next) of the events during the wanted challenges/epochs."""
    ranges: list[tuple[int, int | None]] = []
    bounds = [*spans]
    for number, span in enumerate(bounds):
        end = bounds[number + 1].first_event if number + 1 < len(bounds) else None
        if challenge is not None and span.challenge_id != challenge:
            continue
        if epoch is not None and span.epoch != epoch:
            continue
        ranges.append((span.first_event, end))
    if challenge is None and epoch == 1:
        # Before the first challenge: the founding of the society, in epoch 1.
        ranges.insert(0, (0, bounds[0].first_event if bounds else None))
    return ranges


def search(campaign: Campaign, query: str, *, sections: Iterable[str] | None = None,
           epoch: int | None = None, challenge: str | None = None,
           limit: int = 200) -> list[SearchHit]:
    """Everything in the journal that mentions ``query`` (text, marks, IDs), up to
    ``limit`` hits per section, sections in the book's order, newest first within one.

    ``sections`` limits the search to some keys of :data:`SECTIONS`; ``epoch`` to rows of
    that epoch (and history during it); ``challenge`` (a challenge ID) to the Challenge
    Log and the history during that challenge — sections with no challenge are left out.
    SQL ``LIKE`` (case-insensitive for ASCII) over indexed tables, with ``LIMIT``: the
    history is read newest first through its primary key, so 100,000 events stay quick.
    """
    query = query.strip()
    wanted = list(SECTIONS) if sections is None else [s for s in SECTIONS if s in set(sections)]
    unknown = set(sections or ()) - set(SECTIONS)
    if unknown:
        raise Refused(f"Unknown journal section {', '.join(sorted(unknown))}: choose from "
                      f"{', '.join(SECTIONS)}.")
    if not query:
        return []
    if challenge is not None:
        wanted = [s for s in wanted if s in ("challenges", "history", "entries")]
    pattern = like_pattern(query)
    hits: list[SearchHit] = []
    with campaign.file.read() as session:
        for section in wanted:
            hits.extend(_SEARCHERS[section](campaign, session, pattern, epoch, challenge,
                                            limit))
    return hits


def _search_events(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                   challenge: str | None, limit: int, *, entries_only: bool) -> list[SearchHit]:
    event = models.JournalEvent
    statement = select(event).where(matching(pattern, event.text, event.author))
    if entries_only:
        statement = statement.where(col(event.kind).in_(ENTRY_KINDS))
    else:
        statement = statement.where(col(event.kind).not_in((*ENTRY_KINDS, *HISTORY_HIDDEN)))
    if epoch is not None or challenge is not None:
        ranges = _event_ranges(_challenge_spans(session), epoch=epoch, challenge=challenge)
        if not ranges:
            return []
        statement = statement.where(or_(*(
            (col(event.id) >= first) & (col(event.id) < end) if end is not None
            else col(event.id) >= first for first, end in ranges)))
    rows = session.exec(statement.order_by(col(event.id).desc()).limit(limit)).all()
    section = "entries" if entries_only else "history"
    return [SearchHit(section, e.id or 0, (e.author or "Entry") if entries_only else
                      _kind_words(e.kind),
                      e.text + (" (undone)" if e.undone else ""),
                      when=e.time.strftime("%Y-%m-%d %H:%M")) for e in rows]


def _kind_words(kind: str) -> str:
    """A journal kind in words: 'journal.cave_wall' -> 'Cave wall'."""
    return kind.rpartition(".")[2].replace("_", " ").capitalize() or kind


def _search_history(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                    challenge: str | None, limit: int) -> list[SearchHit]:
    return _search_events(campaign, session, pattern, epoch, challenge, limit,
                          entries_only=False)


def _search_entries(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                    challenge: str | None, limit: int) -> list[SearchHit]:
    return _search_events(campaign, session, pattern, epoch, challenge, limit,
                          entries_only=True)


def _rows(session: Session, table: Any, pattern: str, columns: Sequence[Any],
          epoch_column: Any, epoch: int | None, limit: int) -> Sequence[Any]:
    statement = select(table).where(matching(pattern, *columns))
    if epoch is not None:
        if epoch_column is None:
            return []
        statement = statement.where(epoch_column == epoch)
    return session.exec(statement.order_by(col(table.id).desc()).limit(limit)).all()


def _search_challenges(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                       challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.ChallengeLogEntry
    # The challenge's name lives in the content pack: match it there, then by ID.
    needle = (pattern[1:-1].replace("\\%", "%").replace("\\_", "_")
              .replace("\\\\", "\\").casefold())
    named = [c.id for c in campaign.content.challenges.values()
             if needle in c.name.casefold()]
    statement = select(t).where(or_(matching(pattern, t.challenge_id, t.characters,
                                             t.outcome_entry, t.name, t.notes),
                                    col(t.challenge_id).in_(named)))
    if epoch is not None:
        statement = statement.where(t.epoch == epoch)
    if challenge is not None:
        statement = statement.where(t.challenge_id == challenge)
    rows = session.exec(statement.order_by(col(t.id).desc()).limit(limit)).all()
    return [SearchHit("challenges", r.id or 0,
                      card_name(campaign.content.challenges, r.challenge_id),
                      f"Epoch {r.epoch}; characters: {', '.join(r.characters) or '—'}; "
                      f"outcome: {r.outcome_entry or '—'}", r.epoch, r.challenge_id)
            for r in rows]


def _search_culture(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                    challenge: str | None, limit: int) -> list[SearchHit]:
    hits = [SearchHit("culture", r.id or 0, "Culture ability", r.name + (
        f": {r.text}" if r.text else ""), r.epoch)
        for r in _rows(session, models.CultureAbility, pattern,
                       (models.CultureAbility.name, models.CultureAbility.text,
                        models.CultureAbility.ability_id),
                       models.CultureAbility.epoch, epoch, limit)]
    hits += [SearchHit("culture", r.id or 0, "Mantle power",
                       card_name(campaign.content.mantle_powers, r.power_id), r.epoch)
             for r in _rows(session, models.MantlePower, pattern,
                            (models.MantlePower.power_id, models.MantlePower.mantle),
                            models.MantlePower.epoch, epoch, limit)]
    if epoch is None:
        needle = (pattern[1:-1].replace("\\%", "%").replace("\\_", "_")
                  .replace("\\\\", "\\").casefold())
        hits += [SearchHit("culture", page_id, "Mantle power", text)
                 for page_id, text in web_mantle_powers(session, pattern)
                 if needle in text.casefold()]
        page = models.NotePage
        statement = select(page).where(culture_list_page(),
                                       matching(pattern, page.text))
        for r in session.exec(statement.order_by(col(page.id).desc()).limit(limit)).all():
            key = culture_list_key(r.title)
            hits.append(SearchHit("culture", r.id or 0, CULTURE_LISTS.get(key, key), r.text))
    return hits


def _search_outposts(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                     challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.Outpost
    hits = [SearchHit("outposts", r.id or 0, r.name or "Outpost",
                      f"{r.category} {r.status}, built in epoch {r.epoch_built}; overlay "
                      f"{r.overlay_id or '—'}", r.epoch_built)
            for r in _rows(session, t, pattern, (t.name, t.category, t.status, t.overlay_id,
                                                 t.materials), t.epoch_built, epoch, limit)]
    s = models.OutpostStructure
    if epoch is None:
        for r in _rows(session, s, pattern, (s.structure_id, s.materials), None, None, limit):
            hits.append(SearchHit("outposts", r.outpost_id, "Structure",
                                  card_name(campaign.content.structures, r.structure_id)))
    return hits


def _search_valley(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                   challenge: str | None, limit: int) -> list[SearchHit]:
    if epoch is not None:
        return []
    h, o = models.ValleyHex, models.Overlay
    hits = [SearchHit("valley", r.id or 0, f"Hex {r.tile_id}",
                      "explored" if r.explored else "not explored")
            for r in _rows(session, h, pattern, (h.tile_id,), None, None, limit)]
    tiles = hex_tiles(session)
    hits += [SearchHit("valley", r.id or 0, f"Overlay {r.overlay_id}",
                       f"{r.kind} on {tiles.get(r.hex_id, '?')}"
                       + (f" ({r.section})" if r.section else ""))
             for r in _rows(session, o, pattern, (o.overlay_id, o.kind), None, None, limit)]
    return hits


def _search_behemoths(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                      challenge: str | None, limit: int) -> list[SearchHit]:
    if epoch is not None:
        return []
    t = models.BehemothState
    return [SearchHit("behemoths", r.id or 0, r.name or r.behemoth_id,
                      ", ".join(r.habits_learned) + (f" — {r.note}" if r.note else ""))
            for r in _rows(session, t, pattern, (t.behemoth_id, t.name, t.note,
                                                 t.habits_learned, t.lair_hex, t.secrets),
                           None, None, limit)]


def _search_notes(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                  challenge: str | None, limit: int) -> list[SearchHit]:
    if epoch is not None:
        return []
    page = models.NotePage
    statement = select(page).where(~culture_list_page(),
                                   matching(pattern, page.title, page.text))
    return [SearchHit("notes", r.id or 0, r.title or "Note page", r.text)
            for r in session.exec(statement.order_by(col(page.id).desc()).limit(limit)).all()]


def _search_decks(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                  challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.DeckChange
    return [SearchHit("decks", r.id or 0, f"{r.deck} deck",
                      f"{r.card_id} {r.change}" + (f" — {r.note}" if r.note else ""), r.epoch)
            for r in _rows(session, t, pattern, (t.deck, t.card_id, t.change, t.note),
                           t.epoch, epoch, limit)]


def _search_cave_wall(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                      challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.CaveWallIllustration
    statement = select_columns(t.id, t.title, t.marks, t.note, t.epoch).where(  # type: ignore[call-overload]
        matching(pattern, t.title, t.marks, t.note))
    if epoch is not None:
        statement = statement.where(t.epoch == epoch)
    rows = session.execute(statement.order_by(col(t.id).desc()).limit(limit)).all()
    return [SearchHit("cave_wall", int(r[0] or 0), r[1], "Marks: " + ", ".join(r[2] or ())
                      + (f" — {r[3]}" if r[3] else ""), r[4]) for r in rows]


def _search_legends(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                    challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.Legend
    return [SearchHit("legends", r.id or 0, r.name,
                      f"Epoch {r.epoch}; marks: {', '.join(r.marks) or '—'}; traits: "
                      f"{', '.join(r.traits) or '—'}", r.epoch)
            for r in _rows(session, t, pattern, (t.name, t.marks, t.traits), t.epoch, epoch,
                           limit)]


def _search_omens(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                  challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.OmenInvestigation
    return [SearchHit("omens", r.id or 0, f"{r.omen_id.capitalize()} {r.component_id}",
                      r.note, r.epoch)
            for r in _rows(session, t, pattern, (t.omen_id, t.component_id, t.note), t.epoch,
                           epoch, limit)]


def _search_codes(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                  challenge: str | None, limit: int) -> list[SearchHit]:
    if epoch is not None:
        return []
    t = models.CodeRecord
    return [SearchHit("codes", r.id or 0, r.code, f"{r.status}: {r.name}")
            for r in _rows(session, t, pattern, (t.code, t.name, t.status), None, None, limit)]


_SEARCHERS: dict[str, Any] = {
    "history": _search_history,
    "entries": _search_entries,
    "challenges": _search_challenges,
    "culture": _search_culture,
    "outposts": _search_outposts,
    "valley": _search_valley,
    "behemoths": _search_behemoths,
    "decks": _search_decks,
    "cave_wall": _search_cave_wall,
    "legends": _search_legends,
    "omens": _search_omens,
    "codes": _search_codes,
    "notes": _search_notes,
}
