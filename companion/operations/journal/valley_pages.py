"""The Outposts, Valley Map and Behemoths sections: what they show."""

from __future__ import annotations

from sqlmodel import col, select

from companion.operations.core import Campaign
from companion.operations.journal.book import BehemothLine, OutpostLine, card_name, hex_tiles
from companion.operations.webjournal_entries import DEMEANOR_LINE
from companion.store import models


def outposts(campaign: Campaign) -> list[OutpostLine]:
    """Every outpost and ruin, with its structures."""
    with campaign.file.read() as session:
        tiles = hex_tiles(session)
        structures: dict[int, list[str]] = {}
        for s in session.exec(select(models.OutpostStructure).order_by(
                col(models.OutpostStructure.id))).all():
            structures.setdefault(s.outpost_id, []).append(
                card_name(campaign.content.structures, s.structure_id))
        return [OutpostLine(
            id=r.id or 0, name=r.name, category=r.category, status=r.status,
            epoch_built=r.epoch_built, overlay_id=r.overlay_id,
            hex_id=tiles.get(r.hex_id) if r.hex_id else None,
            structures=tuple(structures.get(r.id or 0, ())), materials=tuple(r.materials))
            for r in session.exec(select(models.Outpost).order_by(col(models.Outpost.id))).all()]


def valley_map(campaign: Campaign) -> list[list[str | None]]:
    """The Valley Map as the journal's hex grid: rows of tile IDs (None: no hex; "?": a
    face-down hex, not yet explored)."""
    from companion.operations.valley import load_valley
    from companion.rules.exploration import journal_grid

    with campaign.file.read() as session:
        valley = load_valley(session)
    # A face-down hex is in the grid as "?": its ID is read only when it is explored.
    known = {valley.tiles[cell] for cell in valley.explored if cell in valley.tiles}
    return [[(str(t) if t in known else "?") if t else None for t in row]
            for row in journal_grid(valley)]


def behemoths(campaign: Campaign) -> list[BehemothLine]:
    """What the society knows about each behemoth it has met."""
    with campaign.file.read() as session:
        tiles = hex_tiles(session)
        lines = []
        for r in session.exec(select(models.BehemothState).order_by(
                col(models.BehemothState.id))).all():
            words, note = _demeanor_words(r)
            lines.append(BehemothLine(
                id=r.id or 0, behemoth_id=r.behemoth_id,
                name=r.name or card_name(campaign.content.behemoths, r.behemoth_id),
                hex_id=tiles.get(r.hex_id) if r.hex_id else None,
                lair_hex_id=tiles.get(r.lair_hex_id) if r.lair_hex_id else None,
                habits_learned=tuple(r.habits_learned), secret_learned=r.secret_learned,
                note=note, lair_hex=r.lair_hex, demeanor=r.demeanor,
                secrets=tuple(_secret_text(x) for x in r.secrets), demeanor_words=words,
                lair_overlay=r.lair_overlay, lair_zone=r.lair_zone))
        return lines


def _demeanor_words(r: models.BehemothState) -> tuple[str, str]:
    """(the demeanor in words, the rest of the notes) when the dial is not set and the
    notes open with "Demeanor: ..."; ("", the notes) otherwise."""
    if r.demeanor is not None or not r.note.startswith(DEMEANOR_LINE):
        return "", r.note
    first, _, rest = r.note.partition("\n")
    return first[len(DEMEANOR_LINE):].strip(), rest


def _secret_text(secret: dict[str, str]) -> str:
    head = " ".join(x for x in (secret.get("card_id", ""), secret.get("name", "")) if x)
    description = secret.get("description", "")
    return f"{head}: {description}" if head and description else head or description
