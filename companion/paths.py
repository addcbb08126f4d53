"""Where things live on disk: the shipped content packs and the user's data folder.

Stdlib and platformdirs only, so every layer may use it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "StonesagaCompanion"
CAMPAIGN_SUFFIX = ".stonesaga"


def shipped_content_dir() -> Path:
    """The ``content/`` folder of packs shipped with the program.

    In a source checkout (or an editable install) it sits beside the ``companion``
    package; in a PyInstaller build it is unpacked under ``sys._MEIPASS``.
    """
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "content"
    return Path(__file__).resolve().parent.parent / "content"


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
