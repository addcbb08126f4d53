"""What a procedure in progress looks like on the table, one panel per kind.

Contract: ``panel_for(kind)`` returns a :class:`ProcedurePanel`; the dialog calls
``show_procedure(procedure)`` with the procedure object restored read-only by
:func:`load_procedure` (never written). Fishing and mining lay out their cards, chips
and dice; any other kind shows its ``describe()`` text. Panels show only what the
procedure holds: nothing is drawn or guessed for display.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
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
    height = table.horizontalHeader().height() + 2 * table.frameWidth()
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
    return ProcedurePanel(font)
