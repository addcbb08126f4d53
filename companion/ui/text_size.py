"""The text size setting (Edit ▸ Settings ▸ Text size; issue 27 item 13): the whole
interface's font, in percent of the system font.

Contract: :func:`apply` sets the application font to the system font scaled by the
percentage; the system font is remembered the first time, so applying 125 then 100 gives
the system font back. Call it once the ``QApplication`` exists, and again when the
setting changes (windows opened afterwards, and every widget that keeps the application
font, take the new size at once).
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

_BASE = "companionSystemFontPointSize"
"""The application property that remembers the system font's point size."""


def system_point_size(app: QApplication) -> float:
    """The system font's point size (before any text size was applied)."""
    value = app.property(_BASE)
    if isinstance(value, int | float) and value > 0:
        return float(value)
    size = app.font().pointSizeF()
    app.setProperty(_BASE, size)
    return size


def apply(app: QApplication, percent: int) -> None:
    """Set the interface's text to ``percent`` of the system font."""
    base = system_point_size(app)
    font = app.font()
    wanted = base * percent / 100
    if abs(font.pointSizeF() - wanted) > 0.01:
        font.setPointSizeF(wanted)
        app.setFont(font)


def current(app: QApplication) -> int:
    """The text size in force, in percent of the system font."""
    return round(app.font().pointSizeF() / system_point_size(app) * 100)
