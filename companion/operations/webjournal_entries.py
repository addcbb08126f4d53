"""The web Campaign Journal's entries, field by field, and the campaign rows they live in.

Pure functions, no session: a row (or a Culture line) -> the Journal's entry for it,
the few text forms the campaign keeps the Journal's words in, and the bookkeeping that
lets an export give an entry back exactly as the Journal wrote it (:func:`link_data`,
:func:`restore`, :func:`stamp`). The import (``webjournal``) and the export
(``webjournal_export``) both use them, so what one writes the other reads.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.crafting import CraftingCode
from companion.rules.errors import IllegalAction
from companion.store import models
from companion.store import webjournal as fmt

CULTURE_PREFIX = "culture:"
"""A Culture page list's note pages are titled ``culture:<list>`` (``journal``)."""
DEMEANOR_LINE = "Demeanor: "
"""A demeanor in words (the web journal's) opens a behemoth's notes with this line."""
CULTURE_KINDS = {"structures": "structures", "knowledgeCards": "knowledge",
                 "taboos": "taboos", "pigments": "pigments",
                 "mantlePowers": "mantle_powers"}
"""Web culture lists -> the Culture page's lists."""
KEPT_PREFIX = "From the web journal: "
FINISHED_OUTCOMES = ("won", "lost", "resolved", "success", "failure", "complete", "completed")
"""Outcomes of a challenge that was played to its end ("fled" is not one)."""
PREPARE_LINE = "Prepare by: "
"""A "prepare by" the web journal gives in words opens the looming challenge's notes."""
MANTLE_OF = "Mantle of the "
"""A mantle power's Culture line opens with its mantle: "Mantle of the Seeker: ..."."""


# --- codes ------------------------------------------------------------------------------


def code_text(code: fmt.WebCode) -> str:
    """The campaign's text of a web code: ``"Y1111"`` when this program knows the colour,
    else the web app's own ``"Grey 1234"`` (kept as written until the colour is known)."""
    try:
        return str(CraftingCode.parse(f"{code.color} {code.digits}"))
    except (IllegalAction, KeyError, ValueError):
        return code.key


def web_code(text: str) -> dict[str, str]:
    """The web app's ``{color, digits}`` of a campaign code text."""
    try:
        code = CraftingCode.parse(text)
        return {"color": code.colour.value.capitalize(), "digits": code.digits}
    except (IllegalAction, KeyError, ValueError):
        colour, _, digits = text.partition(" ")
        return {"color": colour, "digits": digits}


def code_key(text: str) -> str:
    """The web app's key of a campaign code text: ``"Blue 1234"``."""
    code = web_code(text)
    return f"{code['color']} {code['digits']}"


# --- Culture lines ----------------------------------------------------------------------


def culture_text(entry: fmt.WebCultureEntry) -> str:
    """A web culture entry as one line of the Culture page: "ST02 Fire Pit — notes"."""
    text = f"{entry.card_id} {entry.text}" if entry.card_id else entry.text
    return f"{text} — {entry.notes}" if entry.notes else text


_CARD_AT_START = re.compile(r"([A-Z]{2}\d+[A-Za-z]?)\s+")
_SPACE = re.compile(r"\s")
NOTES_DASH = "\u2014"
"""The em dash that separates a Culture line's name from its notes ("name — notes")."""


def split_notes(text: str) -> tuple[str, str | None]:
    """(name, notes) of "name — notes": split at the first dash with whitespace on both
    sides, the whitespace going with the dash; (text, None) when there is none.

    One pass over the text (each character looked at a bounded number of times): the
    earlier regular expression backtracked over every run of whitespace and took
    seconds on a long line (issue 24).
    """
    length = len(text)
    at = text.find(NOTES_DASH)
    while at != -1:
        if 0 < at < length - 1 and _SPACE.match(text, at - 1) and _SPACE.match(text, at + 1):
            start = at - 1
            while start > 0 and _SPACE.match(text, start - 1):
                start -= 1
            end = at + 1
            while end < length and _SPACE.match(text, end):
                end += 1
            return text[:start], text[end:]
        at = text.find(NOTES_DASH, at + 1)
    # Without notes, a line's one final newline is not part of the name.
    return (text[:-1] if text.endswith("\n") else text), None


def parse_culture_text(kind: str, text: str) -> dict[str, str]:
    """The web app's entry of one Culture line (the inverse of :func:`culture_text` and
    :func:`mantle_power_text`).

    A line beginning with a card ID ("ST02 ...") reads as that card; a structure whose
    name itself began with one would come back split (none of the game's do). Linear in
    the line's length.
    """
    if kind in ("taboos", "pigments"):
        return {"text" if kind == "taboos" else "name": text}
    mantle = ""
    if kind == "mantlePowers" and text.startswith(MANTLE_OF):
        head, sep, rest = text[len(MANTLE_OF):].partition(": ")
        if sep:
            mantle, text = head, rest
    card = _CARD_AT_START.match(text)
    rest = text[card.end():] if card else text
    name, notes = split_notes(rest)
    entry = {"cardId": card[1] if card else "", "name": name}
    if kind == "structures":
        entry["notes"] = notes or ""
    elif kind == "mantlePowers":
        entry = {"cardId": entry["cardId"], "mantle": mantle, "name": name,
                 "description": notes or ""}
    elif notes:
        entry["name"] = f"{name} — {notes}"
    return entry


def mantle_power_text(power: fmt.WebMantlePower) -> str:
    """A mantle power the group wrote, as its Culture line:
    "Mantle of the Seeker: MA01 Far Sight — Look two hexes ahead"."""
    text = f"{power.card_id} {power.name}" if power.card_id else power.name
    text = f"{text} — {power.description}" if power.description else text
    return f"{MANTLE_OF}{power.mantle}: {text}" if power.mantle else text


# --- words opening a row's notes ----------------------------------------------------------


def with_line(prefix: str, words: str, notes: str) -> str:
    """``notes`` opened by the line ``prefix + words`` (nothing added without words)."""
    if not words:
        return notes
    return f"{prefix}{words}\n{notes}" if notes else f"{prefix}{words}"


def split_line(prefix: str, notes: str) -> tuple[str, str]:
    """(words, the rest of the notes) when ``notes`` opens with ``prefix`` (the inverse
    of :func:`with_line`); ("", notes) otherwise."""
    if not notes.startswith(prefix):
        return "", notes
    first, _, rest = notes.partition("\n")
    return first[len(prefix):].strip(), rest


def secret_text(secret: Mapping[str, Any]) -> str:
    """A revealed secret as one line of text ("BT01 Soft Belly — Strikes twice")."""
    text = " ".join(str(secret.get(k) or "") for k in ("card_id", "name")).strip()
    description = str(secret.get("description") or "")
    return f"{text} — {description}" if text and description else text or description


# --- rows -> the Journal's entries (version 5) -------------------------------------------


def content_name(cards: Mapping[str, Any], card_id: str | None) -> str:
    card = cards.get(card_id or "")
    return str(getattr(card, "name", "")) if card is not None else ""


def behemoth_entry(b: models.BehemothState, name: str, lair_hex: str) -> dict[str, Any]:
    """A behemoth as version 5 writes it: secrets as cards, the demeanor the dial's
    number (the group's words when they wrote words)."""
    words, notes = split_line(DEMEANOR_LINE, b.note)
    return {"cardId": b.behemoth_id, "name": name, "lairHex": lair_hex,
            "lairOverlay": b.lair_overlay, "lairZone": b.lair_zone,
            "demeanor": b.demeanor if b.demeanor is not None else words,
            "secrets": [{"cardId": s.get("card_id", ""), "name": s.get("name", ""),
                         "description": s.get("description", "")} for s in b.secrets],
            "notes": notes}


def challenge_entry(c: models.ChallengeLogEntry, name: str) -> dict[str, Any]:
    """A challenge of the record: version 5's status ("resolved" once played to its
    end) and goals completed; an outcome in words (version 3's) goes back too."""
    entry: dict[str, Any] = {
        "status": "resolved" if c.finished else "current", "epoch": c.epoch, "name": name,
        "cardId": c.challenge_id, "goalsCompleted": c.goals_completed, "notes": c.notes}
    if c.outcome_entry:
        entry["outcome"] = c.outcome_entry
    return entry


def looming_entry(e: models.LoomingChallenge, name: str, order: int) -> dict[str, Any]:
    words, notes = split_line(PREPARE_LINE, e.note)
    return {"name": name, "cardId": e.challenge_id,
            "prepareBy": words if e.prepare_by is None else str(e.prepare_by),
            "notes": notes, "order": order}


def investigation_entry(i: models.OmenInvestigation) -> dict[str, Any]:
    return {"omen": i.omen_id, "cardId": i.component_id, "notes": i.note}


def note_entry(page: models.NotePage) -> dict[str, Any]:
    return {"title": page.title, "body": page.text}


def outpost_entry(o: models.Outpost, structures: Sequence[str]) -> dict[str, Any]:
    """An outpost: its overlay tile, name, the ids of the structure entries built in it
    (``structures``, as the export names them) and notes."""
    return {"cardId": o.overlay_id or "", "name": o.name, "structures": list(structures),
            "notes": o.notes}


def codex_entry(c: models.CodexEntryRead) -> dict[str, Any]:
    return {"entry": c.entry, "title": c.title, "sourceCategory": c.source_category,
            "sourceId": c.source_id, "notes": c.notes}


def drawing_entry(d: models.CaveWallIllustration) -> dict[str, Any]:
    return {"name": d.title, "strokes": list(d.strokes)}


# --- the Journal's bookkeeping -------------------------------------------------------------

#: Keys of an entry that are the Journal's bookkeeping, kept in the link's own columns.
LINK_KEYS = ("id", "updatedAt")


def link_data(original: Mapping[str, Any], ours: Mapping[str, Any]) -> dict[str, Any]:
    """What the link keeps so that :func:`restore` gives ``original`` back from
    ``ours`` (the entry the campaign's row makes): ``keep``, the fields ours has no
    place for; ``as``, the fields the file wrote otherwise (``[ours, the file's]``:
    ``"2"`` for the epoch 2)."""
    keep = {k: v for k, v in original.items() if k not in ours and k not in LINK_KEYS}
    written = {k: [ours[k], v] for k, v in original.items()
               if k in ours and k not in LINK_KEYS and not same_data(ours[k], v)
               and not (k == "codes" and not _same_codes(ours[k], v))}
    data: dict[str, Any] = {}
    if keep:
        data["keep"] = keep
    if written:
        data["as"] = written
    return data


def _same_codes(ours: Any, theirs: Any) -> bool:
    """Whether two recipes' code lists hold the same codes (in whatever order): only then
    is the file's list a way of writing ours. A code the campaign holds otherwise (a
    dead end kept here) leaves the recipe's list as the campaign has it."""
    def keys(codes: Any) -> list[str]:
        return sorted(json.dumps(c, sort_keys=True) for c in codes or [])
    return isinstance(ours, list) and isinstance(theirs, list) and keys(ours) == keys(theirs)


def restore(ours: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """The entry as the Journal wrote it: ``ours`` with each field the file wrote
    otherwise put back, as long as ours is still what it was (an edit here wins), and
    the fields ours has no place for."""
    entry = dict(ours)
    for key, pair in (data.get("as") or {}).items():
        if isinstance(pair, list) and len(pair) == 2 and same_data(entry.get(key), pair[0]):
            entry[key] = pair[1]
    for key, value in (data.get("keep") or {}).items():
        entry.setdefault(key, value)
    return entry


def stamp(ours: Mapping[str, Any]) -> str:
    """A fingerprint of an entry as the campaign has it (an edit changes it)."""
    text = json.dumps(ours, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def same_data(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True,
                                                                      default=str)
