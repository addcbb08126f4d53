"""Where in the game each backup was taken: the challenge, Day or Night, the last action.

File ▸ Backups and ``companion backup list`` name each backup by its game moment and its
time to the second, read from the backup itself (read-only: nothing beside it changes);
a backup that lands in the middle of a Night is said so before it is restored
(Rulebook: Game Structure > Rounds: a round is a Day phase, then a Night phase).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.store import list_backups
from companion.store.backups import BackupInfo
from companion.store.integrity import open_readonly

HISTORY_KINDS = ("undo", "redo", "save_point")
"""Journal kinds that are not a game action (undo, redo, save points)."""

REASON_WORDS = {
    "open": "when opened", "close": "when closed", "interval": "while playing",
    "manual": "by hand", "migration": "before an upgrade", "restore": "before a restore",
}


@dataclass(frozen=True)
class BackupMoment:
    """The game moment a backup holds."""

    challenge: str | None = None
    """The challenge under way (its name when the content knows it), None between them."""
    night: bool = False
    """Taken during a Night phase (or a Night procedure in progress)."""
    last_action: str | None = None
    """The text of the newest action in effect (undone ones skipped)."""
    readable: bool = True
    """False when the backup could not be read (it is listed all the same)."""

    @property
    def phase(self) -> str:
        """'Day', 'Night', or '' between challenges."""
        if self.night:
            return "Night"
        return "Day" if self.challenge else ""

    def label(self) -> str:
        """One line: "The Flood · Night · last: Ash moved to B4"."""
        if not self.readable:
            return "could not be read"
        parts = [self.challenge or "between challenges"]
        if self.phase:
            parts.append(self.phase)
        parts.append(f"last: {self.last_action}" if self.last_action else "nothing played yet")
        return " · ".join(parts)


@dataclass(frozen=True)
class BackupRow:
    """A backup and its game moment, as the lists show them."""

    info: BackupInfo
    moment: BackupMoment

    @property
    def taken(self) -> str:
        """When, in local time to the second."""
        return self.info.time.astimezone().strftime("%Y-%m-%d %H:%M:%S")

    @property
    def why(self) -> str:
        """Why it was taken, in words."""
        return REASON_WORDS.get(self.info.reason, self.info.reason)

    def to_dict(self) -> dict[str, Any]:
        return {"taken": self.info.time.isoformat(timespec="seconds"),
                "reason": self.info.reason, "size": self.info.size,
                "path": str(self.info.path), "challenge": self.moment.challenge,
                "phase": self.moment.phase, "last_action": self.moment.last_action,
                "mid_night": self.moment.night, "moment": self.moment.label()}


def _state(raw: object) -> dict[str, Any]:
    try:
        value = json.loads(raw) if isinstance(raw, str | bytes) else raw
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def read_moment(path: Path, challenge_names: Mapping[str, str] | None = None) -> BackupMoment:
    """The game moment held by the campaign (or backup) file ``path``; never raises."""
    names = challenge_names or {}
    try:
        with open_readonly(path) as conn:
            row = conn.execute("SELECT current_challenge_id FROM society WHERE id = 1").fetchone()
            challenge_id = row[0] if row else None
            night = False
            for kind, state in conn.execute("SELECT kind, state FROM procedure_state"):
                data = _state(state)
                if (kind == "day" and data.get("phase") == "night") or (
                        kind == "procedure" and data.get("kind") == "night"):
                    night = True
            placeholders = ", ".join("?" * len(HISTORY_KINDS))
            last = conn.execute(
                "SELECT text FROM journal_event WHERE undone = 0 AND kind NOT IN "
                f"({placeholders}) ORDER BY id DESC LIMIT 1", HISTORY_KINDS).fetchone()
    except (sqlite3.Error, OSError):
        return BackupMoment(readable=False)
    challenge = names.get(challenge_id, challenge_id) if challenge_id else None
    return BackupMoment(challenge=challenge, night=night and bool(challenge_id),
                        last_action=str(last[0]) if last else None)


def _packs_of(path: Path) -> list[str]:
    try:
        with open_readonly(path) as conn:
            row = conn.execute("SELECT content_packs FROM campaign WHERE id = 1").fetchone()
    except (sqlite3.Error, OSError):
        return []
    packs = json.loads(row[0]) if row and row[0] else []
    return [p["id"] for p in packs if isinstance(p, dict) and isinstance(p.get("id"), str)]


def challenge_names(content: Any) -> dict[str, str]:
    """Challenge id → name, from loaded content."""
    return {cid: str(getattr(c, "name", cid)) for cid, c in content.challenges.items()}


def describe_backups(path: Path, content: Any | None = None, *,
                     extra_content: Sequence[Path] = ()) -> list[BackupRow]:
    """The backups of campaign ``path``, newest first, each with its game moment.

    ``content`` names the challenges; without it, the content the newest readable backup
    (or the campaign) records is loaded, and failing that the challenges keep their ids.
    """
    backups = list_backups(Path(path))
    if content is None:
        content = _content_for([path, *(b.path for b in backups)], extra_content)
    names = challenge_names(content) if content is not None else {}
    return [BackupRow(b, read_moment(b.path, names)) for b in backups]


def _content_for(files: list[Path], extra_content: Sequence[Path]) -> Any | None:
    from companion.content import ContentError
    from companion.operations.campaign_packs import load_campaign_content

    for file in files:
        packs = _packs_of(file)
        if packs:
            try:
                return load_campaign_content(packs, extra_content)[0]
            except (ContentError, OSError, KeyError, ValueError):
                return None
    return None


def mid_night_warning(row: BackupRow) -> str | None:
    """What to say before restoring a backup taken in the middle of a Night, else None."""
    if not row.moment.night:
        return None
    return (f"This backup was taken in the middle of a Night ({row.moment.label()}). "
            "Restoring it puts the campaign back in that Night: finish it at the table "
            "from there, or choose a backup taken during the Day.")
