"""The main window's views, one module each. Each view refreshes itself from the open
campaign when ``Host.campaign_changed`` carries a flag it cares about.

The main window builds a view when its tab is first shown (or first asked for through
``Host.view``): only the first view's modules and widgets are paid for before the
campaign is on screen.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from companion.ui.host import Host

VIEWS: tuple[tuple[str, str, str, str], ...] = (
    # (key, tab title, module, class), in tab order
    ("valley", "&Valley", "companion.ui.views.valley", "ValleyView"),
    ("characters", "&Characters", "companion.ui.views.characters", "CharactersView"),
    ("day", "&Day", "companion.ui.views.day", "DayView"),
    ("journal", "&Journal", "companion.ui.views.journal", "JournalView"),
    ("society", "&Society", "companion.ui.views.society", "SocietyView"),
    ("behemoth", "&Behemoth", "companion.ui.behemoth_panel", "BehemothPanel"),
)
"""The views of the main window, in tab order."""


def build_view(window: Host, key: str) -> QWidget:
    """Build the view ``key`` (one of :data:`VIEWS`) for ``window``; it connects itself to
    ``window.campaign_changed``."""
    for view_key, _title, module, name in VIEWS:
        if view_key == key:
            view: QWidget = getattr(importlib.import_module(module), name)(window)
            return view
    raise KeyError(f"no view named {key!r}")


def build_views(window: Host) -> list[tuple[str, QWidget]]:
    """Every view of the main window at once, in tab order (title, view)."""
    return [(title, build_view(window, key)) for key, title, _module, _name in VIEWS]


def wants(changes: object, flag: str) -> bool:
    """Whether a view should refresh for ``changes`` (``None`` means everything)."""
    return changes is None or bool(getattr(changes, flag, False))
