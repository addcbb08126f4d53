"""A material token's face drawn as on the table: its edges' pips in their colours
(Rulebook: Crafting Items). Shared by the crafting explorer
(:mod:`companion.ui.crafting_dialog`) and the material token editor
(:mod:`companion.ui.material_token`), neither of which imports the other for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from companion.ui.theme import pip_letter

if TYPE_CHECKING:
    from companion.content.schema.world import Pip
    from companion.rules.crafting import MaterialFace

# Pip colours: (fill, text on it, letter). The letter is always drawn with the colour.
PIP_STYLE: dict[str, tuple[str, str, str]] = {
    "red": ("#c0392b", "#ffffff", "R"),
    "blue": ("#2f6db5", "#ffffff", "B"),
    "yellow": ("#f2c12e", "#000000", "Y"),
    "purple": ("#7d5ba6", "#ffffff", "P"),
    "grey": ("#6b6f75", "#ffffff", "G"),
    "green": ("#2e8b3a", "#ffffff", "Gn"),
    "orange": ("#e07b1f", "#000000", "O"),
    "silver": ("#b8bec6", "#000000", "S"),
}
SIDE_FILL = {False: "#e9dcc3", True: "#f6eed9"}
"""Token face backgrounds: unprocessed (brown-ish) and processed (lighter)."""



def pip_text(pip: Pip | None) -> str:
    """A pip in words with its colour letter: "R red diamond ×1", "bare edge"."""
    if pip is None:
        return "bare edge"
    colour = str(pip.colour.value if hasattr(pip.colour, "value") else pip.colour)
    shape = "" if pip.shape is None else " " + str(getattr(pip.shape, "value", pip.shape))
    letter = pip_letter(colour)
    count = "null pip (0)" if pip.count == 0 else f"×{pip.count}"
    return f"{letter} {colour}{shape} {count}"


def face_text(face: MaterialFace, rotation: int = 0) -> str:
    """The four edges of a face as turned, in words (accessible description)."""
    from companion.content.schema.base import Edge

    parts = [f"{edge.value}: {pip_text(face.edge(edge, rotation))}" for edge in
             (Edge.TOP, Edge.RIGHT, Edge.BOTTOM, Edge.LEFT)]
    return "; ".join(parts)


def _fitted(base: QFont, text: str, width: float, pixels: int, *, bold: bool) -> QFont:
    """``base`` at ``pixels`` (or smaller, down to 8) so that ``text`` fits ``width``."""
    from PySide6.QtGui import QFontMetricsF

    font = QFont(base)
    font.setBold(bold)
    for size in range(max(7, pixels), 6, -1):
        font.setPixelSize(size)
        if QFontMetricsF(font).horizontalAdvance(text) <= width:
            break
    return font


def _shape_path(shape: str | None, centre: QPointF, r: float) -> QPainterPath:
    path = QPainterPath()
    x, y = centre.x(), centre.y()
    if shape is None:  # no shape recorded: a plain dot
        path.addEllipse(centre, r * 0.7, r * 0.7)
    elif shape == "circle":
        path.addEllipse(centre, r, r)
    elif shape == "square":
        path.addRect(QRectF(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7))
    elif shape == "diamond":
        path.addPolygon(QPolygonF([QPointF(x, y - r), QPointF(x + r, y), QPointF(x, y + r),
                                   QPointF(x - r, y), QPointF(x, y - r)]))
    else:  # triangle
        path.addPolygon(QPolygonF([QPointF(x, y - r), QPointF(x + r, y + r * 0.8),
                                   QPointF(x - r, y + r * 0.8), QPointF(x, y - r)]))
    return path


class TokenFace(QWidget):
    """A material token drawn as a square with the pips on its four edges: shape, count
    (a hollow shape for the null pip) and a badge with the colour letter and count.

    Focusable: Left / Q / [ turn it counterclockwise, Right / E / ] clockwise.
    """

    clicked = Signal()
    rotate_requested = Signal(int)
    """+1 clockwise, -1 counterclockwise (from the keyboard)."""

    def __init__(self, lines: float = 9.0, parent: QWidget | None = None, *,
                 at_least: float | None = None) -> None:
        super().__init__(parent)
        # the token's side is counted in text lines, so it scales with the system font
        size = round(self.fontMetrics().height() * lines)
        self._side = size
        self._hint = QSize(size, size)
        self.face: MaterialFace | None = None
        self.rotation = 0
        self.title = ""
        self.name = ""
        """The material's name as the pack spells it (drawn in the middle)."""
        self.selected_as = ""
        """"left" or "right" when the token is laid there (the palette)."""
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        if at_least is None:
            self.setFixedSize(QSize(size, size))
            self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        else:
            # sized from the room the window has: ``lines`` where there is room for it,
            # down to ``at_least`` lines on a small screen or with a large font
            least = round(self.fontMetrics().height() * at_least)
            self.setMinimumSize(QSize(least, least))
            self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(self._hint)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        # drawn as a square as large as the widget allows, up to its hint
        self._side = min(self.width(), self.height(), self._hint.width())
        super().resizeEvent(event)

    def set_face(self, face: MaterialFace | None, rotation: int = 0, title: str = "",
                 name: str = "") -> None:
        self.face, self.rotation, self.title, self.name = face, rotation % 4, title, name
        text = "no token" if face is None else f"{title or face}: {face_text(face, rotation)}"
        self.setAccessibleName(title or "token")
        self.setAccessibleDescription(text)
        self.setToolTip(text)
        self.update()

    def mousePressEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        self.setFocus()
        self.clicked.emit()
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        key = event.key()
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Q, Qt.Key.Key_BracketLeft):
            self.rotate_requested.emit(-1)
        elif key in (Qt.Key.Key_Right, Qt.Key.Key_E, Qt.Key.Key_BracketRight):
            self.rotate_requested.emit(1)
        elif key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.clicked.emit()
        else:
            super().keyPressEvent(event)

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        from companion.content.schema.base import Edge

        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        s = float(self._side)
        painter.translate((self.width() - s) / 2, (self.height() - s) / 2)
        box = QRectF(3, 3, s - 6, s - 6)
        if self.face is None:
            painter.setPen(QPen(self.palette().mid().color(), 2, Qt.PenStyle.DashLine))
            painter.drawRoundedRect(box, 8, 8)
            painter.setPen(self.palette().text().color())
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                             "choose a\ntoken")
            return
        painter.setBrush(QColor(SIDE_FILL[self.face.processed]))
        border = QColor("#1b5e9a") if self.hasFocus() else QColor("#5a4a32")
        painter.setPen(QPen(border, 4 if self.hasFocus() or self.selected_as else 2))
        painter.drawRoundedRect(box, 8, 8)
        # centre: name and side, shrunk to fit between the side badges
        painter.setPen(QColor("#000000"))
        middle = QRectF(s * 0.25, s * 0.3, s * 0.5, s * 0.24)
        name = self.name or self.face.material
        side = "processed" if self.face.processed else "unprocessed"
        font = _fitted(self.font(), name, middle.width(), int(s * 0.1), bold=True)
        painter.setFont(font)
        painter.drawText(middle, Qt.AlignmentFlag.AlignCenter, name)
        small = _fitted(self.font(), side, middle.width(), int(s * 0.08), bold=False)
        painter.setFont(small)
        painter.drawText(QRectF(s * 0.25, s * 0.52, s * 0.5, s * 0.14),
                         Qt.AlignmentFlag.AlignCenter, side)
        if self.selected_as:
            painter.setFont(small)
            painter.drawText(QRectF(s * 0.25, s * 0.64, s * 0.5, s * 0.12),
                             Qt.AlignmentFlag.AlignCenter, self.selected_as)
        for edge in (Edge.TOP, Edge.RIGHT, Edge.BOTTOM, Edge.LEFT):
            self._paint_edge(painter, edge, self.face.edge(edge, self.rotation), s)
        painter.end()

    def _paint_edge(self, painter: QPainter, edge: Any, pip: Pip | None, s: float) -> None:
        from companion.content.schema.base import Edge

        r = s * 0.035
        step = r * 2.6
        badge_w, badge_h = s * 0.2, s * 0.13
        horizontal = edge in (Edge.TOP, Edge.BOTTOM)
        if pip is None:
            return
        colour = pip.colour.value
        fill, ink, _ = PIP_STYLE[colour]
        letter = pip_letter(colour)
        if len(letter) > 1:  # "Gn": a wider badge
            badge_w = s * 0.27
        count = max(1, pip.count)
        # up to nine pips: closer together (and smaller) where many share an edge
        if count > 1:
            step = min(step, s * 0.5 / (count - 1))
            r = min(r, step / 2.4)
        # the pips: in a row along the edge
        if horizontal:
            y = s * 0.12 if edge is Edge.TOP else s * 0.88
            start = s / 2 - step * (count - 1) / 2 - badge_w * 0.6
            centres = [QPointF(start + step * i, y) for i in range(count)]
            badge = QRectF(start + step * (count - 1) + r * 1.8, y - badge_h / 2, badge_w,
                           badge_h)
        else:
            x = s * 0.12 if edge is Edge.LEFT else s * 0.88
            start = s / 2 - step * (count - 1) / 2 - badge_h * 0.8
            centres = [QPointF(x, start + step * i) for i in range(count)]
            badge = QRectF(x - badge_w / 2, start + step * (count - 1) + r * 1.8, badge_w,
                           badge_h)
        for centre in centres:
            path = _shape_path(pip.shape.value if pip.shape else None, centre, r)
            if pip.count == 0:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(QColor(fill).darker(130), 1.6))
            else:
                painter.setBrush(QColor(fill))
                painter.setPen(QPen(QColor("#000000"), 0.8))
            painter.drawPath(path)
        painter.setBrush(QColor(fill))
        painter.setPen(QPen(QColor("#000000"), 0.8))
        painter.drawRoundedRect(badge, 3, 3)
        font = QFont(self.font())
        font.setPixelSize(max(9, int(badge_h * 0.8)))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor(ink))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, f"{letter}{pip.count}")
