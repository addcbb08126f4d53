"""Windows that fit a 1366×768 laptop (issue 20): every window asks for at most
:data:`LAPTOP_WINDOW`, and never for more than the screen it opens on has room for.

The numbers leave room for a title bar and a desktop panel: a window sized
1366×768 itself would lose its status bar and its Close button under them.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget

LAPTOP = QSize(1366, 768)
"""The smallest screen the companion is laid out for."""
DECORATION = QSize(0, 88)
"""A title bar (about 32 px) and a desktop panel or task bar (about 48 px), and a margin."""
LAPTOP_WINDOW = LAPTOP - DECORATION
"""The largest a window may ask to be: it fits the laptop's screen with its frame."""


def room(widget: QWidget) -> QSize:
    """The largest size ``widget`` may take: the laptop's window, or less where the
    screen it is on has less room (after its title bar)."""
    screen = widget.screen()
    limit = QSize(LAPTOP_WINDOW)
    if screen is not None:
        available = screen.availableGeometry().size() - QSize(0, 32)
        if available.width() > 0 and available.height() > 0:
            limit = limit.boundedTo(available)
    return limit


def fit_resize(widget: QWidget, width: int, height: int) -> None:
    """``widget.resize(width, height)``, made smaller where that would not fit."""
    widget.resize(QSize(width, height).boundedTo(room(widget)))
