"""The Notes, Decks, Primal Cave Wall, Legends, Entries and History sections: what
they show and the operations that write them; the Codex findings and crafting codes the
group has read."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import select as select_columns
from sqlmodel import col, select

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.journal.book import (
    ENTRY_KINDS,
    HISTORY_HIDDEN,
    MAX_IMAGE_BYTES,
    MAX_IMAGE_SIDE,
    CaveWallLine,
    DeckChangeLine,
    EntryLine,
    LegendLine,
    NoteLine,
    culture_list_page,
    current_epoch,
)
from companion.store import models


def note_pages(campaign: Campaign) -> list[NoteLine]:
    """The journal's note pages, in order (the Culture page's lists are not among them)."""
    with campaign.file.read() as session:
        return [NoteLine(r.id or 0, r.title, r.text) for r in session.exec(
            select(models.NotePage).where(~culture_list_page()).order_by(
                col(models.NotePage.position), col(models.NotePage.id))).all()]


def deck_changes(campaign: Campaign) -> list[DeckChangeLine]:
    """The Decks section: persistent deck changes, by deck then in order."""
    with campaign.file.read() as session:
        return [DeckChangeLine(r.id or 0, r.deck, r.card_id, r.change, r.note, r.epoch)
                for r in session.exec(select(models.DeckChange).order_by(
                    col(models.DeckChange.deck), col(models.DeckChange.id))).all()]


def cave_wall(campaign: Campaign, *, mark: str | None = None) -> list[CaveWallLine]:
    """The Primal Cave Wall's illustrations, oldest first; ``mark`` keeps only those
    drawn with that mark (case-insensitive)."""
    with campaign.file.read() as session:
        t = models.CaveWallIllustration
        statement = select_columns(  # type: ignore[call-overload]
            t.id, t.title, t.marks, t.note, t.epoch, col(t.image).is_not(None)
        ).order_by(col(t.id))
        rows = session.execute(statement).all()  # never loads the images themselves
    lines = [CaveWallLine(int(r[0] or 0), r[1], tuple(r[2] or ()), r[3], r[4], bool(r[5]))
             for r in rows]
    if mark:
        wanted = mark.strip().casefold()
        lines = [line for line in lines if any(m.casefold() == wanted for m in line.marks)]
    return lines


def cave_wall_image(campaign: Campaign, illustration_id: int) -> bytes | None:
    """An illustration's PNG bytes, or None."""
    with campaign.file.read() as session:
        row = session.get(models.CaveWallIllustration, illustration_id)
        return bytes(row.image) if row is not None and row.image else None


def legends(campaign: Campaign) -> list[LegendLine]:
    """Every legend, oldest first."""
    with campaign.file.read() as session:
        names = {c.id: c.name for c in session.exec(select(models.Character)).all()}
        return [LegendLine(
            id=r.id or 0, name=r.name, epoch=r.epoch, character_id=r.character_id,
            succeeded_by=names.get(r.succeeded_by_id) if r.succeeded_by_id else None,
            succeeded_by_id=r.succeeded_by_id,
            assigned_to=names.get(r.assigned_to_id) if r.assigned_to_id else None,
            marks=tuple(r.marks), traits=tuple(r.traits))
            for r in session.exec(select(models.Legend).order_by(col(models.Legend.id))).all()]


def lineages(lines: Sequence[LegendLine]) -> list[list[str]]:
    """Legends as lineages across generations: each a list of names, first ancestor
    first, ending with the living successor (if any).

    A legend whose successor later became a legend continues into that legend's line.
    """
    by_character = {line.character_id: line for line in lines if line.character_id}
    successors = {line.succeeded_by_id for line in lines if line.succeeded_by_id}
    chains = []
    for line in lines:
        if line.character_id in successors:
            continue  # not a first ancestor
        chain, current, seen = [line.name], line, {line.id}
        while current.succeeded_by_id is not None:
            following = by_character.get(current.succeeded_by_id)
            if following is None or following.id in seen:
                chain.append(current.succeeded_by or f"#{current.succeeded_by_id}")
                break
            chain.append(following.name)
            seen.add(following.id)
            current = following
        chains.append(chain)
    return chains


def entries(campaign: Campaign, *, limit: int = 500) -> list[EntryLine]:
    """Free-text entries, newest first."""
    return [EntryLine(e.id or 0, e.time.strftime("%Y-%m-%d %H:%M"), e.author or "", e.text,
                      e.undone)
            for e in campaign.file.journal(limit=limit, kinds=ENTRY_KINDS)]


def history(campaign: Campaign, *, limit: int | None = None) -> list[EntryLine]:
    """Every journal event except undo/redo records, oldest first (for exports)."""
    with campaign.file.read() as session:
        statement = select(models.JournalEvent).where(
            col(models.JournalEvent.kind).not_in(HISTORY_HIDDEN)).order_by(
            col(models.JournalEvent.id).desc())
        if limit is not None:
            statement = statement.limit(limit)
        rows = session.exec(statement).all()
    return [EntryLine(e.id or 0, e.time.strftime("%Y-%m-%d %H:%M"), e.author or "", e.text,
                      e.undone) for e in reversed(rows)]


def omen_investigations(campaign: Campaign) -> list[tuple[int, str, str, str]]:
    """(epoch, omen, component ID, note) of every omen investigated, oldest first."""
    with campaign.file.read() as session:
        return [(r.epoch, r.omen_id, r.component_id, r.note) for r in session.exec(
            select(models.OmenInvestigation).order_by(col(models.OmenInvestigation.id))).all()]


def codex_entries_read(campaign: Campaign) -> list[tuple[str, str, str, str]]:
    """(entry, title, source, notes) of every Codex entry the group has read, by entry
    number (Using the Codex). Spoiler-safe: the entry's own text is never kept."""
    with campaign.file.read() as session:
        rows = session.exec(select(models.CodexEntryRead)).all()

    def number(entry: str) -> tuple[int, str]:
        digits = entry.strip()
        return (int(digits), "") if digits.isdigit() else (1 << 30, digits)
    return [(r.entry, r.title, " ".join(x for x in (r.source_category, r.source_id) if x),
             r.notes) for r in sorted(rows, key=lambda r: (number(r.entry), r.id or 0))]


def cave_wall_strokes(campaign: Campaign, illustration_id: int) -> list[dict[str, Any]]:
    """A drawing's pen strokes (``[{"c", "w", "pts"}]`` in a 1000 x 1000 space)."""
    with campaign.file.read() as session:
        row = session.get(models.CaveWallIllustration, illustration_id)
        return list(row.strokes) if row is not None else []


def crafting_codes(campaign: Campaign) -> list[tuple[str, str, str]]:
    """(code, status, name) of every crafting code the society has found."""
    with campaign.file.read() as session:
        return [(r.code, r.status, r.name) for r in session.exec(
            select(models.CodeRecord).order_by(col(models.CodeRecord.id))).all()]


# --- writing: decks -------------------------------------------------------------------------


DECK_CHANGES = ("added", "removed", "replaced", "other")


def _check_deck_change(deck: str, card_id: str, change: str) -> tuple[str, str, str]:
    deck, card_id, change = deck.strip(), card_id.strip(), change.strip().lower()
    if not deck:
        raise Refused("Name the deck that changed (Encounter, Night ...).")
    if not card_id:
        raise Refused("A deck change needs the card's ID.")
    if change not in DECK_CHANGES:
        raise Refused(f"A deck change is one of {', '.join(DECK_CHANGES)}; not {change!r}.")
    return deck, card_id, change


def add_deck_change(campaign: Campaign, *, deck: str, card_id: str, change: str = "added",
                    note: str = "") -> Changes:
    """Record a persistent change to a deck (Continuing Play > Decks)."""
    deck, card_id, change = _check_deck_change(deck, card_id, change)
    summary = f"Decks: {card_id} {change} ({deck} deck)"
    with campaign.write("journal.deck", summary) as session:
        session.add(models.DeckChange(deck=deck, card_id=card_id, change=change,
                                      note=note.strip(), epoch=current_epoch(session)))
    return Changes(summary=summary)


def edit_deck_change(campaign: Campaign, *, change_id: int, deck: str, card_id: str,
                     change: str, note: str = "") -> Changes:
    """Correct a recorded deck change."""
    deck, card_id, change = _check_deck_change(deck, card_id, change)
    summary = f"Decks: corrected to {card_id} {change} ({deck} deck)"
    with campaign.write("journal.deck", summary) as session:
        row = session.get(models.DeckChange, change_id)
        if row is None:
            raise Refused(f"There is no deck change {change_id}.")
        for name, value in (("deck", deck), ("card_id", card_id), ("change", change),
                            ("note", note.strip())):
            if getattr(row, name) != value:
                setattr(row, name, value)
    return Changes(summary=summary)


def remove_deck_change(campaign: Campaign, *, change_id: int) -> Changes:
    """Strike a deck change from the Decks section."""
    return _strike(campaign, "journal.deck", "Deck change removed", models.DeckChange,
                   change_id, f"There is no deck change {change_id}.",
                   lambda row: f"Decks: struck out {row.card_id} {row.change} ({row.deck} deck)")


# --- writing: the Primal Cave Wall -----------------------------------------------------------


def prepare_image(data: bytes, *, max_side: int = MAX_IMAGE_SIDE) -> bytes:
    """An image file (PNG, JPEG, ...) as PNG bytes no larger than ``max_side`` a side.

    Refuses files that are not images, too large, or decompression bombs.
    """
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_IMAGE_BYTES:
        raise Refused(f"That image is {len(data) // (1024 * 1024)} MB; "
                      f"the cave wall takes images up to {MAX_IMAGE_BYTES // (1024 * 1024)} MB.")
    try:
        with Image.open(io.BytesIO(data)) as opened:
            opened.load()
            image: Image.Image = opened
            if image.mode not in ("RGB", "RGBA", "L", "LA"):
                image = image.convert("RGBA")
            image.thumbnail((max_side, max_side))
            out = io.BytesIO()
            image.save(out, format="PNG", optimize=True)
    except Image.DecompressionBombError as exc:
        raise Refused(f"That image is too large to open safely: {exc}") from exc
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise Refused(f"That file is not an image the cave wall can take: {exc}") from exc
    return out.getvalue()


def _marks(marks: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for mark in marks:
        mark = mark.strip()
        if mark and mark.casefold() not in (m.casefold() for m in seen):
            seen.append(mark)
    return seen


def add_cave_wall_illustration(campaign: Campaign, *, title: str, marks: Iterable[str],
                               image: bytes | None = None, note: str = "") -> Changes:
    """Draw an illustration on the Primal Cave Wall with its marks (Continuing Play >
    The Primal Cave Wall). ``image`` is any image file's bytes (stored as PNG)."""
    title, mark_list = title.strip(), _marks(marks)
    if not title:
        raise Refused("An illustration needs a title (what it shows).")
    if not mark_list:
        raise Refused("An illustration of the cave wall carries at least one mark.")
    png = prepare_image(image) if image else None
    summary = f"Cave wall: '{title}' with {', '.join(mark_list)}"
    with campaign.write("journal.cave_wall", summary) as session:
        row = models.CaveWallIllustration(title=title, marks=mark_list, image=png,
                                          note=note.strip(), epoch=current_epoch(session))
        session.add(row)
        session.flush()
        new_id = row.id
    return Changes(summary=summary, detail=new_id)


_KEEP: Any = object()


def edit_cave_wall_illustration(campaign: Campaign, *, illustration_id: int,
                                title: str | None = None, marks: Iterable[str] | None = None,
                                image: bytes | None = _KEEP, note: str | None = None
                                ) -> Changes:
    """Change an illustration's title, marks, note or image (``image=None`` erases it)."""
    png = _KEEP if image is _KEEP else (prepare_image(image) if image else None)
    with campaign.write("journal.cave_wall", "Cave wall illustration changed") as session:
        row = session.get(models.CaveWallIllustration, illustration_id)
        if row is None:
            raise Refused(f"There is no cave-wall illustration {illustration_id}.")
        if title is not None:
            if not title.strip():
                raise Refused("An illustration needs a title (what it shows).")
            if row.title != title.strip():
                row.title = title.strip()
        if marks is not None:
            mark_list = _marks(marks)
            if not mark_list:
                raise Refused("An illustration of the cave wall carries at least one mark.")
            if mark_list != list(row.marks):
                row.marks = mark_list
        if note is not None and row.note != note.strip():
            row.note = note.strip()
        if png is not _KEEP and row.image != png:
            row.image = png
        summary = f"Cave wall: '{row.title}' changed ({', '.join(row.marks)})"
        session.info["journal_text"] = summary
    return Changes(summary=summary)


def remove_cave_wall_illustration(campaign: Campaign, *, illustration_id: int) -> Changes:
    """Wipe an illustration from the cave wall (undo brings it back, image and all)."""
    return _strike(campaign, "journal.cave_wall", "Cave wall illustration removed",
                   models.CaveWallIllustration, illustration_id,
                   f"There is no cave-wall illustration {illustration_id}.",
                   lambda row: f"Cave wall: wiped '{row.title}'")


def _strike(campaign: Campaign, kind: str, event: str, table: Any, row_id: int,
            missing: str, words: Callable[[Any], str]) -> Changes:
    """Delete the row ``row_id`` of ``table`` (Refused with ``missing`` when there is
    none), journalled in ``words(row)``."""
    with campaign.write(kind, event) as session:
        row = session.get(table, row_id)
        if row is None:
            raise Refused(missing)
        summary = words(row)
        session.delete(row)
        session.info["journal_text"] = summary
    return Changes(summary=summary)


# --- writing: free-text entries ----------------------------------------------------------------


def write_entry(campaign: Campaign, *, text: str, author: str | None = None) -> Changes:
    """A free-text entry with its time and author (the store stamps the time)."""
    from companion.operations.files import add_journal_entry

    return add_journal_entry(campaign, text=text, author=(author or "").strip() or None)
