"""The painted boards of the procedure panels (foraging's tableau, delving's path): a
picture the keyboard can walk item by item, its colours, and the scroll area and labels
a board panel is laid out with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QHelpEvent,
    QKeyEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QToolTip, QWidget

from companion.ui.procedure_panels.panel import scaled_font
from companion.ui.widgets import note_label


@dataclass
class BoardItem:
    """Something on a painted board the keyboard can reach: where it is, what it says."""

    rect: QRectF
    text: str


class Board(QWidget):
    """A painted, read-only picture of a procedure that the keyboard can walk.

    Tab gives it the focus; the arrow keys (and Home/End) move from item to item; the
    item under the focus is its accessible description (and ``on_current`` is told, so
    the panel can print it); hovering an item shows the same text as a tooltip. Every
    size comes from the widget's font, so the picture grows with the system font."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName(name)
        self.items: list[BoardItem] = []
        self.current = -1
        self.on_current: Any = None
        self._size = QSize(0, 0)

    # -- subclasses ----------------------------------------------------------------------

    def relayout(self) -> None:
        """Recompute ``items`` and the size from the data and the font."""

    def summary(self) -> str:
        """What the whole board shows, in words."""
        return ""

    # -- size, focus, keys, tooltips ------------------------------------------------------

    def set_board_size(self, size: QSize) -> None:
        self._size = size
        self.setMinimumSize(size)
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return self._size

    def changeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange):
            self.relayout()
            self.update()

    def refresh_items(self) -> None:
        if self.current >= len(self.items):
            self.current = len(self.items) - 1
        self.setAccessibleDescription(self.summary())
        self._announce()

    def current_text(self) -> str:
        if 0 <= self.current < len(self.items):
            return self.items[self.current].text
        return ""

    def _announce(self) -> None:
        text = self.current_text()
        if text and self.hasFocus():
            self.setAccessibleDescription(text)
        if self.on_current is not None:
            self.on_current(text if self.hasFocus() else "")

    def move_to(self, index: int) -> None:
        if not self.items:
            return
        self.current = max(0, min(index, len(self.items) - 1))
        self._announce()
        rect = self.items[self.current].rect
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        if isinstance(parent, QScrollArea):
            centre = rect.center().toPoint()
            parent.ensureVisible(centre.x(), centre.y(), int(rect.width() / 2) + 8,
                                 int(rect.height() / 2) + 8)
        self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        key = event.key()
        if key in (Qt.Key.Key_Right, Qt.Key.Key_Down):
            self.move_to(self.current + 1)
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Up):
            self.move_to(max(0, self.current - 1))
        elif key == Qt.Key.Key_Home:
            self.move_to(0)
        elif key == Qt.Key.Key_End:
            self.move_to(len(self.items) - 1)
        else:
            super().keyPressEvent(event)

    def focusInEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().focusInEvent(event)
        if self.current < 0 and self.items:
            self.current = 0
        self._announce()
        self.update()

    def focusOutEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().focusOutEvent(event)
        self.setAccessibleDescription(self.summary())
        if self.on_current is not None:
            self.on_current("")
        self.update()

    def item_at(self, point: QPointF) -> int:
        # Later items are drawn on top (chips over their card): the last hit wins.
        for index in range(len(self.items) - 1, -1, -1):
            if self.items[index].rect.contains(point):
                return index
        return -1

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            assert isinstance(event, QHelpEvent)
            index = self.item_at(QPointF(event.pos()))
            if index >= 0:
                QToolTip.showText(event.globalPos(), self.items[index].text, self,
                                  self.items[index].rect.toRect())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def paint_focus(self, painter: QPainter) -> None:
        if not self.hasFocus() or not 0 <= self.current < len(self.items):
            return
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), 2, Qt.PenStyle.DotLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        grow = self.fontMetrics().height() / 6
        painter.drawRoundedRect(self.items[self.current].rect.adjusted(-grow, -grow, grow, grow),
                                grow, grow)


def colours() -> dict[str, QColor]:
    """The boards' colours, for the light or the dark palette (each state also has a
    mark or a word, never colour alone)."""
    from companion.ui import theme

    if theme.is_dark():
        return {"reach": QColor("#1f4d2b"), "reach_edge": QColor("#6fcf86"),
                "chosen": QColor("#f2c14e"), "predator": QColor("#ff7b72"),
                "predator_fill": QColor("#5a2323"), "path": QColor("#d8a657"),
                "path_fill": QColor("#4a3a1c"), "forced": QColor("#f2c14e"),
                "band": QColor(255, 255, 255, 14), "taken": QColor("#2f4f7a")}
    return {"reach": QColor("#dcf3dc"), "reach_edge": QColor("#2e7d32"),
            "chosen": QColor("#b8860b"), "predator": QColor("#c62828"),
            "predator_fill": QColor("#fde2e0"), "path": QColor("#8d5a1a"),
            "path_fill": QColor("#f3e3c6"), "forced": QColor("#b8860b"),
            "band": QColor(0, 0, 0, 12), "taken": QColor("#d6e6fb")}


def paint_arrow(painter: QPainter, start: QPointF, end: QPointF, size: float,
                colour: QColor) -> None:
    """An arrowhead of ``size`` at ``end``, pointing away from ``start``."""
    line = end - start
    length = (line.x() ** 2 + line.y() ** 2) ** 0.5
    if length < 1:
        return
    ux, uy = line.x() / length, line.y() / length
    tip = end
    bx, by = tip.x() - ux * size, tip.y() - uy * size
    left = QPointF(bx - uy * size * 0.6, by + ux * size * 0.6)
    right = QPointF(bx + uy * size * 0.6, by - ux * size * 0.6)
    path = QPainterPath(tip)
    path.lineTo(left)
    path.lineTo(right)
    path.closeSubpath()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawPath(path)


def scroll_area(board: QWidget) -> QScrollArea:
    """``board`` in a frameless scroll area, on the panel's own background."""
    area = QScrollArea()
    area.setWidget(board)
    area.setWidgetResizable(True)
    # The board lies on the panel's own background (setWidget turns filling on).
    board.setAutoFillBackground(False)
    area.viewport().setAutoFillBackground(False)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return area


def wrapped(parent_font: QFont | None = None, *, bold: bool = False, name: str = "") -> QLabel:
    """A selectable label that wraps (larger and bold for a header), named ``name`` for
    screen readers."""
    label = note_label(name=name, selectable=True)
    if parent_font is not None:
        label.setFont(scaled_font(parent_font, 1.1 if bold else 1.0, bold=bold))
    return label


def focus_line(board: Board, name: str) -> QLabel:
    """A wrapped line that prints what the item under ``board``'s keyboard focus says
    (hidden while nothing is focused)."""
    label = wrapped(name=name)
    label.hide()

    def show(text: str) -> None:
        label.setText(text)
        label.setVisible(bool(text))

    board.on_current = show
    return label
