"""The valley map's pieces: one ``QGraphicsItem`` per hex, per character, the behemoth and
its target, and the ghost trays of a planned exploration.

Contract: every item is built once from a small frozen *state* value and updated in place
with ``set_state`` (which repaints only when the state differs), so the scene is never
rebuilt for a move. ``ITEMS_CREATED`` counts constructions, for tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsPolygonItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from companion.paths import shipped_asset
from companion.rules.geometry import Axial, hex_corners, pixel_centre

HEX_SIZE = 64.0
"""Circumradius of a hex in scene units."""

ICONS = shipped_asset("icons")

ITEMS_CREATED = {"count": 0}
"""Number of map items constructed so far (tests check a move creates none)."""

REGION_COLOURS = {"emberfen": "#9cc38a", "thornspire": "#a9b4c6"}
_FALLBACK = ("#c9b37e", "#b7a3c9", "#8fc1bd", "#d6a08a")
PLAYER_COLOURS = ("#d84a3a", "#2f7fd0", "#e0a320", "#3aa35a", "#9a4fc2", "#e06aa8")

_renderers: dict[str, QSvgRenderer | None] = {}


def icon(name: str) -> QSvgRenderer | None:
    """The shared renderer of ``assets/icons/<name>.svg`` (None if there is no such icon)."""
    if name not in _renderers:
        path = ICONS / f"{name}.svg"
        renderer = QSvgRenderer(str(path)) if path.exists() else None
        _renderers[name] = renderer if renderer is not None and renderer.isValid() else None
    return _renderers[name]


def region_colour(region: str) -> QColor:
    if region in REGION_COLOURS:
        return QColor(REGION_COLOURS[region])
    return QColor(_FALLBACK[sum(map(ord, region)) % len(_FALLBACK)])


def centre(cell: Axial) -> QPointF:
    x, y = pixel_centre(cell, HEX_SIZE)
    return QPointF(x, y)


def hex_polygon(cell: Axial, size: float = HEX_SIZE) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in hex_corners(cell, size)])


def cell_at(x: float, y: float) -> Axial:
    """The hex under a scene point (flat-top axial rounding)."""
    q = (2.0 / 3.0 * x) / HEX_SIZE
    r = (-1.0 / 3.0 * x + math.sqrt(3.0) / 3.0 * y) / HEX_SIZE
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Axial(int(rq), int(rr))


# Section A covers edges 0-1 (corners 0, 1, 2), B edges 2-3 (corners 2, 3, 4), C edges 4-5
# (corners 4, 5, 0): companion.rules.exploration.DEFAULT_SECTIONS.
SECTION_CORNERS = {"a": (0, 1, 2), "b": (2, 3, 4), "c": (4, 5, 0)}


@dataclass(frozen=True)
class SectionState:
    section: str
    feature: str | None
    """Feature id (its icon's name) or None for an empty section."""
    feature_name: str = ""
    overlay: str | None = None
    """Icon of what covers it: 'outpost', 'ruin', 'lair' or 'other'."""
    overlay_name: str = ""


@dataclass(frozen=True)
class HexState:
    """Everything a hex shows."""

    cell: Axial
    tile: str | None
    region: str
    explored: bool
    sections: tuple[SectionState, ...] = ()
    fire: bool = False
    shelter: bool = False
    lore: int = 0
    selected: bool = False


class HexItem(QGraphicsItem):
    """One hex: region colour, fog or its three sections with feature icons, overlays,
    tokens and the tile id on its bottom (ID) edge."""

    def __init__(self, state: HexState) -> None:
        super().__init__()
        ITEMS_CREATED["count"] += 1
        self.state = state
        self.cell = state.cell
        self._polygon = hex_polygon(state.cell)
        self.setZValue(1 if state.selected else 0)
        self.setAcceptHoverEvents(False)

    def set_state(self, state: HexState) -> bool:
        """Show ``state``; returns whether anything changed (and was repainted)."""
        if state == self.state:
            return False
        self.state = state
        self.setZValue(1 if state.selected else 0)  # its outline above the neighbours'
        self.update()
        return True

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        return self._polygon.boundingRect().adjusted(-3, -3, 3, 3)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(self._polygon)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,  # noqa: D102
              widget: QWidget | None = None) -> None:
        state = self.state
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        base = region_colour(state.region)
        corners = [QPointF(x, y) for x, y in hex_corners(state.cell, HEX_SIZE)]
        mid = centre(state.cell)
        if not state.explored:
            painter.setPen(QPen(base.darker(160), 2))
            painter.setBrush(QBrush(base.darker(125)))
            painter.drawPolygon(self._polygon)
            # the mist: pale bands across a face-down tile
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(235, 238, 242, 150))
            painter.drawPolygon(self._polygon)
            painter.setPen(QPen(QColor(255, 255, 255, 170), 5, Qt.PenStyle.SolidLine,
                                Qt.PenCapStyle.RoundCap))
            for dy in (-22, 0, 22):
                painter.drawLine(QPointF(mid.x() - 34, mid.y() + dy),
                                 QPointF(mid.x() + 30, mid.y() + dy - 6))
            font = QFont()
            font.setPointSizeF(13)
            font.setBold(True)
            painter.setFont(font)
            painter.setPen(QColor(60, 60, 70, 110))
            # A face-down tile's ID is not known at the table until it is explored.
            painter.drawText(QRectF(mid.x() - 40, mid.y() - 14, 80, 28),
                             Qt.AlignmentFlag.AlignCenter, "?")
        else:
            painter.setPen(QPen(base.darker(170), 2))
            painter.setBrush(QBrush(base.lighter(112)))
            painter.drawPolygon(self._polygon)
            for section in state.sections:
                a, b, c = (corners[i] for i in SECTION_CORNERS[section.section])
                rhomb = QPolygonF([mid, a, b, c])
                shade = base.lighter(104 if section.section == "a" else
                                     96 if section.section == "b" else 100)
                painter.setPen(QPen(base.darker(130), 0.8, Qt.PenStyle.DotLine))
                painter.setBrush(shade)
                painter.drawPolygon(rhomb)
                spot = QPointF((mid.x() + b.x()) / 2, (mid.y() + b.y()) / 2)
                box = QRectF(spot.x() - 15, spot.y() - 15, 30, 30)
                renderer = icon(section.feature) if section.feature else None
                if renderer is not None:
                    renderer.render(painter, box)
                if section.overlay is not None:
                    painter.setPen(QPen(QColor(60, 40, 20), 1.2))
                    painter.setBrush(QColor(250, 240, 220, 215))
                    painter.drawPolygon(rhomb)
                    cover = icon(section.overlay)
                    if cover is not None:
                        cover.render(painter, box.adjusted(-2, -2, 2, 2))
            painter.setPen(QPen(base.darker(170), 2.2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(self._polygon)
        self._paint_tokens(painter, mid)
        if state.selected:
            painter.setPen(QPen(QColor("#ffb300"), 4))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(hex_polygon(state.cell, HEX_SIZE - 2))
        if state.explored:
            # the ID sits on the bottom edge (Rulebook: Valley > Hexes)
            font = QFont()
            font.setPointSizeF(8.5)
            font.setBold(True)
            painter.setFont(font)
            tag = QRectF(mid.x() - 17, mid.y() + HEX_SIZE * 0.866 - 17, 34, 13)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 255, 255, 200))
            painter.drawRoundedRect(tag, 3, 3)
            painter.setPen(QColor(30, 30, 30))
            painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, state.tile or "?")

    def _paint_tokens(self, painter: QPainter, mid: QPointF) -> None:
        state = self.state
        tokens = [n for n, on in (("fire", state.fire), ("shelter", state.shelter),
                                  ("lore", state.lore > 0)) if on]
        # along the upper-left edge, clear of the three section icons and the pieces
        spots = ((-40.0, -24.0), (-24.0, -42.0), (-6.0, -46.0))
        for name, (dx, dy) in zip(tokens, spots, strict=False):
            x, y = mid.x() + dx - 9, mid.y() + dy - 9
            box = QRectF(x, y, 18, 18)
            painter.setPen(QPen(QColor(40, 40, 40), 1))
            painter.setBrush(QColor(255, 255, 255, 230))
            painter.drawEllipse(box.adjusted(-1, -1, 1, 1))
            renderer = icon(name)
            if renderer is not None:
                renderer.render(painter, box.adjusted(2, 2, -2, -2))
            if name == "lore" and state.lore > 1:
                font = QFont()
                font.setPointSizeF(7)
                font.setBold(True)
                painter.setFont(font)
                painter.setPen(QColor(20, 20, 20))
                painter.setBrush(QColor("#ffe082"))
                badge = QRectF(box.right() - 7, box.bottom() - 8, 11, 11)
                painter.drawEllipse(badge)
                painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(state.lore))


@dataclass(frozen=True)
class PieceState:
    name: str
    initials: str
    colour: str
    cell: Axial
    slot: int
    """Its place among the pieces in the same hex (0, 1, ...)."""
    incapacitated: bool = False


PIECE_RADIUS = 12.0
# Pieces stand in the gaps between the three section icons (towards corners 0, 2, 4).
_SLOTS = ((-11, -20), (28, 0), (-14, 22), (2, 2), (8, -38), (-36, 10))
PIECE_PLACES = len(_SLOTS)
"""How many places a hex has for pieces (characters, then the behemoth and target)."""


def piece_position(cell: Axial, slot: int) -> QPointF:
    dx, dy = _SLOTS[slot % len(_SLOTS)]
    base = centre(cell)
    return QPointF(base.x() + dx, base.y() + dy)


class CharacterPiece(QGraphicsEllipseItem):
    """A character's miniature: their initials in a circle of their player's colour.
    Drag it onto an adjacent hex to move there (the side panel confirms the cost)."""

    def __init__(self, state: PieceState, on_drop: Any) -> None:
        super().__init__(-PIECE_RADIUS, -PIECE_RADIUS, 2 * PIECE_RADIUS, 2 * PIECE_RADIUS)
        ITEMS_CREATED["count"] += 1
        self.state = state
        self._on_drop = on_drop
        self.setZValue(10)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.label = QGraphicsSimpleTextItem(self)
        self.label.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        font = QFont()
        font.setBold(True)
        font.setPointSizeF(9)
        self.label.setFont(font)
        self.label.setBrush(QColor("white"))
        self._apply(state)

    def _apply(self, state: PieceState) -> None:
        colour = QColor(state.colour)
        if state.incapacitated:
            colour = colour.darker(180)
        self.setBrush(colour)
        self.setPen(QPen(QColor(20, 20, 20), 2))
        self.label.setText(state.initials)
        rect = self.label.boundingRect()
        self.label.setPos(-rect.width() / 2, -rect.height() / 2)
        self.setToolTip(state.name)
        self.setPos(piece_position(state.cell, state.slot))

    def set_state(self, state: PieceState) -> bool:
        if state == self.state:
            return False
        self.state = state
        self._apply(state)
        return True

    def mouseReleaseEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().mouseReleaseEvent(event)
        dropped = cell_at(self.pos().x(), self.pos().y())
        self.setPos(piece_position(self.state.cell, self.state.slot))  # until confirmed
        if dropped != self.state.cell:
            self._on_drop(self.state.name, dropped)


class BehemothPiece(QGraphicsObject):
    """The behemoth's miniature (its icon in a ring)."""

    def __init__(self, name: str, cell: Axial) -> None:
        super().__init__()
        ITEMS_CREATED["count"] += 1
        self.name = name
        self.cell = cell
        self.setZValue(9)
        self.setToolTip(name)
        self.setPos(centre(cell))  # the scene puts it clear of the pieces there
        self.setToolTip(self.name)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF(-16, -16, 32, 32)

    def paint(self, painter: QPainter, option: Any, widget: Any = None) -> None:  # noqa: D102
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#2a1736"), 2.5))
        painter.setBrush(QColor("#f3e9ff"))
        painter.drawEllipse(QRectF(-15, -15, 30, 30))
        renderer = icon("behemoth")
        if renderer is not None:
            renderer.render(painter, QRectF(-12, -12, 24, 24))


class TargetMarker(QGraphicsObject):
    """The behemoth's target token, on a hex or a character."""

    def __init__(self) -> None:
        super().__init__()
        ITEMS_CREATED["count"] += 1
        self.setZValue(11)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF(-8, -8, 16, 16)  # small: it sits beside a piece, not over it

    def paint(self, painter: QPainter, option: Any, widget: Any = None) -> None:  # noqa: D102
        renderer = icon("target")
        if renderer is not None:
            renderer.render(painter, self.boundingRect())


class GhostTray(QGraphicsPolygonItem):
    """A planned new tray: three dashed hexes (one polygon per hex, children)."""

    def __init__(self, cells: tuple[Axial, ...], *, chosen: bool = False) -> None:
        super().__init__()
        ITEMS_CREATED["count"] += 1
        self.cells = cells
        self.setZValue(6 if chosen else 5)
        colour = QColor("#ff8f00") if chosen else QColor(40, 70, 120, 120)
        for cell in cells:
            part = QGraphicsPolygonItem(hex_polygon(cell, HEX_SIZE - 4), self)
            if chosen:
                part.setPen(QPen(colour, 3, Qt.PenStyle.DashLine))
                fill = QColor(colour)
                fill.setAlpha(60)
                part.setBrush(fill)
            else:  # the other legal trays: faint outlines only, so overlaps stay readable
                part.setPen(QPen(colour, 1.5, Qt.PenStyle.DotLine))
