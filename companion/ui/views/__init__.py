"""The main window's views, one module each. Each view refreshes itself from the open
campaign when ``Host.campaign_changed`` carries a flag it cares about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from companion.ui.host import Host


def build_views(window: Host) -> list[tuple[str, QWidget]]:
    """The views of the main window, in tab order."""
    from companion.ui.behemoth_panel import BehemothPanel
    from companion.ui.views.characters import CharactersView
    from companion.ui.views.day import DayView
    from companion.ui.views.journal import JournalView
    from companion.ui.views.society import SocietyView
    from companion.ui.views.valley import ValleyView

    return [
        ("&Valley", ValleyView(window)),
        ("&Characters", CharactersView(window)),
        ("&Day", DayView(window)),
        ("&Journal", JournalView(window)),
        ("&Society", SocietyView(window)),
        ("&Behemoth", BehemothPanel(window)),
    ]


def wants(changes: object, flag: str) -> bool:
    """Whether a view should refresh for ``changes`` (``None`` means everything)."""
    return changes is None or bool(getattr(changes, flag, False))
