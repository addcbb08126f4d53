"""The foraging panel: the tableau, the cards on offer and the harvest (Rulebook:
Foraging, steps 1-5), the tableau painted as a board the keyboard can walk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QVBoxLayout

import companion.ui.procedure_panels.board as board
import companion.ui.procedure_panels.panel as panel


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


class TableauBoard(board.Board):
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
        small = panel.scaled_font(base, 0.85)
        bold = panel.scaled_font(base, 1.0, bold=True)
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
            self.items.append(board.BoardItem(QRectF(x, margin, card_w, title_h),
                                              self._card_words(card)))
            for r in (0, 1, 2):
                row_top = rows_y[r][0] + pad
                for spot, (sx, sy, w, h) in zip(card.rows[r], flows[(ci, r)], strict=True):
                    chip = QRectF(x + pad + sx, row_top + sy, w, h)
                    self._chips.append((chip, spot))
                    self.items.append(board.BoardItem(chip, spot.words()))
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
        colours = board.colours()
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
            board.paint_arrow(painter, start, end, pad * 1.2, colours["path"])

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


class ForagingPanel(panel.ProcedurePanel):
    """The tableau, the cards on offer and the harvest (Rulebook: Foraging, steps 1-5)."""

    def build(self, layout: QVBoxLayout, font: QFont) -> None:
        self.header = board.wrapped(font, bold=True)
        layout.addWidget(self.header)
        self.harvest = board.wrapped(name="Harvest")
        layout.addWidget(self.harvest)
        self.board = TableauBoard()
        self.board_area = board.scroll_area(self.board)
        # At least the front row and the middle one (Rulebook: Foraging: the front row is
        # nearest you and within reach first); the front row is kept in view below
        # (a short pane hid it behind a scroll bar; issue 27 item 19).
        self.board_area.setMinimumHeight(self.fontMetrics().height() * 12)
        self.board_area.verticalScrollBar().rangeChanged.connect(
            lambda _low, _high: self.show_front_row())
        layout.addWidget(self.board_area, 1)
        self.offer = board.wrapped(name="Cards on offer")
        # Two lines kept for the cards on offer even while none are: the tableau above
        # shrank when the words appeared (issue 36 item 11).
        self.offer.setMinimumHeight(self.offer.fontMetrics().lineSpacing() * 2)
        layout.addWidget(self.offer)
        self.current = board.focus_line(self.board, "Object under the keyboard focus")
        layout.addWidget(self.current)
        self.legend = board.wrapped(panel.scaled_font(font, 0.9))
        self.legend.setText(
            "Green: within reach.  ✓ chosen.  ⚠ predator.  ⇡ animal path (dashed arrows: "
            "paths chaining row to row across cards).  Dotted edge: out of reach.  "
            "Tab to the tableau, then the arrow keys read it object by object.")
        layout.addWidget(self.legend)

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
        self.offer.setText(offer_text or "No card on offer now.")

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
