"""The user's preferences: a small typed model stored as JSON in the user data folder.

No Qt here, so the CLI reads the same file as the GUI. The file is
``paths.user_data_dir() / "preferences.json"`` (the GUI's session state — recent files,
the last campaign — lives in ``settings.ini`` beside it and is not touched here).

Reading never fails: a missing file gives the defaults; a value of the wrong type or out
of range falls back to its default (and is reported by :func:`problems`); an unreadable
file is kept aside as ``preferences.json.bad`` the next time the preferences are saved,
never silently overwritten. Keys written by a newer version are kept on save.

>>> s = Settings(backup_interval_minutes=5)
>>> Settings.from_dict(s.to_dict()) == s
True
>>> Settings.from_dict({"theme": "purple"}).theme
'system'
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from companion import paths

if TYPE_CHECKING:
    from companion.store import BackupPolicy

FILE_NAME = "preferences.json"
FORMAT_VERSION = 1

Theme = Literal["system", "light", "dark"]
ProcedureEntry = Literal["table", "app"]

THEMES: tuple[Theme, ...] = ("system", "light", "dark")
PROCEDURE_ENTRIES: tuple[ProcedureEntry, ...] = ("table", "app")
TEXT_SIZES: tuple[int, ...] = (100, 125)
"""The text sizes offered, in percent of the system font: every window fits a 1366x768
laptop at each (issue 27 item 13)."""

# (minimum, maximum) of every whole-number setting.
LIMITS: dict[str, tuple[int, int]] = {
    "backup_interval_minutes": (1, 24 * 60),
    "backups_recent": (1, 100),
    "backups_daily": (0, 366),
    "backups_weekly": (0, 520),
}


@dataclass(frozen=True)
class Settings:
    """The preferences, with their defaults."""

    odds_advisor: bool = True
    """Show the exact odds of a check while the players decide."""
    backup_interval_minutes: int = 10
    """While playing, take a backup when this many minutes passed and something changed."""
    backups_recent: int = 10
    """How many of the most recent backups to keep."""
    backups_daily: int = 7
    """How many days keep their last backup."""
    backups_weekly: int = 8
    """How many weeks keep their last backup."""
    content_dirs: tuple[str, ...] = ()
    """Extra content pack folders (besides the shipped packs and the user's folder)."""
    procedure_entry: ProcedureEntry = "table"
    """How procedures start: ``table`` (type the dice and cards from the table) or
    ``app`` (the companion rolls and draws); every step can still be switched."""
    theme: Theme = "system"
    """``system`` follows the desktop's light or dark scheme; ``light``/``dark`` force one."""
    text_size: int = 100
    """The text size in percent of the system font: 100 or 125 (larger text)."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Keys this version does not know (written by a newer one): kept on save."""

    # -- conversions -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (with the format version and any unknown keys kept)."""
        data = dict(self.extra)
        data.update({k: v for k, v in asdict(self).items() if k != "extra"})
        data["content_dirs"] = list(self.content_dirs)
        data["format"] = FORMAT_VERSION
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Settings from JSON data; a bad or missing value takes its default."""
        return cls._parse(data)[0]

    @classmethod
    def _parse(cls, data: dict[str, Any]) -> tuple[Settings, list[str]]:
        defaults = cls()
        known = {f.name for f in fields(cls)} - {"extra"}
        values: dict[str, Any] = {}
        issues: list[str] = []
        for name in known:
            if name not in data:
                continue
            value = data[name]
            default = getattr(defaults, name)
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif name == "text_size":
                ok = value in TEXT_SIZES and not isinstance(value, bool)
            elif isinstance(default, int):
                low, high = LIMITS[name]
                ok = isinstance(value, int) and not isinstance(value, bool) and \
                    low <= value <= high
            elif name == "content_dirs":
                ok = isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
                value = tuple(value) if ok else value
            elif name == "theme":
                ok = value in THEMES
            elif name == "procedure_entry":
                ok = value in PROCEDURE_ENTRIES
            else:  # pragma: no cover - every field is handled above
                ok = False
            if ok:
                values[name] = value
            else:
                issues.append(f"{name}: {value!r} is not allowed; using {default!r}")
        extra = {k: v for k, v in data.items() if k not in known and k != "format"}
        return cls(**values, extra=extra), issues

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some values changed, checked like a file's values.

        Raises ``ValueError`` naming the first value that is not allowed.
        """
        merged = {k: v for k, v in asdict(self).items() if k != "extra"}
        merged.update(changes)
        if "content_dirs" in changes:
            merged["content_dirs"] = list(changes["content_dirs"])
        parsed, issues = self._parse(merged)
        if issues:
            raise ValueError(issues[0])
        return replace(parsed, extra=dict(self.extra))

    # -- what other layers need ---------------------------------------------------------

    def backup_policy(self) -> BackupPolicy:
        """The backup settings as the store's ``BackupPolicy``."""
        from datetime import timedelta

        from companion.store import BackupPolicy  # the database layer, only when asked

        return BackupPolicy(interval=timedelta(minutes=self.backup_interval_minutes),
                            recent=self.backups_recent, daily=self.backups_daily,
                            weekly=self.backups_weekly)

    def extra_content(self) -> list[Path]:
        """The extra content pack folders as paths (``~`` expanded)."""
        return [Path(d).expanduser() for d in self.content_dirs if d.strip()]

    @property
    def app_draws(self) -> bool:
        """Whether procedures start with the app rolling and drawing."""
        return self.procedure_entry == "app"


def settings_path() -> Path:
    """Where the preferences are stored."""
    return paths.user_data_dir() / FILE_NAME


def _read(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return None, f"{path}: could not be read ({exc.strerror or exc})"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return None, f"{path}: not valid JSON ({exc})"
    if not isinstance(data, dict):
        return None, f"{path}: expected an object of settings"
    return data, None


def load(path: Path | None = None) -> Settings:
    """The saved preferences (the defaults where there are none)."""
    data, _ = _read(path or settings_path())
    return Settings.from_dict(data or {})


def problems(path: Path | None = None) -> list[str]:
    """What is wrong with the saved preferences (empty when all is well)."""
    data, error = _read(path or settings_path())
    if error:
        return [error]
    return Settings._parse(data or {})[1]


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write the preferences atomically (a temporary file, then a rename)."""
    target = path or settings_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    _, error = _read(target)
    if error and target.exists():
        os.replace(target, target.with_name(target.name + ".bad"))  # keep it for a look
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(settings.to_dict(), indent=2, sort_keys=True) + "\n",
                   encoding="utf-8")
    _replace(tmp, target)
    return target


def _replace(tmp: Path, target: Path, attempts: int = 20) -> None:
    """``os.replace``, waiting out a moment when another companion is reading the file:
    Windows refuses to replace a file another process has open (PermissionError), where
    POSIX swaps it under the reader. The reader closes it within milliseconds."""
    import time

    for attempt in range(attempts):
        try:
            os.replace(tmp, target)
            return
        except PermissionError:
            if os.name != "nt" or attempt == attempts - 1:
                raise
            time.sleep(0.05)
