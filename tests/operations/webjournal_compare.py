"""Field-by-field comparison of two web Campaign Journal documents (issue 28).

Each section is compared entry by entry: list sections by the entries' ``id`` (by
position when an entry has none), keyed sections (``nullCodes``, ``provisionalCodes``)
by key; every field of every entry of the first document is looked for in the second.
A field is *equal* when the second has the same value, *different* when it has another
one, *missing* when it has none (or no such entry). The web app's own settings
(``exportedAt``, ``lastUpdated``, ``driveFileId``, ``driveToken``) are not content.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

NOT_CONTENT = ("app", "version", "exportedAt", "lastUpdated", "driveFileId", "driveToken")
KEYED = ("nullCodes", "provisionalCodes")


@dataclass
class Comparison:
    equal: int = 0
    different: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.equal + len(self.different) + len(self.missing)

    def counts(self) -> tuple[int, int, int]:
        return self.equal, len(self.different), len(self.missing)


def _entries(section: Any) -> dict[str, Any]:
    if isinstance(section, dict):
        return {str(k): v for k, v in section.items()}
    out: dict[str, Any] = {}
    for n, entry in enumerate(section or []):
        key = entry.get("id") if isinstance(entry, dict) else None
        out[str(key) if key not in (None, "") else f"#{n}"] = entry
    return out


def _fields(entry: Any, at: str, other: Any, result: Comparison, *, live_only: bool) -> None:
    if not isinstance(entry, dict):
        if entry == other:
            result.equal += 1
        elif other is None:
            result.missing.append(at)
        else:
            result.different.append(f"{at}: {entry!r} -> {other!r}")
        return
    for key, value in entry.items():
        where = f"{at}.{key}"
        if not isinstance(other, dict) or key not in other:
            result.missing.append(where)
        elif other[key] == value:
            result.equal += 1
        else:
            result.different.append(f"{where}: {value!r} -> {other[key]!r}")


def compare(first: dict[str, Any] | list[Any], second: dict[str, Any] | list[Any],
            *, live_only: bool = True) -> Comparison:
    """Every field of ``first``'s entries looked for in ``second``'s. ``live_only``:
    entries ``first`` had deleted (tombstones) are left out."""
    if isinstance(first, list):
        first = {"recipes": first}
    if isinstance(second, list):
        second = {"recipes": second}
    result = Comparison()
    for name, section in first.items():
        if name in NOT_CONTENT:
            continue
        if name == "culture":
            culture = section or {}
            other = second.get("culture") or {}
            for key, value in culture.items():
                if key == "updatedAt" and value is None:
                    continue
                if isinstance(value, list):
                    _section(f"culture.{key}", value, other.get(key), result, live_only)
                else:
                    _fields({key: value}, "culture", other, result, live_only=live_only)
            continue
        if name == "customMaterials":
            theirs = {str(m.get("name")): m for m in second.get(name) or []}
            for m in section or []:
                _fields(m, f"customMaterials[{m.get('name')!r}]", theirs.get(
                    str(m.get("name"))), result, live_only=live_only)
            continue
        if isinstance(section, (list, dict)):
            _section(name, section, second.get(name), result, live_only)
        else:
            _fields({name: section}, "", second, result, live_only=live_only)
    return result


def _section(name: str, section: Any, other: Any, result: Comparison, live_only: bool
             ) -> None:
    theirs = _entries(other)
    by_position = list(other) if isinstance(other, list) else []
    for key, entry in _entries(section).items():
        if live_only and isinstance(entry, dict) and entry.get("deleted"):
            continue
        match = theirs.get(key)
        if match is None and key.startswith("#"):  # no id: the entry at its position
            n = int(key[1:])
            match = by_position[n] if n < len(by_position) else None
        _fields(entry, f"{name}[{key}]", match, result, live_only=live_only)


def live_ids(document: dict[str, Any]) -> dict[str, set[str]]:
    """Per section, the ids (keys) of the entries that are not deleted."""
    out: dict[str, set[str]] = {}
    for name, section in document.items():
        if name in NOT_CONTENT:
            continue
        if name == "culture":
            for key, value in (section or {}).items():
                if isinstance(value, list):
                    out[f"culture.{key}"] = {str(e.get("id")) for e in value
                                             if isinstance(e, dict) and not e.get("deleted")}
        elif isinstance(section, dict):
            out[name] = {k for k, v in section.items()
                         if not (isinstance(v, dict) and v.get("deleted"))}
        elif isinstance(section, list):
            out[name] = {str(e.get("id")) for e in section
                         if isinstance(e, dict) and not e.get("deleted")}
    return out
