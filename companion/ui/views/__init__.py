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


NEVER_SHOWN: tuple[tuple[str, str], ...] = (("rng_state", "*"),)
"""What no view shows: the seeded generator's state (a draw writes it)."""

LORE: tuple[tuple[str, str], ...] = (("society", "lore"), *NEVER_SHOWN)
"""What the views that do not show the lore track may leave (issue 37: a lore change
must not reread the whole map)."""


def relevant(changes: object, flags: tuple[str, ...],
             ignored: tuple[tuple[str, str], ...] = NEVER_SHOWN,
             shows: frozenset[str] | None = None) -> bool:
    """Whether a view showing what ``flags`` name should refresh for ``changes``: by
    exactly what was written when the Changes say (``written``; (table, column) pairs in
    ``ignored`` are not shown by the view; with ``shows``, only those tables are), else
    by the flags (``None``: everything)."""
    if changes is None:
        return True
    written = getattr(changes, "written", None)
    if written is not None:
        if shows is not None and not written.tables & shows:
            return False
        return bool(written.touches(ignored))
    return any(wants(changes, flag) for flag in flags)
