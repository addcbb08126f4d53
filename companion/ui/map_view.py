"""The interactive valley map: flat-top hexes, fog, feature icons, overlays, tokens,
character pieces, the behemoth; pan and zoom; and PNG export.

Contracts:

* ``companion.ui.map_read`` reads what the map shows (:class:`MapData`, plain frozen
  values; :func:`read_map` is here too).
* :class:`MapScene` keeps one item per hex, per character piece, the behemoth and its
  target; :meth:`MapScene.sync` updates them in place (a character's move repositions
  one piece, creating nothing). ``map_items.ITEMS_CREATED`` counts constructions.
* :class:`MapView` pans (drag empty space with the left or middle button, arrow keys),
  zooms (wheel, Ctrl+= / Ctrl+-, Ctrl+0 fits the valley), emits ``hex_clicked(Axial)``
  and ``piece_dropped(name, Axial)``; it never writes: the Valley view runs operations.
* :func:`render_valley_png` draws the same scene offscreen into a PNG;
  :func:`grid_text` is the journal's Valley Map (hex IDs in grid rows) as text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QKeySequence, QPainter, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QLabel,
)

from companion.rules.geometry import Axial, pixel_bounds
from companion.rules.ids import HexId
from companion.ui.map_items import (
    HEX_SIZE,
    PIECE_PLACES,
    PIECE_RADIUS,
    BehemothPiece,
    CharacterPiece,
    GhostTray,
    HexItem,
    HexState,
    TargetMarker,
    cell_at,
    centre,
    piece_position,
)
from companion.ui.map_read import LairNote, MapData, read_map

if TYPE_CHECKING:
    from companion.operations import Campaign
    from companion.rules.exploration import Valley

BACKGROUND = QColor("#eae3d2")


BEHEMOTH_RADIUS = 16.0
"""The behemoth's miniature on the map (its ring and pen)."""
TARGET_RADIUS = 8.0
"""The target token on the map."""


# --- the scene ---------------------------------------------------------------------------


ODDS_KEY = ("◆ {chance} on a hex: the chance the behemoth ends its next activation there "
            "(the Behemoth tab has the rest)")
"""The map key; ``{chance}`` is a badge the map shows (issue 36 item 13: the key said
83% beside a hex showing 100%)."""


def odds_key(chances: list[float]) -> str:
    """The key, read from the likeliest badge on the map ("◆ 100% on a hex: ...")."""
    return ODDS_KEY.format(chance=f"{max(chances, default=0.0):.0%}")


class HexBadge(QGraphicsSimpleTextItem):
    """Bold words on the map, above the hexes and pieces, in ``colour``."""

    def __init__(self, colour: str) -> None:
        super().__init__()
        self.setZValue(12)
        font = self.font()
        font.setBold(True)
        self.setFont(font)
        self.setBrush(QColor(colour))


class OddsBadge(HexBadge):
    """'◆ 83%' on a hex: where the behemoth may end its next activation."""

    def __init__(self, cell: Axial) -> None:
        super().__init__("#4b1d5c")
        self.cell = cell
        self.chance = -1.0

    def set_chance(self, chance: float) -> None:
        if chance == self.chance:
            return
        self.chance = chance
        self.setText(f"◆ {chance:.0%}")
        self.setToolTip(f"The behemoth ends its next activation here with probability "
                        f"{chance:.1%}")
        base = centre(self.cell)
        rect = self.boundingRect()
        self.setPos(base.x() - rect.width() / 2, base.y() - HEX_SIZE * 0.78)


class LairBadge(HexBadge):
    """'Lair OG03 · zone B' under a hex: the overlay tile and zone the group wrote for
    the behemoth's lair (the web Journal's lairOverlay / lairZone)."""

    def __init__(self) -> None:
        super().__init__("#7a2e12")
        self.note: LairNote | None = None

    def set_note(self, note: LairNote, cell: Axial) -> None:
        self.note = note
        self.setText(note.badge)
        self.setToolTip(note.text)
        base = centre(cell)
        rect = self.boundingRect()
        self.setPos(base.x() - rect.width() / 2, base.y() + HEX_SIZE * 0.22)


class MapScene(QGraphicsScene):
    """The valley as graphics items, updated in place."""

    piece_dropped = Signal(str, object)
    """A character piece was dropped on another hex: (name, Axial)."""
    odds_shown = Signal(bool)
    """Whether the behemoth's end-of-activation odds are on the map now."""
    lair_noted = Signal(str)
    """The lair's note ("Mossback's lair: hex VV02, overlay tile OG03, zone B"), or ""."""

    def __init__(self) -> None:
        super().__init__()
        self.setBackgroundBrush(BACKGROUND)
        self.hex_items: dict[Axial, HexItem] = {}
        self.piece_items: dict[str, CharacterPiece] = {}
        self.behemoth_item: BehemothPiece | None = None
        self.odds_items: dict[str, OddsBadge] = {}
        self.target_item: TargetMarker | None = None
        self.lair_item: LairBadge | None = None
        self.lair_text = ""
        self.ghosts: list[GhostTray] = []
        self.selected: Axial | None = None
        self.data: MapData | None = None
        self.updated: list[str] = []
        """What the last :meth:`sync` touched ("hex (q, r)", "piece Ash" ...), for tests."""

    def _sync_items(self, items: dict[Any, Any], states: dict[Any, Any],
                    make: Callable[[Any], Any], word: str, *, say_removed: bool) -> None:
        """Match the scene's ``items`` of one kind (by key) to ``states``: create the
        missing ones, update the changed ones, drop the gone ones; each noted in
        ``updated`` as "new hex …", "hex …" (and "removed hex …" when ``say_removed``)."""
        for key, state in states.items():
            item = items.get(key)
            if item is None:
                item = items[key] = make(state)
                self.addItem(item)
                self.updated.append(f"new {word} {key}")
            elif item.set_state(state):
                self.updated.append(f"{word} {key}")
        for key in [k for k in items if k not in states]:
            self.removeItem(items.pop(key))
            if say_removed:
                self.updated.append(f"removed {word} {key}")

    def sync(self, data: MapData) -> None:
        """Show ``data``: create missing items, update changed ones, drop gone ones."""
        self.data = data
        self.updated = []
        hexes = [HexState(**{**state.__dict__, "selected": state.cell == self.selected})
                 for state in data.hexes]
        self._sync_items(self.hex_items, {state.cell: state for state in hexes}, HexItem,
                         "hex", say_removed=True)
        self._sync_items(self.piece_items, {piece.name: piece for piece in data.pieces},
                         lambda piece: CharacterPiece(piece, self._dropped), "piece",
                         say_removed=False)
        self._sync_behemoth(data)
        self._sync_lair(data)
        bounds = pixel_bounds(self.hex_items, HEX_SIZE)
        if bounds is not None:
            left, top, right, bottom = bounds
            pad = HEX_SIZE * 6
            self.setSceneRect(QRectF(left - pad, top - pad, right - left + 2 * pad,
                                     bottom - top + 2 * pad))

    def _sync_odds(self, data: MapData) -> None:
        """The preview of the behemoth's path this coming Night: the chance it ends in
        each hex, as a badge on the hex (updated in place like every other item)."""
        for tile in [t for t in self.odds_items if t not in data.behemoth_odds]:
            self.removeItem(self.odds_items.pop(tile))
        for tile, chance in data.behemoth_odds.items():
            if tile not in data.valley:
                continue
            badge = self.odds_items.get(tile)
            if badge is None:
                badge = OddsBadge(data.valley.locate(tile))  # type: ignore[arg-type]
                self.addItem(badge)
                self.odds_items[tile] = badge
            badge.set_chance(chance)

    def _sync_lair(self, data: MapData) -> None:
        """The lair's overlay tile and zone: a badge on its hex when the map has the
        hex, and the note (``lair_noted``) in any case."""
        note = data.lair
        cell = data.valley.locate(HexId(note.tile)) if note is not None and note.tile else None
        if cell is None:
            if self.lair_item is not None:
                self.removeItem(self.lair_item)
                self.lair_item = None
        else:
            if self.lair_item is None:
                self.lair_item = LairBadge()
                self.addItem(self.lair_item)
            assert note is not None
            self.lair_item.set_note(note, cell)
        text = note.text if note is not None else ""
        if text != self.lair_text:
            self.lair_text = text
            self.updated.append("lair")
        self.lair_noted.emit(text)

    def _sync_behemoth(self, data: MapData) -> None:
        self._sync_odds(data)
        self.odds_shown.emit(bool(self.odds_items))
        if data.behemoth is None:
            for item in (self.behemoth_item, self.target_item):
                if item is not None:
                    self.removeItem(item)
            self.behemoth_item = self.target_item = None
            return
        name, tile = data.behemoth
        cell = data.valley.locate(tile)  # type: ignore[arg-type]

        def is_clear(spot: QPointF, where: Any, radius: float,
                     also: tuple[QPointF, float] | None) -> bool:
            taken = [(piece_position(p.cell, p.slot), PIECE_RADIUS + 1)
                     for p in data.pieces if p.cell == where]
            if also is not None:
                taken.append(also)
            return all(math.dist(spot.toTuple(), other.toTuple()) >= radius + size
                       for other, size in taken)

        def clear_spot(where: Any, radius: float, also: tuple[QPointF, float] | None = None
                       ) -> QPointF:
            """The first piece place in ``where`` clear of the characters standing there
            (and of ``also``): places lie between the sections' icons."""
            for slot in range(PIECE_PLACES):
                spot = piece_position(where, slot)
                if is_clear(spot, where, radius, also):
                    return spot
            return piece_position(where, PIECE_PLACES - 1)

        if self.behemoth_item is None:
            self.behemoth_item = BehemothPiece(name, cell)
            self.addItem(self.behemoth_item)
            self.behemoth_item.setPos(clear_spot(cell, BEHEMOTH_RADIUS))
        elif self.behemoth_item.cell != cell or not is_clear(
                self.behemoth_item.pos(), cell, BEHEMOTH_RADIUS, None):
            # It moves only when it changes hex or a character steps onto its place.
            self.behemoth_item.cell = cell
            self.behemoth_item.setPos(clear_spot(cell, BEHEMOTH_RADIUS))
            self.updated.append("behemoth")
        here = self.behemoth_item.pos()
        spot: QPointF | None = None
        if data.target is not None:
            kind, what = data.target
            if kind == "hex" and what in data.valley:
                aim = data.valley.locate(what)  # type: ignore[arg-type]
                spot = clear_spot(aim, TARGET_RADIUS,
                                  (here, BEHEMOTH_RADIUS) if aim == cell else None)
            elif kind == "character" and what in self.piece_items:
                # Against the piece's rim, clear of its initials and of the other tokens,
                # on the side nearest the hex's middle (the sections' icons lie outwards).
                aimed = self.piece_items[what]
                piece, middle = aimed.pos(), centre(aimed.state.cell)
                reach = (PIECE_RADIUS + TARGET_RADIUS + 2) / math.sqrt(2)
                sides = sorted((QPointF(piece.x() + dx * reach, piece.y() + dy * reach)
                                for dx in (1, -1) for dy in (1, -1)),
                               key=lambda p: math.dist(p.toTuple(), middle.toTuple()))
                others = [(piece_position(p.cell, p.slot), PIECE_RADIUS + 1)
                          for p in data.pieces
                          if p.cell == aimed.state.cell and p.name != what]
                if self.behemoth_item.cell == aimed.state.cell:
                    others.append((here, BEHEMOTH_RADIUS))
                spot = next((side for side in sides
                             if all(math.dist(side.toTuple(), o.toTuple()) >= TARGET_RADIUS + r
                                    for o, r in others)), sides[0])
        if spot is None:
            if self.target_item is not None:
                self.removeItem(self.target_item)
                self.target_item = None
            return
        if self.target_item is None:
            self.target_item = TargetMarker()
            self.addItem(self.target_item)
        self.target_item.setPos(spot)

    def select(self, cell: Axial | None) -> None:
        """Outline the selected hex (repaints only the two hexes concerned)."""
        old, self.selected = self.selected, cell
        for target in (old, cell):
            item = self.hex_items.get(target) if target is not None else None
            if item is not None:
                item.set_state(HexState(**{**item.state.__dict__,
                                           "selected": target == cell}))

    def show_ghosts(self, trays: Sequence[tuple[Axial, ...]], chosen: int | None = None) -> None:
        """Show planned trays (ghosts) over the map; ``chosen`` is emphasised."""
        self.clear_ghosts()
        for i, cells in enumerate(trays):
            ghost = GhostTray(tuple(cells), chosen=i == chosen)
            self.addItem(ghost)
            self.ghosts.append(ghost)

    def clear_ghosts(self) -> None:
        for ghost in self.ghosts:
            self.removeItem(ghost)
        self.ghosts = []

    def _dropped(self, name: str, cell: Axial) -> None:
        self.piece_dropped.emit(name, cell)

    def content_rect(self) -> QRectF:
        """The valley's own extent (hexes, ghosts and pieces), with a small margin."""
        rect = QRectF()
        for item in self.hex_items.values():
            rect = rect.united(item.sceneBoundingRect())
        for ghost in self.ghosts:
            rect = rect.united(ghost.mapRectToScene(ghost.childrenBoundingRect()))
        return rect.adjusted(-HEX_SIZE * 0.4, -HEX_SIZE * 0.4, HEX_SIZE * 0.4, HEX_SIZE * 0.4)


# --- the view -----------------------------------------------------------------------------


class MapView(QGraphicsView):
    """Pan and zoom over a :class:`MapScene`; clicks name hexes."""

    hex_clicked = Signal(object)
    """A hex was clicked (its Axial, which may be outside the valley)."""

    ZOOM_STEP = 1.2

    def __init__(self, scene: MapScene | None = None) -> None:
        self.map_scene: MapScene = scene if scene is not None else MapScene()
        super().__init__(self.map_scene)
        if self.map_scene.parent() is None:
            self.map_scene.setParent(self)  # the view owns a scene it made
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Valley map")
        self.setToolTip("Click a hex for details. Drag empty space or use the arrow keys to "
                        "pan; wheel or Ctrl+= / Ctrl+- to zoom; Ctrl+0 fits the valley. "
                        "Drag a character onto a neighbouring hex to move.")
        # What "◆ 83%" means, in the map's corner while such badges are shown (issue 27
        # item 26); it stays put as the map pans and zooms.
        self.key = QLabel(odds_key([]), self.viewport())
        self.key.setObjectName("mapOddsKey")
        self.key.setAccessibleName("Map key")
        self.key.setWordWrap(True)
        self.key.setStyleSheet("QLabel#mapOddsKey { background: rgba(255, 255, 255, 215); "
                               "color: #4b1d5c; padding: 3px 6px; border-radius: 4px; }")
        self.key.hide()
        self.map_scene.odds_shown.connect(self._show_key)
        # The lair's overlay tile and zone as the group wrote them (issue 28), in the
        # top left corner; on the lair's hex too when the map has it.
        self.lair_label = QLabel("", self.viewport())
        self.lair_label.setObjectName("mapLairNote")
        self.lair_label.setAccessibleName("Lair")
        self.lair_label.setStyleSheet("QLabel#mapLairNote { background: rgba(255, 255, 255, "
                                      "215); color: #7a2e12; padding: 3px 6px; "
                                      "border-radius: 4px; }")
        self.lair_label.hide()
        self.map_scene.lair_noted.connect(self._show_lair)
        self._pan_from: QPoint | None = None
        self._pan_moved = 0
        self._pan_button = Qt.MouseButton.NoButton
        for keys, slot in ((("Ctrl+=", "Ctrl++"), self.zoom_in), (("Ctrl+-",), self.zoom_out),
                           (("Ctrl+0",), self.fit)):
            for key in keys:
                shortcut = QShortcut(QKeySequence(key), self)
                shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                shortcut.activated.connect(slot)

    def _show_lair(self, text: str) -> None:
        self.lair_label.setText(text)
        self.lair_label.adjustSize()
        self.lair_label.move(8, 8)
        self.lair_label.setVisible(bool(text))

    def _show_key(self, shown: bool) -> None:
        self.key.setText(odds_key([b.chance for b in self.map_scene.odds_items.values()]))
        self._place_key()
        self.key.setVisible(shown)

    def _place_key(self) -> None:
        width = min(self.viewport().width() - 16, self.key.fontMetrics().horizontalAdvance(
            self.key.text()) + 16)
        width = max(width, 40)
        words = self.key.fontMetrics().boundingRect(
            0, 0, width - 16, 10_000, int(Qt.TextFlag.TextWordWrap), self.key.text())
        self.key.setFixedSize(width, words.height() + 10)
        self.key.move(8, self.viewport().height() - self.key.height() - 8)  # bottom left

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._place_key()
        self.lair_label.move(8, 8)

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 (Qt's name)
        # Scrolling moves the viewport's child widgets too: the notes stay in the corners.
        super().scrollContentsBy(dx, dy)
        self._place_key()
        self.lair_label.move(8, 8)

    # zoom
    def zoom(self) -> float:
        return float(self.transform().m11())

    def zoom_by(self, factor: float) -> None:
        new = self.zoom() * factor
        if 0.15 <= new <= 6.0:
            self.scale(factor, factor)

    def zoom_in(self) -> None:
        self.zoom_by(self.ZOOM_STEP)

    def zoom_out(self) -> None:
        self.zoom_by(1 / self.ZOOM_STEP)

    FIT_MOST = 3.0
    """The closest a fit comes: a valley of one hex (or none, at the start of a campaign)
    is not blown up to fill the window (issue 36 item 14)."""

    def fit(self) -> None:
        """Fit the whole valley in the window (no closer than ``FIT_MOST``)."""
        rect = self.map_scene.content_rect()
        if rect.isEmpty() or not self.map_scene.hex_items:
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.zoom() > self.FIT_MOST:
            self.zoom_by(self.FIT_MOST / self.zoom())
            self.centerOn(rect.center())

    def wheelEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        delta = event.angleDelta().y()
        if delta:
            self.zoom_by(self.ZOOM_STEP if delta > 0 else 1 / self.ZOOM_STEP)
        event.accept()

    # pan and click
    def mousePressEvent(self, event: Any) -> None:  # noqa: N802
        item = self.itemAt(event.position().toPoint())
        while item is not None and item.parentItem() is not None:
            item = item.parentItem()  # a piece's initials belong to the piece
        if event.button() == Qt.MouseButton.LeftButton and isinstance(item, CharacterPiece):
            super().mousePressEvent(event)
            return
        if event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.MiddleButton):
            self._pan_from = event.position().toPoint()
            self._pan_moved = 0
            self._pan_button = event.button()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: Any) -> None:  # noqa: N802
        if self._pan_from is not None:
            now = event.position().toPoint()
            delta = now - self._pan_from
            self._pan_from = now
            self._pan_moved += abs(delta.x()) + abs(delta.y())
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: Any) -> None:  # noqa: N802
        if self._pan_from is not None and event.button() == self._pan_button:
            clicked = self._pan_moved < 5 and self._pan_button == Qt.MouseButton.LeftButton
            self._pan_from = None
            self.viewport().unsetCursor()
            if clicked:
                point = self.mapToScene(event.position().toPoint())
                self.hex_clicked.emit(cell_at(point.x(), point.y()))
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def view_point(self, cell: Axial) -> QPoint:
        """Where ``cell``'s centre is in viewport coordinates (for tests and tooltips)."""
        from companion.ui.map_items import centre

        return self.mapFromScene(centre(cell))


# --- export ---------------------------------------------------------------------------------


def _app() -> Any:
    app = QApplication.instance()
    if app is None:
        app = QApplication([])
    return app


def render_scene_png(scene: MapScene, out: Path, *, width: int = 1600) -> tuple[int, int]:
    """Render the valley part of ``scene`` to ``out`` at ``width`` pixels; returns the size."""
    source = scene.content_rect()
    if source.isEmpty():
        source = QRectF(-HEX_SIZE, -HEX_SIZE, 2 * HEX_SIZE, 2 * HEX_SIZE)
    height = max(1, round(width * source.height() / source.width()))
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(BACKGROUND)
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing
                           | QPainter.RenderHint.SmoothPixmapTransform
                           | QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, width, height), source,
                 Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(out), "PNG"):  # type: ignore[call-overload]
        raise OSError(f"could not write {out}")
    return width, height


def render_valley_png(campaign: Campaign, out: Path, *, width: int = 1600) -> tuple[int, int]:
    """Draw the campaign's valley (as the map shows it) into a PNG ``width`` pixels wide,
    offscreen; returns (width, height). Needs no window: a QApplication is made if none."""
    _app()
    scene = MapScene()
    scene.sync(read_map(campaign))
    return render_scene_png(scene, out, width=width)


def grid_text(campaign: Campaign) -> str:
    """The journal's Valley Map as text: rows of hex IDs in the journal grid's "even-q"
    layout (odd columns sit half a hex lower), ``.`` where there is no hex, a face-down
    tile as ``?*`` (its ID is not known until explored). Rulebook: Using the Journal."""
    from companion.operations.valley import load_valley

    with campaign.file.read() as session:
        return valley_grid(load_valley(session))


def valley_grid(valley: Valley) -> str:
    """:func:`grid_text` of a valley already read (the Valley tab's map holds one)."""
    from companion.rules.exploration import bounds
    from companion.rules.geometry import to_offset

    box = bounds(valley)
    if box is None:
        return "(no terrain tray placed yet)"
    rows = [["  .  "] * box.columns for _ in range(box.rows)]
    for cell, tile in valley.tiles.items():
        col, row = to_offset(cell)
        text = str(tile or "?") if cell in valley.explored else "?*"  # face down: unread
        rows[row - box.first_row][col - box.first_column] = f"{text:^5}"
    return "\n".join(" ".join(r).rstrip() for r in rows)
