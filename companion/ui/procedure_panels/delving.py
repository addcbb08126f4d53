"""The delving panel: the delve's path as a chain of cards growing downwards with
depth, the energy the cards cost from depth 7, and where an exit can place the character
(Rulebook: Delving > Depth, Exit)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QVBoxLayout

import companion.ui.procedure_panels.board as board
import companion.ui.procedure_panels.panel as panel


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


class DelveBoard(board.Board):
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
        return pad, card_w, panel.scaled_font(self.font(), 1.0, bold=True), \
            panel.scaled_font(self.font(), 0.9), panel.scaled_font(self.font(), 0.9)

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
        bold = QFontMetrics(panel.scaled_font(self.font(), 1.0, bold=True))
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
            self.items.append(board.BoardItem(rect, card.words()))
            y += h
            if index < len(self.cards) - 1 or self.next_text:
                y += link
        if self.next_text:
            h = self._text_height(self.font(), self.next_text, inner) + 2 * pad
            rect = QRectF(x, y, card_w, h)
            self._layout.append((rect, self.next_text))
            self.items.append(board.BoardItem(rect, self.next_text))
            y += h
        # Only the height follows the cards: a width taken from the cards would never let
        # the panel narrow again.
        self.set_board_size(QSize(self._min_width(), int(y + pad)))
        self.refresh_items()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        pad, card_w, bold, small, _ = self._metrics()
        fm = QFontMetrics(self.font())
        fmb = QFontMetrics(bold)
        colours = board.colours()
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
        board.paint_arrow(painter, start, end, pad * 1.3, colours["path"])
        label = ""
        if card.taken:
            icon = card.left if card.taken == "left" else card.right
            label = f"{card.taken}-hand path, towards {icon}"
        if label:
            painter.setFont(panel.scaled_font(self.font(), 0.9))
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
            font = panel.scaled_font(self.font(), 1.0, bold=taken)
            painter.setFont(font)
            painter.setPen(text if taken or card.taken is None else dim)
            painter.drawText(box.adjusted(pad * 0.5, 0, -pad * 0.5, 0),
                             align | Qt.AlignmentFlag.AlignVCenter, label)


SCOPE_WORDS = {"adjacent": "an adjacent hex with a cave or chasm",
                "region": "a hex of the same region with a cave or chasm",
                "anywhere": "any hex with a cave or chasm"}


class DelvingPanel(panel.ProcedurePanel):
    """The delve's path, depth, energy, the cost of cards from depth 7, and where an exit
    can place the character (Rulebook: Delving > Depth, Exit)."""

    def build(self, layout: QVBoxLayout, font: QFont) -> None:
        self.header = board.wrapped(font, bold=True)
        layout.addWidget(self.header)
        self.cost = board.wrapped(name="Energy cost of the next card")
        layout.addWidget(self.cost)
        # The path on the left, growing downwards (kept scrolled to the newest card); the
        # exits by depth beside it.
        body = QHBoxLayout()
        layout.addLayout(body, 1)
        path_column = QVBoxLayout()
        body.addLayout(path_column, 3)
        self.board = DelveBoard()
        area = board.scroll_area(self.board)
        bar = area.verticalScrollBar()
        bar.rangeChanged.connect(lambda _low, high: bar.setValue(high))
        path_column.addWidget(area, 1)
        self.current = board.focus_line(self.board, "Card under the keyboard focus")
        path_column.addWidget(self.current)
        side = QVBoxLayout()
        body.addLayout(side, 2)
        self.exits_title = panel.heading("Exits by depth (when a card says exit)", font, 1.0)
        side.addWidget(self.exits_title)
        self.exits = panel.make_table(["Depth", "Come out at", "Hexes"], stretch=[1, 2])
        self.exits.setAccessibleName("Exits by depth")
        # Its text wraps: the width it would like must not push the steps' log aside.
        policy = self.exits.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
        self.exits.setSizePolicy(policy)
        side.addWidget(self.exits)
        side.addStretch(1)

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
                effects=panel.effects_text(card.effects),
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
                         SCOPE_WORDS.get(band.scope, band.scope), ", ".join(hexes)])
        panel.fill_table(self.exits, rows)
        if p.phase is Phase.EXIT:
            self.exits_title.setText(f"This card says exit: at depth {p.depth}, "
                                     f"{SCOPE_WORDS.get(now or '', 'the hex where they entered')}"
                                     " (or back where they entered)")
        else:
            self.exits_title.setText("Exits by depth (when a card says exit)")
