"""Where things live on disk: the shipped content packs and the user's data folder.

Stdlib and platformdirs only, so every layer may use it.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "StonesagaCompanion"
CAMPAIGN_SUFFIX = ".stonesaga"


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
