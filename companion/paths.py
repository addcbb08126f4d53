"""Where things live on disk: the shipped content packs and the user's data folder.

Stdlib and platformdirs only, so every layer may use it.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "StonesagaCompanion"
CAMPAIGN_SUFFIX = ".stonesaga"

WINDOWS_FORBIDDEN = frozenset('<>:"/\\|?*') | frozenset(chr(c) for c in range(32))
"""Characters no Windows file name may hold (Microsoft: "Naming Files, Paths, and
Namespaces"); ``/`` and NUL are the only ones POSIX forbids."""
WINDOWS_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL"]
    + [f"{device}{n}" for device in ("COM", "LPT") for n in "0123456789\u00b9\u00b2\u00b3"])
"""Device names Windows reserves, whatever the case and whatever extension follows."""
MAX_STEM = 80
"""Characters (UTF-16 units, as NTFS counts) of a name made from a society's name: with
``.stonesaga.backups`` and a backup's time stamp added, and the data folder in front, the
path stays well inside Windows' 260-character limit."""


def shipped_dir(part: str) -> Path:
    """A folder of run-time data shipped with the program: ``content`` (the packs),
    ``assets`` (icons) or ``guide`` (Help ▸ Getting Started), found through
    ``importlib.resources`` as the package ``companion_data.<part>``.

    The same call serves the installed wheel, the editable checkout (setup.py maps the
    checkout's ``content/``, ``assets/`` and ``docs/`` folders onto those packages) and
    the PyInstaller build (its spec ships them under ``companion_data/``), so nothing
    here knows where the checkout keeps them. The program is installed as files (pip
    and pipx always unpack wheels), so the resource is a real folder.
    """
    from importlib.resources import files

    folder = files(f"companion_data.{part}")
    if not isinstance(folder, Path):  # e.g. imported from a zip archive
        raise RuntimeError(f"the shipped {part} folder is not on disk ({folder}); "
                           "install the companion unpacked (pip, pipx or uv do)")
    return folder


def shipped_content_dir() -> Path:
    """The folder of content packs shipped with the program."""
    return shipped_dir("content")


def shipped_asset(name: str) -> Path:
    """A shipped asset, e.g. ``app-icon-256.png`` or ``icons/forest.svg`` (it may not
    exist: callers check)."""
    return shipped_dir("assets") / name


def shipped_guide() -> Path:
    """Help ▸ Getting Started's page; its pictures sit beside it (``screenshots/``)."""
    return shipped_dir("guide") / "getting-started.md"


def safe_file_stem(name: str, fallback: str = "Campaign") -> str:
    """A file name (without extension) made from what a player typed, legal on Windows,
    macOS and Linux alike: the forbidden characters and control characters become spaces,
    spaces are collapsed, no trailing dot or space, no reserved device name (``CON``
    becomes ``CON_``), at most ``MAX_STEM`` characters; ``fallback`` when nothing is
    left. ``"Dawn: the Ford?"`` becomes ``"Dawn the Ford"``."""
    kept = "".join(" " if ch in WINDOWS_FORBIDDEN else ch for ch in name)
    stem = " ".join(kept.split())
    while len(stem.encode("utf-16-le")) // 2 > MAX_STEM:
        stem = stem[:-1]
    stem = stem.rstrip(". ").lstrip() or fallback
    first, dot, rest = stem.partition(".")
    if first.rstrip(" ").upper() in WINDOWS_RESERVED:  # "nul.txt" is the device too
        stem = f"{first.rstrip(' ')}_{dot}{rest}"
    return stem


def campaign_file_name(society_name: str) -> str:
    """The file name a new campaign of this society gets by default."""
    return safe_file_stem(society_name) + CAMPAIGN_SUFFIX


def user_data_dir() -> Path:
    """The user's data folder (campaigns, user packs, settings), created if missing.

    ``COMPANION_HOME`` overrides the platform's folder; the tests use it so that they
    never touch a real user's campaigns.
    """
    override = os.environ.get("COMPANION_HOME")
    if override:
        path = Path(override)
    else:
        import platformdirs  # imported here: it costs start-up time only when needed

        path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_content_dir() -> Path:
    """Folder of the user's own content packs (inside the data folder)."""
    path = user_data_dir() / "content"
    path.mkdir(parents=True, exist_ok=True)
    return path


def campaigns_dir() -> Path:
    """Default folder for campaign files."""
    path = user_data_dir() / "campaigns"
    path.mkdir(parents=True, exist_ok=True)
    return path
