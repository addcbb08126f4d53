"""The content cache's key and file, without pydantic (:mod:`companion.content.cache`
rebuilds the models from it).

The start-up's first view (``companion.ui.first_view``) reads the few names it shows
(hexes' features, overlays, structures, the behemoth, the challenge) from the cached
JSON of the campaign's packs before the content schema is imported; the same key says
whether that JSON is the one the full load would use.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion import __version__, paths

FORMAT = 1
"""Bumped when the cache file's layout changes."""


def pack_roots(extra_dirs: Sequence[Path]) -> list[Path]:
    """The folders packs are found in (a pack, or a folder of packs), in shadowing order."""
    return [Path(r) for r in (paths.shipped_content_dir(), paths.user_content_dir(),
                              *extra_dirs)]


def _code_stamp() -> bytes:
    """What identifies the content code: the version and, where the source files are at
    hand (a checkout), the size and time of every module of ``companion.content`` (a
    schema edited without a new version, or a new schema module)."""
    parts = [f"{FORMAT} {__version__}"]
    package = Path(__file__).resolve().parent
    with contextlib.suppress(OSError):
        for file in sorted(package.rglob("*.py")):
            stat = file.stat()
            parts.append(f"{file.relative_to(package.parent)} {stat.st_size} "
                         f"{stat.st_mtime_ns}")
    return "\n".join(parts).encode()


def cache_key(pack_id: str, roots: Sequence[Path]) -> str:
    """The key of loading ``pack_id`` from pack folders under ``roots``: a hash of
    every pack file's path and bytes (any pack may shadow or extend another)."""
    digest = hashlib.sha256(_code_stamp())
    digest.update(f"\0{pack_id}\0".encode())
    for root in roots:
        digest.update(f"\0root {root}\0".encode())
        if not root.is_dir():
            continue
        for file in sorted(p for p in root.rglob("*")
                           if p.suffix in (".yaml", ".yml") and p.is_file()):
            data = file.read_bytes()
            digest.update(f"\0{file.relative_to(root)} {len(data)}\0".encode())
            digest.update(data)
    return digest.hexdigest()[:32]


def cache_file(key: str) -> Path:
    """Where the cache of ``key`` is kept."""
    return paths.user_data_dir() / "cache" / f"content-{key}.json"


def read(key: str) -> dict[str, Any] | None:
    """The cached JSON of ``key``, or None when there is none (or it cannot be read)."""
    try:
        with open(cache_file(key), encoding="utf-8") as stream:
            data = json.load(stream)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    return data
