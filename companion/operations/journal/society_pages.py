"""The Challenge Log and the Culture page: what they show and the operations that
write them (an outcome entry, the characters of a challenge, the free lists)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from sqlmodel import Session, col, select

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.journal import book
from companion.operations.webjournal_entries import CULTURE_PREFIX
from companion.store import models


def challenge_log(campaign: Campaign) -> list[book.ChallengeLine]:
    """The Challenge Log, oldest first (grouped by epoch by the caller)."""
    with campaign.file.read() as session:
        rows = session.exec(select(models.ChallengeLogEntry).order_by(
            col(models.ChallengeLogEntry.epoch), col(models.ChallengeLogEntry.id))).all()
        return [book.ChallengeLine(
            id=r.id or 0, epoch=r.epoch, challenge_id=r.challenge_id,
            challenge_name=book.card_name(campaign.content.challenges, r.challenge_id)
            if r.challenge_id in campaign.content.challenges or not r.name else r.name,
            characters=tuple(r.characters), outcome_entry=r.outcome_entry,
            finished=r.finished, notes=r.notes, goals_completed=r.goals_completed)
            for r in rows]


def culture(campaign: Campaign) -> book.CulturePage:
    """The Culture page."""
    with campaign.file.read() as session:
        society = session.get(models.Society, 1) or models.Society()
        abilities = tuple(
            book.CultureEntry(r.id or 0, "ability",
                              r.name + (f": {r.text}" if r.text else ""), r.epoch)
            for r in session.exec(select(models.CultureAbility).order_by(
                col(models.CultureAbility.id))).all())
        powers = []
        for r in session.exec(select(models.MantlePower).order_by(
                col(models.MantlePower.id))).all():
            card = campaign.content.mantle_powers.get(r.power_id)
            mantle = book.card_name(campaign.content.mantles,
                                    r.mantle or (card.mantle if card else ""))
            name = card.name if card else r.power_id
            powers.append(book.CultureEntry(r.id or 0, "mantle_power",
                                            f"{name} ({mantle})" if mantle else name, r.epoch))
        powers += [book.CultureEntry(page_id, "mantle_power_words", text)
                   for page_id, text in web_mantle_powers(session)]
        lists: dict[str, list[book.CultureEntry]] = {key: [] for key in book.CULTURE_LISTS}
        for page in session.exec(select(models.NotePage).where(
                book.culture_list_page()).order_by(col(models.NotePage.position),
                                                   col(models.NotePage.id))).all():
            key = book.culture_list_key(page.title)
            if key in lists:
                lists[key].append(book.CultureEntry(page.id or 0, key, page.text))
        return book.CulturePage(lore=society.lore, abilities=abilities,
                                mantle_powers=tuple(powers),
                                lists={k: tuple(v) for k, v in lists.items()})


WEB_WORDS = " (the group's words, from the web journal)"


"""Marks a mantle power the group wrote in the web journal: no pack card stands behind
it, so the rules never read it."""


KEPT_MANTLE_POWERS = "From the web journal: Mantle powers"


"""The note an import before schema 3 kept the web journal's mantle powers in (they now
go to the Culture page's list "mantle_powers", one line each)."""


def web_mantle_powers(session: Session, pattern: str | None = None
                       ) -> list[tuple[int, str]]:
    """(note page id, "Name: description (the group's words ...)") of each mantle power
    the web journal's file had, kept as a note page by its import (a mantle power row
    needs the pack's id, which the web journal does not record)."""
    import json

    statement = select(models.NotePage).where(models.NotePage.title == KEPT_MANTLE_POWERS)
    if pattern is not None:
        statement = statement.where(book.matching(pattern, models.NotePage.text))
    found = []
    for page in session.exec(statement.order_by(col(models.NotePage.id))).all():
        try:
            entries = json.loads(page.text)
        except ValueError:
            continue
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            name = str(entry.get("name") or "").strip()
            description = str(entry.get("description") or "").strip()
            text = f"{name}: {description}" if name and description else name or description
            if text:
                found.append((page.id or 0, text + WEB_WORDS))
    return found


# --- writing: challenge log ---------------------------------------------------------------


def record_outcome(campaign: Campaign, *, entry_id: int, outcome: str | None) -> Changes:
    """Record the Codex outcome entry a challenge ended with (Using the Journal: "record
    the entry number for the outcome"), or clear it with ``None``/``""``."""
    value = (outcome or "").strip() or None
    if value is not None:
        digits = value.removeprefix("entry").strip()
        if not re.fullmatch(r"\d{1,3}", digits):
            raise Refused(f"An outcome entry is a three-digit number, like 104; not {value!r}.")
        value = f"{int(digits):03d}"
    with campaign.write("journal.challenge_log", "Challenge Log") as session:
        row = session.get(models.ChallengeLogEntry, entry_id)
        if row is None:
            raise Refused(f"There is no challenge {entry_id} in the Challenge Log.")
        name = book.card_name(campaign.content.challenges, row.challenge_id)
        row.outcome_entry = value
        session.info["journal_text"] = (
            f"Challenge Log: '{name}' ended with entry {value}" if value
            else f"Challenge Log: outcome of '{name}' cleared")
        text = session.info["journal_text"]
    return Changes(summary=text, challenge=True)


def set_challenge_characters(campaign: Campaign, *, entry_id: int,
                             characters: Iterable[str]) -> Changes:
    """Record the names of the characters used in a challenge (Using the Journal)."""
    names = [n.strip() for n in characters if n.strip()]
    with campaign.write("journal.challenge_log", "Challenge Log") as session:
        row = session.get(models.ChallengeLogEntry, entry_id)
        if row is None:
            raise Refused(f"There is no challenge {entry_id} in the Challenge Log.")
        row.characters = names
        text = (f"Challenge Log: '{book.card_name(campaign.content.challenges, row.challenge_id)}' "
                f"played by {', '.join(names) or 'nobody recorded'}")
        session.info["journal_text"] = text
    return Changes(summary=text, challenge=True)


# --- writing: culture lists ---------------------------------------------------------------


def _culture_list(key: str) -> str:
    if key not in book.CULTURE_LISTS:
        raise Refused(f"The Culture page has no list '{key}': choose "
                      f"{', '.join(book.CULTURE_LISTS)}.")
    return book.CULTURE_LISTS[key]


def add_culture_entry(campaign: Campaign, *, category: str, text: str) -> Changes:
    """Add a taboo, a pigment or a knowledge card to the Culture page."""
    title = _culture_list(category)
    text = text.strip()
    if not text:
        raise Refused(f"An entry in {title} needs some text.")
    with campaign.write("journal.culture", f"Culture > {title}: {text}") as session:
        last = session.exec(select(models.NotePage.position).where(
            models.NotePage.title == CULTURE_PREFIX + category).order_by(
            col(models.NotePage.position).desc())).first()
        session.add(models.NotePage(title=CULTURE_PREFIX + category, text=text,
                                    position=(last or 0) + 1))
    return Changes(summary=f"Culture > {title}: {text}", society=True)


def _culture_row(session: Session, entry_id: int) -> models.NotePage:
    row = session.get(models.NotePage, entry_id)
    if row is None or not row.title.startswith(CULTURE_PREFIX):
        raise Refused(f"There is no Culture list entry {entry_id}.")
    return row


def edit_culture_entry(campaign: Campaign, *, entry_id: int, text: str) -> Changes:
    """Rewrite a Culture list entry."""
    text = text.strip()
    if not text:
        raise Refused("A Culture entry needs some text; remove it instead.")
    with campaign.write("journal.culture", "Culture entry changed") as session:
        row = _culture_row(session, entry_id)
        title = book.CULTURE_LISTS.get(book.culture_list_key(row.title), row.title)
        old, row.text = row.text, text
        summary = f"Culture > {title}: '{old}' is now '{text}'"
        session.info["journal_text"] = summary
    return Changes(summary=summary, society=True)


def remove_culture_entry(campaign: Campaign, *, entry_id: int) -> Changes:
    """Strike an entry from a Culture list."""
    with campaign.write("journal.culture", "Culture entry removed") as session:
        row = _culture_row(session, entry_id)
        title = book.CULTURE_LISTS.get(book.culture_list_key(row.title), row.title)
        summary = f"Culture > {title}: removed '{row.text}'"
        session.delete(row)
        session.info["journal_text"] = summary
    return Changes(summary=summary, society=True)
