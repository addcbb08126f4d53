"""What a procedure in progress looks like on the table, one panel per kind.

Contract: ``panel_for(kind)`` returns a :class:`ProcedurePanel`; the dialog calls
``show_procedure(procedure)`` with the procedure object restored read-only by
:func:`load_procedure` (never written). Fishing and mining lay out their cards, chips
and dice; foraging draws its tableau (and the cards on offer), delving its path of
cards; any other kind shows its ``describe()`` text. Panels show only what the
procedure holds: nothing is drawn or guessed for display.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QKeyEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from companion.rules.effects import describe_effect

if TYPE_CHECKING:
    from companion.operations import Campaign


def load_procedure(campaign: Campaign) -> Any | None:
    """The procedure in progress as its rules object (read-only), or None."""
    from companion.operations import Refused, procedures

    try:
        return procedures.current(campaign)
    except Refused:
        return None


def scaled_font(base: QFont, factor: float, *, bold: bool = False) -> QFont:
    """``base`` scaled by ``factor`` (in points when it has a point size)."""
    font = QFont(base)
    if base.pointSizeF() > 0:
        font.setPointSizeF(base.pointSizeF() * factor)
    elif base.pixelSize() > 0:
        font.setPixelSize(round(base.pixelSize() * factor))
    font.setBold(bold)
    return font


def heading(text: str, parent_font: QFont, factor: float = 1.15) -> QLabel:
    label = QLabel(text)
    label.setFont(scaled_font(parent_font, factor, bold=True))
    label.setWordWrap(True)
    return label


def make_table(headers: Sequence[str], stretch: Sequence[int] = ()) -> QTableWidget:
    """A read-only table that sizes itself to its rows (no scrolling inside a panel);
    the ``stretch`` columns share the width left (their text wraps), the others fit."""
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    table.setWordWrap(True)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    for column in stretch:
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    header.setStretchLastSection(not stretch)
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return table


def fill_table(table: QTableWidget, rows: Sequence[Sequence[str]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            table.setItem(r, c, item)
    table.resizeRowsToContents()
    # Never narrower than every header's words (a squeezed stretch column printed
    # "aract" for "Character") and every fitted column's contents.
    # A table that may scroll sideways keeps its height for the scroll bar instead.
    header = table.horizontalHeader()
    scrolls = table.horizontalScrollBarPolicy() is not Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    width = 2 * table.frameWidth()
    stretched = []  # the stretch columns share what is left equally
    for column in range(table.columnCount()):
        if header.sectionResizeMode(column) is QHeaderView.ResizeMode.Stretch:
            stretched.append(header.sectionSizeHint(column))
        else:
            width += max(header.sectionSizeHint(column), table.sizeHintForColumn(column))
    width += len(stretched) * max(stretched, default=0)
    table.setMinimumWidth(0 if scrolls else width)
    height = table.horizontalHeader().height() + 2 * table.frameWidth()
    if scrolls:  # room for the scroll bar, whether or not this width needs it
        height += table.horizontalScrollBar().sizeHint().height()
    height += sum(table.rowHeight(r) for r in range(table.rowCount()))
    table.setFixedHeight(height)


def cell_texts(table: QTableWidget) -> list[list[str]]:
    """Every cell's text, row by row (for tests and screen readers' summaries)."""
    def text(row: int, column: int) -> str:
        item = table.item(row, column)
        return item.text() if item is not None else ""

    return [[text(r, c) for c in range(table.columnCount())] for r in range(table.rowCount())]


def use_font(root: QWidget, font: QFont) -> None:
    """Give ``font`` to every descendant of ``root`` that has no font of its own.

    Item views, headers and styled buttons take the application's per-class fonts rather
    than their parent's, so the dialogs' larger font is handed to them explicitly."""
    for widget in root.findChildren(QWidget):
        if not widget.testAttribute(Qt.WidgetAttribute.WA_SetFont):
            widget.setFont(font)


def effects_text(effects: Sequence[Any]) -> str:
    return ", ".join(describe_effect(e) for e in effects) or "nothing"


class ProcedurePanel(QWidget):
    """Base panel: the procedure's ``describe()`` text."""

    def __init__(self, font: QFont | None = None) -> None:
        super().__init__()
        if font is not None:
            self.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        layout.addWidget(self.text)

    def show_procedure(self, procedure: Any) -> None:
        self.text.setPlainText(procedure.describe() if procedure is not None else "")

    def in_focus(self, procedure: Any) -> QWidget | None:
        """The part of the layout the current step is about (scrolled into view by the
        dialog), or None."""
        return None


class FishingPanel(ProcedurePanel):
    """Stock, water, dice and outcome of a fishing activity (Rulebook: Fishing)."""

    def __init__(self, font: QFont | None = None) -> None:
        QWidget.__init__(self)
        if font is not None:
            self.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        font = self.font()
        self.terrain = QLabel()
        self.terrain.setWordWrap(True)
        layout.addWidget(self.terrain)
        self.stock_title = heading("Stock: not drawn yet", font)
        layout.addWidget(self.stock_title)
        self.stock = make_table(["Line", "Base", "Contents", "Outcome", "Final", "Collected"],
                                stretch=[2])
        layout.addWidget(self.stock)
        self.water_title = heading("Water: not drawn yet", font)
        layout.addWidget(self.water_title)
        self.water = make_table(["Location", "Holds", "Lines", "Dice placed", "Struck"],
                                stretch=[3])
        layout.addWidget(self.water)
        self.dice = QLabel()
        self.dice.setFont(scaled_font(font, 1.1, bold=True))
        layout.addWidget(self.dice)
        self.results_title = heading("What happened", font)
        layout.addWidget(self.results_title)
        self.results = QLabel()
        self.results.setWordWrap(True)
        self.results.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.results)
        layout.addStretch(1)

    def in_focus(self, procedure: Any) -> QWidget | None:
        """Once the dice are rolled, the strike locations they go on and strike from
        (with a larger text only the stock showed while the dice were placed; issue 27
        item 13)."""
        return self.water if getattr(procedure, "dice", None) is not None and \
            not self.water.isHidden() else None

    def show_procedure(self, procedure: Any) -> None:
        p = procedure
        terrain = p.fishing
        choice = " (choose one)" if terrain.bonus_choice and len(terrain.bonus) > 1 else ""
        self.terrain.setText(
            f"{p.character} fishes at the {p.terrain}. Bonus here: "
            f"{effects_text(terrain.bonus)}{choice}. Mishap: {effects_text(terrain.mishap)}.")
        outcome = p.card(p.outcome_card) if p.outcome_card else None
        if p.stock:
            stock = p.card(p.stock)
            self.stock_title.setText(f"Stock: {p.stock}")
            rows = []
            for line, target in stock.targets.items():
                modifier = outcome.modifiers[line] if outcome is not None else None
                rows.append([
                    line.value,
                    str(target.difficulty),
                    effects_text(target.contents),
                    _modifier_text(modifier) if modifier is not None else "not drawn",
                    str(modifier.apply(target.difficulty)) if modifier is not None else "",
                    "yes" if line in p.collected else "",
                ])
            fill_table(self.stock, rows)
            self.stock.show()
        else:
            self.stock_title.setText("Stock: not drawn yet")
            self.stock.hide()
        if p.water:
            self.water_title.setText(f"Water: {p.water}"
                                     + (f"   ·   Outcome: {p.outcome_card}" if outcome else ""))
            rows = []
            for index, location in enumerate(p.locations):
                placed = p.placed[index] if index < len(p.placed) else ()
                rows.append([
                    str(index + 1),
                    f"{location.size} {'die' if location.size == 1 else 'dice'}",
                    ", ".join(line.value for line in location.lines),
                    " + ".join(map(str, placed)) + (f" = {sum(placed)}" if len(placed) > 1
                                                     else ""),
                    "yes" if index in p.struck else "",
                ])
            fill_table(self.water, rows)
            self.water.show()
        else:
            self.water_title.setText("Water: not drawn yet")
            self.water.hide()
        if p.dice is not None:
            placed = sum(len(x) for x in p.placed)
            left = min(len(p.dice), sum(loc.size for loc in p.locations)) - placed
            self.dice.setText("Dice rolled: " + "  ".join(map(str, p.dice))
                              + (f"   ({left} still to place)" if left > 0 else ""))
        else:
            self.dice.setText(f"Dice: {p.dice_count} to roll")
        log = [line for line in p.tally.log
               if not line.startswith(("Stock:", "Water:", "Outcome:", "Rolled", "Placed"))]
        self.results_title.setVisible(bool(log))
        self.results.setText("\n".join(log))


class MiningPanel(ProcedurePanel):
    """The bag of chips, the chips drawn and the current omen (Rulebook: Mining)."""

    def __init__(self, font: QFont | None = None) -> None:
        QWidget.__init__(self)
        if font is not None:
            self.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        font = self.font()
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setFont(scaled_font(font, 1.1, bold=True))
        layout.addWidget(self.header)
        self.bag_title = heading("In the bag", font)
        layout.addWidget(self.bag_title)
        self.bag = make_table(["Chip", "Count", "Omen effect", "If the omen matches"],
                              stretch=[2, 3])
        layout.addWidget(self.bag)
        self.drawn_title = heading("Drawn so far", font)
        layout.addWidget(self.drawn_title)
        self.drawn = QLabel()
        self.drawn.setWordWrap(True)
        layout.addWidget(self.drawn)
        layout.addStretch(1)

    def show_procedure(self, procedure: Any) -> None:
        p = procedure
        omens = ", ".join(o.value for o in p.omens) or "none"
        self.header.setText(
            f"{p.character} mines at the {p.feature}.   Current omen: {omens}.   "
            f"Chips pulled: {len(p.drawn)} of at most {p.max_draws}.")
        counts = Counter(c.label() for c in p.bag)
        first: dict[str, Any] = {}
        for chip in p.bag:
            first.setdefault(chip.label(), chip)
        rows = []
        for label, chip in first.items():
            rows.append([label, str(counts[label]), effects_text(chip.effects)
                         if chip.effects else "", effects_text(chip.match_effects)
                         if chip.match_effects else ""])
        self.bag_title.setText(f"In the bag: {len(p.bag)} chips")
        fill_table(self.bag, rows)
        self.bag.setVisible(bool(rows))
        self.drawn.setText("\n".join(p.tally.log) or "Nothing yet.")


def _modifier_text(modifier: Any) -> str:
    text = f"{modifier.op}{modifier.value}"
    return f"{text} {modifier.extra}" if modifier.extra else text


def panel_for(kind: str, font: QFont | None = None) -> ProcedurePanel:
    """The panel that lays out a procedure of ``kind``, in ``font``."""
    if kind == "fishing":
        return FishingPanel(font)
    if kind == "mining":
        return MiningPanel(font)
    if kind == "foraging":
        return ForagingPanel(font)
    if kind == "delving":
        return DelvingPanel(font)
    return ProcedurePanel(font)


# --- painted boards: foraging's tableau, delving's path --------------------------------


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


def _colours() -> dict[str, QColor]:
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


@dataclass
class SpotView:
    """One object as the tableau board draws it."""

    key: str
    card: str
    row: int
    name: str
    bonus: tuple[str, ...]
    reach: bool | None
    """Within reach now; None on a card on offer (reach is the tableau's)."""
    chosen: bool
    predator: bool
    path: bool

    def words(self) -> str:
        from companion.rules.foraging import ROWS

        bonus = f" with {', '.join(self.bonus)}" if self.bonus else ""
        states = []
        if self.predator:
            states.append("a predator")
        if self.path:
            states.append("an animal path")
        if self.reach is not None:
            states.append("within reach" if self.reach else "out of reach")
        if self.chosen:
            states.append("chosen")
        return f"{self.card}, {ROWS[self.row]} row: {self.name}{bonus} ({', '.join(states)})" \
            if states else f"{self.card}, {ROWS[self.row]} row: {self.name}{bonus}"


@dataclass
class CardView:
    """One forage card as the tableau board draws it."""

    card: str
    rows: tuple[list[SpotView], list[SpotView], list[SpotView]]
    offer: bool = False
    """Drawn and on offer, not yet in the tableau."""
    caption: str = ""
    """A word under the card id (on offer: whether it may be taken)."""
    forced: bool = False
    """The predator rule forces this card."""
    barred: bool = False
    """The predator rule bars this card."""


ROW_NAMES = ("Front", "Middle", "Back")


class TableauBoard(Board):
    """The foraging tableau: cards side by side, each with its back, middle and front
    rows (front at the bottom, nearest the player), rows lined up across cards; the cards
    on offer beside it. Objects within reach are green, chosen ones carry a check mark,
    predators a warning mark; animal paths are linked row to row across the cards."""

    def __init__(self) -> None:
        super().__init__("Foraging tableau")
        self.cards: list[CardView] = []
        self.open_rows: set[int] = set()
        self._chips: list[tuple[QRectF, SpotView]] = []
        self._card_rects: list[tuple[QRectF, CardView]] = []
        self._rows_y: list[tuple[float, float]] = [(0.0, 0.0)] * 3
        self._divider: float | None = None

    def set_cards(self, cards: Sequence[CardView], open_rows: set[int]) -> None:
        self.cards = list(cards)
        self.open_rows = open_rows
        self.relayout()
        self.update()

    def summary(self) -> str:
        tableau = [c.card for c in self.cards if not c.offer]
        offer = [c.card for c in self.cards if c.offer]
        text = f"Tableau: {', '.join(tableau) or 'no cards yet'}."
        if offer:
            text += f" On offer: {', '.join(offer)}."
        return text + " Arrow keys go from object to object."

    def _fonts(self) -> tuple[QFont, QFont, QFontMetrics, QFontMetrics, QFontMetrics]:
        base = self.font()
        small = scaled_font(base, 0.85)
        bold = scaled_font(base, 1.0, bold=True)
        return bold, small, QFontMetrics(base), QFontMetrics(small), QFontMetrics(bold)

    @staticmethod
    def _label(spot: SpotView) -> str:
        marks = ("✓ " if spot.chosen else "") + ("⚠ " if spot.predator else "") \
            + ("⇡ " if spot.path else "")
        return marks + spot.name

    def relayout(self) -> None:
        bold, small, fm, fms, fmb = self._fonts()
        pad = max(3.0, fm.height() * 0.3)
        self._pad = pad

        def chip_size(spot: SpotView) -> tuple[float, float]:
            width = float(fm.horizontalAdvance(self._label(spot)))
            height = fm.height() + pad
            if spot.bonus:
                badges = sum(fms.horizontalAdvance(b) + pad * 1.6 for b in spot.bonus) - pad * 0.6
                width = max(width, badges)
                height += fms.height() + pad * 0.8
            return width + 2 * pad, height

        sizes = {id(s): chip_size(s) for c in self.cards for row in c.rows for s in row}
        widest = max((w for w, _ in sizes.values()), default=0.0)
        inner = max(widest, fm.horizontalAdvance("M") * 10.5)
        card_w = inner + 2 * pad

        # Flow each row of each card into the card's width.
        flows: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
        row_h = [fm.height() + pad for _ in range(3)]
        for ci, card in enumerate(self.cards):
            for r in range(3):
                x = y = line_h = 0.0
                placed = []
                for spot in card.rows[r]:
                    w, h = sizes[id(spot)]
                    if x > 0 and x + w > inner:
                        x, y, line_h = 0.0, y + line_h + pad, 0.0
                    placed.append((x, y, w, h))
                    x += w + pad
                    line_h = max(line_h, h)
                flows[(ci, r)] = placed
                row_h[r] = max(row_h[r], y + line_h)

        label_w = max(max(fmb.horizontalAdvance(n) for n in ROW_NAMES),
                      fms.horizontalAdvance("nearest you"),
                      fms.horizontalAdvance("open: paths")) + 2 * pad
        title_h = fmb.height() + pad + (fms.height() if any(c.caption for c in self.cards) else 0)
        margin = pad
        top = margin + title_h + pad
        # Rows from the top: back, middle, front (front nearest the player, at the bottom).
        y = top
        rows_y: list[tuple[float, float]] = [(0.0, 0.0)] * 3
        for r in (2, 1, 0):
            rows_y[r] = (y, row_h[r] + 2 * pad)
            y += row_h[r] + 2 * pad
        bottom = y + margin
        self._rows_y = rows_y

        self._chips, self._card_rects, self.items = [], [], []
        x = margin + label_w + pad
        self._divider = None
        for ci, card in enumerate(self.cards):
            if card.offer and self._divider is None and ci > 0:
                self._divider = x + pad
                x += 3 * pad
            rect = QRectF(x, margin, card_w, bottom - 2 * margin + pad * 0)
            self._card_rects.append((rect, card))
            self.items.append(BoardItem(QRectF(x, margin, card_w, title_h), self._card_words(card)))
            for r in (0, 1, 2):
                row_top = rows_y[r][0] + pad
                for spot, (sx, sy, w, h) in zip(card.rows[r], flows[(ci, r)], strict=True):
                    chip = QRectF(x + pad + sx, row_top + sy, w, h)
                    self._chips.append((chip, spot))
                    self.items.append(BoardItem(chip, spot.words()))
            x += card_w + 2 * pad
        width = x - pad + margin
        self._label_w = label_w
        self._title_h = title_h
        self.set_board_size(QSize(int(width) + 1, int(bottom) + 1))
        self.refresh_items()

    @staticmethod
    def _card_words(card: CardView) -> str:
        objects = sum(len(r) for r in card.rows)
        where = "on offer" if card.offer else "in the tableau"
        text = f"{card.card}, {where}, {objects} objects"
        if card.caption:
            text += f": {card.caption}"
        return text

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        bold, small, fm, fms, fmb = self._fonts()
        pad = self._pad
        colours = _colours()
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        # Dimmed (out of reach, barred) but still readable.
        dim = QColor(text)
        dim.setAlpha(130)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        width = self.width()

        # Row bands and their names, across every card.
        for r in (2, 1, 0):
            y, h = self._rows_y[r]
            if r % 2 == 0:
                painter.fillRect(QRectF(0, y, width, h), colours["band"])
            painter.setPen(text)
            painter.setFont(bold)
            painter.drawText(QRectF(pad, y + pad, self._label_w, fmb.height()),
                             Qt.AlignmentFlag.AlignLeft, ROW_NAMES[r])
            sub = "nearest you" if r == 0 else ("open: paths" if r in self.open_rows else "")
            if sub:
                painter.setFont(small)
                painter.setPen(colours["path"] if r else dim)
                painter.drawText(QRectF(pad, y + pad + fmb.height(), self._label_w, fms.height()),
                                 Qt.AlignmentFlag.AlignLeft, sub)

        if self._divider is not None:
            painter.setPen(QPen(dim, 1, Qt.PenStyle.DashLine))
            bottom = self._rows_y[0][0] + self._rows_y[0][1]
            painter.drawLine(QPointF(self._divider, pad), QPointF(self._divider, bottom))

        # The cards.
        base = palette.color(QPalette.ColorRole.Base)
        for rect, card in self._card_rects:
            edge = colours["forced"] if card.forced else palette.color(QPalette.ColorRole.Mid)
            pen = QPen(edge, 3 if card.forced else 1.2,
                       Qt.PenStyle.DashLine if card.offer and not card.forced
                       else Qt.PenStyle.SolidLine)
            painter.setPen(pen)
            fill = QColor(base)
            fill.setAlpha(150 if card.barred else 235)
            painter.setBrush(fill)
            painter.drawRoundedRect(rect, pad, pad)
            painter.setFont(bold)
            painter.setPen(dim if card.barred else text)
            painter.drawText(QRectF(rect.x() + pad, rect.y() + pad / 2, rect.width() - 2 * pad,
                                    fmb.height()), Qt.AlignmentFlag.AlignLeft, card.card)
            if card.caption:
                painter.setFont(small)
                painter.setPen(colours["forced"] if card.forced else dim)
                painter.drawText(QRectF(rect.x() + pad, rect.y() + pad / 2 + fmb.height(),
                                        rect.width() - 2 * pad, fms.height()),
                                 Qt.AlignmentFlag.AlignLeft, fms.elidedText(
                                     card.caption, Qt.TextElideMode.ElideRight,
                                     int(rect.width() - 2 * pad)))

        # Animal paths: each path is linked to the nearest path in the row before it (on
        # any card of the tableau), so a chain across cards reads as one line.
        paths = [(rect, s) for rect, s in self._chips if s.path and s.reach is not None]
        links: list[tuple[QPointF, QPointF]] = []
        for rect, spot in paths:
            if spot.row == 0:
                continue
            before = [(r, s) for r, s in paths if s.row == spot.row - 1]
            if not before:
                continue
            near = min(before, key=lambda rs: abs(rs[0].center().x() - rect.center().x()))[0]
            links.append((QPointF(near.center().x(), near.top()),
                          QPointF(rect.center().x(), rect.bottom())))
        pen = QPen(colours["path"], max(2.0, pad * 0.6), Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        for start, end in links:
            painter.setPen(pen)
            painter.drawLine(start, end)
            self._arrow(painter, start, end, pad * 1.2, colours["path"])

        # The objects; then the links again, faintly, where they pass over other objects.
        for rect, spot in self._chips:
            self._paint_chip(painter, rect, spot, colours, fm, fms, small, dim, text, base)
        faint = QColor(colours["path"])
        faint.setAlpha(90)
        for start, end in links:
            painter.setPen(QPen(faint, max(1.5, pad * 0.35), Qt.PenStyle.DashLine))
            painter.drawLine(start, end)
        self.paint_focus(painter)
        painter.end()

    @staticmethod
    def _arrow(painter: QPainter, start: QPointF, end: QPointF, size: float,
               colour: QColor) -> None:
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

    def _paint_chip(self, painter: QPainter, rect: QRectF, spot: SpotView,
                    colours: dict[str, QColor], fm: QFontMetrics, fms: QFontMetrics,
                    small: QFont, dim: QColor, text: QColor, base: QColor) -> None:
        pad = self._pad
        out = spot.reach is False
        if spot.predator:
            fill, edge = colours["predator_fill"], colours["predator"]
        elif spot.path:
            fill, edge = colours["path_fill"], colours["path"]
        elif spot.reach:
            fill, edge = colours["reach"], colours["reach_edge"]
        else:
            fill, edge = QColor(base), self.palette().color(QPalette.ColorRole.Mid)
        if spot.reach and (spot.predator or spot.path):
            edge = colours["reach_edge"]
        width = 1.3
        style = Qt.PenStyle.DotLine if out else Qt.PenStyle.SolidLine
        if spot.reach:
            width = 2.2
        if spot.chosen:
            edge, width, style = colours["chosen"], 3.5, Qt.PenStyle.SolidLine
        if out:
            fill = QColor(fill)
            fill.setAlpha(110)
        painter.setBrush(fill)
        painter.setPen(QPen(edge, width, style))
        painter.drawRoundedRect(rect, pad * 0.8, pad * 0.8)
        painter.setFont(self.font())
        painter.setPen(dim if out else text)
        painter.drawText(QRectF(rect.x() + pad, rect.y() + pad / 2, rect.width() - 2 * pad,
                                fm.height()), Qt.AlignmentFlag.AlignLeft, self._label(spot))
        if spot.bonus:
            painter.setFont(small)
            x = rect.x() + pad
            y = rect.y() + pad / 2 + fm.height() + pad * 0.3
            for name in spot.bonus:
                w = fms.horizontalAdvance(name) + pad
                badge = QRectF(x, y, w, fms.height() + pad * 0.2)
                painter.setPen(QPen(dim, 1))
                painter.setBrush(self.palette().color(QPalette.ColorRole.AlternateBase))
                painter.drawRoundedRect(badge, badge.height() / 2, badge.height() / 2)
                painter.setPen(dim if out else text)
                painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, name)
                x += w + pad * 0.6


def _scroll(board: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidget(board)
    area.setWidgetResizable(True)
    # The board lies on the panel's own background (setWidget turns filling on).
    board.setAutoFillBackground(False)
    area.viewport().setAutoFillBackground(False)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return area


def _wrapped(parent_font: QFont | None = None, *, bold: bool = False) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if parent_font is not None:
        label.setFont(scaled_font(parent_font, 1.1 if bold else 1.0, bold=bold))
    return label


class ForagingPanel(ProcedurePanel):
    """The tableau, the cards on offer and the harvest (Rulebook: Foraging, steps 1-5)."""

    def __init__(self, font: QFont | None = None) -> None:
        QWidget.__init__(self)
        if font is not None:
            self.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        font = self.font()
        self.header = _wrapped(font, bold=True)
        layout.addWidget(self.header)
        self.harvest = _wrapped()
        self.harvest.setAccessibleName("Harvest")
        layout.addWidget(self.harvest)
        self.board = TableauBoard()
        self.board_area = _scroll(self.board)
        # At least the front row and the middle one (Rulebook: Foraging: the front row is
        # nearest you and within reach first); the front row is kept in view below
        # (a short pane hid it behind a scroll bar; issue 27 item 19).
        self.board_area.setMinimumHeight(self.fontMetrics().height() * 12)
        self.board_area.verticalScrollBar().rangeChanged.connect(
            lambda _low, _high: self.show_front_row())
        layout.addWidget(self.board_area, 1)
        self.offer = _wrapped()
        self.offer.setAccessibleName("Cards on offer")
        layout.addWidget(self.offer)
        self.current = _wrapped()
        self.current.setAccessibleName("Object under the keyboard focus")
        self.current.hide()
        layout.addWidget(self.current)
        self.board.on_current = self._show_current
        self.legend = _wrapped(scaled_font(font, 0.9))
        self.legend.setText(
            "Green: within reach.  ✓ chosen.  ⚠ predator.  ⇡ animal path (dashed arrows: "
            "paths chaining row to row across cards).  Dotted edge: out of reach.  "
            "Tab to the tableau, then the arrow keys read it object by object.")
        layout.addWidget(self.legend)

    def _show_current(self, text: str) -> None:
        self.current.setText(text)
        self.current.setVisible(bool(text))

    def front_row(self) -> tuple[float, float]:
        """The front row's top and height on the board."""
        return self.board._rows_y[0]

    def show_front_row(self) -> None:
        """Scroll the board so that its front row (nearest the player) is in view."""
        top, height = self.front_row()
        bar = self.board_area.verticalScrollBar()
        seen = self.board_area.viewport().height()
        wanted = round(top + height) - seen + 8 if height + 8 <= seen else round(top)
        if not top <= bar.value() + seen - height - 8 or bar.value() > top:
            bar.setValue(max(0, min(bar.maximum(), wanted)))

    def show_procedure(self, procedure: Any) -> None:
        from companion.content.schema.cards import Encounter
        from companion.rules import foraging
        from companion.rules.foraging import ROWS, Phase

        p = procedure
        objects = p.objects

        def predator(object_id: str) -> bool:
            obj = objects.get(object_id)
            return obj is not None and obj.encounter is Encounter.PREDATOR

        def path(object_id: str) -> bool:
            obj = objects.get(object_id)
            return obj is not None and bool(obj.animal_path)

        cards: list[CardView] = []
        for tc in p.view():
            rows = tuple([SpotView(s.key, tc.card, r, s.name, s.bonus, s.within_reach, s.chosen,
                                   predator(s.object), path(s.object)) for s in tc.rows[r]]
                         for r in range(3))
            cards.append(CardView(tc.card, rows))  # type: ignore[arg-type]
        # A row is open to every object when each row before it has an animal path.
        path_rows = {s.row for c in cards for row in c.rows for s in row if s.path}
        open_rows = {r for r in (1, 2) if all(x in path_rows for x in range(r))}

        legal: tuple[str, ...] = tuple(p.drawn)
        if p.phase is Phase.KEEP_MORE:
            b = p.card(p.drawn[1]) if len(p.drawn) > 1 else None
            legal = foraging.legal_expansion_choices(p.cards, p.card(p.drawn[0]), b, objects)
        restricted = len(legal) < len(p.drawn)
        for card_id in p.drawn:
            card = p.card(card_id)
            rows_: tuple[list[SpotView], list[SpotView], list[SpotView]] = ([], [], [])
            for s in foraging.spots([card]):
                bonus = tuple(p.bonuses[b].name for b in s.bonus)
                rows_[s.row].append(SpotView(s.key, card_id, s.row, objects[s.object].name,
                                             bonus, None, False, predator(s.object),
                                             path(s.object)))
            choosing = p.phase in (Phase.KEEP_FIRST, Phase.KEEP_MORE)
            if not choosing:
                caption = "drawn"
            elif restricted:
                caption = "forced (predator)" if card_id in legal else "barred (predator)"
            else:
                caption = "on offer"
            cards.append(CardView(card_id, rows_, offer=True, caption=caption,
                                  forced=restricted and card_id in legal,
                                  barred=restricted and card_id not in legal))
        self.board.set_cards(cards, open_rows)
        self.show_front_row()

        left = len(p.deck) - len(p.tableau) - len(p.drawn)
        self.header.setText(
            f"{p.character.name} forages in the {p.deck_name}: {len(p.tableau)} "
            f"{'card' if len(p.tableau) == 1 else 'cards'} in the tableau, {left} left in the "
            f"deck.")
        self.board.setAccessibleName(f"Foraging tableau of {p.character.name}")

        # The cards on offer, and why the choice is restricted.
        tableau_rows = [s.row for s in foraging.spots(p.cards) if predator(s.object)]
        offer_text = ""
        if p.drawn and p.phase is Phase.KEEP_FIRST:
            offer_text = f"On offer: {' and '.join(p.drawn)}; choose the card that begins " \
                "your tableau (the other goes back into the deck)."
        elif p.drawn and p.phase is Phase.KEEP_MORE:
            with_predator = [c for c in p.drawn
                             if any(predator(s.object) for s in foraging.spots([p.card(c)]))]
            if restricted:
                closest = ROWS[min(tableau_rows)]
                if len(with_predator) == 1:
                    why = (f"a predator is in your tableau ({closest} row), so you must take "
                           f"the card with a predator")
                else:
                    rows_of = {c: min(s.row for s in foraging.spots([p.card(c)])
                                      if predator(s.object)) for c in with_predator}
                    why = (f"both cards show a predator and yours is in the {closest} row: you "
                           f"must take the one with a predator as close or closer "
                           f"({legal[0]}: {ROWS[rows_of[legal[0]]]} row)")
                offer_text = f"On offer: {' and '.join(p.drawn)}. The predator rule forces " \
                    f"{legal[0]}: {why}."
            elif tableau_rows and not with_predator:
                offer_text = f"On offer: {' and '.join(p.drawn)}. A predator is in your " \
                    "tableau, but neither card shows one: choose either."
            elif tableau_rows:
                offer_text = f"On offer: {' and '.join(p.drawn)}. Both show a predator as " \
                    "close as yours: choose either."
            else:
                offer_text = f"On offer: {' and '.join(p.drawn)}. No predator in your " \
                    "tableau: choose either card."
            danger = [c for c in legal if any(predator(s.object) and s.row == 0
                                              for s in foraging.spots([p.card(c)]))]
            if danger:
                offer_text += f" Taking {' or '.join(danger)} brings a predator into the " \
                    "front row: a predator encounter, and no harvest."
        elif p.drawn:
            offer_text = f"Drawn so far: {', '.join(p.drawn)}."
        self.offer.setText(offer_text)
        self.offer.setVisible(bool(offer_text))

        # The harvest: the cap, what is chosen, what was gained.
        by_key = {s.key: s for c in cards for row in c.rows for s in row}
        chosen = [by_key[k] for k in p.chosen if k in by_key]
        text = f"Harvest cap: {p.cap}."
        if chosen:
            names = ", ".join(f"{s.name} ({s.card} {ROWS[s.row]})" for s in chosen)
            text += f" Chosen {len(chosen)} of at most {p.cap}: {names}."
        elif p.phase is Phase.HARVEST:
            text += " Nothing chosen yet: choose an object within reach (green)."
        if p.tally.gained:
            text += " Harvested: " + ", ".join(t.name for t in p.tally.gained) + "."
        elif p.phase is Phase.DONE:
            text += " Nothing harvested."
        if p.phase is Phase.PREDATOR:
            text += " A predator encounter: fight or flee; no harvest this time."
        self.harvest.setText(text)


@dataclass
class DelveCardView:
    """One card of the delve's path as the board draws it."""

    depth: int
    card: str
    icon: str
    text: str
    effects: str
    left: str | None
    right: str | None
    taken: str | None
    """"left" or "right": the path taken from this card; None if none (yet)."""
    exit: bool
    cost: int
    """Energy this card cost (from depth 7, D17)."""
    current: bool
    happened: str = ""
    """What resolving it did (tests rolled, tokens gained), from the procedure's log."""

    def words(self) -> str:
        parts = [f"Depth {self.depth}: {self.card} ({self.icon})"]
        if self.text:
            parts.append(self.text)
        parts.append(f"Effects: {self.effects}")
        if self.happened:
            parts.append(self.happened.rstrip("."))
        if self.left is not None:
            parts.append(f"Left-hand path to {self.left}, right-hand path to {self.right}")
        else:
            parts.append("No path leads on")
        if self.taken:
            parts.append(f"took the {self.taken}-hand path")
        if self.exit:
            parts.append("the card says exit")
        if self.cost:
            parts.append(f"cost {self.cost} energy")
        return ". ".join(parts) + "."


class DelveBoard(Board):
    """The delve as a chain of cards growing downwards with depth, each with its id, its
    icon, its text and effects and its left/right paths (the one taken marked)."""

    def __init__(self) -> None:
        super().__init__("Delving path")
        self.cards: list[DelveCardView] = []
        self.next_text = ""
        self._layout: list[tuple[QRectF, Any]] = []

    def set_path(self, cards: Sequence[DelveCardView], next_text: str) -> None:
        self.cards = list(cards)
        self.next_text = next_text
        self.relayout()
        self.update()

    def summary(self) -> str:
        if not self.cards:
            return "No card drawn yet."
        return (f"The delve's path, {len(self.cards)} cards: "
                + ", ".join(c.card for c in self.cards)
                + ". Arrow keys go from card to card.")

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.relayout()

    def _metrics(self) -> tuple[float, float, QFont, QFont, QFont]:
        fm = QFontMetrics(self.font())
        pad = max(3.0, fm.height() * 0.35)
        width = max(self.width(), self._min_width())
        card_w = min(width - 2 * pad, fm.horizontalAdvance("M") * 40.0)
        return pad, card_w, scaled_font(self.font(), 1.0, bold=True), \
            scaled_font(self.font(), 0.9), scaled_font(self.font(), 0.9)

    def _min_width(self) -> int:
        """The narrowest the path is drawn (the cards are wider when there is room)."""
        return int(QFontMetrics(self.font()).horizontalAdvance("M") * 24)

    def _text_height(self, font: QFont, text: str, width: float) -> float:
        if not text:
            return 0.0
        rect = QFontMetrics(font).boundingRect(0, 0, int(width), 100000,
                                               int(Qt.TextFlag.TextWordWrap), text)
        return float(rect.height())

    def _path_label(self, card: Any, side: str) -> str:
        icon = card.left if side == "left" else card.right
        label = f"◀ left: {icon}" if side == "left" else f"right: {icon} ▶"
        return label + ("  (taken)" if card.taken == side else "")

    def _path_lines(self, card: Any, inner: float, pad: float) -> int:
        """1 when both paths fit side by side, else 2 (one under the other): half a card
        cut "◀ left: drip (take" short (issue 27 item 25)."""
        if card.left is None:
            return 1
        bold = QFontMetrics(scaled_font(self.font(), 1.0, bold=True))
        half = inner / 2 - pad / 2 - pad
        return 1 if all(bold.horizontalAdvance(self._path_label(card, side)) <= half
                        for side in ("left", "right")) else 2

    def path_boxes(self, card: Any, row: QRectF, pad: float) -> tuple[QRectF, QRectF]:
        """Where the left and right paths are drawn: side by side, or one under the
        other when either would not fit half the card."""
        half = row.width() / 2 - pad / 2
        if self._path_lines(card, row.width(), pad) == 2:
            return QRectF(row), QRectF(row).translated(0, row.height())
        return (QRectF(row.left(), row.top(), half, row.height()),
                QRectF(row.right() - half, row.top(), half, row.height()))

    def relayout(self) -> None:
        pad, card_w, bold, small, _ = self._metrics()
        fm = QFontMetrics(self.font())
        fmb = QFontMetrics(bold)
        inner = card_w - 2 * pad
        x = pad
        y = pad
        link = fm.height() * 1.8
        self._layout, self.items = [], []
        for index, card in enumerate(self.cards):
            h = pad + fmb.height() + pad * 0.5
            h += self._text_height(small, card.text, inner) + pad * 0.5 if card.text else 0
            h += self._text_height(self.font(), "Effects: " + card.effects, inner) + pad * 0.5
            if card.happened:
                h += self._text_height(small, "→ " + card.happened, inner) + pad * 0.5
            h += (fm.height() + pad * 0.5) * self._path_lines(card, inner, pad) + pad
            rect = QRectF(x, y, card_w, h)
            self._layout.append((rect, card))
            self.items.append(BoardItem(rect, card.words()))
            y += h
            if index < len(self.cards) - 1 or self.next_text:
                y += link
        if self.next_text:
            h = self._text_height(self.font(), self.next_text, inner) + 2 * pad
            rect = QRectF(x, y, card_w, h)
            self._layout.append((rect, self.next_text))
            self.items.append(BoardItem(rect, self.next_text))
            y += h
        # Only the height follows the cards: a width taken from the cards would never let
        # the panel narrow again.
        self.set_board_size(QSize(self._min_width(), int(y + pad)))
        self.refresh_items()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        pad, card_w, bold, small, _ = self._metrics()
        fm = QFontMetrics(self.font())
        fmb = QFontMetrics(bold)
        colours = _colours()
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        dim = QColor(text)
        dim.setAlpha(140)
        self.drawn_paths: list[tuple[str, QRectF]] = []  # each path label, where it went
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        previous: tuple[QRectF, DelveCardView] | None = None
        for rect, card in self._layout:
            if previous is not None:
                self._paint_link(painter, previous, rect, pad, colours, dim)
            if isinstance(card, str):
                painter.setPen(QPen(dim, 1.5, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect, pad, pad)
                painter.setFont(self.font())
                painter.setPen(text)
                painter.drawText(rect.adjusted(pad, pad, -pad, -pad),
                                 int(Qt.TextFlag.TextWordWrap), card)
                continue
            self._paint_card(painter, rect, card, pad, bold, small, fm, fmb, colours, text, dim)
            previous = (rect, card)
        self.paint_focus(painter)
        painter.end()

    def _paint_link(self, painter: QPainter, previous: tuple[QRectF, DelveCardView],
                    rect: QRectF, pad: float, colours: dict[str, QColor], dim: QColor) -> None:
        above, card = previous
        start = QPointF(above.center().x(), above.bottom())
        end = QPointF(rect.center().x(), rect.top())
        painter.setPen(QPen(colours["path"], max(2.0, pad * 0.5)))
        painter.drawLine(start, end)
        TableauBoard._arrow(painter, start, end, pad * 1.3, colours["path"])
        label = ""
        if card.taken:
            icon = card.left if card.taken == "left" else card.right
            label = f"{card.taken}-hand path, towards {icon}"
        if label:
            painter.setFont(scaled_font(self.font(), 0.9))
            painter.setPen(colours["path"])
            painter.drawText(QRectF(start.x() + pad, start.y(), rect.width() / 2,
                                    rect.top() - start.y()),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, label)

    def _paint_card(self, painter: QPainter, rect: QRectF, card: DelveCardView, pad: float,
                    bold: QFont, small: QFont, fm: QFontMetrics, fmb: QFontMetrics,
                    colours: dict[str, QColor], text: QColor, dim: QColor) -> None:
        palette = self.palette()
        edge = colours["reach_edge"] if card.current else palette.color(QPalette.ColorRole.Mid)
        painter.setPen(QPen(edge, 3 if card.current else 1.2))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(rect, pad, pad)
        inner = rect.adjusted(pad, pad, -pad, -pad)
        y = inner.top()
        painter.setFont(bold)
        painter.setPen(text)
        title = f"Depth {card.depth} · {card.card} · icon: {card.icon}"
        painter.drawText(QRectF(inner.left(), y, inner.width(), fmb.height()),
                         Qt.AlignmentFlag.AlignLeft, title)
        badges = []
        if card.cost:
            badges.append((f"⚡ cost {card.cost} energy", colours["chosen"]))
        if card.exit:
            badges.append(("EXIT", colours["reach_edge"]))
        bx = inner.right()
        painter.setFont(small)
        sfm = QFontMetrics(small)
        for label, colour in badges:
            w = sfm.horizontalAdvance(label) + pad * 1.5
            badge = QRectF(bx - w, y, w, sfm.height() + pad * 0.3)
            painter.setPen(QPen(colour, 1.5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(badge, badge.height() / 2, badge.height() / 2)
            painter.setPen(colour)
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, label)
            bx -= w + pad * 0.5
        y += fmb.height() + pad * 0.5
        if card.text:
            h = self._text_height(small, card.text, inner.width())
            painter.setFont(small)
            flavour = QColor(text)
            flavour.setAlpha(190)
            painter.setPen(flavour)
            painter.drawText(QRectF(inner.left(), y, inner.width(), h),
                             int(Qt.TextFlag.TextWordWrap), card.text)
            y += h + pad * 0.5
        effects = "Effects: " + card.effects
        h = self._text_height(self.font(), effects, inner.width())
        painter.setFont(self.font())
        painter.setPen(text)
        painter.drawText(QRectF(inner.left(), y, inner.width(), h),
                         int(Qt.TextFlag.TextWordWrap), effects)
        y += h + pad * 0.5
        if card.happened:
            happened = "→ " + card.happened
            h = self._text_height(small, happened, inner.width())
            painter.setFont(small)
            painter.setPen(colours["reach_edge"])
            painter.drawText(QRectF(inner.left(), y, inner.width(), h),
                             int(Qt.TextFlag.TextWordWrap), happened)
            y += h + pad * 0.5
        # The two paths under the effects: left at the left, right at the right.
        row = QRectF(inner.left(), y, inner.width(), fm.height() + pad * 0.5)
        if card.left is None:
            painter.setPen(dim)
            painter.drawText(row, Qt.AlignmentFlag.AlignCenter,
                             "the way ends here" if not card.exit else "no path: exit")
            return
        boxes = self.path_boxes(card, row, pad)
        self.drawn_paths.extend((self._path_label(card, s), b.adjusted(pad * 0.5, 0,
                                                                      -pad * 0.5, 0))
                                for s, b in zip(("left", "right"), boxes, strict=True))
        for side, box, align in (
                ("left", boxes[0], Qt.AlignmentFlag.AlignLeft),
                ("right", boxes[1], Qt.AlignmentFlag.AlignRight)):
            label = self._path_label(card, side)
            taken = card.taken == side
            if taken:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(colours["taken"])
                painter.drawRoundedRect(box, pad * 0.6, pad * 0.6)
            font = scaled_font(self.font(), 1.0, bold=taken)
            painter.setFont(font)
            painter.setPen(text if taken or card.taken is None else dim)
            painter.drawText(box.adjusted(pad * 0.5, 0, -pad * 0.5, 0),
                             align | Qt.AlignmentFlag.AlignVCenter, label)


_SCOPE_WORDS = {"adjacent": "an adjacent hex with a cave or chasm",
                "region": "a hex of the same region with a cave or chasm",
                "anywhere": "any hex with a cave or chasm"}


class DelvingPanel(ProcedurePanel):
    """The delve's path, depth, energy, the cost of cards from depth 7, and where an exit
    can place the character (Rulebook: Delving > Depth, Exit)."""

    def __init__(self, font: QFont | None = None) -> None:
        QWidget.__init__(self)
        if font is not None:
            self.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        font = self.font()
        self.header = _wrapped(font, bold=True)
        layout.addWidget(self.header)
        self.cost = _wrapped()
        self.cost.setAccessibleName("Energy cost of the next card")
        layout.addWidget(self.cost)
        # The path on the left, growing downwards (kept scrolled to the newest card); the
        # exits by depth beside it.
        body = QHBoxLayout()
        layout.addLayout(body, 1)
        path_column = QVBoxLayout()
        body.addLayout(path_column, 3)
        self.board = DelveBoard()
        area = _scroll(self.board)
        bar = area.verticalScrollBar()
        bar.rangeChanged.connect(lambda _low, high: bar.setValue(high))
        path_column.addWidget(area, 1)
        self.current = _wrapped()
        self.current.setAccessibleName("Card under the keyboard focus")
        self.current.hide()
        path_column.addWidget(self.current)
        self.board.on_current = self._show_current
        side = QVBoxLayout()
        body.addLayout(side, 2)
        self.exits_title = heading("Exits by depth (when a card says exit)", font, 1.0)
        side.addWidget(self.exits_title)
        self.exits = make_table(["Depth", "Come out at", "Hexes"], stretch=[1, 2])
        self.exits.setAccessibleName("Exits by depth")
        # Its text wraps: the width it would like must not push the steps' log aside.
        policy = self.exits.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
        self.exits.setSizePolicy(policy)
        side.addWidget(self.exits)
        side.addStretch(1)

    def _show_current(self, text: str) -> None:
        self.current.setText(text)
        self.current.setVisible(bool(text))

    def show_procedure(self, procedure: Any) -> None:
        from companion.rules import delving
        from companion.rules.delving import LEFT, RIGHT, Phase

        p = procedure
        cards = delving.path_cards(p)
        # The paths taken, in order, as the engine logged them.
        taken: list[str] = []
        for line in p.tally.log:
            for side in (LEFT, RIGHT):
                if line.startswith(f"Takes the {side}-hand path"):
                    taken.append(side)
        # What each card did: the log's lines from its "Depth N:" line to the next card's
        # (paths taken and the card's own line left out; they are drawn already).
        happened: list[list[str]] = []
        for line in p.tally.log:
            if line.startswith("Depth ") and ": " in line:
                happened.append([])
            elif happened and not line.startswith("Takes the "):
                happened[-1].append(line)
        views = []
        for index, card in enumerate(cards):
            took = taken[index] if index < len(taken) else None
            views.append(DelveCardView(
                depth=index + 1, card=card.id, icon=card.icon, text=card.text,
                effects=effects_text(card.effects),
                left=card.paths.left if card.paths else None,
                right=card.paths.right if card.paths else None,
                taken=took, exit=card.exit,
                cost=delving.card_cost(p.rules, index) if index else 0,
                current=index == len(cards) - 1,
                happened=" ".join(happened[index]) if index < len(happened) else ""))
        next_text = ""
        if p.phase is Phase.DRAW:
            could = delving.eligible_cards(p.deck, p.depth, p.direction, p.path)
            cost = delving.card_cost(p.rules, p.depth) if p.path else 0
            what = f"a card showing {p.direction}" if p.direction else "a card with no requirement"
            next_text = (f"Next, depth {p.depth + 1}: {what} ({len(could)} in the deck could "
                         f"come)" + (f"; it costs {cost} energy." if cost else "."))
        self.board.set_path(views, next_text)

        self.header.setText(f"{p.character.name} delves from {p.entered}.   Depth: {p.depth}.   "
                            f"Energy left: {p.energy}.")
        rules = p.rules
        from_depth = rules.costly_from_depth
        each = rules.energy_per_costly_card
        if p.depth >= from_depth:
            self.cost.setText(f"From depth {from_depth} each further card costs {each} energy: "
                              f"the next card costs {each} ({p.character.name} has {p.energy}). "
                              "Without the energy the delve ends.")
        else:
            self.cost.setText(f"Cards are free until depth {from_depth}; after that each "
                              f"further card costs {each} energy ({from_depth - p.depth} free "
                              "cards to go).")

        # Exits: each depth band, the hexes it reaches, the current band marked.
        now = delving.exit_scope(rules, p.depth) if p.depth else None
        rows = []
        for band in rules.exits:
            span = f"{band.min_depth}+" if band.max_depth is None \
                else f"{band.min_depth}–{band.max_depth}"
            hexes = [p.entered + " (entered)"] + [
                c.shown + ("" if c.explored else " (unexplored)")  # never its tile
                for c in p.candidates if c.in_scope(band.scope) and c.hex != p.entered]
            here = p.depth and band.min_depth <= p.depth and (
                band.max_depth is None or p.depth <= band.max_depth)
            rows.append([span + ("  ◀ now" if here else ""),
                         _SCOPE_WORDS.get(band.scope, band.scope), ", ".join(hexes)])
        fill_table(self.exits, rows)
        if p.phase is Phase.EXIT:
            self.exits_title.setText(f"This card says exit: at depth {p.depth}, "
                                     f"{_SCOPE_WORDS.get(now or '', 'the hex where they entered')}"
                                     " (or back where they entered)")
        else:
            self.exits_title.setText("Exits by depth (when a card says exit)")
