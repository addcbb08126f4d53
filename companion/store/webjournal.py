"""Import the "Stonesaga Campaign Journal" web app's JSON export (version 3).

Its shape is known only loosely, so every reader is tolerant: a section may be a list of
objects or of plain strings (or a map of them), and several key spellings are accepted.
Nothing is lost: the whole original document is kept in the import's journal event
payload, and anything that does not fit a table becomes a note page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from sqlmodel import Session, SQLModel

from companion.store.campaign_file import CampaignFile, build_new
from companion.store.errors import BadExportFile, CampaignFileExists
from companion.store.models import (
    BehemothState,
    ChallengeLogEntry,
    CodeRecord,
    CultureAbility,
    LoomingChallenge,
    NotePage,
    OmenInvestigation,
)

WEB_JOURNAL_VERSION = 3
SECTIONS = (
    "recipes", "nullCodes", "customMaterials", "culture", "behemoths", "challengeRecord",
    "loomingChallenges", "investigations", "notePages", "provisionalCodes",
)


def _pick(item: dict[str, Any], *keys: str, default: Any = None) -> Any:
    for key in keys:
        if item.get(key) not in (None, ""):
            return item[key]
    return default


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _int(value: Any, default: int = 1) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [_text(v) for v in value]
    return [_text(value)]


def _items(section: Any) -> Iterable[tuple[str | None, Any]]:
    """(key, item) pairs of a list, or of a map whose keys mean something (an epoch)."""
    if isinstance(section, dict):
        for key, value in section.items():
            for item in value if isinstance(value, list) else [value]:
                yield key, item
    elif isinstance(section, list):
        for item in section:
            yield None, item
    elif section not in (None, ""):
        yield None, section


def _code(status: str) -> Callable[[Any, str | None], SQLModel | None]:
    def make(item: Any, _key: str | None) -> SQLModel | None:
        if isinstance(item, str | int):
            return CodeRecord(code=str(item), status=status)
        if isinstance(item, dict):
            return CodeRecord(code=_text(_pick(item, "code", "id", default="")), status=status,
                              name=_text(_pick(item, "name", "item", "result", "title")),
                              data=item)
        return None
    return make


def _culture(item: Any, key: str | None) -> SQLModel | None:
    if isinstance(item, str):
        return CultureAbility(name=item, text=item)
    if isinstance(item, dict):
        name = _text(_pick(item, "name", "title", "ability", default=""))
        return CultureAbility(ability_id=_pick(item, "id", "code"), name=name,
                              text=_text(_pick(item, "text", "description", "effect",
                                               default=name)),
                              epoch=_int(_pick(item, "epoch", default=key)))
    return None


def _behemoth(item: Any, _key: str | None) -> SQLModel | None:
    if isinstance(item, str):
        return BehemothState(behemoth_id=item, name=item)
    if isinstance(item, dict):
        name = _text(_pick(item, "name", "title", default=""))
        return BehemothState(
            behemoth_id=_text(_pick(item, "id", "behemothId", "name", default="")), name=name,
            secret_learned=bool(_pick(item, "secretLearned", "secret_learned", default=False)),
            secret_card=_pick(item, "secret", "secretCard"),
            habits_learned=_strings(_pick(item, "habits", "habitsLearned")),
            note=_text(_pick(item, "notes", "note", default="")),
        )
    return None


def _challenge(item: Any, key: str | None) -> SQLModel | None:
    if isinstance(item, str):
        return ChallengeLogEntry(epoch=_int(key), challenge_id=item)
    if isinstance(item, dict):
        outcome = _pick(item, "outcome", "outcomeEntry", "entry", "result")
        return ChallengeLogEntry(
            epoch=_int(_pick(item, "epoch", default=key)),
            challenge_id=_text(_pick(item, "challenge", "challengeId", "id", "name", default="")),
            characters=_strings(_pick(item, "characters", "heroes")),
            outcome_entry=None if outcome is None else _text(outcome),
            finished=bool(_pick(item, "finished", "complete", "done", default=outcome)),
        )
    return None


def _looming(item: Any, key: str | None) -> SQLModel | None:
    if isinstance(item, str):
        return LoomingChallenge(challenge_id=item, epoch=_int(key))
    if isinstance(item, dict):
        return LoomingChallenge(
            challenge_id=_text(_pick(item, "challenge", "challengeId", "id", "name", default="")),
            epoch=_int(_pick(item, "epoch", default=key)),
            note=_text(_pick(item, "note", "notes", default="")))
    return None


def _investigation(item: Any, key: str | None) -> SQLModel | None:
    if isinstance(item, str):
        return OmenInvestigation(omen_id=item, epoch=_int(key))
    if isinstance(item, dict):
        return OmenInvestigation(
            omen_id=_text(_pick(item, "omen", "omenId", "id", default="")),
            component_id=_text(_pick(item, "component", "componentId", "componentID",
                                     default="")),
            epoch=_int(_pick(item, "epoch", default=key)),
            note=_text(_pick(item, "note", "notes", "result", default="")))
    return None


def _note_page(item: Any, key: str | None) -> SQLModel | None:
    if isinstance(item, str):
        return NotePage(title=key or "", text=item)
    if isinstance(item, dict):
        return NotePage(title=_text(_pick(item, "title", "name", default=key or "")),
                        text=_text(_pick(item, "text", "content", "body", default="")))
    return None


READERS: dict[str, Callable[[Any, str | None], SQLModel | None]] = {
    "recipes": _code("recipe"),
    "nullCodes": _code("null"),
    "provisionalCodes": _code("provisional"),
    "culture": _culture,
    "behemoths": _behemoth,
    "challengeRecord": _challenge,
    "loomingChallenges": _looming,
    "investigations": _investigation,
    "notePages": _note_page,
}


def _load(src: Path) -> dict[str, Any]:
    try:
        document = json.loads(Path(src).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadExportFile(src, f"it is not a readable JSON file ({exc})") from None
    if not isinstance(document, dict) or not any(k in document for k in SECTIONS):
        raise BadExportFile(src, "it is not a Stonesaga Campaign Journal export")
    version = _pick(document, "version", "formatVersion", "schemaVersion")
    if version is not None and _int(version, -1) != WEB_JOURNAL_VERSION:
        raise BadExportFile(
            src, f"it is web-journal version {version}; only version {WEB_JOURNAL_VERSION} "
            "can be imported")
    return document


def _fill(session: Session, document: dict[str, Any]) -> int:
    """Add a row per item it can read, a note page per thing it cannot; returns row count."""
    added, leftovers = 0, []
    for section, value in document.items():
        reader = READERS.get(section)
        if reader is None:
            if section not in ("version", "formatVersion", "schemaVersion") and value:
                leftovers.append((section, value))
            continue
        unread = []
        for key, item in _items(value):
            row = reader(item, key)
            if row is None:
                unread.append(item)
            else:
                session.add(row)
                added += 1
        if unread:
            leftovers.append((section, unread))
    for position, (section, value) in enumerate(leftovers):
        session.add(NotePage(title=f"Web journal: {section}", position=1000 + position,
                             text=json.dumps(value, ensure_ascii=False, indent=2)))
        added += 1
    return added


def import_web_journal(src: Path, dest: Path) -> CampaignFile:
    """Create campaign ``dest`` from a web-journal export ``src`` (version 3), and open it.

    The import is one journalled operation (kind 'import'; undoable), whose payload keeps
    the whole original document. Refuses unreadable or other-version files and an existing
    ``dest``; a refused import creates nothing.
    """
    src, dest = Path(src), Path(dest).absolute()
    if dest.exists():
        raise CampaignFileExists(dest)
    document = _load(src)
    build_new(dest)
    try:
        cf = CampaignFile.open(dest)
    except BaseException:
        dest.unlink()
        raise
    try:
        with cf.transaction("import", f"Imported the web journal {src.name}",
                            payload={"source": "web-journal", "original": document}) as session:
            _fill(session, document)
    except BaseException:
        # Nothing of the campaign existed before: remove it rather than leave half an import.
        cf.close(backup=False)
        dest.unlink()
        raise
    return cf
